package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestLoadConfig(t *testing.T) {
	cases := []struct {
		name  string
		data  string
		names []string
		ok    bool
	}{
		{"order kept", `{"mcpServers": {"zeta": {"url": "https://z.example/"}, "alpha": {"command": "x"}}}`, []string{"zeta", "alpha"}, true},
		{"VS Code's servers", `{"inputs": [], "servers": {"b": {"type": "http", "url": "https://b.example/"}, "a": {"type": "stdio", "command": "x"}}}`, []string{"b", "a"}, true},
		{"neither mcpServers nor servers", `{"other": 1}`, nil, false},
		{"an empty object", `{}`, nil, false},
		{"both mcpServers and servers", `{"mcpServers": {}, "servers": {}}`, nil, false},
		{"servers not an object", `{"servers": [1]}`, nil, false},
		{"empty mcpServers", ` {"mcpServers": {}} `, []string{}, true},
		{"values not validated here", `{"mcpServers": {"c": 5}}`, []string{"c"}, true},
		{"not an object", `[1]`, nil, false},
		{"empty", ``, nil, false},
		{"not JSON", `{"mcpServers": `, nil, false},
		{"trailing data", `{"mcpServers": {}} {}`, nil, false},
		{"mcpServers not an object", `{"mcpServers": [1]}`, nil, false},
		{"mcpServers null", `{"mcpServers": null}`, nil, false},
		{"a server twice", `{"mcpServers": {"a": {}, "a": {}}}`, nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LoadConfig([]byte(tc.data))
			if !tc.ok {
				assert.ErrorIs(t, err, core.ErrInvalidRequest, "got %v, want invalid-request", err)
				return
			}
			require.NoError(t, err)
			names := []string{}
			for _, c := range got {
				names = append(names, c.Name)
			}
			assert.Equal(t, tc.names, names)
		})
	}
}

