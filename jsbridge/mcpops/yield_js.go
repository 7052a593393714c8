//go:build js && wasm

package mcpops

import (
	"syscall/js"

	"github.com/toolgate/toolgate/mcp"
)

// The MCP client's pace points (mcp/pace.go) pause by waiting for a
// macrotask of the host: a Go timer alone can be overtaken by microtasks
// that re-enter Go, and then the host's timers and I/O still wait.
func init() {
	mcp.SetPaceYield(macrotask)
}

// macrotask blocks the calling goroutine until the host has run one
// macrotask: setImmediate where there is one (Node, Deno, Bun), else
// setTimeout 0. Other goroutines run meanwhile; it never blocks inside a
// js.FuncOf body (the callback only signals a buffered channel).
func macrotask() {
	done := make(chan struct{}, 1)
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		done <- struct{}{}
		return nil
	})
	schedule := js.Global().Get("setImmediate")
	if schedule.Type() != js.TypeFunction {
		schedule = js.Global().Get("setTimeout")
	}
	if schedule.Type() != js.TypeFunction {
		f.Release()
		return // no way to wait for the host: no pause
	}
	schedule.Invoke(f, 0)
	<-done
}
