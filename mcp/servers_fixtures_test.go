package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// Test servers: mcp-go's own server over httptest (Streamable HTTP, SSE,
// stateful or not), and a hostile JSON-RPC server whose answers each test
// writes. Everything listens on 127.0.0.1 only.

// loopback is the policy of every test that reaches a test server.
func loopback() *Security {
	return &Security{AllowURLs: true, AllowLoopbackHTTP: true}
}

// blocker counts the calls of the "block" tool in flight and holds them
// until release.
type blocker struct {
	inFlight atomic.Int32
	max      atomic.Int32
	calls    atomic.Int32
	gate     chan struct{}
	once     sync.Once
}

func newBlocker() *blocker { return &blocker{gate: make(chan struct{})} }

func (b *blocker) release() { b.once.Do(func() { close(b.gate) }) }

// fixtureTools builds the MCP server every functional test uses.
func fixtureTools(b *blocker) *server.MCPServer {
	s := server.NewMCPServer("fixture", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("Echo a message."),
		mcpgo.WithString("message", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("message", "")), nil
		})
	s.AddTool(mcpgo.NewTool("add", mcpgo.WithDescription("Add two numbers."),
		mcpgo.WithNumber("a", mcpgo.Required()), mcpgo.WithNumber("b", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(fmt.Sprint(req.GetFloat("a", 0) + req.GetFloat("b", 0))), nil
		})
	s.AddTool(mcpgo.NewTool("multi", mcpgo.WithDescription("Two text items.")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return &mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent("one"), mcpgo.NewTextContent("two")}}, nil
		})
	s.AddTool(mcpgo.NewTool("image", mcpgo.WithDescription("One image item.")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return &mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewImageContent("aGk=", "image/png")}}, nil
		})
	s.AddTool(mcpgo.NewTool("fail", mcpgo.WithDescription("Always an error result.")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultError("boom"), nil
		})
	if b != nil {
		s.AddTool(mcpgo.NewTool("block", mcpgo.WithDescription("Waits for the test.")),
			func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				b.calls.Add(1)
				n := b.inFlight.Add(1)
				defer b.inFlight.Add(-1)
				for {
					m := b.max.Load()
					if n <= m || b.max.CompareAndSwap(m, n) {
						break
					}
				}
				select {
				case <-b.gate:
				case <-ctx.Done():
				}
				return mcpgo.NewToolResultText("done"), nil
			})
	}
	return s
}

// fixtureNames are the discovered wire names of fixtureTools(nil), in order.
var fixtureNames = []string{"add", "echo", "fail", "image", "multi"}

// serveStreamable serves s over Streamable HTTP; the URL ends in /mcp.
func serveStreamable(t *testing.T, s *server.MCPServer, opts ...server.StreamableHTTPOption) (*httptest.Server, string) {
	t.Helper()
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s, opts...))
	t.Cleanup(ts.Close)
	return ts, ts.URL + "/mcp"
}

// serveSSE serves s over the legacy SSE transport; the URL ends in /sse.
func serveSSE(t *testing.T, s *server.MCPServer) (*httptest.Server, string) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	ts.Config.Handler = server.NewSSEServer(s)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts, ts.URL + "/sse"
}

// swapHandler is an http.Handler whose target tests can replace.
type swapHandler struct {
	mu sync.Mutex
	h  http.Handler
}

func (s *swapHandler) set(h http.Handler) {
	s.mu.Lock()
	s.h = h
	s.mu.Unlock()
}

func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	h.ServeHTTP(w, r)
}

// legacyOnly answers 400 to server/discover, as servers before protocol
// 2026-07-28 do, and counts the probes.
type legacyOnly struct {
	next   http.Handler
	probes atomic.Int32
}

