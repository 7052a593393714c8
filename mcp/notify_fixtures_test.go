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
	// legacy serves the legacy SSE transport (GET /sse, POST /message)
	// instead; set it before the first request.
	legacy bool

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
	if n.legacy {
		n.serveLegacy(w, r)
		return
	}
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
		w.Header().Set("Mcp-Session-Id", "notifier-session")
		writeResult(w, m.ID, n.initResult())
	case "tools/list":
		writeResult(w, m.ID, n.listResult())
	case "tools/call":
		n.call(w, m)
	default:
		writeResult(w, m.ID, map[string]any{})
	}
}

// call answers tools/call on an SSE stream.
func (n *notifier) call(w http.ResponseWriter, m rpcMessage) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range n.callEvents(m) {
		_, _ = io.WriteString(w, ev)
		w.(http.Flusher).Flush()
	}
}

// callEvents are the events that answer a tools/call: its notifications,
// then its answer.
func (n *notifier) callEvents(m rpcMessage) []string {
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
	var token any
	_ = json.Unmarshal(p.Meta.Token, &token)
	var out []string
	switch p.Name {
	case "slow":
		for i := 1; i <= 3; i++ {
			if token != nil {
				out = append(out, event(methodProgress, map[string]any{"progressToken": token, "progress": i, "total": 3, "message": fmt.Sprintf("step %d", i)}))
			}
			if i == 2 {
				out = append(out, event(methodProgress, map[string]any{"progressToken": "someone-else", "progress": 9}))
			}
		}
	case "touch":
		out = append(out, event(methodToolsListChanged, nil))
	}
	return append(out, answerEvent(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}))
}

// answerEvent is one SSE event carrying a JSON-RPC result.
func answerEvent(id json.RawMessage, result any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	return "event: message\ndata: " + string(b) + "\n\n"
}

// initResult is the notifier's initialize result.
func (n *notifier) initResult() map[string]any {
	caps := map[string]any{"tools": map[string]any{"listChanged": !n.quiet}}
	return map[string]any{"protocolVersion": "2025-06-18", "capabilities": caps, "serverInfo": map[string]any{"name": "notifier", "version": "0"}}
}

// listResult is the notifier's tools/list result, counted.
func (n *notifier) listResult() map[string]any {
	n.lists.Add(1)
	n.mu.Lock()
	defer n.mu.Unlock()
	return map[string]any{"tools": n.tools}
}

// serveLegacy is the legacy SSE transport: GET /sse is the stream (its
// endpoint event, then every answer and notification in order), POST
// /message queues them.
func (n *notifier) serveLegacy(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		n.push <- "event: endpoint\ndata: /message\n\n"
		n.serveGet(w, r)
		return
	}
	var m rpcMessage
	_ = json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m)
	w.WriteHeader(http.StatusAccepted)
	if m.ID == nil || m.Method == "" {
		return
	}
	var evs []string
	switch m.Method {
	case "initialize":
		evs = []string{answerEvent(m.ID, n.initResult())}
	case "tools/list":
		evs = []string{answerEvent(m.ID, n.listResult())}
	case "tools/call":
		evs = n.callEvents(m)
	default:
		evs = []string{answerEvent(m.ID, map[string]any{})}
	}
	for _, ev := range evs {
		n.push <- ev
	}
}

// serveGet serves the standalone stream: the events pushed, until
// closeStream, the client or the test goes away.
func (n *notifier) serveGet(w http.ResponseWriter, r *http.Request) {
	if n.noGet && !n.legacy {
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
