//go:build js && wasm

// Command full is toolgate.wasm: the core plus MCP over URLs. Its MCP client
// talks through fetch.Transport (globalThis.fetch), never through Go's stock
// wasm transport.
package main

import (
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/jsbridge/fetch"
	"github.com/toolgate/toolgate/jsbridge/mcpops"
	"github.com/toolgate/toolgate/mcp"
)

func main() {
	b := jsbridge.New(toolgate.Version)
	pool := mcp.NewPool(&mcp.Options{BaseTransport: fetch.Transport{}})
	b.MCPFactory = pool.ProxyFactory()
	mcpops.Register(b, pool, fetch.Stats)
	jsbridge.Serve(b)
}
