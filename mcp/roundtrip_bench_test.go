package mcp

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/toolgate/toolgate/core"
)

// The client's cost around each request, natively against the fixture
// server on loopback (both sides in this process: compare allocations and
// time between commits, not against another client). bench/figures/mcp-*.mjs
// measure the wasm build against the official SDK.

func benchServer(b *testing.B, transport string) string {
	b.Helper()
	s := fixtureTools(nil)
	if transport == TransportSSE {
		ts := httptest.NewUnstartedServer(nil)
		ts.Config.Handler = server.NewSSEServer(s)
		ts.Start()
		b.Cleanup(ts.Close)
		return ts.URL + "/sse"
	}
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	b.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func benchEcho(b *testing.B, transport string) {
	url := benchServer(b, transport)
	p := NewPool(nil)
	b.Cleanup(func() { _ = p.Cleanup(context.Background()) })
	m := core.NewManager(nil)
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "fx", URL: url, Transport: transport},
		&RegisterOptions{Security: loopback(), ToolNames: []string{"echo"}})
	if err != nil {
		b.Fatal(err)
	}
	args := core.NewArguments()
	args.Set("message", "hi")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fc, err := m.Invoke(context.Background(), &core.Request{Function: names[0], Arguments: args})
		if err != nil || fc.Status != core.StatusCompleted {
			b.Fatalf("echo: %v %+v", err, fc)
		}
	}
}

func BenchmarkEchoStreamable(b *testing.B) { benchEcho(b, TransportStreamableHTTP) }
func BenchmarkEchoSSE(b *testing.B)        { benchEcho(b, TransportSSE) }

func benchRegister(b *testing.B, transport string) {
	url := benchServer(b, transport)
	p := NewPool(nil)
	b.ReportAllocs()
	for b.Loop() {
		m := core.NewManager(nil)
		if _, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "fx", URL: url, Transport: transport},
			&RegisterOptions{Security: loopback()}); err != nil {
			b.Fatal(err)
		}
		_ = p.Cleanup(context.Background())
	}
}

func BenchmarkRegisterStreamable(b *testing.B) { benchRegister(b, TransportStreamableHTTP) }
func BenchmarkRegisterSSE(b *testing.B)        { benchRegister(b, TransportSSE) }
