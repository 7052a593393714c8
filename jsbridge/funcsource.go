package jsbridge

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/core"
)

// ParseFunctionSource derives the signature of a JS function from its name
// (fn.name) and its source text (Function.prototype.toString.call(fn)).
//
// It reads function declarations and expressions (async, generator, async
// generator), arrow functions (async too, with or without parentheses) and
// methods of object literals and classes (async, generator, static, with
// quoted, numeric, computed or private names). Parameters may be plain, have
// a default, be a rest parameter (core.ParamRest), or be one destructured
// object (core.ParamDestructured, Name "" and one Fields entry per source key:
// `...rest` as core.ParamKeywords, a nested object pattern as a
// core.ParamDestructured field with its own Fields, a nested array pattern
// as a plain field). A default that is a JSON-like literal is kept as
// JSON in Default (as JSON.stringify would write it, except that a number
// already spelled as a JSON number keeps its spelling: 2.0 stays a float for
// type inference, big integers stay exact); any other
// default only sets HasDefault. Names are kept as written, repeats included
// (core's schema derivation decides what a repeated name means).
//
// Doc is the docstring, before cleandoc: a block comment before the first
// statement of the body (JSDoc's leading "* " removed) or a string literal
// that is the first statement (decoded); a leading "use strict" directive is
// skipped. Arrow functions with an expression body have none.
//
// Only the header and the start of the body are read. It refuses, with an
// invalid-tool *core.Error naming the function and what it could not read:
// native code and bound functions, classes, getters and setters, array
// patterns, rest patterns, a second destructured parameter, computed keys in
// a pattern, patterns nested deeper than 64 levels, and source it cannot
// tokenize or parse (unterminated strings, templates, comments, regular
// expressions or brackets). It never panics and runs in time linear in the
// source length.
func ParseFunctionSource(name, source string) (core.Signature, error) {
	if isNativeSource(source) {
		if strings.HasPrefix(name, "bound ") {
			return core.Signature{}, core.Errorf(core.CodeInvalidTool, name,
				"%s is a bound function: its source does not show its parameters; register the original function", functionLabel(name))
		}
		return core.Signature{}, core.Errorf(core.CodeInvalidTool, name,
			"%s is native code: its source does not show its parameters; wrap it in a JS function", functionLabel(name))
	}
	p := &fnParser{name: name, src: source, lx: jsLexer{src: source}}
	params, doc := p.parseFunction()
	if p.err != nil {
		return core.Signature{}, p.err
	}
	return core.Signature{Name: name, Doc: strings.ToValidUTF8(doc, "\ufffd"), Params: params}, nil
}

// Limits on nesting and size. A default literal past them is kept as
// HasDefault with a nil Default; a pattern nested too deeply is refused.
const (
	// maxDefaultDepth is how deeply arrays and objects may nest in a default
	// literal, and object patterns in a parameter (the bound API.md sets on
	// arguments).
	maxDefaultDepth = 64
	// maxDefaultTokens is how many tokens a default literal may have.
	maxDefaultTokens = 1 << 16
)

func functionLabel(name string) string {
	if name == "" {
		return "the anonymous function"
	}
	return fmt.Sprintf("function %q", name)
}

// isNativeSource reports whether src ends in "{ [native code] }", which is
// how engines print built-in and bound functions (and never valid JS).
func isNativeSource(src string) bool {
	s := strings.TrimRightFunc(src, unicode.IsSpace)
	if !strings.HasSuffix(s, "}") {
		return false
	}
	s = strings.TrimRightFunc(s[:len(s)-1], unicode.IsSpace)
	const marker = "[native code]"
	if !strings.HasSuffix(s, marker) {
		return false
	}
	s = strings.TrimRightFunc(s[:len(s)-len(marker)], unicode.IsSpace)
	return strings.HasSuffix(s, "{")
}

// ---------------------------------------------------------------------------
// Lexer

type jsTokKind uint8

