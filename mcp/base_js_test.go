//go:build js

package mcp

import "github.com/toolgate/toolgate/internal/wire/nethttp"

// The js/wasm go tests reach their httptest servers on Go's in-process
// network, through net/http's transport, as the native tests do; the wasm
// build itself has no default (base_native.go).
func init() {
	defaultBase = nethttp.Transport{}
}
