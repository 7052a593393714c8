package jsfunc

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokenKind uint8

const (
	tkEOF tokenKind = iota
	tkIdent
	tkPrivate
	tkPunct
	tkString
	tkTemplate
	tkTemplateHead
	tkTemplateMiddle
	tkTemplateTail
	tkNumber
	tkRegex
	tkLineComment
	tkBlockComment
)

type token struct {
	kind tokenKind
	text string // the token's source text
	val  string // the decoded value of a string or no-substitution template
	bad  bool   // a template whose escapes cannot be cooked
	pos  int
	nl   bool // a line terminator precedes it (since the last significant token)
}

func (t token) isPunct(s string) bool { return t.kind == tkPunct && t.text == s }
func (t token) isIdent(s string) bool { return t.kind == tkIdent && t.text == s }
func (t token) isComment() bool       { return t.kind == tkLineComment || t.kind == tkBlockComment }

// describe names the token for an error message.
func (t token) describe() string {
	if t.kind == tkEOF {
		return "the end of the source"
	}
	s := t.text
	if utf8.RuneCountInString(s) > 24 {
		r := []rune(s)
		s = string(r[:24]) + "…"
	}
	return strconv.Quote(s)
}

type lexError struct {
	pos int
	msg string
}

// lexer turns JS source into tokens one at a time. It tracks open braces so
// that a `}` closing a template substitution resumes the template, and the
// last significant token to tell a regular expression from a division.
type lexer struct {
	src    string
	pos    int
	braces []bool // open braces; true for a template substitution
	prev   token  // last significant token; kind tkEOF at the start
	sawNL  bool
}

// jsPuncts are the multi-character punctuators, longest first.
var jsPuncts = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=",
	"*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
}

const jsSinglePuncts = "{}()[];,<>+-*/%&|^!~?:=.@"

func (l *lexer) next() (token, *lexError) {
	if l.skipSpace() {
		l.sawNL = true
	}
	start := l.pos
	src := l.src
	if start >= len(src) {
		return token{kind: tkEOF, pos: start, nl: l.sawNL}, nil
	}
	c := src[start]
	var c1 byte
	if start+1 < len(src) {
		c1 = src[start+1]
	}
	t := token{pos: start}
	var err *lexError
	switch {
	case c == '/' && c1 == '/':
		end := start + 2
		for end < len(src) && !isJSLineTerminatorAt(src, end) {
			end++
		}
		t.kind, l.pos = tkLineComment, end
	case c == '/' && c1 == '*':
		i := strings.Index(src[start+2:], "*/")
		if i < 0 {
			return token{}, &lexError{start, "unterminated comment"}
		}
		l.pos = start + 2 + i + 2
		t.kind = tkBlockComment
		if containsJSLineTerminator(src[start:l.pos]) {
			l.sawNL = true
		}
	case c == '"' || c == '\'':
		t.kind = tkString
		t.val, err = l.scanString(c)
	case c == '`':
		l.pos++
		t.kind, t.val, t.bad, err = l.scanTemplate(true)
	case c == '}' && len(l.braces) > 0 && l.braces[len(l.braces)-1]:
		l.braces = l.braces[:len(l.braces)-1]
		l.pos++
		t.kind, _, _, err = l.scanTemplate(false)
	case isJSDigit(c) || (c == '.' && isJSDigit(c1)):
		t.kind = tkNumber
		err = l.scanNumber()
	case c == '#':
		l.pos++
		if l.scanIdent() == 0 {
			return token{}, &lexError{start, "# not followed by a name"}
		}
		t.kind = tkPrivate
	case c == '/' && jsRegexAllowed(l.prev):
		t.kind = tkRegex
		err = l.scanRegex()
	case c == '\\':
		return token{}, &lexError{start, "unicode escapes in names are not supported"}
	default:
		if l.scanIdent() > 0 {
			t.kind = tkIdent
			break
		}
		t.kind = tkPunct
		err = l.scanPunct()
	}
	if err != nil {
		return token{}, err
	}
	t.text = src[start:l.pos]
	t.nl = l.sawNL
	if !t.isComment() {
		l.sawNL = false
		l.prev = t
	}
	return t, nil
}