const (
	tkEOF jsTokKind = iota
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

type jsToken struct {
	kind jsTokKind
	text string // the token's source text
	val  string // the decoded value of a string or no-substitution template
	bad  bool   // a template whose escapes cannot be cooked
	pos  int
	nl   bool // a line terminator precedes it (since the last significant token)
}

func (t jsToken) isPunct(s string) bool { return t.kind == tkPunct && t.text == s }
func (t jsToken) isIdent(s string) bool { return t.kind == tkIdent && t.text == s }
func (t jsToken) isComment() bool       { return t.kind == tkLineComment || t.kind == tkBlockComment }

// describe names the token for an error message.
func (t jsToken) describe() string {
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

type jsLexError struct {
	pos int
	msg string
}

// jsLexer turns JS source into tokens one at a time. It tracks open braces so
// that a `}` closing a template substitution resumes the template, and the
// last significant token to tell a regular expression from a division.
type jsLexer struct {
	src    string
	pos    int
	braces []bool  // open braces; true for a template substitution
	prev   jsToken // last significant token; kind tkEOF at the start
	sawNL  bool
}

// jsPuncts are the multi-character punctuators, longest first.
var jsPuncts = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=",
	"*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
}

const jsSinglePuncts = "{}()[];,<>+-*/%&|^!~?:=.@"

func (l *jsLexer) next() (jsToken, *jsLexError) {
	if l.skipSpace() {
		l.sawNL = true
	}
	start := l.pos
	src := l.src
	if start >= len(src) {
		return jsToken{kind: tkEOF, pos: start, nl: l.sawNL}, nil
	}
	c := src[start]
	var c1 byte
	if start+1 < len(src) {
		c1 = src[start+1]
	}
	t := jsToken{pos: start}
	var err *jsLexError
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
			return jsToken{}, &jsLexError{start, "unterminated comment"}
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
			return jsToken{}, &jsLexError{start, "# not followed by a name"}
		}
		t.kind = tkPrivate
	case c == '/' && jsRegexAllowed(l.prev):
		t.kind = tkRegex
		err = l.scanRegex()
	case c == '\\':
		return jsToken{}, &jsLexError{start, "unicode escapes in names are not supported"}
	default:
		if l.scanIdent() > 0 {
			t.kind = tkIdent
			break
		}
		t.kind = tkPunct
		err = l.scanPunct()
	}
	if err != nil {
		return jsToken{}, err
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
func (l *jsLexer) skipSpace() bool {
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
func (l *jsLexer) scanIdent() int {
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

func (l *jsLexer) scanPunct() *jsLexError {
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
		return &jsLexError{l.pos, fmt.Sprintf("unexpected character %q", r)}
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
func jsRegexAllowed(prev jsToken) bool {
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
func (l *jsLexer) scanString(quote byte) (string, *jsLexError) {
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
				return "", &jsLexError{i, msg}
			}
			i, chunk = next, next
		case c == '\n' || c == '\r':
			return "", &jsLexError{start, "unterminated string literal"}
		default:
			i++
		}
	}
	return "", &jsLexError{start, "unterminated string literal"}
}

// scanTemplate consumes template text from l.pos (just after "`" when first,
// else just after the "}" closing a substitution) up to "`" or "${". It
// returns the token kind, the cooked text and whether an escape could not be
// cooked (allowed only in tagged templates).
func (l *jsLexer) scanTemplate(first bool) (jsTokKind, string, bool, *jsLexError) {
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
	return 0, "", false, &jsLexError{l.pos, "unterminated template literal"}
}

// decodeJSEscape decodes the escape sequence whose backslash is at s[i],
// writing its value to b; it returns the index after it, or a message when
// the escape is malformed. Legacy octal escapes are refused in templates.
func decodeJSEscape(b *strings.Builder, s string, i int, template bool) (int, string) {
	j := i + 1
	if j >= len(s) {
		return j, "unterminated escape sequence"
	}
	switch c := s[j]; c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '\n':
	case '\r':
		if j+1 < len(s) && s[j+1] == '\n' {
			j++
		}
	case '0', '1', '2', '3', '4', '5', '6', '7':
		if c == '0' && (j+1 >= len(s) || !isJSDigit(s[j+1])) {
			b.WriteByte(0)
			break
		}
		if template {
			return j, "octal escape sequence in a template literal"
		}
		v := int(c - '0')
		more := 2
		if c > '3' {
			more = 1
		}
		for ; more > 0 && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '7'; more-- {
			j++
			v = v*8 + int(s[j]-'0')
		}
		b.WriteRune(rune(v))
	case '8', '9':
		if template {
			return j, "\\8 or \\9 escape in a template literal"
		}
		b.WriteByte(c)
	case 'x':
		v, ok := jsHexValue(s, j+1, j+3)
		if !ok {
			return j, "malformed \\x escape sequence"
		}
		b.WriteRune(rune(v))
		j += 2
	case 'u':
		r, next, ok := jsUnicodeEscape(s, j)
		if !ok {
			return j, "malformed \\u escape sequence"
		}
		j = next - 1
		if isHighSurrogate(r) && next+1 < len(s) && s[next] == '\\' && s[next+1] == 'u' {
			if lo, after, ok := jsUnicodeEscape(s, next+1); ok && isLowSurrogate(lo) {
				r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
				j = after - 1
			}
		}
		if isHighSurrogate(r) || isLowSurrogate(r) {
			// A lone surrogate has no UTF-8 form: keep it as its
			// three-byte (WTF-8) sequence so appendStringJSON can write
			// it as JSON.stringify does (\udXXX).
			b.WriteByte(0xed)
			b.WriteByte(byte(0x80 | (r>>6)&0x3f))
			b.WriteByte(byte(0x80 | r&0x3f))
			break
		}
		b.WriteRune(r)
	default:
		r, size := utf8.DecodeRuneInString(s[j:])
		if r != '\u2028' && r != '\u2029' { // line continuations
			b.WriteString(s[j : j+size])
		}
		j += size - 1
	}
	return j + 1, ""
}

func isHighSurrogate(r rune) bool { return r >= 0xd800 && r < 0xdc00 }
func isLowSurrogate(r rune) bool  { return r >= 0xdc00 && r < 0xe000 }

// jsHexValue reads s[from:to] as hexadecimal.
func jsHexValue(s string, from, to int) (int, bool) {
	if to > len(s) || from >= to {
		return 0, false
	}
	v := 0
	for i := from; i < to; i++ {
		d, ok := jsHexDigit(s[i])
		if !ok {
			return 0, false
		}
		v = v*16 + d
	}
	return v, true
}

func jsHexDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10, true
	}
	return 0, false
}

