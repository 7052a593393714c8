package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestUnwrapResult(t *testing.T) {
	cfg := &ServerConfig{Name: "s", Headers: map[string]string{"K": planted}}
	cases := []struct {
		name string
		raw  string
		want any
		code core.Code
	}{
		{"one text item gives its text", `{"content":[{"type":"text","text":"hi"}]}`, "hi", ""},
		{"one text item without text gives \"\"", `{"content":[{"type":"text"}]}`, "", ""},
		{"two items give the list", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
			json.RawMessage(`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`), ""},
		{"one non-text item gives the list", `{"content":[{"type":"resource_link","uri":"x://y","n":12345678901234567890}]}`,
			json.RawMessage(`[{"type":"resource_link","uri":"x://y","n":12345678901234567890}]`), ""},
		{"empty content", `{"content":[]}`, json.RawMessage(`[]`), ""},
		{"no content", `{"structuredContent":{"a":1}}`, json.RawMessage(`[]`), ""},
		{"null content", `{"content":null}`, json.RawMessage(`[]`), ""},
		{"not an object", `[1]`, nil, core.CodeTransport},
		{"content not a list", `{"content":"x"}`, nil, core.CodeTransport},
		{"isError", `{"content":[{"type":"text","text":"bad ` + planted + `"}],"isError":true}`, nil, core.CodeToolError},
		{"isError without text", `{"content":[],"isError":true}`, nil, core.CodeToolError},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := unwrapResult(cfg, "mcp__s__t", "t", json.RawMessage(tc.raw))
			if tc.code != "" {
				var ce *core.Error
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, tc.code, ce.Code)
				assert.Equal(t, "mcp__s__t", ce.Tool)
				noSecret(t, err.Error(), planted)
				noSecret(t, string(ce.Result), planted)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// callRecorder answers tools/call with the arguments it got as text.
func callRecorder(calls *atomic.Int32, last *atomic.Value) func(http.ResponseWriter, *http.Request, rpcMessage) {
	return func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		calls.Add(1)
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(m.Params, &p)
		last.Store(p.Name + " " + string(p.Arguments))
		writeResult(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
	}
}

func TestProxyValidatesAtMatchAsTypedTools(t *testing.T) {
	h := newHostile(t)
	var calls atomic.Int32
	var last atomic.Value
	h.toolsList = listOf(map[string]any{"name": "v1.find", "inputSchema": map[string]any{"type": "object",
		"properties": map[string]any{"q": map[string]any{"type": "string"}, "n": map[string]any{"type": "integer"}},
		"required":   []string{"q"}}})
	h.toolsCall = callRecorder(&calls, &last)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	name := names[0]
	tool, _ := m.Get(name)
	assert.Nil(t, tool.RequestOptions, "the inputSchema validates without being request_options (LionAGI's record)")
	assert.Equal(t, []string{}, tool.MinimumAcceptableFields())

	// A missing required field is refused at match, naming the field, before any request.
	a := core.NewArguments()
	a.Set("n", json.Number("1"))
	for _, run := range []func() error{
		func() error { _, err := m.Validate(&core.Request{Function: name, Arguments: a}); return err },
		func() error { _, err := m.Match(&core.Request{Function: name, Arguments: a}); return err },
		func() error {
			_, err := m.Invoke(context.Background(), &core.Request{Function: name, Arguments: a})
			return err
		},
	} {
		err := run()
		var ce *core.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, core.CodeInvalidArguments, ce.Code, "got %s (%s), want invalid-arguments", ce.Code, ce.Message)
		assert.Contains(t, ce.Message, "/q")
	}
	assert.Zero(t, calls.Load(), "got %d calls at the server, want none for invalid arguments", calls.Load())

	// Lax coercion as for a local typed tool: "12" becomes 12 and is reported;
	// a key the schema does not name is dropped; big integers stay exact.
	a = core.NewArguments()
	a.Set("q", "x")
	a.Set("n", "12")
	a.Set("extra", true)
	fc, err := m.Invoke(context.Background(), &core.Request{Function: name, Arguments: a})
	require.NoError(t, err)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
	assert.Equal(t, []core.Conversion{{Path: "/n", From: "string", To: "integer"}}, fc.Conversions)
	assert.Equal(t, "ok", fc.Response)
	assert.Equal(t, `v1.find {"q":"x","n":12}`, last.Load(), "got the wire call %v", last.Load())

	a = core.NewArguments()
	a.Set("q", "x")
	a.Set("n", json.Number("12345678901234567890"))
	fc, err = m.Invoke(context.Background(), &core.Request{Function: name, Arguments: a})
	require.NoError(t, err)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
	assert.Empty(t, fc.Conversions)
	assert.Equal(t, `v1.find {"q":"x","n":12345678901234567890}`, last.Load(), "got the wire call %v", last.Load())

	// Coerce "none" on the tool is honoured as for a local typed tool.
	tool.Coerce = core.CoerceNone
	a = core.NewArguments()
	a.Set("q", "x")
	a.Set("n", "12")
	_, err = m.Match(&core.Request{Function: name, Arguments: a})
	assert.ErrorIs(t, err, core.ErrInvalidArguments)
}

func TestProxyRequestOptionsValidateAtMatch(t *testing.T) {
	h := newHostile(t)
	var calls atomic.Int32
	var last atomic.Value
	h.toolsList = listOf(toolJSON("find"))
	h.toolsCall = callRecorder(&calls, &last)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{
		Security:       loopback(),
		RequestOptions: map[string]json.RawMessage{"find": json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","minLength":2}},"required":["q"]}`)},
	})
	require.NoError(t, err)
	tool, _ := m.Get("mcp__s__find")
	assert.JSONEq(t, `{"type":"object","properties":{"q":{"type":"string","minLength":2}},"required":["q"]}`, string(tool.RequestOptions))
	assert.Equal(t, []string{"q"}, tool.MinimumAcceptableFields())

	a := core.NewArguments()
	a.Set("q", "x")
	_, err = m.Invoke(context.Background(), &core.Request{Function: "mcp__s__find", Arguments: a})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, core.CodeInvalidArguments, ce.Code)
	assert.Zero(t, calls.Load())
}