// mcpJSON builds .mcp.json text from name → config pairs, in order.
func mcpJSON(pairs ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{`)
	for i := 0; i < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", pairs[i], pairs[i+1])
	}
	b.WriteString("}}")
	return []byte(b.String())
}

func urlConfig(url string) string {
	return fmt.Sprintf(`{"url": %q, "headers": {"Authorization": "Bearer %s"}}`, url, planted)
}

func TestLoadMcpConfigReportsPerServer(t *testing.T) {
	_, good := serveStreamable(t, fixtureTools(nil))
	dup := newHostile(t)
	dup.toolsList = listOf(toolJSON("x"), toolJSON("x"))
	data := mcpJSON("good", urlConfig(good), "dup", urlConfig(dup.url), "shape", `{"url": 5}`)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := localManager(t)
	warnings := map[string]error{}
	servers, names, err := LoadMcpConfig(context.Background(), p, m, data, &LoadOptions{
		Security:  loopback(),
		OnWarning: func(s string, err error) { warnings[s] = err },
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"good", "dup", "shape"}, servers)
	assert.Len(t, names["good"], len(fixtureNames))
	assert.Equal(t, []string{}, names["dup"])
	assert.Equal(t, []string{}, names["shape"])
	assert.ErrorIs(t, warnings["dup"], core.ErrDuplicateTool)
	assert.ErrorIs(t, warnings["shape"], core.ErrInvalidTool)
	assert.NotContains(t, warnings, "good")
	for _, w := range warnings {
		noSecret(t, w.Error(), planted)
	}
	assert.Equal(t, append([]string{"local"}, names["good"]...), m.Names())

	t.Run("serverNames selects, unknown names warn", func(t *testing.T) {
		m := core.NewManager(nil)
		warned := []string{}
		servers, names, err := LoadMcpConfig(context.Background(), p, m, data, &LoadOptions{
			Security: loopback(), ServerNames: []string{"nope", "good", "good"},
			OnWarning: func(s string, err error) { warned = append(warned, s) },
		})
		require.NoError(t, err)
		assert.Equal(t, []string{"nope", "good"}, servers)
		assert.Equal(t, []string{"nope"}, warned)
		assert.Equal(t, []string{}, names["nope"])
		assert.Equal(t, names["good"], m.Names())
	})
	t.Run("a collision at registration is that server's warning", func(t *testing.T) {
		ha := newHostile(t)
		ha.toolsList = listOf(toolJSON("b__c"))
		hb := newHostile(t)
		hb.toolsList = listOf(toolJSON("c"))
		m := core.NewManager(nil)
		warned := map[string]error{}
		_, names, err := LoadMcpConfig(context.Background(), p, m, mcpJSON("a", urlConfig(ha.url), "a__b", urlConfig(hb.url)), &LoadOptions{
			Security: loopback(), OnWarning: func(s string, err error) { warned[s] = err },
		})
		require.NoError(t, err)
		assert.Equal(t, []string{"mcp__a__b__c"}, names["a"])
		assert.Equal(t, []string{}, names["a__b"])
		assert.ErrorIs(t, warned["a__b"], core.ErrDuplicateTool)
		assert.Equal(t, []string{"mcp__a__b__c"}, m.Names())
	})
}

func TestLoadMcpConfigAbortsBeforeRegistering(t *testing.T) {
	_, good := serveStreamable(t, fixtureTools(nil))
	offOrigin := newHostileSSE(t, func(base string) string { return strings.Replace(base, "http://", "https://", 1) + "/m" })
	cases := []struct {
		name string
		data []byte
		sec  *Security
		code core.Code
	}{
		{"a command config, strict", mcpJSON("good", urlConfig(good), "cmd", `{"command": "npx", "args": ["-y", "srv"], "env": {"K": "v"}}`), loopback(), core.CodeUnsupported},
		{"a URL the policy refuses", mcpJSON("good", urlConfig(good), "ip", `{"url": "https://10.0.0.7/mcp"}`), loopback(), core.CodePolicyDenied},
		{"a refusal during discovery", mcpJSON("good", urlConfig(good), "sse", fmt.Sprintf(`{"url": %q, "transport": "sse"}`, offOrigin.url)), loopback(), core.CodePolicyDenied},
		{"no policy", mcpJSON("good", urlConfig(good)), nil, core.CodePolicyDenied},
		{"a config's own security is ignored", mcpJSON("good", fmt.Sprintf(`{"url": %q, "security": {"allowUrls": true, "allowLoopbackHttp": true}}`, good)), nil, core.CodePolicyDenied},
		{"a bad policy", mcpJSON("good", urlConfig(good)), &Security{AllowURLs: true, MaxConnectionsPerServer: -2}, core.CodeUnsupportedType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			_, _, err := LoadMcpConfig(context.Background(), p, m, tc.data, &LoadOptions{Security: tc.sec, Strict: true})
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
			noSecret(t, err.Error(), planted)
			assert.Equal(t, []string{"local"}, m.Names())

			tools, err := LoadMcpTools(context.Background(), p, tc.data, &LoadOptions{Security: tc.sec, Strict: true})
			assert.ErrorIs(t, err, &core.Error{Code: tc.code})
			assert.Nil(t, tools)
		})
	}
	_, _, err := LoadMcpConfig(context.Background(), NewPool(nil), nil, mcpJSON(), nil)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	_, _, err = LoadMcpConfig(context.Background(), NewPool(nil), core.NewManager(nil), []byte(`[]`), nil)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	_, _, err = LoadMcpConfig(context.Background(), nil, core.NewManager(nil), mcpJSON(), nil)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
}

func TestLoadMcpConfigSkipsCommandServers(t *testing.T) {
	_, good := serveStreamable(t, fixtureTools(nil))
	data := mcpJSON("cmd", `{"command": "npx", "args": ["-y", "srv"], "env": {"K": "`+planted+`"}}`, "good", urlConfig(good))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := localManager(t)
	warned := map[string]error{}
	onWarning := func(server string, err error) { warned[server] = err }
	servers, names, err := LoadMcpConfig(context.Background(), p, m, data, &LoadOptions{Security: loopback(), OnWarning: onWarning})
	require.NoError(t, err)
	assert.Equal(t, []string{"cmd", "good"}, servers)
	assert.Equal(t, []string{}, names["cmd"])
	assert.Contains(t, names["good"], "mcp__good__echo")
	var ce *core.Error
	require.ErrorAs(t, warned["cmd"], &ce)
	assert.Equal(t, core.CodeUnsupported, ce.Code)
	assert.Equal(t, "cmd", ce.Tool)
	noSecret(t, ce.Error(), planted)
	assert.Len(t, warned, 1)

	warned = map[string]error{}
	tools, err := LoadMcpTools(context.Background(), p, data, &LoadOptions{Security: loopback(), OnWarning: onWarning})
	require.NoError(t, err)
	assert.NotEmpty(t, tools)
	assert.ErrorIs(t, warned["cmd"], core.ErrUnsupported)
}

func TestLoadMcpTools(t *testing.T) {
	_, good := serveStreamable(t, fixtureTools(nil))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	tools, err := LoadMcpTools(context.Background(), p, mcpJSON("fx", urlConfig(good)), &LoadOptions{
		Security: loopback(),
		RequestOptionsMap: map[string]map[string]json.RawMessage{
			"fx": {"echo": json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		},
	})
	require.NoError(t, err)
	require.Len(t, tools, len(fixtureNames))
	for i, tool := range tools {
		assert.Equal(t, "mcp__fx__"+fixtureNames[i], tool.Function())
		assert.True(t, tool.MCP)
	}
	assert.NotNil(t, tools[1].RequestOptions, "got no request options on echo")

	m := core.NewManager(nil)
	require.NoError(t, m.Register(tools[1], false))
	fc := invoke(t, m, "mcp__fx__echo", map[string]any{"message": "loaded"})
	require.Equal(t, core.StatusCompleted, fc.Status, "got %s (%v)", fc.Status, fc.Err)
	assert.Equal(t, "loaded", fc.Response)

	_, err = LoadMcpTools(context.Background(), p, nil, &LoadOptions{Security: loopback()})
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	_, err = LoadMcpTools(context.Background(), p, []byte("null"), nil)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	_, err = LoadMcpTools(context.Background(), p, []byte("{"), &LoadOptions{Security: loopback()})
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	var warned []string
	tools, err = LoadMcpTools(context.Background(), p, nil, &LoadOptions{Security: loopback(), ServerNames: []string{"x"},
		OnWarning: func(s string, _ error) { warned = append(warned, s) }})
	require.NoError(t, err)
	assert.Empty(t, tools)
	assert.Equal(t, []string{"x"}, warned)
}
