// Package jsbridge is the glue the two WebAssembly builds (cmd/wasm/core and
// cmd/wasm/full) put between the Go core and the JS loader in npm/lib: a
// Bridge holding tools and branches by integer handle, a table of named
// operations over JSON bytes (tool.*, branch.*, and the full build's mcp.*),
// and the conversion of what JS hands over (tool specs, references, values)
// into core types and back. It is not an API for Go programs.
//
// Most of it is pure Go, built and tested natively: the Bridge and its
// operations are exercised without a JS engine. Only wasm_exports.go (Serve
// and the entry points it hands JS through globalThis.__toolgate_boot) and
// debug_js.go (diagnostic operations) are built for js/wasm alone.
//
// A JS function's parameters and docstring are read from its source by
// jsbridge/jsfunc; the full build's HTTP transport is jsbridge/fetch.
package jsbridge
