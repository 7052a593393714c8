//go:build js && wasm

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
func registerDebugAsync(b *Bridge) {
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
}

func registerDebugOps(b *Bridge) {
	registerDebugAsync(b)
	b.Register("debug.stats", func(b *Bridge, _ int64, _ []byte) (any, error) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		tools, branches := b.Counts()
		cancelMu.Lock()
		pending := len(cancels)
		cancelMu.Unlock()
		return map[string]any{
			"tools": tools, "branches": branches, "pendingAsync": pending,
			"liveFuncs": liveFuncs.Load(), "heapAlloc": ms.HeapAlloc, "goroutines": runtime.NumGoroutine(),
		}, nil
	})
	b.Register("debug.exit", func(*Bridge, int64, []byte) (any, error) {
		os.Exit(3)
		return nil, nil
	})
}