// skipSpace skips white space and reports whether it held a line terminator.
func (l *lexer) skipSpace() bool {
	nl := false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case ' ', '\t', '\v', '\f':
			l.pos++
			continue
		case '\n', '\r':
			nl = true
			l.pos++
			continue
		}
		if c < utf8.RuneSelf {
			return nl
		}
		r, size := utf8.DecodeRuneInString(l.src[l.pos:])
		switch {
		case r == '\u2028' || r == '\u2029':
			nl = true
		case r == '\u00a0' || r == '\ufeff' || unicode.Is(unicode.Zs, r):
		default:
			return nl
		}
		l.pos += size
	}
	return nl
}

func isJSDigit(c byte) bool { return c >= '0' && c <= '9' }

func isJSLineTerminatorAt(s string, i int) bool {
	switch s[i] {
	case '\n', '\r':
		return true
	case 0xe2: // U+2028 and U+2029 are e2 80 a8 / e2 80 a9
		return strings.HasPrefix(s[i:], "\u2028") || strings.HasPrefix(s[i:], "\u2029")
	}
	return false
}

func containsJSLineTerminator(s string) bool {
	return strings.ContainsAny(s, "\n\r\u2028\u2029")
}

func isJSIDStart(r rune) bool {
	return r == '$' || r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) ||
		unicode.Is(unicode.Other_ID_Start, r)
}

func isJSIDPart(r rune) bool {
	return isJSIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc,
		unicode.Other_ID_Continue) || r == '\u200c' || r == '\u200d'
}

// scanIdent consumes an identifier name at l.pos and returns its length in
// bytes (0 when there is none).
func (l *lexer) scanIdent() int {
	start := l.pos
	for l.pos < len(l.src) {
		r, size := rune(l.src[l.pos]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(l.src[l.pos:])
		}
		ok := isJSIDPart(r)
		if l.pos == start {
			ok = isJSIDStart(r)
		}
		if !ok || (r == utf8.RuneError && size == 1) {
			break
		}
		l.pos += size
	}
	return l.pos - start
}

func (l *lexer) scanPunct() *lexError {
	rest := l.src[l.pos:]
	for _, p := range jsPuncts {
		if strings.HasPrefix(rest, p) {
			if p == "?." && len(rest) > 2 && isJSDigit(rest[2]) {
				continue // a ? .5 : b
			}
			l.pos += len(p)
			return nil
		}
	}
	c := rest[0]
	if strings.IndexByte(jsSinglePuncts, c) < 0 {
		r, _ := utf8.DecodeRuneInString(rest)
		return &lexError{l.pos, fmt.Sprintf("unexpected character %q", r)}
	}
	switch c {
	case '{':
		l.braces = append(l.braces, false)
	case '}':
		if len(l.braces) > 0 {
			l.braces = l.braces[:len(l.braces)-1]
		}
	}
	l.pos++
	return nil
}

// jsRegexAllowed reports whether a `/` after prev starts a regular expression
// rather than a division: after punctuators other than `)` `]` `++` `--`,
// after keywords that precede an expression, and at the start.
func jsRegexAllowed(prev token) bool {
	switch prev.kind {
	case tkEOF, tkTemplateHead, tkTemplateMiddle:
		return true
	case tkPunct:
		switch prev.text {
		case ")", "]", "++", "--":
			return false
		}
		return true
	case tkIdent:
		switch prev.text {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
			"throw", "case", "do", "else", "yield", "await":
			return true
		}
	}
	return false
}

