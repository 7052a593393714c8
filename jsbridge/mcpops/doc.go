// Package mcpops holds the bridge operations behind the JS MCP surface of
// the full build (npm/lib/mcp.js): registerMcpServer, loadMcpConfig,
// loadMcpTools, checkUrl and cleanup, each a JSON payload in and a JSON
// result out, over the mcp package. It exists only for cmd/wasm/full,
// which is the only package that imports it, so the core build links no
// MCP; it is not an API for Go programs (use package mcp).
//
// It is pure Go and tested natively: the js/wasm glue in jsbridge only
// moves the bytes.
package mcpops
