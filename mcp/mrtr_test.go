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

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// interviewTools is an mcp-go server whose tool "interview" asks for input
// in the multi-round-trip style, which mcp-go serves on both eras (as
// input_required results on 2026-07-28, as its own requests before): round
// one an elicitation, a sampling and the roots at once, round two a
// confirmation; then it answers with what it was told and the states it saw.
func interviewTools() *server.MCPServer {
	s := server.NewMCPServer("interview", "1.0.0", server.WithToolCapabilities(false), server.WithElicitation(), server.WithRoots())
	s.EnableSampling()
	s.AddTool(mcpgo.NewTool("interview", mcpgo.WithDescription("Asks three things, then one more.")),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			in := req.Params.InputResponses
			switch req.Params.RequestState {
			case "":
				return server.NewInputRequestBuilder("round-1").
					Elicit("who", mcpgo.ElicitationParams{Mode: mcpgo.ElicitationModeForm, Message: "who are you?",
						RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}).
					Sample("think", mcpgo.CreateMessageParams{MaxTokens: 5,
						Messages: []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("say hi")}}}).
					Roots("where").ToolResult(), nil
			case "round-1":
				who := server.ElicitationResponse(in, "who")
				think := server.SamplingResponse(in, "think")
				where := server.RootsResponse(in, "where")
				if who == nil || think == nil || where == nil {
					return mcpgo.NewToolResultError("round 1 answers missing"), nil
				}
				name, _ := who.Content.(map[string]any)["name"].(string)
				var text struct{ Text string } // a TextContent, or a map after a JSON round trip
				b, _ := json.Marshal(think.Content)
				_ = json.Unmarshal(b, &text)
				state := fmt.Sprintf("round-2|%s|%s|%s", name, text.Text, where.Roots[0].URI)
				return server.NewInputRequestBuilder(state).
					Elicit("sure", mcpgo.ElicitationParams{Mode: mcpgo.ElicitationModeForm, Message: "sure?",
						RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}}}).
					ToolResult(), nil
			}
			sure := server.ElicitationResponse(in, "sure")
			if sure == nil || server.ElicitationResponse(in, "who") != nil {
				return mcpgo.NewToolResultError("round 2 answers wrong"), nil
			}
			return mcpgo.NewToolResultText(req.Params.RequestState + "|" + string(sure.Action)), nil
		})
	return s
}

// interviewHooks answer the interview and count their calls.
func interviewHooks(calls *atomic.Int32) *ClientHooks {
	count := func(id, result string) *Hook {
		return hookFn(id, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			calls.Add(1)
			return json.RawMessage(result), nil
		})
	}
	return &ClientHooks{
		Roots:    RootList([]Root{{URI: "file:///work"}}),
		Sampling: count("s", `{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}`),
		Elicitation: hookFn("e", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
			calls.Add(1)
			if strings.Contains(string(params), "sure?") {
				return json.RawMessage(`{"action":"accept","content":{"ok":true}}`), nil
			}
			return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
		}),
	}
}

// wireLog records the JSON-RPC requests and their headers a server got.
type wireLog struct {
	next http.Handler
	mu   sync.Mutex
	got  []loggedRequest
}

type loggedRequest struct {
	header http.Header
	msg    jsonrpcMessage
}

func (l *wireLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var m jsonrpcMessage
		_ = json.Unmarshal(body, &m)
		l.mu.Lock()
		l.got = append(l.got, loggedRequest{header: r.Header.Clone(), msg: m})
		l.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	l.next.ServeHTTP(w, r)
}

// calls returns the requests of method, in order.
func (l *wireLog) calls(method string) []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []loggedRequest
	for _, g := range l.got {
		if g.msg.Method == method {
			out = append(out, g)
		}
	}
	return out
}

