package jsfunc

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func wantSig(name, doc string, params ...core.Param) core.Signature {
	return core.Signature{Name: name, Doc: doc, Params: append([]core.Param{}, params...)}
}

func plainParam(name string) core.Param { return core.Param{Name: name, Kind: core.ParamPlain} }

func restParam(name string) core.Param { return core.Param{Name: name, Kind: core.ParamRest} }

func keywordsParam(name string) core.Param { return core.Param{Name: name, Kind: core.ParamKeywords} }

// defaultParam is a plain parameter with a default; def is its JSON, "" for a
// default that is not a literal.
func defaultParam(name, def string) core.Param {
	p := core.Param{Name: name, Kind: core.ParamPlain, HasDefault: true}
	if def != "" {
		p.Default = json.RawMessage(def)
	}
	return p
}

func destructuredParam(fields ...core.Param) core.Param {
	return core.Param{Kind: core.ParamDestructured, Fields: fields}
}

func TestParseForms(t *testing.T) {
	cases := []struct {
		name   string
		fnName string
		src    string
		want   core.Signature
	}{
		{"declaration", "add", "function add(a, b) { return a + b }", wantSig("add", "", plainParam("a"), plainParam("b"))},
		{"anonymous function", "", "function (a) {}", wantSig("", "", plainParam("a"))},
		{"anonymous function without space", "", "function(a){}", wantSig("", "", plainParam("a"))},
		{"async function", "load", "async function load(url) { await fetch(url) }", wantSig("load", "", plainParam("url"))},
		{"generator", "gen", "function* gen(a) { yield a }", wantSig("gen", "", plainParam("a"))},
		{"generator spaced", "gen", "function *gen(a) { yield a }", wantSig("gen", "", plainParam("a"))},
		{"async generator", "g", "async function* g() {}", wantSig("g", "")},
		{"Function constructor", "anonymous", "function anonymous(a,b\n) {\nreturn a\n}", wantSig("anonymous", "", plainParam("a"), plainParam("b"))},
		{"arrow single", "f", "a => a", wantSig("f", "", plainParam("a"))},
		{"arrow parens", "f", "(a, b) => a + b", wantSig("f", "", plainParam("a"), plainParam("b"))},
		{"async arrow single", "f", "async a => a", wantSig("f", "", plainParam("a"))},
		{"async arrow parens", "f", "async (a, b = 1) => { return a + b }", wantSig("f", "", plainParam("a"), defaultParam("b", "1"))},
		{"async arrow no space", "f", "async(a) => a", wantSig("f", "", plainParam("a"))},
		{"arrow no params", "f", "() => {}", wantSig("f", "")},
		{"arrow param named async", "f", "async => async", wantSig("f", "", plainParam("async"))},
		{"arrow param named get", "f", "get => get", wantSig("f", "", plainParam("get"))},
		{"arrow returning object", "f", "() => ({ a: 1 })", wantSig("f", "")},
		{"method", "name", "name(a, b) { return a }", wantSig("name", "", plainParam("a"), plainParam("b"))},
		{"async method", "name", "async name(a) {}", wantSig("name", "", plainParam("a"))},
		{"generator method", "gen", "*gen(a) {}", wantSig("gen", "", plainParam("a"))},
		{"async generator method", "gen", "async *gen(a) {}", wantSig("gen", "", plainParam("a"))},
		{"static method", "name", "static name(a) {}", wantSig("name", "", plainParam("a"))},
		{"static async generator method", "gen", "static async *gen(a) {}", wantSig("gen", "", plainParam("a"))},
		{"quoted method name", "my-tool", `"my-tool"(a) {}`, wantSig("my-tool", "", plainParam("a"))},
		{"single-quoted method name", "my tool", `'my tool'(a) {}`, wantSig("my tool", "", plainParam("a"))},
		{"computed method name", "[Symbol.iterator]", "[Symbol.iterator]() {}", wantSig("[Symbol.iterator]", "")},
		{"computed method name with brackets", "k", "[keys[0] + (1)](a) {}", wantSig("k", "", plainParam("a"))},
		{"numeric method name", "42", "42(a) {}", wantSig("42", "", plainParam("a"))},
		{"private method", "#secret", "#secret(a) {}", wantSig("#secret", "", plainParam("a"))},
		{"method named async", "async", "async(a) { return a }", wantSig("async", "", plainParam("a"))},
		{"method named static", "static", "static(a) {}", wantSig("static", "", plainParam("a"))},
		{"method named get", "get", "get(key) {}", wantSig("get", "", plainParam("key"))},
		{"method named set", "set", "set(key, value) {}", wantSig("set", "", plainParam("key"), plainParam("value"))},
		{"method named class", "class", "class(a) {}", wantSig("class", "", plainParam("a"))},
		{"static method named get", "get", "static get(a) {}", wantSig("get", "", plainParam("a"))},
		{"unicode names", "f", "(café, ünï, $, _x) => 1", wantSig("f", "", plainParam("café"), plainParam("ünï"), plainParam("$"), plainParam("_x"))},
		{"trailing comma", "f", "function f(a, b,) {}", wantSig("f", "", plainParam("a"), plainParam("b"))},
		{"newlines", "f", "function f(\n  a,\n  b = 2,\n) {\n}", wantSig("f", "", plainParam("a"), defaultParam("b", "2"))},
		{"line comment ended by a line separator", "f", "function f(a // c\u2028, b) {}", wantSig("f", "", plainParam("a"), plainParam("b"))},
		{"comments anywhere", "f", "function /* c */ f /* c */ ( /* c */ a /* c */ = /* c */ 1 /* c */, // c\n b // c\n ) /* c */ { }",
			wantSig("f", "", defaultParam("a", "1"), plainParam("b"))},
		{"unicode spaces and line separators", "f", "function\u00a0f(a,\u2028b\ufeff)\u3000{}", wantSig("f", "", plainParam("a"), plainParam("b"))},
		{"rest", "f", "function f(a, ...rest) {}", wantSig("f", "", plainParam("a"), restParam("rest"))},
		{"repeated name", "f", "function f(a, b, a) {}", wantSig("f", "", plainParam("a"), plainParam("b"), plainParam("a"))},
		{"name repeated as a key", "f", "(a, {a: b}) => b", wantSig("f", "", plainParam("a"), destructuredParam(plainParam("a")))},
		{"arrow rest", "f", "(...args) => args", wantSig("f", "", restParam("args"))},
		{"yield and await as names", "f", "function f(yield, await, let) {}", wantSig("f", "", plainParam("yield"), plainParam("await"), plainParam("let"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.fnName, tc.src)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "got %+v, want %+v", got, tc.want)
		})
	}
}

