// Package toolgate holds what the whole module shares: its version.
// The library itself lives in core (pure Go), mcp (MCP over URLs) and
// jsbridge (the JavaScript glue); cmd/wasm builds the WebAssembly modules.
package toolgate

import (
	_ "embed"
	"strings"
)

//go:embed version.txt
var versionFile string

// Version is the module's version, from version.txt. The npm package's
// "version" is stamped from the same file and checked against it at load.
var Version = strings.TrimSpace(versionFile)
