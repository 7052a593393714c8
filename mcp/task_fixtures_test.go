package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// taskServer is an MCP server of either era whose tool "research"
// (execution.taskSupport "required") and "quick" ("optional") run as
// tasks, following a script: each tasks/get answers the next step
// ("working", "input", "completed", "failed", "cancelled"; the last one
// repeats). On the 2025-11-25 wire "input" is status input_required and
// the server's elicitation arrives on the tasks/result stream, with a
// progress notification, before the result; on the 2026-07-28 wire it is
// an inputRequests map, answered with tasks/update. What the client sent
// is recorded.
type taskServer struct {
	t      *testing.T
	modern bool
	ts     *httptest.Server
	url    string
	taskID string
	poll   any  // the pollInterval(Ms) sent; nil: none
	noCaps bool // a legacy server that declares no tasks
	// hold delays the legacy tasks/result's answer after the input (the
	// task works on): the answer takes longer than one request may.
	hold time.Duration
	// preInput: a modern tools/call first answers input_required (a multi
	// round-trip round), and creates the task only when retried with it.
	preInput bool
	// seed is the status of a modern task handle ("" : working); a handle
	// is the seed state only, without input requests, result or error.
	seed string

	mu        sync.Mutex
	script    []string
	gets      int
	calls     []json.RawMessage // tools/call params
	taskCalls []rpcMessage      // tasks/* requests
	names     []string          // their Mcp-Name headers
	updates   []json.RawMessage // tasks/update inputResponses
	token     json.RawMessage   // the tools/call progress token
	answers   chan json.RawMessage
	cancelled chan string // tasks/cancel's taskId
	inputKey  func(n int) string
}

// newTaskServer starts a task server of the era (modern: 2026-07-28).
func newTaskServer(t *testing.T, modern bool, script ...string) *taskServer {
	t.Helper()
	s := &taskServer{t: t, modern: modern, taskID: "task-1", poll: 0, script: script,
		answers: make(chan json.RawMessage, 4), cancelled: make(chan string, 4),
		inputKey: func(int) string { return "name" }}
	s.ts = httptest.NewServer(s)
	s.url = s.ts.URL + "/mcp"
	t.Cleanup(func() {
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
	return s
}

// register registers the server's tools with hooks into a new manager.
// manager registers the server on a pool of its own, cleaned up with the
// test.
func (s *taskServer) manager(t *testing.T, o *RegisterOptions) *core.Manager {
	p := NewPool(nil)
	t.Cleanup(func() { p.Cleanup(context.Background()) })
	return s.register(t, p, o)
}

func (s *taskServer) register(t *testing.T, p *Pool, o *RegisterOptions) *core.Manager {
	t.Helper()
	if o == nil {
		o = &RegisterOptions{}
	}
	o.Security = loopback()
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "ts", URL: s.url}, o)
	require.NoError(t, err)
	return m
}

// step is the script's step for the n-th tasks/get (0-based).
func (s *taskServer) step(n int) string {
	if n < len(s.script) {
		return s.script[n]
	}
	return s.script[len(s.script)-1]
}