func TestParseDefaults(t *testing.T) {
	deep := strings.Repeat("[", 65) + strings.Repeat("]", 65)
	deepOK := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	cases := []struct {
		name string
		def  string // the default's source
		want string // its JSON; "" for a default that is not a literal
	}{
		{"integer", "2", "2"},
		{"negative", "-1", "-1"},
		{"negative with comment", "- /* c */ 1.5", "-1.5"},
		{"unary plus", "+5", "5"},
		{"exponent keeps its spelling", "1e3", "1e3"},
		{"negative exponent keeps its spelling", "1.5e-3", "1.5e-3"},
		{"float spelling kept", "2.0", "2.0"},
		{"big integer exact", "9007199254740993", "9007199254740993"},
		{"tiny", "1e-7", "1e-7"},
		{"huge", "1e21", "1e21"},
		{"big integer-valued", "1e20", "1e20"},
		{"leading dot", ".5", "0.5"},
		{"trailing dot", "5.", "5"},
		{"negative zero", "-0", "-0"},
		{"separators", "1_000", "1000"},
		{"hex", "0xFF_FF", "65535"},
		{"octal", "0o17", "15"},
		{"binary", "0b101", "5"},
		{"legacy octal", "017", "15"},
		{"legacy non-octal", "019", "19"},
		{"big hex", "0xFFFFFFFFFFFFFFFFFF", "4.722366482869645e+21"},
		{"overflow", "1e400", ""},
		{"bad binary", "0b12", ""},
		{"lone minus", "-", ""},
		{"bigint", "10n", ""},
		{"Infinity", "Infinity", ""},
		{"NaN", "NaN", ""},
		{"minus not a number", `-"1"`, ""},
		{"double quoted", `"x"`, `"x"`},
		{"single quoted", `'it\'s'`, `"it's"`},
		{"escapes", `"a\nb\t\"q\"\\"`, `"a\nb\t\"q\"\\"`},
		{"hex and unicode escapes", `'\x41\u00e9\u{1F600}'`, `"Aé😀"`},
		{"surrogate pair", `"\uD83D\uDE00"`, `"😀"`},
		{"lone surrogate", `"\uD83D!"`, `"\ud83d!"`},
		{"lone low surrogate in a key", `{"\u{DC00}": 1}`, `{"\udc00":1}`},
		{"legacy octal escapes", `"\101\0\7\8"`, `"A\u0000\u00078"`},
		{"line continuation", "\"a\\\nb\\\r\nc\"", `"abc"`},
		{"identity escape", `"\q\é"`, `"qé"`},
		{"html characters kept", `"<a>&"`, `"<a>&"`},
		{"invalid utf-8", "\"\xff\"", `"\ufffd"`},
		{"control character", "'\\u0001\\b\\f\\r\\v'", `"\u0001\b\f\r\u000b"`},
		{"template without substitution", "`a\r\nb`", `"a\nb"`},
		{"template with substitution", "`a${1}b`", ""},
		{"template with two substitutions", "`${a}b${c}`", ""},
		{"template with \\8", "String.raw`\\8`", ""},
		{"nested templates", "`a${`b${ {c: '}'} }`}` + `d`", ""},
		{"template with octal escape", "String.raw`\\1`", ""},
		{"untagged template with bad escape", "`\\u{zz}`", ""},
		{"true", "true", "true"},
		{"false", "false", "false"},
		{"null", "null", "null"},
		{"undefined", "undefined", ""},
		{"array", "[1, 2]", "[1,2]"},
		{"array trailing comma", "[1, 'a',]", `[1,"a"]`},
		{"empty array", "[]", "[]"},
		{"array hole", "[1,,2]", ""},
		{"array spread", "[...x]", ""},
		{"array missing comma", "[1 2]", ""},
		{"object", "{k: 1}", `{"k":1}`},
		{"empty object", "{}", "{}"},
		{"object keys", `{a: 1, "b-c": 'x', 'd': null, 3: [true], 1.5: 0, if: 2}`, `{"3":[true],"a":1,"b-c":"x","d":null,"1.5":0,"if":2}`},
		{"object non-index keys", `{"": 1, "01": 2, "12345678901": 3, "0": 4}`, `{"0":4,"":1,"01":2,"12345678901":3}`},
		{"object index order", `{b: 1, 2: 'x', 1: 'y', 01: 'z', 4294967295: 1}`, `{"1":"z","2":"x","b":1,"4294967295":1}`},
		{"object repeated key", "{a: 1, b: 2, a: 3}", `{"a":3,"b":2}`},
		{"object __proto__", "{__proto__: {x: 1}, a: 1}", `{"a":1}`},
		{"object nested", `{a: [1, {b: null}], c: {d: -2}}`, `{"a":[1,{"b":null}],"c":{"d":-2}}`},
		{"object shorthand", "{a}", ""},
		{"object spread", "{...a}", ""},
		{"object computed key", "{[k]: 1}", ""},
		{"object method", "{m() {}}", ""},
		{"object bigint key", "{1n: 1}", ""},
		{"object template key", "{`a`: 1}", ""},
		{"object missing comma", "{a: 1 b: 2}", ""},
		{"object bad value", "{a: x}", ""},
		{"nesting at the limit", deepOK, deepOK},
		{"nesting past the limit", deep, ""},
		{"deep object past the limit", strings.Repeat("{a:", 65) + "1" + strings.Repeat("}", 65), ""},
		{"call with paren in string", `g(1, ")")`, ""},
		{"arrow function", "(x) => x", ""},
		{"arrow with comma body", "x => (x, 1)", ""},
		{"function expression", "function (a, b) { return [a, b] }", ""},
		{"regex with paren", "/[)]/g", ""},
		{"regex with escaped slash", `/a\/b[/]/`, ""},
		{"division", "b / 2", ""},
		{"division after paren", "(b) / 2 / 1", ""},
		{"division after increment", "x++ / 2", ""},
		{"typeof regex", "typeof /re/", ""},
		{"regex after template head", "`${/}/.source}`", ""},
		{"sum", "1 + 2", ""},
		{"ternary", "a ? {b: 1} : [2]", ""},
		{"optional chaining", "a?.b ?? c?.[0]", ""},
		{"conditional with number", "a?.5:1", ""},
		{"string then more", `"a" + "b"`, ""},
		{"new", "new Map()", ""},
		{"class expression", "class { m() {} }", ""},
		{"member after number", "1..toString()", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "function f(p = " + tc.def + ", q) {}"
			got, err := Parse("f", src)
			require.NoError(t, err, "source %s", src)
			want := wantSig("f", "", defaultParam("p", tc.want), plainParam("q"))
			assert.Equal(t, want, got, "got default %s, want %s", got.Params[0].Default, tc.want)
		})
	}
}

