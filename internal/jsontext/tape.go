package jsontext

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unicode/utf8"
)

// A Tape is one JSON text read into a flat list of tokens, checked against
// the grammar as it is read, for the validation fast path: walking tokens
// by index costs nothing like building a tree of maps, and a value can be
// visited again (by several subschemas) without reading its bytes again.
//
// Tokens are in document order. A container's token comes first, then its
// contents: an object's members are a key token (a string) followed by the
// tokens of the value; Next always skips a whole value. Keys lists an
// object's key tokens sorted by their bytes.

// The kinds of Token.
const (
	TokObject byte = iota + 1
	TokArray
	TokString
	TokNumber
	TokTrue
	TokFalse
	TokNull
)

// The bits of Token.Flags.
const (
	// FlagEscaped: a string with at least one backslash escape.
	FlagEscaped byte = 1 << iota
	// FlagLineSep: a string holding U+2028 or U+2029, which encoding/json
	// always writes escaped.
	FlagLineSep
	// FlagInteger: a number literal with neither fraction nor exponent.
	FlagInteger
	// FlagNonASCII: a string with a byte beyond ASCII.
	FlagNonASCII
	// FlagLong: an integer literal of 16 digits or more (one that may be
	// beyond ±(2^53−1)).
	FlagLong
	// FlagExponent: a number with an exponent, or more than a thousand
	// fraction digits (one whose exponent bound needs checking).
	FlagExponent
	// FlagRewrite: a container whose text is not as a writer of compact
	// JSON with sorted nested keys would write it: it holds white space, an
	// escaped string, a string with U+2028 or U+2029, a long integer, or an
	// object whose keys are not in order.
	FlagRewrite
)

// Token is one JSON value (or object key) of a Tape.
type Token struct {
	Kind   byte
	Flags  byte
	Height uint8 // containers: levels of nesting of the subtree, 1 for [] or {}
	// Start and End span the literal in the text: quotes included for a
	// string, brackets for a container.
	Start, End int32
	// Next is the index of the token after this value and its contents.
	Next int32
	// N counts a container's members or items.
	N int32
	// Sorted is 1 + where an object's sorted key token indexes start, once
	// Keys has sorted them (0 before).
	Sorted int32
}

// Tape holds the tokens of one text; its slices are reused by each Parse.
type Tape struct {
	Tokens []Token
	// Exponents is true when a number has FlagExponent.
	Exponents bool
	order     []int32
	stack     []int32
}

// rewriteFlags are the flags of a scalar that make its container FlagRewrite.
const rewriteFlags = FlagEscaped | FlagLineSep | FlagLong | FlagRewrite