func TestTheSameHooksAnswerInputOnBothEras(t *testing.T) {
	for _, era := range []string{"", ProtocolLegacy} {
		t.Run("era "+era, func(t *testing.T) {
			log := &wireLog{next: server.NewStreamableHTTPServer(interviewTools())}
			ts := httptest.NewServer(log)
			defer ts.Close()
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			var calls atomic.Int32
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "i", URL: ts.URL + "/mcp", ProtocolVersion: era},
				&RegisterOptions{Security: loopback(), Hooks: interviewHooks(&calls)})
			require.NoError(t, err)
			fc := invoke(t, m, "mcp__i__interview", nil)
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			assert.Equal(t, "round-2|Ada|hi|file:///work|accept", fc.Response)
			assert.Equal(t, int32(3), calls.Load(), "the elicitation hook twice, the sampling hook once")
			rounds := log.calls("tools/call")
			if era == ProtocolLegacy {
				require.Len(t, rounds, 1, "the legacy wire asks on the call's own stream")
				return
			}
			require.Len(t, rounds, 3, "the first call and two retries")
			assertModernRetries(t, rounds)
		})
	}
}

// assertModernRetries checks the rounds of one modern tools/call: new ids,
// the original arguments, the state echoed as sent, inputResponses for the
// round's keys only, the protocol's _meta and headers on each.
func assertModernRetries(t *testing.T, rounds []loggedRequest) {
	t.Helper()
	ids := map[string]bool{}
	var states, keys []string
	for i, r := range rounds {
		ids[idKey(r.msg.ID)] = true
		var p struct {
			Name           string                     `json:"name"`
			RequestState   *string                    `json:"requestState"`
			InputResponses map[string]json.RawMessage `json:"inputResponses"`
			Meta           map[string]json.RawMessage `json:"_meta"`
		}
		require.NoError(t, json.Unmarshal(r.msg.Params, &p))
		assert.Equal(t, "interview", p.Name)
		assert.JSONEq(t, `"2026-07-28"`, string(p.Meta[metaProtocolVersion]), "round %d", i)
		assert.Contains(t, p.Meta, metaClientCapabilities)
		assert.Equal(t, "2026-07-28", r.header.Get("Mcp-Protocol-Version"))
		assert.Equal(t, "tools/call", r.header.Get("Mcp-Method"))
		assert.Equal(t, "interview", r.header.Get("Mcp-Name"))
		assert.Empty(t, r.header.Get("Mcp-Session-Id"))
		state := "(none)"
		if p.RequestState != nil {
			state = *p.RequestState
		}
		states = append(states, state)
		var k []string
		for key := range p.InputResponses {
			k = append(k, key)
		}
		keys = append(keys, strings.Join(sortedCopy(k), ","))
	}
	assert.Len(t, ids, len(rounds), "every round has a new JSON-RPC id")
	assert.Equal(t, []string{"(none)", "round-1", "round-2|Ada|hi|file:///work"}, states)
	assert.Equal(t, []string{"", "think,where,who", "sure"}, keys)
}

// sortedCopy returns s sorted.
func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// modernServer is a hand-written 2026-07-28 server: server/discover,
// tools/list with one tool "t", and tools/call answered by call (the
// result object of each round, given the request's params).
func modernServer(t *testing.T, call func(round int, params json.RawMessage) string) (string, *atomic.Int32) {
	url, rounds, _ := modernServerOf(t, `[{"name":"t","inputSchema":{"type":"object"}}]`, call)
	return url, rounds
}

