package jsfunc

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// defaultLiteralJSON returns the JSON that JSON.stringify would write for the
// value of toks when they are one JSON-like literal, else nil.
func defaultLiteralJSON(toks []token) json.RawMessage {
	lp := literalParser{toks: toks}
	b, ok := lp.value(nil, 0)
	if !ok || lp.i != len(toks) {
		return nil
	}
	return json.RawMessage(b)
}

type literalParser struct {
	toks []token
	i    int
}

func (lp *literalParser) peek() token {
	if lp.i < len(lp.toks) {
		return lp.toks[lp.i]
	}
	return token{kind: tkEOF}
}

// value appends one literal value to b.
func (lp *literalParser) value(b []byte, depth int) ([]byte, bool) {
	t := lp.peek()
	lp.i++
	switch t.kind {
	case tkString:
		return appendStringJSON(b, t.val), true
	case tkTemplate:
		return appendStringJSON(b, t.val), !t.bad
	case tkNumber:
		v, ok := jsNumberValue(t.text)
		if ok && isJSONNumberSpelling(t.text) {
			return append(b, t.text...), true // keep 2.0 a float and big integers exact
		}
		return appendNumberJSON(b, v), ok
	case tkIdent:
		switch t.text {
		case "true", "false", "null":
			return append(b, t.text...), true
		}
	case tkPunct:
		switch t.text {
		case "-", "+":
			n := lp.peek()
			lp.i++
			v, ok := jsNumberValue(n.text)
			if ok && n.kind == tkNumber && isJSONNumberSpelling(n.text) {
				if t.text == "-" {
					b = append(b, '-')
				}
				return append(b, n.text...), true
			}
			if t.text == "-" {
				v = -v
			}
			return appendNumberJSON(b, v), ok && n.kind == tkNumber
		case "[":
			if depth < maxDefaultDepth {
				return lp.array(b, depth)
			}
		case "{":
			if depth < maxDefaultDepth {
				return lp.object(b, depth)
			}
		}
	}
	return b, false
}

// array appends an array literal's elements, after its `[`.
func (lp *literalParser) array(b []byte, depth int) ([]byte, bool) {
	b = append(b, '[')
	for n := 0; ; n++ {
		if lp.peek().isPunct("]") {
			lp.i++
			return append(b, ']'), true
		}
		if n > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = lp.value(b, depth+1); !ok {
			return b, false
		}
		switch t := lp.peek(); {
		case t.isPunct(","):
			lp.i++
		case !t.isPunct("]"):
			return b, false
		}
	}
}

// object appends an object literal's properties, after its `{`, in the
// order JS enumerates them: array-index keys ascending, then the others in
// order of first appearance (a repeated key keeps its last value). A
// __proto__ key sets the prototype and is not a property.
func (lp *literalParser) object(b []byte, depth int) ([]byte, bool) {
	type objectProp struct {
		key string
		val []byte
	}
	var props []objectProp
	index := map[string]int{}
	for {
		t := lp.peek()
		lp.i++
		if t.isPunct("}") {
			break
		}
		var key string
		switch t.kind {
		case tkIdent:
			key = t.text
		case tkString:
			key = t.val
		case tkNumber:
			v, ok := jsNumberValue(t.text)
			if !ok {
				return b, false
			}
			key = string(appendNumberJSON(nil, v))
		default:
			return b, false
		}
		if !lp.peek().isPunct(":") {
			return b, false
		}
		lp.i++
		val, ok := lp.value(nil, depth+1)
		if !ok {
			return b, false
		}
		if key == "__proto__" && t.kind != tkNumber {
			// sets the prototype; not an own property
		} else if at, dup := index[key]; dup {
			props[at].val = val
		} else {
			index[key] = len(props)
			props = append(props, objectProp{key, val})
		}
		if u := lp.peek(); u.isPunct(",") {
			lp.i++
		} else if !u.isPunct("}") {
			return b, false
		}
	}
	sort.SliceStable(props, func(i, j int) bool {
		ai, aok := jsArrayIndex(props[i].key)
		bi, bok := jsArrayIndex(props[j].key)
		if aok && bok {
			return ai < bi
		}
		return aok && !bok
	})
	b = append(b, '{')
	for i, pr := range props {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStringJSON(b, pr.key)
		b = append(b, ':')
		b = append(b, pr.val...)
	}
	return append(b, '}'), true
}

