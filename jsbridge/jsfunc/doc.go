// Package jsfunc reads the header of a JavaScript function (its parameters,
// their defaults and its docstring) from the text Function.prototype.toString
// gives, as a core.Signature. jsbridge uses it to turn a JS function
// registered as a tool into the signature core derives the tool's schema from.
//
// It is pure Go, built and tested natively and under js/wasm, and narrow on
// purpose: it tokenizes the source, reads only the header and the start of
// the body, and refuses what it cannot read rather than guess. It never
// panics (FuzzParse) and runs in time linear in the source length.
//
// parse.go holds the entry point [Parse] and the parser of the header,
// parameters, body start and docstring; lexer.go the tokens and the lexer;
// escape.go the decoding of string and template escapes; literal.go the
// conversion of default values that are JSON-like literals to JSON.
//
//	sig, err := jsfunc.Parse("add", "function add(a, b = 1) { /** Adds b to a. */ return a + b }")
//	// sig.Params: a (plain), b (plain, default 1); sig.Doc: " Adds b to a. "
package jsfunc
