package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/tests/servers/gosdk/toolset"
)

// The contract both protocol eras must keep, run against real servers of
// each era written with the Go SDK (eras_gosdk_test.go) and mcp-go
// (eras_mcpgo_test.go); tests/node/mcp-eras.test.mjs runs the same table
// against the TypeScript SDKs. The tool set and the params of the requests
// its tools send are tests/fixtures/mcp-eras/tools.json. toolgate is given
// no era option: it must land on 2026-07-28 wherever the server serves it.

const (
	eraModern = "2026-07-28"
	eraLegacy = "2025-11-25" // what the Go servers negotiate with a 2025 client
)

// eraSpec is tests/fixtures/mcp-eras/tools.json.
type eraSpec = toolset.Spec

var erasSpec = sync.OnceValues(func() (*eraSpec, error) {
	return toolset.LoadSpec("../tests/fixtures/mcp-eras/tools.json")
})

// spec is the shared tool set; the test fails when the fixture is missing.
func spec(t *testing.T) *eraSpec {
	t.Helper()
	s, err := erasSpec()
	require.NoError(t, err)
	return s
}

// eraServer is one server of the table: its URL and transport, the
// version toolgate must land on, and how it was reached.
type eraServer struct {
	name      string // the server's name in toolgate
	url       string
	transport string // "" (Streamable HTTP) or TransportSSE
	want      string // the protocol version tool.mcp.protocolVersion must report
	seen      *requestLog
	noInput   string // why the server cannot ask the client for input: the input steps are skipped
}

// requestLog records one line per HTTP request a server got ("POST
// server/discover", "GET", "POST response", ...) and counts the GET and
// subscriptions/listen requests still open.
type requestLog struct {
	mu    sync.Mutex
	lines []string
	open  atomic.Int32
}

func (l *requestLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, " | ")
}

// wrap records each request before next serves it.
func (l *requestLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		line := r.Method
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(bytes.NewReader(body))
			line += " " + rpcMethods(body)
		}
		l.mu.Lock()
		l.lines = append(l.lines, line)
		l.mu.Unlock()
		if r.Method == http.MethodGet || strings.Contains(line, "subscriptions/listen") {
			l.open.Add(1)
			defer l.open.Add(-1)
		}
		next.ServeHTTP(w, r)
	})
}

// rpcMethods names the JSON-RPC messages of a POST body: their methods,
// "response" for an answer to a server request.
func rpcMethods(body []byte) string {
	var msgs []rpcMessage
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		_ = json.Unmarshal(body, &msgs)
	} else {
		var m rpcMessage
		if json.Unmarshal(body, &m) == nil {
			msgs = append(msgs, m)
		}
	}
	names := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Method == "" {
			names = append(names, "response")
		} else {
			names = append(names, m.Method)
		}
	}
	return strings.Join(names, ",")
}

// eraHooks are client hooks that record each call; the elicitation's
// answer is the test's to set.
type eraHooks struct {
	mu          sync.Mutex
	calls       map[string][]json.RawMessage
	elicitation json.RawMessage
	changes     changeLog
}