// jsUnicodeEscape reads the escape whose 'u' is at s[j]: \uXXXX or \u{X…}. It
// returns the code point and the index after the escape.
func jsUnicodeEscape(s string, j int) (rune, int, bool) {
	if j+1 < len(s) && s[j+1] == '{' {
		v, k := 0, j+2
		for ; k < len(s); k++ {
			d, ok := jsHexDigit(s[k])
			if !ok {
				break
			}
			if v = v*16 + d; v > unicode.MaxRune {
				return 0, 0, false
			}
		}
		if k == j+2 || k >= len(s) || s[k] != '}' {
			return 0, 0, false
		}
		return rune(v), k + 1, true
	}
	v, ok := jsHexValue(s, j+1, j+5)
	return rune(v), j + 5, ok
}

// scanNumber consumes a numeric literal at l.pos.
func (l *jsLexer) scanNumber() *jsLexError {
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
			return &jsLexError{start, "malformed number"}
		}
	}
	return nil
}

// scanRegex consumes a regular expression literal at l.pos.
func (l *jsLexer) scanRegex() *jsLexError {
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
				return &jsLexError{start, "unterminated regular expression literal"}
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
	return &jsLexError{start, "unterminated regular expression literal"}
}

// ---------------------------------------------------------------------------
// Parser

// fnParser reads a function's header, parameters and the start of its body
// from a lexer. Its first error sticks: after it every token is EOF.
type fnParser struct {
	name string
	src  string
	lx   jsLexer
	buf  []jsToken // tokens lexed but not consumed, comments included
	head int
	err  *core.Error
}

// fail records the first error, placed at byte offset pos.
func (p *fnParser) fail(pos int, format string, args ...any) {
	if p.err != nil {
		return
	}
	pos = min(pos, len(p.src))
	line := 1 + strings.Count(p.src[:pos], "\n")
	col := 1 + utf8.RuneCountInString(p.src[strings.LastIndexByte(p.src[:pos], '\n')+1:pos])
	p.err = core.Errorf(core.CodeInvalidTool, p.name, "cannot read %s: %s (line %d, column %d)",
		functionLabel(p.name), fmt.Sprintf(format, args...), line, col)
}

// failExpected records "expected what, found t".
func (p *fnParser) failExpected(t jsToken, what string) {
	p.fail(t.pos, "expected %s, found %s", what, t.describe())
}

func (p *fnParser) lex() jsToken {
	if p.err == nil {
		t, err := p.lx.next()
		if err == nil {
			return t
		}
		p.fail(err.pos, "%s", err.msg)
	}
	return jsToken{kind: tkEOF, pos: len(p.src)}
}