func (s *taskServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "no GET stream", http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var m struct {
		rpcMessage
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(body, &m) != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	if m.Method == "" { // an answer to our elicitation
		s.answers <- m.Result
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if m.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if strings.HasPrefix(m.Method, "tasks/") {
		s.mu.Lock()
		s.taskCalls = append(s.taskCalls, m.rpcMessage)
		s.names = append(s.names, r.Header.Get("Mcp-Name"))
		s.mu.Unlock()
	}
	s.serve(w, r, m.rpcMessage)
}

// serve answers one request.
func (s *taskServer) serve(w http.ResponseWriter, r *http.Request, m rpcMessage) {
	var p struct {
		TaskID string          `json:"taskId"`
		Meta   json.RawMessage `json:"_meta"`
		Input  json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "server/discover":
		if !s.modern {
			http.Error(w, "unknown method", http.StatusBadRequest)
			return
		}
		s.write(w, m.ID, map[string]any{"supportedVersions": []string{"2026-07-28"},
			"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{extTasks: map[string]any{}}},
			"serverInfo":   map[string]any{"name": "tasks", "version": "0"}})
	case "initialize":
		caps := map[string]any{"tools": map[string]any{}}
		if !s.noCaps {
			caps["tasks"] = map[string]any{"cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
		}
		s.write(w, m.ID, map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps,
			"serverInfo": map[string]any{"name": "tasks", "version": "0"}})
	case "tools/list":
		research, quick := toolJSON("research"), toolJSON("quick")
		research["execution"] = map[string]any{"taskSupport": "required"}
		quick["execution"] = map[string]any{"taskSupport": "optional"}
		s.write(w, m.ID, map[string]any{"tools": []any{research, quick}})
	case "tools/call":
		s.toolsCall(w, m)
	case "tasks/get":
		s.mu.Lock()
		n := s.gets
		s.gets++
		s.mu.Unlock()
		s.write(w, m.ID, s.task(s.step(n), n))
	case "tasks/result":
		s.result(w, r, m)
	case "tasks/update":
		s.mu.Lock()
		s.updates = append(s.updates, p.Input)
		s.mu.Unlock()
		s.write(w, m.ID, map[string]any{})
	case "tasks/cancel":
		s.cancelled <- p.TaskID
		s.write(w, m.ID, map[string]any{})
	default:
		s.write(w, m.ID, map[string]any{})
	}
}

// toolsCall answers a tools/call with a task handle (a legacy call only
// when task-augmented: otherwise an ordinary result).
func (s *taskServer) toolsCall(w http.ResponseWriter, m rpcMessage) {
	var p struct {
		Task json.RawMessage `json:"task"`
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	s.mu.Lock()
	s.calls = append(s.calls, m.Params)
	s.token = p.Meta.Token
	s.mu.Unlock()
	if s.preInput && !strings.Contains(string(m.Params), `"requestState":"ask-1"`) {
		s.write(w, m.ID, map[string]any{"resultType": "input_required", "requestState": "ask-1",
			"inputRequests": map[string]any{"first": map[string]any{"method": "elicitation/create", "params": map[string]any{
				"mode": "form", "message": "before?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}}}}})
		return
	}
	if !s.modern && p.Task == nil {
		s.write(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ordinary"}}})
		return
	}
	task := s.task("working", -1)
	if !s.modern {
		s.write(w, m.ID, map[string]any{"task": task})
		return
	}
	if s.seed != "" {
		task["status"] = s.seed
	}
	task["resultType"] = "task"
	s.write(w, m.ID, task)
}

// task is the task object of a step.
func (s *taskServer) task(step string, n int) map[string]any {
	status := step
	if step == "input" {
		status = "input_required"
	}
	t := map[string]any{"taskId": s.taskID, "status": status, "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z"}
	key := "pollInterval"
	if s.modern {
		key = "pollIntervalMs"
		t["ttlMs"] = 60000
	}
	if s.poll != nil {
		t[key] = s.poll
	}
	if !s.modern {
		return t
	}
	switch step {
	case "input":
		t["inputRequests"] = map[string]any{s.inputKey(n): map[string]any{"method": "elicitation/create",
			"params": map[string]any{"mode": "form", "message": "who?", "requestedSchema": map[string]any{"type": "object",
				"properties": map[string]any{"name": map[string]any{"type": "string"}}}}}}
	case "completed":
		s.mu.Lock()
		var said string
		if len(s.updates) > 0 {
			said = string(s.updates[len(s.updates)-1])
		}
		s.mu.Unlock()
		t["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": "done " + said}}}
	case "failed":
		t["error"] = map[string]any{"code": -32603, "message": "the research broke"}
		t["statusMessage"] = "broke"
	}
	return t
}

// result answers the legacy tasks/result: for a task that needs input, an
// SSE stream carrying the elicitation (with the related-task _meta) and,
// once answered, a progress notification and the result; otherwise the
// result at once.
func (s *taskServer) result(w http.ResponseWriter, r *http.Request, m rpcMessage) {
	related := map[string]any{metaRelatedTask: map[string]any{"taskId": s.taskID}}
	s.mu.Lock()
	step, token := s.step(s.gets-1), s.token
	s.mu.Unlock()
	if step == "failed" {
		s.write(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "it broke"}}, "isError": true, "_meta": related})
		return
	}
	if step != "input" {
		s.write(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}, "_meta": related})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		w.(http.Flusher).Flush()
	}
	event(map[string]any{"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create", "params": map[string]any{
		"message": "who?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		"_meta": related}})
	var answer json.RawMessage
	select {
	case answer = <-s.answers:
	case <-r.Context().Done():
		return
	case <-time.After(10 * time.Second):
		return
	}
	select {
	case <-time.After(s.hold): // the task works on after its input
	case <-r.Context().Done():
		return
	}
	if token != nil {
		event(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress", "params": map[string]any{"progressToken": token, "progress": 3, "total": 4}})
	}
	event(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
		"content": []any{map[string]any{"type": "text", "text": "done " + string(answer)}}, "_meta": related}})
}

// write answers id with result (a modern result gets resultType).
func (s *taskServer) write(w http.ResponseWriter, id json.RawMessage, result map[string]any) {
	if s.modern {
		if _, ok := result["resultType"]; !ok {
			result["resultType"] = "complete"
		}
	}
	writeResult(w, id, result)
}

// tasksSent returns the methods of the tasks/* requests received, in order.
func (s *taskServer) tasksSent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, len(s.taskCalls))
	for i, m := range s.taskCalls {
		out[i] = m.Method
	}
	return out
}

// setBound sets a task bound for one test.
func setBound[T any](t *testing.T, v *T, to T) {
	old := *v
	*v = to
	t.Cleanup(func() { *v = old })
}
