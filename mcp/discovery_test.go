package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// planted is the header secret every hostile case sends; no error may
// contain it.
const planted = "tg-planted-secret-7f3a9c"

// localManager returns a manager holding one local tool, to check that a
// failed registration leaves it exactly as it was.
func localManager(t *testing.T) *core.Manager {
	t.Helper()
	m := core.NewManager(nil)
	c, err := core.Func("local", func(x string) string { return x }, "x")
	require.NoError(t, err)
	require.NoError(t, m.Register(c, false))
	return m
}

func TestRegisterServerRefusesHostileServers(t *testing.T) {
	secretFile := filepath.Join(t.TempDir(), "secret.json")
	require.NoError(t, os.WriteFile(secretFile, []byte(`{"type":"string","const":"TOPSECRET-file-content"}`), 0o600))

	manyPages := func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(m.Params, &p)
		writeResult(w, m.ID, map[string]any{"tools": []any{toolJSON("t" + p.Cursor)}, "nextCursor": p.Cursor + "x"})
	}
	tooMany := make([]any, MaxServerTools+1)
	for i := range tooMany {
		tooMany[i] = toolJSON(fmt.Sprintf("t%d", i))
	}

	cases := []struct {
		name     string
		list     func(http.ResponseWriter, *http.Request, rpcMessage)
		sec      *Security
		code     core.Code
		contains string
	}{
		{
			name: "5 MiB tools/list answer",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				writeResult(w, m.ID, map[string]any{"tools": []any{}, "pad": strings.Repeat("x", 5<<20)})
			},
			code: core.CodeTransport, contains: "larger than 4194304 bytes",
		},
		{
			name: "endless SSE line",
			list: func(w http.ResponseWriter, r *http.Request, _ rpcMessage) {
				w.Header().Set("Content-Type", "text/event-stream")
				writeEndless(w, r)
			},
			sec:  &Security{AllowURLs: true, AllowLoopbackHTTP: true, MaxMessageBytes: 64 << 10},
			code: core.CodeTransport, contains: "larger than 65536 bytes",
		},
		{
			name: "never answers",
			list: func(_ http.ResponseWriter, r *http.Request, _ rpcMessage) {
				<-r.Context().Done()
			},
			sec:  &Security{AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: 200},
			code: core.CodeTimeout, contains: "200 ms",
		},
		{
			name: "307 redirect",
			list: func(w http.ResponseWriter, r *http.Request, _ rpcMessage) {
				http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
			},
			code: core.CodeTransport, contains: "redirect",
		},
		{
			name: "non-advancing cursor",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				writeResult(w, m.ID, map[string]any{"tools": []any{}, "nextCursor": "same"})
			},
			code: core.CodeTransport, contains: "repeats the cursor",
		},
		{
			name: "more than 64 pages",
			list: manyPages,
			code: core.CodeTransport, contains: "more than 64 pages",
		},
		{
			name: "more than 1000 tools",
			list: listOf(tooMany...),
			code: core.CodeTransport, contains: "more than 1000 tools",
		},
		{
			name: "duplicate tool names",
			list: listOf(toolJSON("search"), toolJSON("other"), toolJSON("search")),
			code: core.CodeDuplicateTool, contains: `advertises the tool "search" twice`,
		},
		{
			name: "text/html answer",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`, m.ID)
			},
			code: core.CodeTransport, contains: `Content-Type "text/html"`,
		},
		{
			name: "JSON-RPC error echoing the header secret",
			list: func(w http.ResponseWriter, r *http.Request, m rpcMessage) {
				writeRPCError(w, m.ID, -32603, "bad token: "+r.Header.Get("Authorization"))
			},
			code: core.CodeTransport, contains: "JSON-RPC error -32603",
		},
		{
			name: "HTTP 500 body echoing the header secret",
			list: func(w http.ResponseWriter, r *http.Request, _ rpcMessage) {
				http.Error(w, "denied "+r.Header.Get("Authorization"), http.StatusInternalServerError)
			},
			code: core.CodeTransport, contains: "HTTP 500",
		},
		{
			name: "tools is not an array",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				writeResult(w, m.ID, map[string]any{"tools": "none"})
			},
			code: core.CodeTransport, contains: "malformed tools/list result",
		},
		{
			name: "description that is not a string",
			list: listOf(map[string]any{"name": "s", "description": 5, "inputSchema": map[string]any{"type": "object"}}),
			code: core.CodeInvalidTool, contains: "want a string",
		},
		{
			name: "descriptor that is not an object",
			list: listOf("search"),
			code: core.CodeInvalidTool, contains: "not an object",
		},
		{
			name: "no policy",
			sec:  nil,
			code: core.CodePolicyDenied, contains: "no-policy",
		},
		{
			name: "allowUrls false",
			sec:  &Security{AllowLoopbackHTTP: true},
			code: core.CodePolicyDenied, contains: "allow-urls",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			h.toolsList = tc.list
			sec := tc.sec
			if sec == nil && tc.code != core.CodePolicyDenied {
				sec = loopback()
			}
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			cfg := &ServerConfig{Name: "hostile", URL: h.url, Headers: map[string]string{"Authorization": "Bearer " + planted}}
			names, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: sec})
			require.Error(t, err)
			assert.Nil(t, names)
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.code, ce.Code, "got code %s (%s), want %s", ce.Code, ce.Message, tc.code)
			assert.Contains(t, ce.Message, tc.contains)
			assert.Equal(t, "hostile", ce.Tool)
			noSecret(t, err.Error(), planted)
			noSecret(t, err.Error(), "TOPSECRET")
			assert.Equal(t, []string{"local"}, m.Names(), "got %v registered, want only the local tool", m.Names())
			if tc.code == core.CodePolicyDenied {
				assert.Zero(t, h.requests.Load(), "got %d requests, want none before the policy check", h.requests.Load())
			}
		})
	}
}

func TestBadlyDescribedToolsAreLeftOutWithAWarning(t *testing.T) {
	secretFile := filepath.Join(t.TempDir(), "secret.json")
	require.NoError(t, os.WriteFile(secretFile, []byte(`{"type":"string","description":"TOPSECRET"}`), 0o600))
	cases := []struct {
		name     string
		tool     map[string]any
		contains string
	}{
		{"$ref to file:/// in an inputSchema", map[string]any{"name": "bad", "inputSchema": map[string]any{"type": "object",
			"properties": map[string]any{"p": map[string]any{"$ref": "file://" + filepath.ToSlash(secretFile)}}}}, `tool "bad" is left out`},
		{"$ref to a network URL", map[string]any{"name": "bad", "inputSchema": map[string]any{"type": "object",
			"properties": map[string]any{"p": map[string]any{"$ref": "https://schemas.example/p.json"}}}}, `tool "bad" is left out`},
		{"inputSchema missing", map[string]any{"name": "bad"}, "got nothing"},
		{"inputSchema of type string", map[string]any{"name": "bad", "inputSchema": map[string]any{"type": "string"}}, `"type": "object"`},
		{"inputSchema that does not compile", map[string]any{"name": "bad", "inputSchema": map[string]any{"type": "object", "minProperties": "x"}},
			`server "hostile": tool "bad" is left out: its inputSchema: `},
		{"outputSchema that does not compile", map[string]any{"name": "bad", "inputSchema": map[string]any{"type": "object"},
			"outputSchema": map[string]any{"type": "object", "required": "x"}}, "its outputSchema"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			h.toolsList = listOf(toolJSON("good"), tc.tool)
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			var warned []*core.Error
			cfg := &ServerConfig{Name: "hostile", URL: h.url, Headers: map[string]string{"Authorization": "Bearer " + planted}}
			names, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: loopback(),
				OnWarning: func(_ string, err error) { warned = append(warned, core.AsError(err)) }})
			require.NoError(t, err, "one badly described tool does not refuse the server")
			assert.Equal(t, []string{"mcp__hostile__good"}, names)
			require.Len(t, warned, 1)
			assert.Equal(t, core.CodeInvalidSchema, warned[0].Code)
			assert.Equal(t, "bad", warned[0].Tool)
			assert.Contains(t, warned[0].Message, tc.contains)
			noSecret(t, warned[0].Error(), planted)
			noSecret(t, warned[0].Error(), "TOPSECRET")
		})
	}
}

func TestRegisterServerRefusesInvalidToolNames(t *testing.T) {
	names := []string{"", strings.Repeat("a", 129), "a b", "a,b", "../x", "ｆｏｏ", "foo\u200b", "a/b", "tab\t"}
	for _, n := range names {
		t.Run(fmt.Sprintf("%q", n), func(t *testing.T) {
			h := newHostile(t)
			h.toolsList = listOf(toolJSON("fine"), toolJSON(n))
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "hostile", URL: h.url}, &RegisterOptions{Security: loopback()})
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, core.CodeInvalidTool, ce.Code, "got %s (%s), want invalid-tool", ce.Code, ce.Message)
			assert.Contains(t, ce.Message, "not a valid MCP tool name")
			assert.Equal(t, []string{"local"}, m.Names())
		})
	}
}

func TestRegisterServerAcceptsSpecialButValidNames(t *testing.T) {
	h := newHostile(t)
	h.toolsList = listOf(toolJSON("__proto__"), toolJSON("constructor"), toolJSON("search-a"), toolJSON("search_a"),
		toolJSON("Search"), toolJSON("search"), toolJSON("v1.search"), toolJSON(strings.Repeat("a", 128)))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	want := []string{"mcp__s____proto__", "mcp__s__constructor", "mcp__s__search-a", "mcp__s__search_a",
		"mcp__s__Search", "mcp__s__search", registeredName("s", "v1.search", true), registeredName("s", strings.Repeat("a", 128), true)}
	assert.Equal(t, want, names)
	for _, n := range names {
		assert.True(t, validRegisteredName(n), "got %q, want a name matching ^[a-zA-Z0-9_-]{1,64}$", n)
	}
	assert.Len(t, m.Names(), 8)
}
