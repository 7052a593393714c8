// Package jsbridge is the glue the two WebAssembly builds (cmd/wasm/core and
// cmd/wasm/full) put between the Go core and the JS loader in npm/lib: a
// Bridge holding tools and branches by integer handle, a table of named
// operations over JSON bytes (tool.*, branch.*, and the full build's mcp.*),
// and the conversion of what JS hands over (tool specs, references, values)
// into core types and back. It is not an API for Go programs.
//
// Most of it is pure Go, built and tested natively: the Bridge and its
// operations are exercised without a JS engine. Only wasm_exports.go (Serve
// and the entry points it hands JS through globalThis.__toolgate_boot) is
// built for js/wasm alone.
//
// Its subpackages: jsbridge/jsfunc reads a JS function's parameters and
// docstring from its source; jsbridge/mcpops holds the full build's MCP
// operations; jsbridge/fetch is the full build's HTTP transport over
// globalThis.fetch (a wire.RoundTripper, without net/http).
package jsbridge