// peek returns the k-th significant token ahead without consuming it.
func (p *fnParser) peek(k int) jsToken {
	p.compact()
	for i := p.head; ; i++ {
		if i == len(p.buf) {
			p.buf = append(p.buf, p.lex())
		}
		t := p.buf[i]
		if t.kind == tkEOF {
			return t
		}
		if !t.isComment() {
			if k == 0 {
				return t
			}
			k--
		}
	}
}

// compact drops the consumed tokens once none is left ahead, so that the
// buffer only ever holds the lookahead.
func (p *fnParser) compact() {
	if p.head == len(p.buf) {
		p.buf, p.head = p.buf[:0], 0
	}
}

// nextRaw consumes the next token, comments included.
func (p *fnParser) nextRaw() jsToken {
	p.compact()
	if p.head == len(p.buf) {
		p.buf = append(p.buf, p.lex())
	}
	t := p.buf[p.head]
	if t.kind != tkEOF {
		p.head++
	}
	return t
}

// next consumes the next significant token.
func (p *fnParser) next() jsToken {
	for {
		if t := p.nextRaw(); !t.isComment() {
			return t
		}
	}
}

// parseFunction reads the whole header and returns the parameters and the
// docstring.
func (p *fnParser) parseFunction() ([]core.Param, string) {
	t, t1 := p.peek(0), p.peek(1)
	switch {
	case t.kind == tkEOF:
		p.failExpected(t, "a function")
		return nil, ""
	case t.kind == tkIdent && t1.isPunct("=>"):
		return p.arrowSingle()
	case t.isPunct("("):
		params := p.paramList()
		if u := p.next(); !u.isPunct("=>") {
			p.failExpected(u, `"=>" after the parameters of an arrow function`)
			return nil, ""
		}
		return params, p.arrowBody()
	case t.isIdent("class") && !t1.isPunct("("):
		p.fail(t.pos, "it is a class, not a function; register a function or one of its methods")
		return nil, ""
	case t.isIdent("function"):
		p.next()
		return p.functionRest()
	case t.isIdent("async"):
		switch {
		case t1.isIdent("function"):
			p.next()
			p.next()
			return p.functionRest()
		case t1.kind == tkIdent && p.peek(2).isPunct("=>"):
			p.next()
			return p.arrowSingle()
		case t1.isPunct("("):
			p.next()
			params := p.paramList()
			if p.peek(0).isPunct("=>") {
				p.next()
				return params, p.arrowBody()
			}
			return params, p.blockBody() // a method named async
		}
	}
	return p.method()
}

// functionRest reads what follows the keyword function.
func (p *fnParser) functionRest() ([]core.Param, string) {
	if p.peek(0).isPunct("*") {
		p.next()
	}
	if p.peek(0).kind == tkIdent {
		p.next()
	}
	params := p.paramList()
	return params, p.blockBody()
}

// method reads a method definition: modifiers, a name, parameters, a body.
func (p *fnParser) method() ([]core.Param, string) {
	if p.peek(0).isIdent("static") && !p.peek(1).isPunct("(") {
		p.next()
	}
	if t := p.peek(0); (t.isIdent("get") || t.isIdent("set")) && !p.peek(1).isPunct("(") {
		p.fail(t.pos, "it is a %ster (an accessor), not a function; register a plain function or method", t.text)
		return nil, ""
	}
	if p.peek(0).isIdent("async") && !p.peek(1).isPunct("(") {
		p.next()
	}
	if p.peek(0).isPunct("*") {
		p.next()
	}
	switch t := p.next(); {
	case t.kind == tkIdent || t.kind == tkPrivate || t.kind == tkString || t.kind == tkNumber:
	case t.isPunct("["):
		p.skipBalanced(t)
	default:
		p.failExpected(t, "a function, an arrow function or a method")
		return nil, ""
	}
	params := p.paramList()
	return params, p.blockBody()
}

// arrowSingle reads `x => body`.
func (p *fnParser) arrowSingle() ([]core.Param, string) {
	name := p.bindingName(p.next(), 1)
	p.next() // =>
	return []core.Param{{Name: name, Kind: core.ParamPlain}}, p.arrowBody()
}

// arrowBody reads what follows `=>`: a block body may hold a docstring, an
// expression body has none.
func (p *fnParser) arrowBody() string {
	t := p.peek(0)
	if t.isPunct("{") {
		return p.blockBody()
	}
	if t.kind == tkEOF {
		p.failExpected(t, "the body of the arrow function")
	}
	return ""
}