func (l *legacyOnly) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Mcp-Protocol-Version") == ProtocolModern && r.Method == http.MethodPost {
		// A 2025-era server answers a request outside its session so.
		http.Error(w, "Bad Request: No valid session ID provided", http.StatusBadRequest)
		if body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20)); bytes.Contains(body, []byte(`"server/discover"`)) {
			l.probes.Add(1)
		}
		return
	}
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if bytes.Contains(body, []byte(`"server/discover"`)) {
			l.probes.Add(1)
			http.Error(w, "unknown method", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	l.next.ServeHTTP(w, r)
}

// rpcMessage is one JSON-RPC request or notification the hostile server got.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// hostile is a JSON-RPC server over Streamable HTTP whose tools/list and
// tools/call answers a test writes; initialize is answered at 2025-06-18,
// server/discover with 400.
type hostile struct {
	ts        *httptest.Server
	url       string
	toolsList func(w http.ResponseWriter, r *http.Request, m rpcMessage)
	toolsCall func(w http.ResponseWriter, r *http.Request, m rpcMessage)
	requests  atomic.Int32
	notified  chan rpcMessage // each notification the server gets, when not nil (buffered by the test)
	stop      chan struct{}
	mu        sync.Mutex // guards toolsList and toolsCall once requests run (setCall)
}

// setCall replaces the tools/call answer while the server runs.
func (h *hostile) setCall(f func(w http.ResponseWriter, r *http.Request, m rpcMessage)) {
	h.mu.Lock()
	h.toolsCall = f
	h.mu.Unlock()
}

// newHostile starts a hostile server; its handlers block at most until the
// test ends.
func newHostile(t *testing.T) *hostile {
	t.Helper()
	h := &hostile{stop: make(chan struct{})}
	h.ts = httptest.NewServer(h)
	h.url = h.ts.URL + "/mcp"
	t.Cleanup(func() {
		close(h.stop)
		h.ts.CloseClientConnections()
		h.ts.Close()
	})
	return h
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.requests.Add(1)
	h.mu.Lock()
	toolsList, toolsCall := h.toolsList, h.toolsCall
	h.mu.Unlock()
	if r.Method != http.MethodPost {
		http.Error(w, "no GET stream", http.StatusMethodNotAllowed)
		return
	}
	var m rpcMessage
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	if m.ID == nil {
		if h.notified != nil {
			select {
			case h.notified <- m:
			default:
			}
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	switch m.Method {
	case "server/discover":
		http.Error(w, "unknown method", http.StatusBadRequest)
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "hostile-session")
		writeResult(w, m.ID, map[string]any{
			"protocolVersion": "2025-06-18",
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]any{"name": "hostile", "version": "0"},
		})
	case "tools/list":
		if toolsList != nil {
			toolsList(w, r, m)
			return
		}
		writeResult(w, m.ID, map[string]any{"tools": []any{}})
	case "tools/call":
		if toolsCall != nil {
			toolsCall(w, r, m)
			return
		}
		writeResult(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
	default:
		writeResult(w, m.ID, map[string]any{})
	}
}

// writeResult writes a JSON-RPC result as application/json.
func writeResult(w http.ResponseWriter, id json.RawMessage, result any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// writeRPCError writes a JSON-RPC error as application/json.
func writeRPCError(w http.ResponseWriter, id json.RawMessage, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

// toolJSON is one tool descriptor with an object inputSchema.
func toolJSON(name string) map[string]any {
	return map[string]any{"name": name, "description": "tool " + name,
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}
}

// listOf answers tools/list with the given tools.
func listOf(tools ...any) func(http.ResponseWriter, *http.Request, rpcMessage) {
	return func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		writeResult(w, m.ID, map[string]any{"tools": tools})
	}
}

// waitUntil polls cond (at most 2000 times, 5 ms apart) and fails the test
// when it never holds. It bounds a wait, it does not time anything.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 2000; i++ {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("gave up waiting until %s", what)
}

// registerFixture registers the fixture server's tools into a new manager.
func registerFixture(t *testing.T, p *Pool, url, transport string) (*core.Manager, []string) {
	t.Helper()
	m := core.NewManager(nil)
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "fx", URL: url, Transport: transport},
		&RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	return m, names
}

// invoke runs one call through the manager and returns the event.
func invoke(t *testing.T, m *core.Manager, name string, args map[string]any) *core.FunctionCalling {
	t.Helper()
	a := core.NewArguments()
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	for _, k := range keys {
		a.Set(k, args[k])
	}
	fc, err := m.Invoke(context.Background(), &core.Request{Function: name, Arguments: a})
	require.NoError(t, err)
	return fc
}

// noSecret fails when s contains secret.
func noSecret(t *testing.T, s, secret string) {
	t.Helper()
	if strings.Contains(s, secret) {
		t.Fatalf("got a message containing the secret %q: %s", secret, s)
	}
}

// hostileSSE is a legacy SSE server: GET /sse sends the endpoint event the
// test chooses, then the events POSTs queue; POST answers 202 and queues
// the JSON-RPC answer to a request (initialize at 2025-06-18; tools/list as
// the test writes it, raw SSE text).
type hostileSSE struct {
	ts       *httptest.Server
	url      string
	endpoint func(base string) string
	list     func(id json.RawMessage) string
	events   chan string
	posts    atomic.Int32
	stop     chan struct{}
}

func newHostileSSE(t *testing.T, endpoint func(base string) string) *hostileSSE {
	t.Helper()
	h := &hostileSSE{endpoint: endpoint, events: make(chan string, 16), stop: make(chan struct{})}
	h.ts = httptest.NewServer(h)
	h.url = h.ts.URL + "/sse"
	t.Cleanup(func() {
		close(h.stop)
		h.ts.CloseClientConnections()
		h.ts.Close()
	})
	return h
}

func (h *hostileSSE) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", h.endpoint(h.ts.URL))
		w.(http.Flusher).Flush()
		for {
			select {
			case ev := <-h.events:
				if ev == endlessEvent {
					writeEndless(w, r)
					return
				}
				if _, err := io.WriteString(w, ev); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			case <-h.stop:
				return
			}
		}
	}
	h.posts.Add(1)
	var m rpcMessage
	_ = json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m)
	w.WriteHeader(http.StatusAccepted)
	if m.ID == nil || m.Method == "" {
		return // a notification, or the client's answer to a request of ours
	}
	var ev string
	switch m.Method {
	case "initialize":
		ev = fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"h\",\"version\":\"0\"}}}\n\n", m.ID)
	case "tools/list":
		if h.list != nil {
			ev = h.list(m.ID)
		}
	default:
		ev = fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"no\"}}\n\n", m.ID)
	}
	if ev != "" {
		select {
		case h.events <- ev:
		case <-h.stop:
		}
	}
}

// endlessEvent asks hostileSSE's stream for an event whose data line never
// ends.
const endlessEvent = "<endless>"

// writeEndless writes "data: " and then x's until the client goes away or
// 64 MiB were written.
func writeEndless(w http.ResponseWriter, r *http.Request) {
	_, _ = io.WriteString(w, "event: message\ndata: ")
	chunk := []byte(strings.Repeat("x", 32<<10))
	for i := 0; i < 2048 && r.Context().Err() == nil; i++ {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}
