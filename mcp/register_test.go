package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestRegisterServerDiscoversAndCalls(t *testing.T) {
	_, streamURL := serveStreamable(t, fixtureTools(nil))
	_, statefulURL := serveStreamable(t, fixtureTools(nil), server.WithStateful(true))
	_, sseURL := serveSSE(t, fixtureTools(nil))
	cases := []struct {
		name      string
		url       string
		transport string
	}{
		{"streamable-http modern", streamURL, TransportStreamableHTTP},
		{"streamable-http stateful", statefulURL, ""},
		{"sse", sseURL, TransportSSE},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m, names := registerFixture(t, p, tc.url, tc.transport)
			want := make([]string, len(fixtureNames))
			for i, n := range fixtureNames {
				want[i] = "mcp__fx__" + n
			}
			assert.Equal(t, want, names, "got names %v, want %v", names, want)
			assert.Equal(t, want, m.Names())

			echo, ok := m.Get("mcp__fx__echo")
			require.True(t, ok)
			assert.True(t, echo.MCP)
			assert.JSONEq(t, `{"type":"function","function":{"name":"mcp__fx__echo","description":"Echo a message.",
				"parameters":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}}`, string(echo.Schema))
			assert.NotContains(t, string(echo.Schema), "strict")
			assert.Equal(t, []string{}, echo.MinimumAcceptableFields())

			fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "hi"})
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v (%v), want completed", fc.Status, fc.Err)
			assert.Equal(t, "hi", fc.Response)

			fc = invoke(t, m, "mcp__fx__add", map[string]any{"a": json.Number("2"), "b": json.Number("3")})
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v (%v)", fc.Status, fc.Err)
			assert.Equal(t, "5", fc.Response)

			fc = invoke(t, m, "mcp__fx__multi", nil)
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v (%v)", fc.Status, fc.Err)
			assert.Equal(t, json.RawMessage(`[{"type":"text","text":"one"},{"type":"text","text":"two"}]`), fc.Response, "the content list as the server wrote it")

			fc = invoke(t, m, "mcp__fx__image", nil)
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v (%v)", fc.Status, fc.Err)
			assert.JSONEq(t, `[{"type":"image","data":"aGk=","mimeType":"image/png"}]`, string(fc.Response.(json.RawMessage)))

			fc = invoke(t, m, "mcp__fx__fail", nil)
			require.Equal(t, core.StatusFailed, fc.Status)
			var ce *core.Error
			require.ErrorAs(t, fc.Err, &ce)
			assert.Equal(t, core.CodeToolError, ce.Code)
			assert.Equal(t, "mcp__fx__fail", ce.Tool)
			assert.JSONEq(t, `{"content":[{"type":"text","text":"boom"}],"isError":true}`, string(ce.Result))
			assert.Contains(t, ce.Message, `server "fx"`)
			assert.Contains(t, ce.Message, "boom")
			var te *ToolError
			require.ErrorAs(t, fc.Err, &te)
			assert.Equal(t, "boom", te.Content)
		})
	}
}

