// Package jsbridge is the glue between the Go core and JavaScript: it carries
// values, promises, errors and function handles across the WebAssembly
// boundary and turns what JS hands over into core types.
//
// Most of the package is built only for js/wasm (files tagged
// //go:build js && wasm). The pure parts build and are tested natively; among
// them ParseFunctionSource, which reads a JS function's parameters and
// docstring from the text Function.prototype.toString gives:
//
//	sig, err := jsbridge.ParseFunctionSource("add", "function add(a, b = 1) { /** Adds b to a. */ return a + b }")
//	// sig.Params: a (plain), b (plain, default 1); sig.Doc: " Adds b to a. "
package jsbridge