func TestParseDestructured(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want core.Signature
	}{
		{"fields", "function f({a, b = 2, c: alias, ...others}) {}",
			wantSig("f", "", destructuredParam(plainParam("a"), defaultParam("b", "2"), plainParam("c"), keywordsParam("others")))},
		{"with default", "function f({a, b} = {}) {}",
			wantSig("f", "", core.Param{Kind: core.ParamDestructured, HasDefault: true, Default: json.RawMessage("{}"),
				Fields: []core.Param{plainParam("a"), plainParam("b")}})},
		{"with non-literal default", "function f({a} = defaults()) {}",
			wantSig("f", "", core.Param{Kind: core.ParamDestructured, HasDefault: true, Fields: []core.Param{plainParam("a")}})},
		{"beside plain parameters", "(x, {y = 'a', z}, ...more) => 1",
			wantSig("f", "", plainParam("x"), destructuredParam(defaultParam("y", `"a"`), plainParam("z")), restParam("more"))},
		{"quoted and numeric keys", `({"my-key": k, 'q': v, 1: one, 0x10: hex}) => k`,
			wantSig("f", "", destructuredParam(plainParam("my-key"), plainParam("q"), plainParam("1"), plainParam("16")))},
		{"keyword keys", "({class: c, default: d = 1}) => c",
			wantSig("f", "", destructuredParam(plainParam("class"), defaultParam("default", "1")))},
		{"alias with default", "({c: alias = [1]}) => alias",
			wantSig("f", "", destructuredParam(defaultParam("c", "[1]")))},
		{"nested patterns", "({opts: {x, y: [z], deep: {w = 1}} = {}, list: [a, b] = []}) => x",
			wantSig("f", "", destructuredParam(
				core.Param{Name: "opts", Kind: core.ParamDestructured, HasDefault: true, Default: json.RawMessage("{}"),
					Fields: []core.Param{plainParam("x"), plainParam("y"),
						{Name: "deep", Kind: core.ParamDestructured, Fields: []core.Param{defaultParam("w", "1")}}}},
				defaultParam("list", "[]")))},
		{"repeated key", "({a, a: b}) => b", wantSig("f", "", destructuredParam(plainParam("a"), plainParam("a")))},
		{"non-literal field default", "({when = Date.now(), re = /}/}) => 1",
			wantSig("f", "", destructuredParam(defaultParam("when", ""), defaultParam("re", "")))},
		{"field default with braces", "({a = {b: {c: 1}}, d}) => 1",
			wantSig("f", "", destructuredParam(defaultParam("a", `{"b":{"c":1}}`), plainParam("d")))},
		{"trailing comma", "({a, b,}) => 1", wantSig("f", "", destructuredParam(plainParam("a"), plainParam("b")))},
		{"empty pattern", "({}) => 1", wantSig("f", "", destructuredParam())},
		{"comments inside", "({ /* c */ a /* c */ : /* c */ b, // c\n c }) => 1",
			wantSig("f", "", destructuredParam(plainParam("a"), plainParam("c")))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("f", tc.src)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "got %+v, want %+v", got, tc.want)
		})
	}
}