// Parse reads the JSON value that starts at the first non-space byte of b
// and returns the index just past it. It is false (and the tape unusable)
// when the text up to there is not JSON, holds invalid UTF-8, nests deeper
// than maxDepth, or has an object key that is escaped or repeated: the
// callers of the fast path hand such text to the full decoder, which says
// what is wrong or decodes it the slow way. It is one loop over the bytes,
// a parser's grammar in one place.
func (tp *Tape) Parse(b []byte, maxDepth int) (int, bool) {
	tp.Tokens, tp.order, tp.stack, tp.Exponents = tp.Tokens[:0], tp.order[:0], tp.stack[:0], false
	if len(b) > 1<<31-1 {
		return 0, false
	}
	toks, stack := tp.Tokens, tp.stack
	var dirty byte // FlagRewrite when white space was skipped inside the innermost container
	i := SkipSpace(b, 0)
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return 0, false
		}
		if n := len(stack); n > 0 {
			toks[stack[n-1]].N++
		}
		c := b[i]
		switch {
		case c == '{' || c == '[':
			if len(stack) >= maxDepth {
				return 0, false
			}
			kind := TokObject
			if c == '[' {
				kind = TokArray
			}
			if n := len(stack); n > 0 {
				toks[stack[n-1]].Flags |= dirty
			}
			stack = append(stack, int32(len(toks)))
			toks = append(toks, Token{Kind: kind, Height: 1, Start: int32(i)})
			j := SkipSpace(b, i+1)
			dirty = 0
			if j != i+1 {
				dirty = FlagRewrite
			}
			i = j
			if i < len(b) && (b[i] == '}' && c == '{' || b[i] == ']' && c == '[') {
				break // closed below
			}
			if c == '{' {
				var ok bool
				if toks, i, ok = tapeKey(toks, b, i, &dirty); !ok {
					return 0, false
				}
			}
			continue
		case c == '"':
			end, flags := scanString(b, i)
			if end < 0 {
				return 0, false
			}
			toks = append(toks, Token{Kind: TokString, Flags: flags, Start: int32(i), End: int32(end), Next: int32(len(toks) + 1)})
			if flags&rewriteFlags != 0 {
				dirty = FlagRewrite
			}
			i = end
		case c == 't' || c == 'f' || c == 'n':
			kind, word := TokTrue, "true"
			if c == 'f' {
				kind, word = TokFalse, "false"
			} else if c == 'n' {
				kind, word = TokNull, "null"
			}
			if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
				return 0, false
			}
			toks = append(toks, Token{Kind: kind, Start: int32(i), End: int32(i + len(word)), Next: int32(len(toks) + 1)})
			i += len(word)
		default:
			end, flags := scanNumber(b, i)
			if end < 0 {
				return 0, false
			}
			toks = append(toks, Token{Kind: TokNumber, Flags: flags, Start: int32(i), End: int32(end), Next: int32(len(toks) + 1)})
			if flags&rewriteFlags != 0 {
				dirty = FlagRewrite
			}
			tp.Exponents = tp.Exponents || flags&FlagExponent != 0
			i = end
		}
		// After a value: close what ends here, then a comma or the end.
		for {
			n := len(stack)
			if n == 0 {
				tp.Tokens, tp.stack = toks, stack
				return i, true
			}
			if j := SkipSpace(b, i); j != i {
				dirty, i = FlagRewrite, j
			}
			if i >= len(b) {
				return 0, false
			}
			top := stack[n-1]
			t := &toks[top]
			if b[i] == ',' {
				j := SkipSpace(b, i+1)
				if j != i+1 {
					dirty = FlagRewrite
				}
				i = j
				if t.Kind == TokObject {
					var ok bool
					if toks, i, ok = tapeKey(toks, b, i, &dirty); !ok {
						return 0, false
					}
				}
				break
			}
			if b[i] != '}' && b[i] != ']' || (b[i] == '}') != (t.Kind == TokObject) {
				return 0, false
			}
			i++
			t.End, t.Next = int32(i), int32(len(toks))
			t.Flags |= dirty
			if t.Kind == TokObject && t.N > 1 && !tp.uniqueKeys(toks, b, top) {
				return 0, false
			}
			stack = stack[:n-1]
			if n > 1 {
				p := &toks[stack[n-2]]
				if t.Height+1 > p.Height {
					p.Height = t.Height + 1
				}
				p.Flags |= t.Flags & FlagRewrite
			}
			dirty = 0
		}
	}
}

// tapeKey reads an object key and its colon at b[i], returning the index
// of the value; *dirty gets FlagRewrite for white space or a key that
// needs escaping when written.
func tapeKey(toks []Token, b []byte, i int, dirty *byte) ([]Token, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return toks, 0, false
	}
	end, flags := scanString(b, i)
	if end < 0 || flags&FlagEscaped != 0 {
		return toks, 0, false
	}
	toks = append(toks, Token{Kind: TokString, Flags: flags, Start: int32(i), End: int32(end), Next: int32(len(toks) + 1)})
	if flags&rewriteFlags != 0 {
		*dirty = FlagRewrite
	}
	j := SkipSpace(b, end)
	if j >= len(b) || b[j] != ':' {
		return toks, 0, false
	}
	k := SkipSpace(b, j+1)
	if j != end || k != j+1 {
		*dirty = FlagRewrite
	}
	return toks, k, true
}

// uniqueKeys reports whether the keys of object top differ, marking it
// FlagRewrite when they are not in order: by comparing neighbours when they
// are in order, else pairwise for a few and by sorting (kept for Keys) for
// more.
func (tp *Tape) uniqueKeys(toks []Token, b []byte, top int32) bool {
	t := &toks[top]
	prev := top + 1
	inOrder := true
	for k, m := toks[prev+1].Next, int32(1); m < t.N; m++ {
		if string(keyText(toks, b, prev)) >= string(keyText(toks, b, k)) {
			inOrder = false
			break
		}
		prev, k = k, toks[k+1].Next
	}
	if inOrder {
		return true
	}
	t.Flags |= FlagRewrite
	if t.N > 8 {
		tp.Tokens = toks
		keys := tp.Keys(b, top)
		for i := 1; i < len(keys); i++ {
			if bytes.Equal(tp.keyBytes(b, keys[i-1]), tp.keyBytes(b, keys[i])) {
				return false
			}
		}
		return true
	}
	var keys [8]int32
	for k, m := top+1, int32(0); m < t.N; m++ {
		keys[m] = k
		span := toks[k]
		for _, o := range keys[:m] {
			os := toks[o]
			if os.End-os.Start == span.End-span.Start && b[os.Start+1] == b[span.Start+1] && string(b[os.Start:os.End]) == string(b[span.Start:span.End]) {
				return false
			}
		}
		k = toks[k+1].Next
	}
	return true
}