func newEraHooks() *eraHooks {
	return &eraHooks{calls: map[string][]json.RawMessage{}, elicitation: json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`)}
}

func (h *eraHooks) record(kind string, params json.RawMessage) {
	h.mu.Lock()
	h.calls[kind] = append(h.calls[kind], append(json.RawMessage(nil), params...))
	h.mu.Unlock()
}

// take returns the params each hook was called with since the last take.
func (h *eraHooks) take(kind string) []json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	got := h.calls[kind]
	delete(h.calls, kind)
	return got
}

func (h *eraHooks) answer(a string) {
	h.mu.Lock()
	h.elicitation = json.RawMessage(a)
	h.mu.Unlock()
}

func (h *eraHooks) clientHooks() *ClientHooks {
	return &ClientHooks{
		Elicitation: &Hook{ID: "eras-e", Func: func(_ context.Context, p json.RawMessage) (json.RawMessage, error) {
			h.record("elicitation", p)
			h.mu.Lock()
			defer h.mu.Unlock()
			return h.elicitation, nil
		}},
		Sampling: &Hook{ID: "eras-s", Func: func(_ context.Context, p json.RawMessage) (json.RawMessage, error) {
			h.record("sampling", p)
			return json.RawMessage(`{"role":"assistant","model":"app-model","content":{"type":"text","text":"the app's model says hi"},"stopReason":"endTurn"}`), nil
		}},
		Roots: &Hook{ID: "eras-r", Func: func(_ context.Context, p json.RawMessage) (json.RawMessage, error) {
			h.record("roots", p)
			return json.RawMessage(`[{"uri":"file:///srv/a","name":"a"},{"uri":"file:///srv/b"}]`), nil
		}},
	}
}

// waitChange waits for a change event adding name (waitUntil bounds the
// wait, it does not time anything).
func (h *eraHooks) waitChange(t *testing.T, name string) ToolsChangedEvent {
	t.Helper()
	var got ToolsChangedEvent
	waitUntil(t, "onToolsChanged reports "+name, func() bool {
		for _, e := range h.changes.events() {
			if slices.Contains(e.Added, name) {
				got = e
				return true
			}
		}
		return false
	})
	return got
}

// protocolVersionOf is the protocolVersion a registered tool reports in
// tool.mcp (MCPTool), "" when it has none.
func protocolVersionOf(t *testing.T, m *core.Manager, name string) string {
	t.Helper()
	tool, ok := m.Get(name)
	require.True(t, ok, "%s is not registered", name)
	d, ok := tool.Callable.(interface{ MCPTool() json.RawMessage })
	require.True(t, ok, "%s is not an MCP proxy", name)
	var info struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	require.NoError(t, json.Unmarshal(d.MCPTool(), &info))
	return info.ProtocolVersion
}

// eraOutcome is a call's status with its response, or the code of its
// error: what the table compares.
type eraOutcome struct {
	Status   core.Status
	Response any
	Code     core.Code
}

func outcomeOf(fc *core.FunctionCalling) eraOutcome {
	o := eraOutcome{Status: fc.Status}
	if fc.Status == core.StatusCompleted {
		o.Response = fc.Response
		return o
	}
	var ce *core.Error
	if errors.As(fc.Err, &ce) {
		o.Code = ce.Code
	}
	return o
}

func completed(response any) eraOutcome {
	return eraOutcome{Status: core.StatusCompleted, Response: response}
}

// runEraContract runs the contract against one server, each step a subtest;
// a failed registration fails the steps after it at once.
func runEraContract(t *testing.T, srv eraServer) {
	sp := spec(t)
	q := func(tool string) string { return "mcp__" + srv.name + "__" + tool }
	hooks := newEraHooks()
	p := NewPool(nil)
	t.Cleanup(func() { _ = p.Cleanup(context.Background()) })
	m := core.NewManager(nil)
	t.Cleanup(func() { runtime.KeepAlive(m) }) // the pool follows a branch weakly
	registered := false
	call := func(t *testing.T, tool string, args map[string]any) eraOutcome {
		t.Helper()
		require.True(t, registered, "registration failed above")
		fc := invoke(t, m, q(tool), args)
		if fc.Status != core.StatusCompleted {
			t.Logf("%s: %s: %v", q(tool), fc.Status, fc.Err)
		}
		return outcomeOf(fc)
	}

	t.Run("registers the tool set with no era option", func(t *testing.T) {
		names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: srv.name, URL: srv.url, Transport: srv.transport},
			&RegisterOptions{Security: loopback(), Hooks: hooks.clientHooks(), OnToolsChanged: hooks.changes.add})
		require.NoError(t, err, "requests seen: %s", srv.seen)
		registered = true
		sort.Strings(names)
		want := make([]string, len(sp.Tools))
		for i, tool := range sp.Tools {
			want[i] = q(tool)
		}
		assert.Equal(t, want, names)
	})

	t.Run("lands on "+srv.want, func(t *testing.T) {
		require.True(t, registered, "registration failed above")
		for _, tool := range sp.Tools {
			assert.Equal(t, srv.want, protocolVersionOf(t, m, q(tool)), "%s; requests seen: %s", q(tool), srv.seen)
		}
	})

	t.Run("echo and add", func(t *testing.T) {
		assert.Equal(t, completed("hi there"), call(t, "echo", map[string]any{"text": "hi there"}))
		assert.Equal(t, completed("42"), call(t, "add", map[string]any{"a": 2, "b": 40}))
	})

	t.Run("ask accepted", func(t *testing.T) {
		skipNoInput(t, srv)
		hooks.take("elicitation")
		hooks.answer(`{"action":"accept","content":{"name":"Ada"}}`)
		assert.Equal(t, completed("hello Ada"), call(t, "ask", nil))
		got := hooks.take("elicitation")
		require.Len(t, got, 1, "the elicitation hook is called once")
		var params struct {
			Message         string          `json:"message"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		require.NoError(t, json.Unmarshal(got[0], &params))
		assert.Equal(t, sp.Ask.Message, params.Message)
		assert.JSONEq(t, string(sp.Ask.RequestedSchema), string(params.RequestedSchema))
	})

	t.Run("ask declined", func(t *testing.T) {
		skipNoInput(t, srv)
		hooks.take("elicitation")
		hooks.answer(`{"action":"decline"}`)
		assert.Equal(t, completed("declined"), call(t, "ask", nil))
		assert.Len(t, hooks.take("elicitation"), 1, "the elicitation hook is called once")
	})

	t.Run("sample", func(t *testing.T) {
		skipNoInput(t, srv)
		hooks.take("sampling")
		assert.Equal(t, completed("the app's model says hi"), call(t, "sample", nil))
		got := hooks.take("sampling")
		require.Len(t, got, 1, "the sampling hook is called once")
		var params struct {
			Messages  json.RawMessage `json:"messages"`
			MaxTokens int64           `json:"maxTokens"`
		}
		require.NoError(t, json.Unmarshal(got[0], &params))
		assert.JSONEq(t, string(sp.Sample.Messages), string(params.Messages))
		assert.Equal(t, sp.Sample.MaxTokens, params.MaxTokens)
	})

	t.Run("roots", func(t *testing.T) {
		skipNoInput(t, srv)
		hooks.take("roots")
		assert.Equal(t, completed("file:///srv/a"+sp.RootsSeparator+"file:///srv/b"), call(t, "roots", nil))
		assert.Len(t, hooks.take("roots"), 1, "the roots hook is called once")
	})

	t.Run("grow reaches OnToolsChanged", func(t *testing.T) {
		require.Equal(t, completed("grown"), call(t, "grow", nil))
		e := hooks.waitChange(t, q(sp.Grown))
		assert.Equal(t, srv.name, e.Server)
		assert.Nil(t, e.Error)
		assert.Equal(t, []string{q(sp.Grown)}, e.Added)
		assert.Equal(t, completed(sp.Grown), call(t, sp.Grown, nil))
	})

	t.Run("cleanup closes every stream toolgate held", func(t *testing.T) {
		require.NoError(t, p.Cleanup(context.Background()))
		waitUntil(t, "the GET and subscriptions/listen streams close", func() bool { return srv.seen.open.Load() == 0 })
	})
}

// skipNoInput skips a step that needs the server to ask for input, on a
// server that cannot.
func skipNoInput(t *testing.T, srv eraServer) {
	t.Helper()
	if srv.noInput != "" {
		t.Skip(srv.noInput)
	}
}
