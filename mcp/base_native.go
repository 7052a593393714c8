//go:build !js

package mcp

import "github.com/toolgate/toolgate/internal/wire/nethttp"

// Natively a guard made without a base transport sends with net/http's
// DefaultTransport. Under js this file is left out, so that the full wasm
// build, which passes jsbridge/fetch, links no net/http.
func init() {
	defaultBase = nethttp.Transport{}
}
