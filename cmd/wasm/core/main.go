//go:build js && wasm

// Command core is toolgate-core.wasm: the core build, without MCP and without
// net/http.
package main

import (
	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/jsbridge"
)

func main() {
	jsbridge.Serve(jsbridge.New(toolgate.Version))
}
