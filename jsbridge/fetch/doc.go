// Package fetch is the full build's HTTP transport: an http.RoundTripper on
// the host's globalThis.fetch, used by the MCP client instead of Go's stock
// js/wasm transport (which Node switches off, go.dev/issue/57613). It is a
// package of its own so that the core build, which links jsbridge but must
// not link net/http, stays without it:
//
//	client := &http.Client{Transport: fetch.Transport{}}
package fetch