// scanString consumes a quoted string at l.pos and returns its value.
func (l *lexer) scanString(quote byte) (string, *lexError) {
	start := l.pos
	src := l.src
	var b strings.Builder
	i := start + 1
	chunk := i
	for i < len(src) {
		c := src[i]
		switch {
		case c == quote:
			b.WriteString(src[chunk:i])
			l.pos = i + 1
			return b.String(), nil
		case c == '\\':
			b.WriteString(src[chunk:i])
			next, msg := decodeJSEscape(&b, src, i, false)
			if msg != "" {
				return "", &lexError{i, msg}
			}
			i, chunk = next, next
		case c == '\n' || c == '\r':
			return "", &lexError{start, "unterminated string literal"}
		default:
			i++
		}
	}
	return "", &lexError{start, "unterminated string literal"}
}

// scanTemplate consumes template text from l.pos (just after "`" when first,
// else just after the "}" closing a substitution) up to "`" or "${". It
// returns the token kind, the cooked text and whether an escape could not be
// cooked (allowed only in tagged templates).
func (l *lexer) scanTemplate(first bool) (tokenKind, string, bool, *lexError) {
	src := l.src
	var b strings.Builder
	bad := false
	i := l.pos
	chunk := i
	for i < len(src) {
		switch c := src[i]; {
		case c == '`':
			b.WriteString(src[chunk:i])
			l.pos = i + 1
			if first {
				return tkTemplate, b.String(), bad, nil
			}
			return tkTemplateTail, "", bad, nil
		case c == '$' && i+1 < len(src) && src[i+1] == '{':
			l.pos = i + 2
			l.braces = append(l.braces, true)
			if first {
				return tkTemplateHead, "", bad, nil
			}
			return tkTemplateMiddle, "", bad, nil
		case c == '\\':
			b.WriteString(src[chunk:i])
			next, msg := decodeJSEscape(&b, src, i, true)
			if msg != "" {
				bad = true
				next = i + 2
				if next > len(src) {
					next = len(src)
				}
			}
			i, chunk = next, next
		case c == '\r':
			b.WriteString(src[chunk:i])
			b.WriteByte('\n')
			i++
			if i < len(src) && src[i] == '\n' {
				i++
			}
			chunk = i
		default:
			i++
		}
	}
	return 0, "", false, &lexError{l.pos, "unterminated template literal"}
}

// scanNumber consumes a numeric literal at l.pos.
func (l *lexer) scanNumber() *lexError {
	src := l.src
	start := l.pos
	i := start
	digits := func(hex bool) {
		for i < len(src) && (isJSDigit(src[i]) || src[i] == '_' || (hex && (src[i]|0x20 >= 'a' && src[i]|0x20 <= 'f'))) {
			i++
		}
	}
	if src[i] == '0' && i+1 < len(src) && strings.IndexByte("xXoObB", src[i+1]) >= 0 {
		i += 2
		digits(true)
	} else {
		digits(false)
		if i < len(src) && src[i] == '.' {
			i++
			digits(false)
		}
		if i < len(src) && src[i]|0x20 == 'e' {
			j := i + 1
			if j < len(src) && (src[j] == '+' || src[j] == '-') {
				j++
			}
			if j < len(src) && isJSDigit(src[j]) {
				i = j
				digits(false)
			}
		}
	}
	if i < len(src) && src[i] == 'n' {
		i++
	}
	l.pos = i
	if i < len(src) {
		r, _ := utf8.DecodeRuneInString(src[i:])
		if isJSIDPart(r) || r == '\\' {
			return &lexError{start, "malformed number"}
		}
	}
	return nil
}

// scanRegex consumes a regular expression literal at l.pos.
func (l *lexer) scanRegex() *lexError {
	src := l.src
	start := l.pos
	inClass := false
	for i := start + 1; i < len(src); i++ {
		if isJSLineTerminatorAt(src, i) {
			break
		}
		switch src[i] {
		case '\\':
			i++
			if i >= len(src) || isJSLineTerminatorAt(src, i) {
				return &lexError{start, "unterminated regular expression literal"}
			}
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				l.pos = i + 1
				l.scanIdent() // flags
				return nil
			}
		}
	}
	return &lexError{start, "unterminated regular expression literal"}
}