func TestRegisterServerDeclaredToolNames(t *testing.T) {
	h := newHostile(t)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{
		ToolNames:      []string{"echo", "v1.find"},
		RequestOptions: map[string]json.RawMessage{"echo": json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		Security:       loopback(),
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__s__echo", registeredName("s", "v1.find", true)}, names)
	assert.Zero(t, h.requests.Load(), "got %d requests, want none for declared tools", h.requests.Load())

	echo, _ := m.Get("mcp__s__echo")
	assert.JSONEq(t, `{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`, string(mustParams(t, echo.Schema)))
	find, _ := m.Get(names[1])
	assert.JSONEq(t, `{"type":"object","properties":{"kwargs":{"type":"string","description":null}},"required":["kwargs"]}`, string(mustParams(t, find.Schema)))
	assert.Equal(t, "v1.find", find.MCPConfig[names[1]].(map[string]any)["_original_tool_name"])

	fc := invoke(t, m, names[1], map[string]any{"anything": "goes"})
	require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
	assert.Equal(t, "ok", fc.Response)
}

func TestRegisterServerRefusesBadOptions(t *testing.T) {
	no := false
	cases := []struct {
		name     string
		cfg      *ServerConfig
		opts     *RegisterOptions
		code     core.Code
		contains string
	}{
		{"no options: no policy", nil, nil, core.CodePolicyDenied, "no-policy"},
		{"nil config", &ServerConfig{}, &RegisterOptions{Security: loopback()}, core.CodeInvalidTool, "no name"},
		{"no URL", &ServerConfig{Name: "s"}, &RegisterOptions{Security: loopback()}, core.CodeInvalidTool, `"url" is empty`},
		{"unknown transport", &ServerConfig{Name: "s", URL: "http://127.0.0.1:1/", Transport: "stdio"}, &RegisterOptions{Security: loopback()}, core.CodeInvalidTool, "transport"},
		{"bad header name", &ServerConfig{Name: "s", URL: "http://127.0.0.1:1/", Headers: map[string]string{"a b": "x"}}, &RegisterOptions{Security: loopback()}, core.CodeInvalidTool, "HTTP token"},
		{"header value with CR", &ServerConfig{Name: "s", URL: "http://127.0.0.1:1/", Headers: map[string]string{"A": "x\r\ny"}}, &RegisterOptions{Security: loopback()}, core.CodeInvalidTool, "control character"},
		{"negative cap", nil, &RegisterOptions{Security: &Security{AllowURLs: true, TimeoutMs: -1}}, core.CodeUnsupportedType, "timeoutMs"},
		{"invalid declared name", nil, &RegisterOptions{Security: loopback(), ToolNames: []string{"a b"}}, core.CodeInvalidTool, "not a valid MCP tool name"},
		{"declared twice", nil, &RegisterOptions{Security: loopback(), ToolNames: []string{"a", "a"}}, core.CodeDuplicateTool, "twice"},
		{"unknown requestOptions key (declared)", nil, &RegisterOptions{Security: loopback(), ToolNames: []string{"a"},
			RequestOptions: map[string]json.RawMessage{"b": json.RawMessage(`{"type":"object"}`)}}, core.CodeInvalidTool, `"b"`},
		{"unknown requestOptions key (discovered)", nil, &RegisterOptions{Security: loopback(),
			RequestOptions: map[string]json.RawMessage{"s_find": json.RawMessage(`{"type":"object"}`)}}, core.CodeInvalidTool, `"s_find"`},
		{"bad requestOptions schema", nil, &RegisterOptions{Security: loopback(),
			RequestOptions: map[string]json.RawMessage{"find": json.RawMessage(`{"type":"object","properties":{"q":{"$ref":"https://evil.example/x"}}}`)}}, core.CodeInvalidSchema, `tool "find"`},
		{"requestOptions not an object", nil, &RegisterOptions{Security: loopback(), Qualify: &no,
			RequestOptions: map[string]json.RawMessage{"find": json.RawMessage(`[1]`)}}, core.CodeInvalidSchema, "must be a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			h.toolsList = listOf(toolJSON("find"), toolJSON("other"))
			cfg := tc.cfg
			if cfg == nil {
				cfg = &ServerConfig{Name: "s", URL: h.url}
			}
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			_, err := RegisterServer(context.Background(), p, m, cfg, tc.opts)
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
			assert.Contains(t, ce.Message, tc.contains)
			assert.Equal(t, []string{"local"}, m.Names())
		})
	}
	_, err := RegisterServer(context.Background(), NewPool(nil), nil, &ServerConfig{Name: "s", URL: "https://a.example/"}, nil)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	_, err = RegisterServer(context.Background(), nil, core.NewManager(nil), &ServerConfig{Name: "s", URL: "https://a.example/"}, nil)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	_, err = RegisterServer(context.Background(), NewPool(nil), core.NewManager(nil), nil, nil)
	assert.ErrorIs(t, err, core.ErrInvalidTool)
}

func TestRegisterServerCollisions(t *testing.T) {
	no := false
	h := newHostile(t)
	h.toolsList = listOf(toolJSON("find"), toolJSON("b__c"))
	h2 := newHostile(t)
	h2.toolsList = listOf(toolJSON("c"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	ctx := context.Background()

	t.Run("an MCP tool never replaces a local tool", func(t *testing.T) {
		m := core.NewManager(nil)
		c, err := core.Func("find", func(q string) string { return q }, "q")
		require.NoError(t, err)
		require.NoError(t, m.Register(c, false))
		local, _ := m.Get("find")
		for _, update := range []bool{false, true} {
			_, err := RegisterServer(ctx, p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{Security: loopback(), Qualify: &no, Update: update})
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, core.CodeDuplicateTool, ce.Code, "update=%v: got %s (%s)", update, ce.Code, ce.Message)
			assert.Equal(t, []string{"find"}, m.Names())
			got, _ := m.Get("find")
			assert.Same(t, local, got)
		}
	})
	t.Run("across servers, even with update", func(t *testing.T) {
		m := core.NewManager(nil)
		names, err := RegisterServer(ctx, p, m, &ServerConfig{Name: "a", URL: h.url}, &RegisterOptions{Security: loopback()})
		require.NoError(t, err)
		assert.Contains(t, names, "mcp__a__b__c")
		for _, update := range []bool{false, true} {
			_, err = RegisterServer(ctx, p, m, &ServerConfig{Name: "a__b", URL: h2.url}, &RegisterOptions{Security: loopback(), Update: update})
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, core.CodeDuplicateTool, ce.Code, "update=%v: got %s (%s)", update, ce.Code, ce.Message)
			assert.Equal(t, names, m.Names())
		}
	})
	t.Run("the same server again", func(t *testing.T) {
		m := core.NewManager(nil)
		cfg := &ServerConfig{Name: "s", URL: h.url}
		names, err := RegisterServer(ctx, p, m, cfg, &RegisterOptions{Security: loopback()})
		require.NoError(t, err)
		before, _ := m.Get(names[0])
		_, err = RegisterServer(ctx, p, m, cfg, &RegisterOptions{Security: loopback()})
		assert.ErrorIs(t, err, core.ErrDuplicateTool)
		again, err := RegisterServer(ctx, p, m, cfg, &RegisterOptions{Security: loopback(), Update: true})
		require.NoError(t, err)
		assert.Equal(t, names, again)
		assert.Equal(t, names, m.Names())
		after, _ := m.Get(names[0])
		assert.NotSame(t, before, after, "got the old tool, want it replaced with update")
	})
	t.Run("sanitised names colliding within a server", func(t *testing.T) {
		hashed := registeredName("s", "a.b", true)
		h3 := newHostile(t)
		h3.toolsList = listOf(toolJSON("a.b"), toolJSON(hashed[len("mcp__s__"):]))
		m := core.NewManager(nil)
		_, err := RegisterServer(ctx, p, m, &ServerConfig{Name: "s", URL: h3.url}, &RegisterOptions{Security: loopback()})
		var ce *core.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, core.CodeDuplicateTool, ce.Code)
		assert.Contains(t, ce.Message, "would both register as")
		assert.Empty(t, m.Names())
	})
}

func TestRegisterServerDescriptionNull(t *testing.T) {
	h := newHostile(t)
	h.toolsList = listOf(map[string]any{"name": "bare", "inputSchema": map[string]any{"type": "object", "description": "kept <as> is"}})
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	tool, _ := m.Get("mcp__s__bare")
	assert.Equal(t, `{"type":"function","function":{"name":"mcp__s__bare","description":null,"parameters":{"description":"kept <as> is","type":"object"}}}`, string(tool.Schema))
}

func TestRegisterAServerWithoutTools(t *testing.T) {
	h := newHostile(t) // tools/list answers an empty list
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	names, err := RegisterServer(context.Background(), p, core.NewManager(nil), &ServerConfig{Name: "empty", URL: h.url}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	require.NotNil(t, names, "got nil, want an empty list (JSON [])")
	assert.Empty(t, names)
}
