package mcp

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// notifier is a Streamable HTTP server for the notification tests: it
// declares capabilities.tools.listChanged (unless quiet), lists the tools
// the test sets, serves a standalone GET stream (unless noGet) whose events
// the test pushes, and answers tools/call "slow" on an SSE stream with
// three progress notifications for the call's token and one for a foreign
// token, and "touch" with a list_changed notification before the answer.
type notifier struct {
	ts    *httptest.Server
	url   string
	quiet bool // no listChanged capability
	noGet bool // 405 to GET

	mu      sync.Mutex
	tools   []any
	eventID []string // the Last-Event-ID of each GET
	calls   []json.RawMessage

	lists   atomic.Int32 // tools/list requests
	gets    atomic.Int32 // GET streams opened
	getOpen atomic.Int32 // GET streams open now
	refused atomic.Int32 // GETs answered 405 (noGet)
	push    chan string  // raw SSE events for the open GET stream; closeStream ends it
	stop    chan struct{}
}

// requests is how many GETs were refused (noGet).
func (n *notifier) requests() int32 { return n.refused.Load() }

// closeStream asks the GET stream to end.
const closeStream = "<close>"

func newNotifier(t *testing.T, tools ...any) *notifier {
	t.Helper()
	n := &notifier{tools: tools, push: make(chan string, 64), stop: make(chan struct{})}
	n.ts = httptest.NewServer(n)
	n.url = n.ts.URL + "/mcp"
	t.Cleanup(func() {
		close(n.stop)
		n.ts.CloseClientConnections()
		n.ts.Close()
	})
	return n
}

// setTools replaces the tools tools/list answers with.
func (n *notifier) setTools(tools ...any) {
	n.mu.Lock()
	n.tools = tools
	n.mu.Unlock()
}

// lastCall is the params of the latest tools/call.
func (n *notifier) lastCall() json.RawMessage {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.calls) == 0 {
		return nil
	}
	return n.calls[len(n.calls)-1]
}

// event is one SSE event carrying a JSON-RPC notification.
func event(method string, params any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	return "event: message\ndata: " + string(b) + "\n\n"
}

func (n *notifier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		n.serveGet(w, r)
		return
	case http.MethodDelete:
		return
	}
	var m rpcMessage
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	switch m.Method {
	case "initialize":
		caps := map[string]any{"tools": map[string]any{"listChanged": !n.quiet}}
		w.Header().Set("Mcp-Session-Id", "notifier-session")
		writeResult(w, m.ID, map[string]any{"protocolVersion": "2025-06-18", "capabilities": caps,
			"serverInfo": map[string]any{"name": "notifier", "version": "0"}})
	case "tools/list":
		n.lists.Add(1)
		n.mu.Lock()
		tools := n.tools
		n.mu.Unlock()
		writeResult(w, m.ID, map[string]any{"tools": tools})
	case "tools/call":
		n.call(w, m)
	default:
		writeResult(w, m.ID, map[string]any{})
	}
}

// call answers tools/call.
func (n *notifier) call(w http.ResponseWriter, m rpcMessage) {
	n.mu.Lock()
	n.calls = append(n.calls, m.Params)
	n.mu.Unlock()
	var p struct {
		Name string `json:"name"`
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	w.Header().Set("Content-Type", "text/event-stream")
	var token any
	_ = json.Unmarshal(p.Meta.Token, &token)
	switch p.Name {
	case "slow":
		for i := 1; i <= 3; i++ {
			if token != nil {
				_, _ = io.WriteString(w, event(methodProgress, map[string]any{"progressToken": token, "progress": i, "total": 3, "message": fmt.Sprintf("step %d", i)}))
			}
			if i == 2 {
				_, _ = io.WriteString(w, event(methodProgress, map[string]any{"progressToken": "someone-else", "progress": 9}))
			}
			w.(http.Flusher).Flush()
		}
	case "touch":
		_, _ = io.WriteString(w, event(methodToolsListChanged, nil))
	}
	answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}})
	_, _ = io.WriteString(w, "event: message\ndata: "+string(answer)+"\n\n")
}

// serveGet serves the standalone stream: the events pushed, until
// closeStream, the client or the test goes away.
func (n *notifier) serveGet(w http.ResponseWriter, r *http.Request) {
	if n.noGet {
		n.refused.Add(1)
		http.Error(w, "no GET stream", http.StatusMethodNotAllowed)
		return
	}
	n.mu.Lock()
	n.eventID = append(n.eventID, r.Header.Get("Last-Event-ID"))
	n.mu.Unlock()
	n.gets.Add(1)
	n.getOpen.Add(1)
	defer n.getOpen.Add(-1)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for {
		select {
		case ev := <-n.push:
			if ev == closeStream {
				return
			}
			if _, err := io.WriteString(w, ev); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			return
		case <-n.stop:
			return
		}
	}
}

// toolDesc is a tool descriptor with a description of its own.
func toolDesc(name, description string) map[string]any {
	d := toolJSON(name)
	d["description"] = description
	return d
}
