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

// ballast is memory debug.grow holds, so tests can push the instance's
// linear memory past 2 GiB and keep calling.
var ballast [][]byte

// registerDebugOps adds debug.stats, debug.exit, debug.echo, debug.sleep,
// debug.grow, debug.host and debug.hostNotify (a host call of the hook
// whose id is the handle, with the payload: the tests of host calls), and
// debug.laxProgram (the coercion plan of the tool whose handle is given, as
// the JS evaluator receives it: the lax differential test's).
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
	b.RegisterAsync("debug.host", opDebugHost)
	b.Register("debug.hostNotify", func(_ *Bridge, handle int64, payload []byte) (any, error) {
		HostNotify(handle, payload)
		return true, nil
	})
	b.Register("debug.stats", func(b *Bridge, _ int64, _ []byte) (any, error) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		tools, branches := b.counts()
		pending, funcs := asyncStats()
		return map[string]any{
			"tools": tools, "branches": branches, "pendingAsync": pending,
			"liveFuncs": funcs, "heapAlloc": ms.HeapAlloc, "totalAlloc": ms.TotalAlloc, "goroutines": runtime.NumGoroutine(),
		}, nil
	})
	b.Register("debug.grow", func(_ *Bridge, _ int64, payload []byte) (any, error) {
		mib, _ := strconv.Atoi(string(payload)) // 0 releases everything held
		if mib <= 0 {
			ballast = nil
			runtime.GC()
			return 0, nil
		}
		for i := 0; i < mib; i++ {
			chunk := make([]byte, 1<<20)
			for j := 0; j < len(chunk); j += 4096 {
				chunk[j] = 1 // touch every page, so the memory is really there
			}
			ballast = append(ballast, chunk)
		}
		return len(ballast), nil
	})
	b.Register("debug.laxProgram", func(b *Bridge, handle int64, _ []byte) (any, error) {
		t, err := b.tool(handle)
		if err != nil {
			return nil, err
		}
		if p := t.LaxProgram(); p != nil {
			return rawJSON(p), nil
		}
		return nil, nil
	})
	b.Register("debug.exit", func(*Bridge, int64, []byte) (any, error) {
		os.Exit(3) // the JS loader's restart path is what this tests
		return nil, nil
	})
}

// opDebugHost is debug.host: CallHost of the hook whose id is handle, with
// payload; its answer is the hook's result.
func opDebugHost(ctx context.Context, _ *Bridge, handle int64, payload []byte) (any, error) {
	out, err := CallHost(ctx, handle, payload)
	if err != nil {
		return nil, err
	}
	return out, nil
}
