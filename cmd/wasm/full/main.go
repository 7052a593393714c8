//go:build js && wasm

// Command full is toolgate.wasm: the core plus MCP over URLs.
package main

import (
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/jsbridge"
)

func main() {
	b := jsbridge.New(toolgate.Version)
	// MCP wiring arrives with the mcp package (b.MCPFactory, async ops).
	jsbridge.Serve(b)
}
