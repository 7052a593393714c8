// Package fetch is the full build's HTTP transport: a wire.RoundTripper
// (internal/wire) on the host's globalThis.fetch, used by the MCP client
// instead of Go's stock js/wasm transport (which Node switches off,
// go.dev/issue/57613). It imports no net/http, so that neither wasm build
// links it (nor crypto/tls), and it is a package of its own so that the
// core build, which links jsbridge but not the MCP client, stays without
// it:
//
//	pool := mcp.NewPool(&mcp.Options{BaseTransport: fetch.Transport{}})
package fetch