// blockBody reads the `{` opening a body and returns the docstring.
func (p *fnParser) blockBody() string {
	if p.err != nil {
		return ""
	}
	t := p.next()
	if !t.isPunct("{") {
		p.failExpected(t, `"{" opening the function body`)
		return ""
	}
	if !strings.HasSuffix(strings.TrimRightFunc(p.src, unicode.IsSpace), "}") {
		p.fail(len(p.src), "the function body is not closed by }")
		return ""
	}
	return p.docstring()
}

// docstring reads the start of a body (after its `{`): the first block
// comment before the first statement, or a string literal that is the first
// statement. Line comments and a "use strict" directive are skipped.
func (p *fnParser) docstring() string {
	for {
		t := p.nextRaw()
		switch t.kind {
		case tkLineComment:
			continue
		case tkBlockComment:
			return blockCommentDoc(t.text)
		case tkString, tkTemplate:
			if t.bad || !endsExpressionStatement(p.peek(0)) {
				return ""
			}
			if t.text == `"use strict"` || t.text == `'use strict'` {
				if p.peek(0).isPunct(";") {
					p.next()
				}
				continue
			}
			return t.val
		}
		return ""
	}
}

// endsExpressionStatement reports whether a string literal followed by t is a whole
// expression statement: t is `;`, `}` or the end, or t starts a new
// statement on a later line (automatic semicolon insertion).
func endsExpressionStatement(t jsToken) bool {
	switch {
	case t.kind == tkEOF || t.isPunct(";") || t.isPunct("}"):
		return true
	case !t.nl:
		return false
	case t.kind == tkIdent:
		return t.text != "in" && t.text != "instanceof"
	case t.kind == tkString || t.kind == tkNumber || t.kind == tkPrivate:
		return true
	}
	switch t.text {
	case "{", "!", "~", "++", "--":
		return true
	}
	return false
}

// blockCommentDoc turns a block comment into a docstring: the text between
// "/*" and "*/" (a second leading * dropped), with JSDoc's leading
// whitespace + "*" + one space removed from every line after the first when
// every non-blank line after the first has it.
func blockCommentDoc(raw string) string {
	inner := raw[2 : len(raw)-2]
	inner = strings.TrimPrefix(inner, "*")
	inner = strings.ReplaceAll(inner, "\r\n", "\n")
	inner = strings.ReplaceAll(inner, "\r", "\n")
	lines := strings.Split(inner, "\n")
	last := len(lines) - 1
	if last > 0 && strings.TrimSpace(lines[last]) == "" {
		lines[last] = "" // the indentation of the closing */
	}
	starred, any := true, false
	for _, line := range lines[1:] {
		s := strings.TrimLeft(line, " \t")
		if s == "" {
			continue
		}
		any = true
		if s[0] != '*' {
			starred = false
			break
		}
	}
	if starred && any {
		for i := 1; i < len(lines); i++ {
			s := strings.TrimLeft(lines[i], " \t")
			if s != "" {
				s = strings.TrimPrefix(s[1:], " ")
			}
			lines[i] = s
		}
	}
	return strings.Join(lines, "\n")
}

// jsReserved are the words that can never name a parameter.
var jsReserved = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true,
	"export": true, "extends": true, "false": true, "finally": true, "for": true,
	"function": true, "if": true, "import": true, "in": true, "instanceof": true, "new": true,
	"null": true, "return": true, "super": true, "switch": true, "this": true, "throw": true,
	"true": true, "try": true, "typeof": true, "var": true, "void": true, "while": true,
	"with": true,
}

// bindingName checks that t names a binding of parameter idx.
func (p *fnParser) bindingName(t jsToken, idx int) string {
	if t.kind != tkIdent {
		p.failExpected(t, fmt.Sprintf("a name in parameter %d", idx))
		return ""
	}
	if jsReserved[t.text] {
		p.fail(t.pos, "parameter %d: %q is a reserved word, not a name", idx, t.text)
		return ""
	}
	return t.text
}