// jsArrayIndex reports whether key is a canonical array index (0 … 2³²−2).
func jsArrayIndex(key string) (uint64, bool) {
	if key == "" || len(key) > 10 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	v, err := strconv.ParseUint(key, 10, 64)
	return v, err == nil && v < 1<<32-1
}

// jsNumberValue returns the value of a numeric literal's text; BigInts and
// values too large for a double are refused.
// isJSONNumberSpelling reports whether a JS number literal is already a JSON
// number as written (2.0, 1e3, 9007199254740993); then the default keeps the
// author's spelling, so 2.0 stays a float for type inference and big integers
// stay exact. Other spellings (0x10, .5, 1_000) are written as JSON.stringify
// would write their value.
func isJSONNumberSpelling(text string) bool {
	if text == "" || text[0] < '0' || text[0] > '9' || len(text) > 64 {
		return false
	}
	return json.Valid([]byte(text))
}

func jsNumberValue(text string) (float64, bool) {
	s := strings.ReplaceAll(text, "_", "")
	if s == "" || strings.HasSuffix(s, "n") {
		return 0, false
	}
	base := 0
	digits := s
	if len(s) > 2 && s[0] == '0' {
		switch s[1] | 0x20 {
		case 'x':
			base, digits = 16, s[2:]
		case 'o':
			base, digits = 8, s[2:]
		case 'b':
			base, digits = 2, s[2:]
		}
	}
	if base == 0 && len(s) > 1 && s[0] == '0' && strings.Trim(s, "01234567") == "" {
		base = 8 // legacy octal: 017
	}
	var v float64
	if base != 0 {
		hex, ok := radixToHex(digits, base)
		if !ok {
			return 0, false
		}
		v, _ = strconv.ParseFloat("0x"+hex+"p0", 64) // correctly rounded; ±Inf beyond range
	} else {
		var err error
		if v, err = strconv.ParseFloat(s, 64); err != nil {
			return 0, false
		}
	}
	return v, !math.IsInf(v, 0)
}

// radixToHex rewrites the digits of a base-2, -8 or -16 integer literal
// (its prefix and underscores removed) as hexadecimal digits of the same
// value, for strconv's hexadecimal floats; false when a digit is outside
// the base or there is none.
func radixToHex(digits string, base int) (string, bool) {
	if digits == "" {
		return "", false
	}
	bits := uint(4)
	switch base {
	case 2:
		bits = 1
	case 8:
		bits = 3
	}
	out := make([]byte, (len(digits)*int(bits)+3)/4)
	var acc, n uint // pending bits, lowest first, and how many
	j := len(out)
	for i := len(digits) - 1; i >= 0; i-- {
		d := hexDigit(digits[i])
		if d >= base {
			return "", false
		}
		acc |= uint(d) << n
		for n += bits; n >= 4; n -= 4 {
			j--
			out[j] = "0123456789abcdef"[acc&15]
			acc >>= 4
		}
	}
	if n > 0 {
		j--
		out[j] = "0123456789abcdef"[acc&15]
	}
	return string(out[j:]), true
}

// hexDigit is the value of a hexadecimal digit, 16 for any other byte.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return 16
}

// appendNumberJSON appends v as JS's Number::toString (and JSON.stringify)
// writes it; -0 is written 0.
func appendNumberJSON(b []byte, v float64) []byte {
	if v == 0 {
		return append(b, '0')
	}
	format := byte('f')
	if abs := math.Abs(v); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' { // e-07 → e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendStringJSON appends s as a JSON string the way JSON.stringify does:
// a lone surrogate (kept by decodeJSEscape as its WTF-8 bytes) is written
// \udXXX, other invalid UTF-8 becomes U+FFFD.
func appendStringJSON(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == '"' || c == '\\' || c < 0x20 {
				b = jsontext.AppendEscapedByte(b, c)
			} else {
				b = append(b, c)
			}
			i++
			continue
		}
		if c == 0xed && i+2 < len(s) && s[i+1]&0xe0 == 0xa0 && s[i+2]&0xc0 == 0x80 { // a lone surrogate
			r := 0xd000 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
			b = append(b, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
