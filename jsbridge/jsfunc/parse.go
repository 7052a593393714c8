package jsfunc

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/core"
)

// Parse derives the signature of a JS function from its name (fn.name) and
// its source text (Function.prototype.toString.call(fn)).
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
func Parse(name, source string) (core.Signature, error) {
	if isNativeSource(source) {
		if strings.HasPrefix(name, "bound ") {
			return core.Signature{}, core.Errorf(core.CodeInvalidTool, name,
				"%s is a bound function: its source does not show its parameters; register the original function", functionLabel(name))
		}
		return core.Signature{}, core.Errorf(core.CodeInvalidTool, name,
			"%s is native code: its source does not show its parameters; wrap it in a JS function", functionLabel(name))
	}
	p := &parser{name: name, src: source, lx: lexer{src: source}}
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
	// literal, and object patterns in a parameter (the bound on arguments'
	// nesting, docs/contract.md, "Branches").
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

// parser reads a function's header, parameters and the start of its body
// from a lexer. Its first error sticks: after it every token is EOF.
type parser struct {
	name string
	src  string
	lx   lexer
	buf  []token // tokens lexed but not consumed, comments included
	head int
	err  *core.Error
}

// fail records the first error, placed at byte offset pos.
func (p *parser) fail(pos int, format string, args ...any) {
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
func (p *parser) failExpected(t token, what string) {
	p.fail(t.pos, "expected %s, found %s", what, t.describe())
}

func (p *parser) lex() token {
	if p.err == nil {
		t, err := p.lx.next()
		if err == nil {
			return t
		}
		p.fail(err.pos, "%s", err.msg)
	}
	return token{kind: tkEOF, pos: len(p.src)}
}

// peek returns the k-th significant token ahead without consuming it.
func (p *parser) peek(k int) token {
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
func (p *parser) compact() {
	if p.head == len(p.buf) {
		p.buf, p.head = p.buf[:0], 0
	}
}

// nextRaw consumes the next token, comments included.
func (p *parser) nextRaw() token {
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
func (p *parser) next() token {
	for {
		if t := p.nextRaw(); !t.isComment() {
			return t
		}
	}
}

// parseFunction reads the whole header and returns the parameters and the
// docstring.
func (p *parser) parseFunction() ([]core.Param, string) {
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
func (p *parser) functionRest() ([]core.Param, string) {
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
func (p *parser) method() ([]core.Param, string) {
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
func (p *parser) arrowSingle() ([]core.Param, string) {
	name := p.bindingName(p.next(), 1)
	p.next() // =>
	return []core.Param{{Name: name, Kind: core.ParamPlain}}, p.arrowBody()
}

// arrowBody reads what follows `=>`: a block body may hold a docstring, an
// expression body has none.
func (p *parser) arrowBody() string {
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
func (p *parser) blockBody() string {
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
func (p *parser) docstring() string {
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
func endsExpressionStatement(t token) bool {
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
func (p *parser) bindingName(t token, idx int) string {
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
func (p *parser) paramList() []core.Param {
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
func (p *parser) param(idx int) core.Param {
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
func (p *parser) objectPattern(idx, depth int) []core.Param {
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
func (p *parser) defaultValue(param *core.Param, closer string) {
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
func opensBracket(t token) byte {
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
func closesBracket(t token) byte {
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
func (p *parser) expression(closer string) ([]token, bool) {
	var toks []token
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
func (p *parser) balance(stack *[]byte, t token) bool {
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
func (p *parser) skipBalanced(open token) {
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