// paramList reads `( params )`.
func (p *fnParser) paramList() []core.Param {
	if t := p.next(); !t.isPunct("(") {
		p.failExpected(t, `"(" opening the parameters`)
		return nil
	}
	params := []core.Param{}
	destructured := false
	for p.err == nil {
		t := p.peek(0)
		if t.isPunct(")") {
			p.next()
			return params
		}
		idx := len(params) + 1
		param := p.param(idx)
		if param.Kind == core.ParamDestructured {
			if destructured {
				p.fail(t.pos, "parameter %d is a second destructured object; only one is understood", idx)
			}
			destructured = true
		}
		params = append(params, param)
		u := p.next()
		if u.isPunct(")") {
			return params
		}
		if !u.isPunct(",") {
			p.failExpected(u, `"," or ")" after parameter `+strconv.Itoa(idx))
		} else if param.Kind == core.ParamRest {
			p.fail(u.pos, "rest parameter %d must be the last", idx)
		}
	}
	return nil
}

// param reads one parameter, idx counting from 1.
func (p *fnParser) param(idx int) core.Param {
	t := p.next()
	switch {
	case t.isPunct("..."):
		u := p.next()
		if u.isPunct("{") || u.isPunct("[") {
			p.fail(u.pos, "rest parameter %d is a pattern; only a named rest parameter (...name) is understood", idx)
			return core.Param{}
		}
		param := core.Param{Name: p.bindingName(u, idx), Kind: core.ParamRest}
		if v := p.peek(0); v.isPunct("=") {
			p.fail(v.pos, "rest parameter %d cannot have a default", idx)
		}
		return param
	case t.isPunct("{"):
		param := core.Param{Kind: core.ParamDestructured, Fields: p.objectPattern(idx, 1)}
		p.defaultValue(&param, ")")
		return param
	case t.isPunct("["):
		p.fail(t.pos, "parameter %d is an array pattern ([a, b]); only plain, default, rest and one destructured object parameter are understood", idx)
		return core.Param{}
	}
	param := core.Param{Name: p.bindingName(t, idx), Kind: core.ParamPlain}
	p.defaultValue(&param, ")")
	return param
}

// objectPattern reads the keys of an object pattern, after its `{`, at
// nesting depth depth (1 for a parameter's own pattern). A key whose target
// is itself an object pattern is a ParamDestructured field with its own
// Fields; one whose target is an array pattern is a plain field.
func (p *fnParser) objectPattern(idx, depth int) []core.Param {
	var fields []core.Param
	for p.err == nil {
		t := p.next()
		if t.isPunct("}") {
			return fields
		}
		var f core.Param
		switch {
		case t.isPunct("..."):
			f = core.Param{Name: p.bindingName(p.next(), idx), Kind: core.ParamKeywords}
		case t.isPunct("["):
			p.fail(t.pos, "parameter %d has a computed key ([…]) in its pattern; only plain keys are understood", idx)
			return nil
		case t.kind == tkIdent || t.kind == tkString || t.kind == tkNumber:
			key := t.text
			switch t.kind {
			case tkString:
				key = t.val
			case tkNumber:
				v, ok := jsNumberValue(t.text)
				if !ok {
					p.fail(t.pos, "parameter %d: cannot read the key %s", idx, t.describe())
					return nil
				}
				key = string(appendNumberJSON(nil, v))
			}
			if key == "" {
				p.fail(t.pos, "parameter %d: the empty key %s cannot name a field", idx, t.text)
				return nil
			}
			f = core.Param{Name: key, Kind: core.ParamPlain}
			switch {
			case !p.peek(0).isPunct(":"):
				if t.kind != tkIdent {
					p.failExpected(p.peek(0), `":" after the key `+t.describe())
					return nil
				}
				p.bindingName(t, idx)
			case p.peek(1).isPunct("{"):
				p.next()
				open := p.next()
				if depth >= maxDefaultDepth {
					p.fail(open.pos, "parameter %d: patterns nest deeper than %d levels", idx, maxDefaultDepth)
					return nil
				}
				f.Kind, f.Fields = core.ParamDestructured, p.objectPattern(idx, depth+1)
			case p.peek(1).isPunct("["):
				p.next()
				p.skipBalanced(p.next()) // an array pattern: kept as a plain field
			default:
				p.next()
				p.bindingName(p.next(), idx)
			}
			p.defaultValue(&f, "}")
		default:
			p.failExpected(t, fmt.Sprintf("a key in the pattern of parameter %d", idx))
			return nil
		}
		fields = append(fields, f)
		u := p.next()
		if u.isPunct("}") {
			return fields
		}
		if !u.isPunct(",") {
			p.failExpected(u, fmt.Sprintf(`"," or "}" in the pattern of parameter %d`, idx))
		} else if f.Kind == core.ParamKeywords {
			p.fail(u.pos, "the rest element ...%s in parameter %d must be the last", f.Name, idx)
		}
	}
	return nil
}