// keyText is the text of key token k, without quotes.
func keyText(toks []Token, b []byte, k int32) []byte {
	return b[toks[k].Start+1 : toks[k].End-1]
}

// keyBytes is the text of key token k, without quotes.
func (tp *Tape) keyBytes(b []byte, k int32) []byte {
	return b[tp.Tokens[k].Start+1 : tp.Tokens[k].End-1]
}

// Keys returns the key token indexes of object k sorted by their bytes
// (sorted once, then kept).
func (tp *Tape) Keys(b []byte, k int32) []int32 {
	t := &tp.Tokens[k]
	if t.Sorted > 0 {
		return tp.order[t.Sorted-1 : t.Sorted-1+t.N]
	}
	start := len(tp.order)
	for key, m := k+1, int32(0); m < t.N; m++ {
		tp.order = append(tp.order, key)
		key = tp.Tokens[key+1].Next
	}
	keys := tp.order[start:]
	if len(keys) <= 16 {
		for i := 1; i < len(keys); i++ {
			for j := i; j > 0 && bytes.Compare(tp.keyBytes(b, keys[j-1]), tp.keyBytes(b, keys[j])) > 0; j-- {
				keys[j-1], keys[j] = keys[j], keys[j-1]
			}
		}
	} else {
		slices.SortFunc(keys, func(x, y int32) int { return bytes.Compare(tp.keyBytes(b, x), tp.keyBytes(b, y)) })
	}
	t.Sorted = int32(start + 1)
	return keys
}

// scanNumber reads a number literal at b[i],
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, returning its end (-1 if
// there is none) and FlagInteger when it has neither fraction nor exponent.
func scanNumber(b []byte, i int) (int, byte) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigitBytes(b, i)
	default:
		return -1, 0
	}
	flags := FlagInteger
	if i-start >= 16 && !(b[start] == '-' && i-start == 16) {
		flags |= FlagLong
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigitBytes(b, i+1)
		if j == i+1 {
			return -1, 0
		}
		flags = 0
		if j-i-1 > 1000 {
			flags = FlagExponent
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigitBytes(b, i)
		if j == i {
			return -1, 0
		}
		i, flags = j, FlagExponent
	}
	return i, flags
}

func skipDigitBytes(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// plainByte marks the bytes a string may hold as they are: printable ASCII
// other than the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanString reads a string literal at b[i], returning its end (-1 when it
// is not valid: a bad escape, a control byte, invalid UTF-8, no end) and
// its flags. Runs of plain bytes are skipped eight at a time.
func scanString(b []byte, i int) (int, byte) {
	var flags byte
	for i++; ; {
		for i+8 <= len(b) && plainWord(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && plainByte[b[i]] {
			i++
		}
		if i >= len(b) {
			return -1, 0
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, flags
		case c == '\\':
			n := escapeLength(b[i:])
			if n == 0 {
				return -1, 0
			}
			flags |= FlagEscaped
			i += n
		case c < 0x20:
			return -1, 0
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return -1, 0
			}
			if r == '\u2028' || r == '\u2029' {
				flags |= FlagLineSep
			}
			flags |= FlagNonASCII
			i += size
		}
	}
}

// plainWord reports whether eight bytes are all plainByte: none is a
// quote, a backslash, a control byte or beyond ASCII.
func plainWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, s := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones) & ^q | (s-ones) & ^s | (w-ones*0x20) & ^w | w)&highs == 0
}

// escapeLength is the length of the escape sequence at the start of e (a
// backslash), 0 when it is not one JSON allows or when it is a lone UTF-16
// surrogate (a high one without its low one, or a low one alone: the full
// decoder refuses those, so the fast path leaves them to it); a surrogate
// pair is one sequence of 12 bytes.
func escapeLength(e []byte) int {
	if len(e) < 2 {
		return 0
	}
	switch e[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(e) < 6 {
			return 0
		}
		r, ok := readHex4(e, 2)
		switch {
		case !ok, r >= 0xDC00 && r <= 0xDFFF:
			return 0
		case r >= 0xD800 && r <= 0xDBFF:
			if lo, ok := readHex4(e, 8); ok && len(e) >= 12 && e[6] == '\\' && e[7] == 'u' && lo >= 0xDC00 && lo <= 0xDFFF {
				return 12
			}
			return 0
		}
		return 6
	}
	return 0
}

// hexValue is the value of a hexadecimal digit, -1 for another byte.
func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// Text is the literal of token k (quotes included for a string).
func (tp *Tape) Text(b []byte, k int32) []byte {
	return b[tp.Tokens[k].Start:tp.Tokens[k].End]
}