func TestParseDocstring(t *testing.T) {
	jsdoc := `function f(a) {
  /**
   * Summary.
   *
   * Args:
   *   a: x
   */
  return a
}`
	cases := []struct {
		name string
		src  string
		want string
	}{
		{"jsdoc one line", "function f() { /** Doc. */ }", " Doc. "},
		{"jsdoc keeps relative indentation", jsdoc, "\nSummary.\n\nArgs:\n  a: x\n"},
		{"jsdoc first line kept", "function f() {\n  /** Summary.\n   * More.\n   **/\n}", " Summary.\nMore.\n"},
		{"jsdoc star without space", "function f() {\n/*\n *a\n *\tb\n*/\n}", "\na\n\tb\n"},
		{"jsdoc crlf", "function f() {\r\n  /**\r\n   * a\r\n   */\r\n}", "\na\n"},
		{"jsdoc blank line without star", "function f() {\n/**\n * a\n\n * b\n */\n}", "\na\n\nb\n"},
		{"plain block comment keeps indentation", "function f() {\n  /*\n    Args:\n      a: x\n  */\n}", "\n    Args:\n      a: x\n"},
		{"not every line starred", "function f() {\n  /*\n   * a\n   b\n  */\n}", "\n   * a\n   b\n"},
		{"empty comment", "function f() { /**/ }", ""},
		{"starred empty comment", "function f() { /***/ }", ""},
		{"first block comment wins", "function f() { /* first */ /* second */ }", " first "},
		{"line comments skipped", "function f() {\n  // not this\n  /* this */\n}", " this "},
		{"block comment before a string", "function f() { /* c */ 'doc' }", " c "},
		{"only line comments", "function f() {\n  // a\n  // b\n  return 1\n}", ""},
		{"comment before the body is not a docstring", "function f() /* no */ { return 1 }", ""},
		{"comment after the first statement", "function f() { return 1; /** late */ }", ""},
		{"double-quoted string", `function f() { "Doc.\nMore."; return 1 }`, "Doc.\nMore."},
		{"single-quoted string", `function f() { 'Doc.' }`, "Doc."},
		{"template string", "function f() { `Doc\\t${'x'.length ? '' : ''}`; }", ""},
		{"template without substitution", "function f() {\n  `Line 1\n  Line 2`\n  return 1\n}", "Line 1\n  Line 2"},
		{"string then newline then statement", "function f() {\n  'Doc.'\n  return 1\n}", "Doc."},
		{"string then newline then number", "function f() {\n  'Doc.'\n  1\n}", "Doc."},
		{"string then newline then block", "function f() {\n  'Doc.'\n  { }\n}", "Doc."},
		{"string then newline then not", "function f() {\n  'Doc.'\n  !x\n}", "Doc."},
		{"string then comment with newline", "function f() { 'Doc.' /*\n*/ x() }", "Doc."},
		{"string then line comment", "function f() { 'Doc.' // note\n x() }", "Doc."},
		{"string continued by operator", "function f() { 'a' + x }", ""},
		{"string continued on next line", "function f() {\n  'a'\n  .trim()\n}", ""},
		{"string continued by call", "function f() {\n  'a'\n  (x)\n}", ""},
		{"string continued by in", "function f() {\n  'a'\n  in x\n}", ""},
		{"string with bad template escape", "function f() { `\\u{zz}` }", ""},
		{"use strict skipped for a comment", "function f() { 'use strict'; /** Doc. */ }", " Doc. "},
		{"use strict skipped for a string", `function f() { "use strict"; "Doc." }`, "Doc."},
		{"use strict without semicolon", "function f() {\n  'use strict'\n  'Doc.'\n}", "Doc."},
		{"use strict alone", `function f() { "use strict" }`, ""},
		{"lone surrogate in a docstring", `function f() { "a\uD800b" }`, "a\ufffdb"},
		{"escaped use strict is a docstring", `function f() { "use\x20strict" }`, "use strict"},
		{"arrow block body", "(a) => { /** Doc. */ return a }", " Doc. "},
		{"arrow expression body", "(a) => 'Doc.'", ""},
		{"method", "m(a) {\n  'Doc.'\n}", "Doc."},
		{"first statement is code", "function f() { return 'Doc.' }", ""},
		{"empty body", "function f() {}", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse("f", tc.src)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.Doc, "got %q, want %q", got.Doc, tc.want)
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name   string
		fnName string
		src    string
		want   string // a part of the message
	}{
		{"native code", "push", "function push() { [native code] }", `function "push" is native code`},
		{"native getter", "get size", "function get size() { [native code] }", "native code"},
		{"native multi-line", "push", "function push() {\n    [native code]\n}", "native code"},
		{"bound function", "bound f", "function () { [native code] }", `function "bound f" is a bound function`},
		{"class", "X", "class X { m() {} }", "it is a class, not a function"},
		{"anonymous class", "", "class { }", "the anonymous function: it is a class"},
		{"derived class", "Y", "class extends X {}", "class"},
		{"getter", "x", "get x() { return 1 }", "it is a getter"},
		{"setter", "x", "set x(v) {}", "it is a setter"},
		{"static getter", "x", "static get x() { return 1 }", "getter"},
		{"computed getter", "x", "get [k]() {}", "getter"},
		{"array pattern", "f", "function f([a, b]) {}", "parameter 1 is an array pattern"},
		{"rest pattern", "f", "(...[a]) => a", "rest parameter 1 is a pattern"},
		{"rest object pattern", "f", "(a, ...{b}) => b", "rest parameter 2 is a pattern"},
		{"second destructured", "f", "({a}, {b}) => a", "parameter 2 is a second destructured object"},
		{"computed key", "f", "({[k]: v}) => v", "computed key"},
		{"nested pattern too deep", "f", "({a: " + strings.Repeat("{a: ", 64) + "x" + strings.Repeat("}", 65) + ") => 1", "patterns nest deeper than 64 levels"},
		{"nested pattern unclosed", "f", "({a: {b, c) => 1", `expected "," or "}" in the pattern of parameter 1, found ")"`},
		{"rest not last", "f", "(...a, b) => 1", "rest parameter 1 must be the last"},
		{"rest with default", "f", "(...a = []) => 1", "rest parameter 1 cannot have a default"},
		{"rest element not last", "f", "({...a, b}) => 1", "the rest element ...a in parameter 1 must be the last"},
		{"rest without name", "f", "(...) => 1", "expected a name in parameter 1"},
		{"reserved word", "f", "function f(true) {}", `"true" is a reserved word`},
		{"reserved shorthand", "f", "({class}) => 1", `"class" is a reserved word`},
		{"reserved alias", "f", "({a: if}) => 1", `"if" is a reserved word`},
		{"reserved arrow param", "f", "class => 1", `"class" is a reserved word`},
		{"number as parameter", "f", "function f(1) {}", "expected a name in parameter 1"},
		{"unterminated string", "f", `function f(a = "x) {}`, "unterminated string literal"},
		{"string with newline", "f", "function f(a = 'x\n') {}", "unterminated string literal"},
		{"unterminated template", "f", "function f(a = `x) {}", "unterminated template literal"},
		{"substitution closed by paren", "f", "function f(a = `${x) {}", `unexpected ")": brackets do not balance`},
		{"unterminated default", "f", "function f(a = `${x", `expected "," or ")" ending the default value`},
		{"unterminated comment", "f", "function f(a /* ) {}", "unterminated comment"},
		{"unterminated regex", "f", "function f(a = /x) {}", "unterminated regular expression"},
		{"regex with newline", "f", "function f(a = /x\n/) {}", "unterminated regular expression"},
		{"regex escaping the end", "f", `function f(a = /x\`, "unterminated regular expression"},
		{"unbalanced brackets", "f", "function f(a = (1]) {}", `unexpected "]": brackets do not balance`},
		{"stray closer", "f", "function f(a = ]) {}", `unexpected "]"`},
		{"template closed by paren", "f", "function f(a = `${ ( }`) {}", "brackets do not balance"},
		{"missing default", "f", "function f(a = ) {}", "missing default value after ="},
		{"missing field default", "f", "({a = }) => 1", "missing default value after ="},
		{"missing body", "f", "function f(a)", `expected "{" opening the function body, found the end of the source`},
		{"body not closed", "f", "function f(a) { return a", "the function body is not closed"},
		{"missing arrow", "f", "(a) a", `expected "=>" after the parameters`},
		{"arrow without body", "f", "(a) =>", "expected the body of the arrow function"},
		{"empty source", "f", "", "expected a function, found the end of the source"},
		{"only a comment", "f", "/* c */", "expected a function"},
		{"object literal", "f", "{}", `expected a function, an arrow function or a method, found "{"`},
		{"operator", "f", "+", "expected a function"},
		{"missing parameter list", "f", "function f {}", `expected "(" opening the parameters`},
		{"bad hex escape", "f", `function f(a = "\x4") {}`, `malformed \x escape`},
		{"bad unicode escape", "f", `function f(a = "\u12") {}`, `malformed \u escape`},
		{"code point too large", "f", `function f(a = "\u{110000}") {}`, `malformed \u escape`},
		{"empty code point", "f", `function f(a = "\u{}") {}`, `malformed \u escape`},
		{"unclosed code point", "f", `function f(a = "\u{41") {}`, `malformed \u escape`},
		{"escape at the end", "f", `function f(a = "\`, "unterminated escape sequence"},
		{"hex escape at the end", "f", `function f(a = "\x`, `malformed \x escape`},
		{"template escape at the end", "f", "function f(a = `\\", "unterminated template literal"},
		{"unicode escape in a name", "f", `function f(\u0061) {}`, "unicode escapes in names"},
		{"unicode escape after a name", "f", `function f(a\u0062) {}`, "unicode escapes in names"},
		{"unexpected character", "f", "function f(a ¬) {}", "unexpected character '¬'"},
		{"invalid utf-8", "f", "function f(a \xff) {}", "unexpected character"},
		{"malformed number", "f", "function f(a = 3in) {}", "malformed number"},
		{"lone hash", "f", "function f(a = #) {}", "# not followed by a name"},
		{"missing comma", "f", "function f(a b) {}", `expected "," or ")" after parameter 1, found "b"`},
		{"missing comma in pattern", "f", "({a b}) => 1", `expected "," or "}" in the pattern of parameter 1`},
		{"quoted shorthand", "f", `({"k"}) => 1`, `expected ":" after the key "\"k\""`},
		{"bigint key", "f", "({1n: a}) => a", "cannot read the key"},
		{"empty key", "f", `({"": a}) => a`, `parameter 1: the empty key "" cannot name a field`},
		{"bad key", "f", "({+}) => 1", "expected a key in the pattern of parameter 1"},
		{"unclosed computed name", "f", "[Symbol.iterator() {}", `"[" is never closed`},
		{"long token is cut", "f", "function f(a " + strings.Repeat("b", 40) + ") {}", `found "bbbbbbbbbbbbbbbbbbbbbbbb…"`},
		{"position", "f", "function f(a,\n    [b]) {}", "(line 2, column 5)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.fnName, tc.src)
			require.Error(t, err, "got %+v, want an error", got)
			assert.Equal(t, core.Signature{}, got)
			var e *core.Error
			require.True(t, errors.As(err, &e), "got %T, want *core.Error", err)
			assert.Equal(t, core.CodeInvalidTool, e.Code, "got code %s, want invalid-tool", e.Code)
			assert.True(t, errors.Is(err, core.ErrInvalidTool))
			assert.Equal(t, tc.fnName, e.Tool)
			assert.Contains(t, e.Message, tc.want)
		})
	}
}

// TestParsePathological feeds 1 MB inputs that would make a backtracking or
// recursive parser blow up; each must simply return.
func TestParsePathological(t *testing.T) {
	const n = 500_000
	cases := []struct {
		name    string
		src     string
		wantErr bool
	}{
		{"open parens", strings.Repeat("(", n), true},
		{"open parens in a default", "function f(a = " + strings.Repeat("(", n), true},
		{"open brackets in a default", "function f(a = " + strings.Repeat("[", n), true},
		{"deep array default", "function f(a = " + strings.Repeat("[", n) + strings.Repeat("]", n) + ") {}", false},
		{"long array default", "function f(a = [" + strings.Repeat("1,", n) + "]) {}", false},
		{"nested templates", "function f(a = " + strings.Repeat("`${", n), true},
		{"nested patterns", "({a: " + strings.Repeat("{a: ", n), true},
		{"open braces", "function f() {" + strings.Repeat("{", n), true},
		{"comments", "function f(" + strings.Repeat("/**/", n/2) + ") {}", false},
		{"unterminated comment", "function f(/*" + strings.Repeat("*", n), true},
		{"unterminated string", "function f(a = '" + strings.Repeat("\\u{", n/2), true},
		{"bad template escapes", "function f(a = `" + strings.Repeat("\\u{0", n/2), true},
		{"many parameters", "function f(" + strings.Repeat("a,", n) + ") {}", false},
		{"regex classes", "function f(a = /" + strings.Repeat("[", n), true},
		{"native code", "function f() {" + strings.Repeat(" ", n) + "[native code] }", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f", tc.src)
			if tc.wantErr {
				assert.ErrorIs(t, err, core.ErrInvalidTool)
			} else {
				assert.NoError(t, err)
			}
		})
	}
}