// defaultValue reads an optional `= expression` ending before a top-level
// `,` or closer, and records it on param.
func (p *fnParser) defaultValue(param *core.Param, closer string) {
	if !p.peek(0).isPunct("=") {
		return
	}
	eq := p.next()
	toks, complete := p.expression(closer)
	if p.err != nil {
		return
	}
	if len(toks) == 0 {
		p.fail(eq.pos, "missing default value after =")
		return
	}
	param.HasDefault = true
	if complete {
		param.Default = defaultLiteralJSON(toks)
	}
}

// opensBracket returns the closer that token t opens, or 0.
func opensBracket(t jsToken) byte {
	switch {
	case t.kind == tkTemplateHead:
		return '`'
	case t.kind != tkPunct:
		return 0
	case t.text == "(":
		return ')'
	case t.text == "[":
		return ']'
	case t.text == "{":
		return '}'
	}
	return 0
}

// closesBracket returns the closer that token t is, or 0; a template middle both
// closes and reopens a substitution.
func closesBracket(t jsToken) byte {
	switch {
	case t.kind == tkTemplateMiddle || t.kind == tkTemplateTail:
		return '`'
	case t.isPunct(")") || t.isPunct("]") || t.isPunct("}"):
		return t.text[0]
	}
	return 0
}

// expression reads tokens up to (not including) a top-level `,` or closer,
// checking that brackets balance. It returns the significant tokens and
// whether all were kept (at most maxDefaultTokens are).
func (p *fnParser) expression(closer string) ([]jsToken, bool) {
	var toks []jsToken
	var stack []byte
	complete := true
	for p.err == nil {
		t := p.peek(0)
		if len(stack) == 0 && (t.isPunct(",") || t.isPunct(closer)) {
			return toks, complete
		}
		if t.kind == tkEOF {
			p.failExpected(t, fmt.Sprintf(`"," or %q ending the default value`, closer))
			break
		}
		p.next()
		if !p.balance(&stack, t) {
			break
		}
		if len(toks) < maxDefaultTokens {
			toks = append(toks, t)
		} else {
			complete = false
		}
	}
	return nil, false
}

// balance updates the stack of expected closers with token t, failing on a
// closer that does not match.
func (p *fnParser) balance(stack *[]byte, t jsToken) bool {
	if c := opensBracket(t); c != 0 {
		*stack = append(*stack, c)
		return true
	}
	c := closesBracket(t)
	if c == 0 {
		return true
	}
	s := *stack
	if len(s) == 0 || s[len(s)-1] != c {
		p.fail(t.pos, "unexpected %s: brackets do not balance", t.describe())
		return false
	}
	if t.kind != tkTemplateMiddle {
		*stack = s[:len(s)-1]
	}
	return true
}

// skipBalanced consumes tokens up to the closer matching open.
func (p *fnParser) skipBalanced(open jsToken) {
	stack := []byte{opensBracket(open)}
	for len(stack) > 0 && p.err == nil {
		t := p.next()
		if t.kind == tkEOF {
			p.fail(open.pos, "%s is never closed", open.describe())
			return
		}
		p.balance(&stack, t)
	}
}

// ---------------------------------------------------------------------------
// Default literals

// defaultLiteralJSON returns the JSON that JSON.stringify would write for the
// value of toks when they are one JSON-like literal, else nil.
func defaultLiteralJSON(toks []jsToken) json.RawMessage {
	lp := literalParser{toks: toks}
	b, ok := lp.value(nil, 0)
	if !ok || lp.i != len(toks) {
		return nil
	}
	return json.RawMessage(b)
}

type literalParser struct {
	toks []jsToken
	i    int
}

func (lp *literalParser) peek() jsToken {
	if lp.i < len(lp.toks) {
		return lp.toks[lp.i]
	}
	return jsToken{kind: tkEOF}
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
		n, ok := new(big.Int).SetString(digits, base)
		if !ok {
			return 0, false
		}
		v, _ = new(big.Float).SetInt(n).Float64()
	} else {
		var err error
		if v, err = strconv.ParseFloat(s, 64); err != nil {
			return 0, false
		}
	}
	return v, !math.IsInf(v, 0)
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
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				if c < 0x20 {
					b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
				} else {
					b = append(b, c)
				}
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
