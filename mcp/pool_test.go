package mcp

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// onlyEntry returns the pool's single entry.
func onlyEntry(t *testing.T, p *Pool) *entry {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	require.Len(t, p.entries, 1)
	for _, e := range p.entries {
		return e
	}
	return nil
}

// liveConn returns the entry's current client, or nil.
func liveConn(e *entry) *conn {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.c
}

// initCounter counts the initialize requests (sessions started) that
// reach next.
type initCounter struct {
	next  http.Handler
	inits atomic.Int32
}

func (c *initCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.Body != nil {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"method":"initialize"`)) {
			c.inits.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	c.next.ServeHTTP(w, r)
}

func TestPoolSharesOneSessionAcrossConcurrentCalls(t *testing.T) {
	for _, transport := range []string{TransportStreamableHTTP, TransportSSE} {
		t.Run(transport, func(t *testing.T) {
			const limit, calls = 2, 20
			b := newBlocker()
			defer b.release()
			s := fixtureTools(b)
			var h http.Handler = server.NewStreamableHTTPServer(s)
			path := "/mcp"
			if transport == TransportSSE {
				h, path = server.NewSSEServer(s), "/sse"
			}
			counter := &initCounter{next: h}
			ts := httptest.NewServer(counter)
			defer ts.Close()
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, MaxConnectionsPerServer: limit}
			// Sessions are the legacy wire's: pinned (the modern wire has none to share).
			cfg := &ServerConfig{Name: "fx", URL: ts.URL + path, Transport: transport, ProtocolVersion: ProtocolLegacy}
			_, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: sec})
			require.NoError(t, err)

			results := make([]*core.FunctionCalling, calls)
			var wg sync.WaitGroup
			for i := range results {
				wg.Add(1)
				go func() {
					defer wg.Done()
					fc, err := m.Invoke(context.Background(), &core.Request{Function: "mcp__fx__block", Arguments: core.NewArguments()})
					if err == nil {
						results[i] = fc
					}
				}()
			}
			waitUntil(t, "every call is in flight at the server", func() bool { return b.inFlight.Load() == calls })
			b.release()
			wg.Wait()
			for i, fc := range results {
				require.NotNil(t, fc, "call %d", i)
				assert.Equal(t, core.StatusCompleted, fc.Status, "call %d: got %s (%v), want completed", i, fc.Status, fc.Err)
				assert.Equal(t, "done", fc.Response)
			}
			assert.Equal(t, int32(calls), b.max.Load(), "got at most %d in flight at the server, want all %d", b.max.Load(), calls)
			assert.Equal(t, int32(calls), b.calls.Load())
			assert.LessOrEqual(t, counter.inits.Load(), int32(limit), "got %d sessions, want at most the cap", counter.inits.Load())
			assert.Equal(t, int32(1), counter.inits.Load(), "got %d sessions, want one shared by every call", counter.inits.Load())
		})
	}
}

func TestPoolCallHonoursItsContext(t *testing.T) {
	b := newBlocker()
	defer b.release()
	_, url := serveStreamable(t, fixtureTools(b))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, MaxConnectionsPerServer: 1}
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "fx", URL: url}, &RegisterOptions{Security: sec})
	require.NoError(t, err)
	first := make(chan struct{})
	go func() {
		defer close(first)
		invoke(t, m, "mcp__fx__block", nil)
	}()
	waitUntil(t, "the first call runs", func() bool { return b.inFlight.Load() == 1 })

	tool, _ := m.Get("mcp__fx__block")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := tool.Callable.Call(ctx, core.NewArguments())
		errc <- err
	}()
	waitUntil(t, "the second call runs beside the first, on the same session", func() bool { return b.inFlight.Load() == 2 })
	cancel()
	err = <-errc
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, core.CodeTransport, ce.Code)
	assert.Equal(t, "mcp__fx__block", ce.Tool)
	assert.Contains(t, ce.Message, "cancelled")
	assert.ErrorIs(t, err, context.Canceled)
	b.release()
	<-first
}

func TestPoolReplacesADeadClient(t *testing.T) {
	t.Run("session ended (HTTP 404)", func(t *testing.T) {
		sw := &swapHandler{}
		sw.set(&legacyOnly{next: server.NewStreamableHTTPServer(fixtureTools(nil), server.WithStateful(true))})
		ts := httptest.NewServer(sw)
		defer ts.Close()
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		m, _ := registerFixture(t, p, ts.URL+"/mcp", "")
		fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "before"})
		require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
		before := liveConn(onlyEntry(t, p))

		// A restart: the sessions are gone.
		sw.set(&legacyOnly{next: server.NewStreamableHTTPServer(fixtureTools(nil), server.WithStateful(true))})
		fc = invoke(t, m, "mcp__fx__echo", map[string]any{"message": "after"})
		require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v), want the call retried on a new client", fc.Status, fc.Err)
		assert.Equal(t, "after", fc.Response)
		after := liveConn(onlyEntry(t, p))
		require.NotNil(t, after)
		assert.NotSame(t, before, after, "got the same client, want it replaced")
	})
	t.Run("SSE stream lost", func(t *testing.T) {
		ts, url := serveSSE(t, fixtureTools(nil))
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		m, _ := registerFixture(t, p, url, TransportSSE)
		before := liveConn(onlyEntry(t, p))
		require.NotNil(t, before)
		ts.CloseClientConnections()
		waitUntil(t, "the client notices the lost stream", func() bool { return before.dead.Load() })
		fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "again"})
		require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
		assert.Equal(t, "again", fc.Response)
		assert.NotSame(t, before, liveConn(onlyEntry(t, p)))
	})
}

func TestPoolProbesAnOriginOnceAndAPinnedEraNever(t *testing.T) {
	legacy := &legacyOnly{next: server.NewStreamableHTTPServer(fixtureTools(nil), server.WithStateful(true))}
	ts := httptest.NewServer(legacy)
	defer ts.Close()
	p := NewPool(nil)
	m, _ := registerFixture(t, p, ts.URL+"/mcp", "")
	require.NoError(t, p.Cleanup(context.Background()))
	fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "x"}) // a new connection: the era is cached
	require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
	assert.Equal(t, int32(1), legacy.probes.Load(), "got %d server/discover probes, want one per origin", legacy.probes.Load())

	pinned := NewPool(nil)
	defer pinned.Cleanup(context.Background())
	_, err := RegisterServer(context.Background(), pinned, core.NewManager(nil),
		&ServerConfig{Name: "fx", URL: ts.URL + "/mcp", ProtocolVersion: ProtocolLegacy}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	assert.Equal(t, int32(1), legacy.probes.Load(), "a config pinned to %s sends no probe", ProtocolLegacy)
	require.NoError(t, p.Cleanup(context.Background()))
}

func TestPoolKeysByPolicy(t *testing.T) {
	_, url := serveStreamable(t, fixtureTools(nil))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	cfg := &ServerConfig{Name: "fx", URL: url}
	for _, sec := range []*Security{loopback(), {AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: 1234}, loopback()} {
		_, err := RegisterServer(context.Background(), p, core.NewManager(nil), cfg, &RegisterOptions{Security: sec})
		require.NoError(t, err)
	}
	p.mu.Lock()
	n := len(p.entries)
	p.mu.Unlock()
	assert.Equal(t, 2, n, "got %d pool entries, want one per policy", n)
}
