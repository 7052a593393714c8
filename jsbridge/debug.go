package jsbridge

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"time"
)

// Diagnostics for tests and leak checks, reachable from JS only through
// tg[Symbol.for("toolgate.debug")]. They hold no secrets.

// asyncStats reports the async calls in flight and the js.Funcs made for
// them and not yet released; the js/wasm entry points (wasm_exports.go)
// replace it. Natively there are none.
var asyncStats = func() (pending int, liveFuncs int64) { return 0, 0 }

// registerDebugOps adds debug.stats, debug.exit, debug.echo and debug.sleep.
func registerDebugOps(b *Bridge) {
	b.RegisterAsync("debug.echo", func(_ context.Context, _ *Bridge, _ int64, payload []byte) (any, error) {
		return rawJSON(payload), nil
	})
	b.RegisterAsync("debug.sleep", func(ctx context.Context, _ *Bridge, _ int64, payload []byte) (any, error) {
		ms, _ := strconv.Atoi(string(payload))
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
			return true, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	b.Register("debug.stats", func(b *Bridge, _ int64, _ []byte) (any, error) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		tools, branches := b.counts()
		pending, funcs := asyncStats()
		return map[string]any{
			"tools": tools, "branches": branches, "pendingAsync": pending,
			"liveFuncs": funcs, "heapAlloc": ms.HeapAlloc, "goroutines": runtime.NumGoroutine(),
		}, nil
	})
	b.Register("debug.exit", func(*Bridge, int64, []byte) (any, error) {
		os.Exit(3) // the JS loader's restart path is what this tests
		return nil, nil
	})
}