// modernServerOf is modernServer with the tools of tools (a JSON array),
// and the log of what it got.
func modernServerOf(t *testing.T, tools string, call func(round int, params json.RawMessage) string) (string, *atomic.Int32, *wireLog) {
	var rounds atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m jsonrpcMessage
		_ = json.NewDecoder(r.Body).Decode(&m)
		result := `{"resultType":"complete"}`
		switch m.Method {
		case "server/discover":
			result = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`
		case "tools/list":
			result = `{"resultType":"complete","tools":` + tools + `,"ttlMs":0,"cacheScope":"public"}`
		case "tools/call":
			result = call(int(rounds.Add(1)), m.Params)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	})
	log := &wireLog{next: h}
	ts := httptest.NewServer(log)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp", &rounds, log
}

func TestInputRoundsAreBoundedAndChecked(t *testing.T) {
	ask := `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"mode":"form","message":"?","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"s"}`
	cases := []struct {
		name  string
		hooks *ClientHooks
		call  func(int, json.RawMessage) string
		want  string // a part of the error message ("" for success)
		calls int32
	}{
		{"an unknown result type", allHooks(), func(int, json.RawMessage) string { return `{"resultType":"later"}` }, "resultType", 1},
		{"no hook for the input", nil, func(int, json.RawMessage) string { return ask }, "give the elicitation hook", 1},
		{"a server that never stops asking", allHooks(), func(int, json.RawMessage) string { return ask }, "after 8 rounds", 9},
		{"neither requests nor state", allHooks(), func(int, json.RawMessage) string { return `{"resultType":"input_required"}` }, "neither", 1},
		{"state only, then done", allHooks(), func(round int, params json.RawMessage) string {
			if round == 1 {
				return `{"resultType":"input_required","requestState":"later"}`
			}
			if !strings.Contains(string(params), `"requestState":"later"`) || strings.Contains(string(params), "inputResponses") {
				return `{"content":[{"type":"text","text":"bad retry"}],"isError":true}`
			}
			return `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`
		}, "", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, rounds := modernServer(t, tc.call)
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "x", URL: url}, &RegisterOptions{Security: loopback(), Hooks: tc.hooks})
			require.NoError(t, err)
			fc := invoke(t, m, "mcp__x__t", nil)
			assert.Equal(t, tc.calls, rounds.Load(), "tools/call requests")
			if tc.want == "" {
				require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
				assert.Equal(t, "done", fc.Response)
				return
			}
			require.Equal(t, core.StatusFailed, fc.Status)
			ce := core.AsError(fc.Err)
			assert.Equal(t, core.CodeTransport, ce.Code)
			assert.Contains(t, ce.Message, tc.want)
		})
	}
}

func TestABrokenModernStreamIsSentAgainUnderANewID(t *testing.T) {
	var calls atomic.Int32
	var ids sync.Map
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m jsonrpcMessage
		_ = json.NewDecoder(r.Body).Decode(&m)
		switch m.Method {
		case "server/discover":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}}`, m.ID)
		case "tools/list":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","tools":[{"name":"t","inputSchema":{"type":"object"}}]}}`, m.ID)
		case "tools/call":
			ids.Store(idKey(m.ID), true)
			w.Header().Set("Content-Type", "text/event-stream")
			if calls.Add(1) == 1 {
				fmt.Fprint(w, "id: 1\nretry: 10\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n")
				return // the stream ends before the answer
			}
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"second\"}]}}\n\n", m.ID)
		}
	}))
	defer ts.Close()
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "b", URL: ts.URL}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	fc := invoke(t, m, "mcp__b__t", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Equal(t, "second", fc.Response)
	assert.Equal(t, int32(2), calls.Load(), "sent once more, never resumed with GET")
	n := 0
	ids.Range(func(any, any) bool { n++; return true })
	assert.Equal(t, 2, n, "under a new id")
}

func TestACancelledCallStopsBetweenInputRounds(t *testing.T) {
	ask := `{"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create","params":{"mode":"form","message":"?","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"s"}`
	url, rounds := modernServer(t, func(int, json.RawMessage) string { return ask })
	entered := make(chan struct{})
	hooks := &ClientHooks{Elicitation: hookFn("blocks", func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		close(entered)
		<-ctx.Done()
		return nil, ctx.Err()
	})}
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "c", URL: url}, &RegisterOptions{Security: loopback(), Hooks: hooks})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-entered
		cancel()
	}()
	fc, err := m.Invoke(ctx, &core.Request{Function: "mcp__c__t", Arguments: core.NewArguments()})
	require.NoError(t, err)
	assert.NotEqual(t, core.StatusCompleted, fc.Status)
	assert.Equal(t, int32(1), rounds.Load(), "no retry after the caller cancelled")
}