func TestProxyCallFailures(t *testing.T) {
	cases := []struct {
		name     string
		call     func(http.ResponseWriter, *http.Request, rpcMessage)
		sec      *Security
		code     core.Code
		contains string
	}{
		{
			name: "never answers",
			call: func(_ http.ResponseWriter, r *http.Request, _ rpcMessage) { <-r.Context().Done() },
			sec:  &Security{AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: 200},
			code: core.CodeTimeout, contains: "200 ms",
		},
		{
			name: "JSON-RPC error",
			call: func(w http.ResponseWriter, r *http.Request, m rpcMessage) {
				writeRPCError(w, m.ID, -32602, "no such tool; you sent "+r.Header.Get("Authorization"))
			},
			code: core.CodeTransport, contains: "JSON-RPC error -32602",
		},
		{
			name: "5 MiB result",
			call: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				writeResult(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": string(make([]byte, 5<<20))}}})
			},
			code: core.CodeTransport, contains: "larger than",
		},
		{
			name: "text/html",
			call: func(w http.ResponseWriter, _ *http.Request, _ rpcMessage) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<html>"))
			},
			code: core.CodeTransport, contains: "Content-Type",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			h.toolsList = listOf(toolJSON("t"))
			h.toolsCall = tc.call
			sec := tc.sec
			if sec == nil {
				sec = loopback()
			}
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			cfg := &ServerConfig{Name: "s", URL: h.url, Headers: map[string]string{"Authorization": "Bearer " + planted}}
			_, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: sec})
			require.NoError(t, err)
			fc := invoke(t, m, "mcp__s__t", nil)
			require.Equal(t, core.StatusFailed, fc.Status, "got %s, want failed", fc.Status)
			var ce *core.Error
			require.ErrorAs(t, fc.Err, &ce)
			assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
			assert.Contains(t, ce.Message, tc.contains)
			assert.Contains(t, ce.Message, `server "s"`)
			assert.Equal(t, "mcp__s__t", ce.Tool)
			noSecret(t, fc.Err.Error(), planted)

			// The instance keeps working.
			h.setCall(nil)
			fc = invoke(t, m, "mcp__s__t", nil)
			assert.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v) after the failure, want completed", fc.Status, fc.Err)
		})
	}
}

func TestProxyFactory(t *testing.T) {
	_, url := serveStreamable(t, fixtureTools(nil))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(&core.ManagerOptions{MCPFactory: p.ProxyFactory()})

	require.NoError(t, m.Register(map[string]any{"echo": map[string]any{
		"url": url, "headers": map[string]string{"X-Key": planted},
		"security": map[string]any{"allowUrls": true, "allowLoopbackHttp": true}}}, false))
	tool, ok := m.Get("echo")
	require.True(t, ok)
	assert.True(t, tool.MCP)
	assert.JSONEq(t, `{"type":"object","properties":{"kwargs":{"type":"string","description":null}},"required":["kwargs"]}`, string(mustParams(t, tool.Schema)))
	assert.Equal(t, []string{}, tool.MinimumAcceptableFields())
	cfgJSON, err := json.Marshal(tool.MCPConfig)
	require.NoError(t, err)
	noSecret(t, string(cfgJSON), planted)
	fc := invoke(t, m, "echo", map[string]any{"message": "via factory"})
	require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
	assert.Equal(t, "via factory", fc.Response)

	require.NoError(t, m.Register(map[string]any{"add": map[string]any{"url": url}}, false))
	fc = invoke(t, m, "add", map[string]any{"a": json.Number("1"), "b": json.Number("2")})
	require.Equal(t, core.StatusFailed, fc.Status)
	var ce *core.Error
	require.ErrorAs(t, fc.Err, &ce)
	assert.Equal(t, core.CodePolicyDenied, ce.Code, "got %s (%s), want policy-denied without a policy", ce.Code, ce.Message)
	assert.Equal(t, "add", ce.Tool)

	err = m.Register(map[string]any{"run": map[string]any{"command": "npx", "args": []string{"-y", "x"}}}, false)
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, core.CodeUnsupported, ce.Code)
	assert.False(t, m.Has("run"))
}

// mustParams returns function.parameters of a provider schema.
func mustParams(t *testing.T, schema json.RawMessage) json.RawMessage {
	t.Helper()
	var s struct {
		Function struct {
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	require.NoError(t, json.Unmarshal(schema, &s))
	return s.Function.Parameters
}
