package mcpops

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/mcp"
)

const loopbackJSON = `{"allowUrls": true, "allowLoopbackHttp": true}`

// fixtureNames are the tools serveFixture's server offers, sorted.
var fixtureNames = []string{"add", "echo"}

// serveFixture serves a two-tool MCP server (mcp-go's) over Streamable HTTP
// on loopback and returns its URL.
func serveFixture(t *testing.T) string {
	t.Helper()
	s := server.NewMCPServer("fixture", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("Echo a message."), mcpgo.WithString("message", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("message", "")), nil
		})
	s.AddTool(mcpgo.NewTool("add", mcpgo.WithDescription("Add two numbers."), mcpgo.WithNumber("a", mcpgo.Required()), mcpgo.WithNumber("b", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(fmt.Sprint(req.GetFloat("a", 0) + req.GetFloat("b", 0))), nil
		})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func TestRegisterServerJSON(t *testing.T) {
	url := serveFixture(t)
	p := newPool()
	defer p.Cleanup(context.Background())

	m := core.NewManager(nil)
	out, err := registerServer(context.Background(), p, m, []byte(fmt.Sprintf(
		`{"config": {"name": "fx", "url": %q, "transport": "streamable-http"}, "options": {"security": %s, "qualify": false, "update": null,
		"toolNames": ["echo"], "requestOptions": {"echo": {"type": "object", "properties": {"message": {"type": "string"}}}}}}`, url, loopbackJSON)))
	require.NoError(t, err)
	assert.JSONEq(t, `{"names":["echo"],"warnings":[]}`, string(out))
	assert.Equal(t, []string{"echo"}, m.Names())

	out, err = registerServer(context.Background(), p, m, []byte(fmt.Sprintf(
		`{"config": {"name": "fx", "url": %q}, "options": {"security": %s}}`, url, loopbackJSON)))
	require.NoError(t, err)
	var got struct{ Names []string }
	require.NoError(t, json.Unmarshal(out, &got))
	assert.Len(t, got.Names, len(fixtureNames))

	cases := []struct {
		name    string
		payload string
		code    core.Code
	}{
		{"not an object", `[]`, core.CodeInvalidRequest},
		{"unknown payload key", `{"config": {"name": "a", "url": "https://a.example/"}, "x": 1}`, core.CodeInvalidRequest},
		{"no config", `{"options": {}}`, core.CodeInvalidTool},
		{"config with a command", `{"config": {"name": "a", "command": "npx"}}`, core.CodeUnsupported},
		{"config without a name", `{"config": {"url": "https://a.example/"}}`, core.CodeInvalidTool},
		{"options not an object", `{"config": {"name": "a", "url": "https://a.example/"}, "options": 1}`, core.CodeUnsupportedType},
		{"unknown option", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"signal": 1}}`, core.CodeUnsupportedType},
		{"toolNames not strings", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"toolNames": [1]}}`, core.CodeUnsupportedType},
		{"update not a boolean", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"update": "yes"}}`, core.CodeUnsupportedType},
		{"qualify not a boolean", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"qualify": 1}}`, core.CodeUnsupportedType},
		{"result not a string", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"result": true}}`, core.CodeUnsupportedType},
		{"result an unknown mode", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"result": "raw"}}`, core.CodeUnsupportedType},
		{"tasks not a string", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"tasks": true}}`, core.CodeUnsupportedType},
		{"tasks an unknown mode", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"tasks": "never"}}`, core.CodeUnsupportedType},
		{"requestOptions not an object", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"requestOptions": []}}`, core.CodeUnsupportedType},
		{"requestOptions value not an object", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"requestOptions": {"t": 1}}}`, core.CodeUnsupportedType},
		{"security with an unknown key", `{"config": {"name": "a", "url": "https://a.example/"}, "options": {"security": {"AllowUrls": true}}}`, core.CodeUnsupportedType},
		{"no security", `{"config": {"name": "a", "url": "https://a.example/"}}`, core.CodePolicyDenied},
		{"security in the config is ignored", `{"config": {"name": "a", "url": "https://a.example/", "security": {"allowUrls": true}}}`, core.CodePolicyDenied},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := core.NewManager(nil)
			_, err := registerServer(context.Background(), p, m, []byte(tc.payload))
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
			assert.Empty(t, m.Names())
		})
	}
}

func TestLoadMcpConfigJSON(t *testing.T) {
	url := serveFixture(t)
	p := newPool()
	defer p.Cleanup(context.Background())
	config := fmt.Sprintf(`{"mcpServers": {"fx": {"url": %q}, "bad": {"url": 7}}}`, url)
	for _, form := range []string{config, fmt.Sprintf("%q", config)} {
		m := core.NewManager(nil)
		out, err := loadMcpConfig(context.Background(), p, m, []byte(fmt.Sprintf(`{"config": %s, "options": {"security": %s}}`, form, loopbackJSON)))
		require.NoError(t, err)
		var got struct {
			Result   map[string][]string `json:"result"`
			Warnings []struct {
				Server string     `json:"server"`
				Error  core.Error `json:"error"`
			} `json:"warnings"`
		}
		require.NoError(t, json.Unmarshal(out, &got), "got %s", out)
		assert.Len(t, got.Result["fx"], len(fixtureNames))
		assert.Equal(t, []string{}, got.Result["bad"])
		require.Len(t, got.Warnings, 1)
		assert.Equal(t, "bad", got.Warnings[0].Server)
		assert.Equal(t, core.CodeInvalidTool, got.Warnings[0].Error.Code)
		assert.Regexp(t, `^\{"result":\{"fx":\[.*\],"bad":\[\]\},"warnings":`, string(out), "got %s, want servers in config order", out)
	}
	for _, payload := range []string{`{}`, `{"config": 5}`, `{"config": "{"}`, `{"config": {}, "options": {"requestOptionsMap": {}}}`, `{"config": {}, "options": {"serverNames": "x"}}`,
		`{"config": {}, "options": {"result": "raw"}}`} {
		_, err := loadMcpConfig(context.Background(), p, core.NewManager(nil), []byte(payload))
		assert.Error(t, err, "payload %s", payload)
	}
	out, err := loadMcpConfig(context.Background(), p, core.NewManager(nil), []byte(`{"config": {"servers": {}}, "options": {"security": {"allowUrls": true}}}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"result": {}, "warnings": []}`, string(out))
	_, err = loadMcpConfig(context.Background(), p, core.NewManager(nil), []byte(`{"config": {}, "options": {"security": {"allowUrls": true}}}`))
	assert.ErrorIs(t, err, core.ErrInvalidRequest, "a config with neither mcpServers nor servers loads nothing silently no more")
	for _, env := range []string{`5`, `{"A": 1}`, `["A"]`} {
		_, err = loadMcpConfig(context.Background(), p, core.NewManager(nil), []byte(`{"config": {"servers": {}}, "options": {"env": `+env+`}}`))
		assert.ErrorIs(t, err, core.ErrUnsupportedType, "env %s", env)
	}
}

func TestLoadMcpToolsJSON(t *testing.T) {
	url := serveFixture(t)
	p := newPool()
	defer p.Cleanup(context.Background())
	tools, warnings, err := loadMcpTools(context.Background(), p, []byte(fmt.Sprintf(
		`{"config": {"mcpServers": {"fx": {"url": %q}}}, "options": {"security": %s, "serverNames": ["fx", "zz"],
		"requestOptionsMap": {"fx": {"echo": {"type": "object"}, "add": null}, "zz": null}}}`, url, loopbackJSON)))
	require.NoError(t, err)
	assert.Len(t, tools, len(fixtureNames))
	assert.JSONEq(t, `[{"server": "zz", "error": {"code": "invalid-request", "tool": "zz", "message": "Unknown MCP server: \"zz\" (not in this config)"}}]`, string(warnings))

	_, warnings, err = loadMcpTools(context.Background(), p, []byte(fmt.Sprintf(`{"config": {"mcpServers": {"fx": {"url": %q}}}, "options": {"security": %s}}`, url, loopbackJSON)))
	require.NoError(t, err)
	assert.Equal(t, "[]", string(warnings))

	for _, payload := range []string{`{}`, `{"options": {"result": "Full"}}`, `{"options": {"result": 1}}`, `{"options": {"requestOptionsMap": []}}`, `{"options": {"requestOptionsMap": {"fx": 1}}}`, `{"options": {"bogus": 1}}`, `{"options": {"security": 1}}`} {
		_, _, err := loadMcpTools(context.Background(), p, []byte(payload))
		assert.Error(t, err, "payload %s", payload)
	}
}

func TestCheckURLJSON(t *testing.T) {
	cases := []struct {
		payload string
		want    string
		code    core.Code
	}{
		{`{"url": "https://api.example.com/mcp", "security": {"allowUrls": true}}`, `{"allowed": true}`, ""},
		{`{"url": "http://127.0.0.1:3000/mcp", "security": ` + loopbackJSON + `}`, `{"allowed": true}`, ""},
		{`{"url": "https://api.example.com/mcp"}`, "", ""},
		{`{"url": "https://api.example.com/mcp", "security": null}`, "", ""},
		{`{"url": 5, "security": {"allowUrls": true}}`, "", core.CodeUnsupportedType},
		{`{"security": {"allowUrls": true}}`, "", core.CodeUnsupportedType},
		{`{"url": "https://a.example/", "security": {"allowUrls": "true"}}`, "", core.CodeUnsupportedType},
		{`{"url": "https://a.example/", "extra": 1}`, "", core.CodeInvalidRequest},
		{`"https://a.example/"`, "", core.CodeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.payload, func(t *testing.T) {
			out, err := checkURL([]byte(tc.payload))
			if tc.code != "" {
				assert.ErrorIs(t, err, &core.Error{Code: tc.code}, "got %v", err)
				return
			}
			require.NoError(t, err)
			if tc.want != "" {
				assert.JSONEq(t, tc.want, string(out))
				return
			}
			var v mcp.Verdict
			require.NoError(t, json.Unmarshal(out, &v))
			assert.False(t, v.Allowed)
			assert.Equal(t, mcp.RuleNoPolicy, v.Rule, "got rule %q (%s), want no-policy", v.Rule, v.Reason)
			assert.NotEmpty(t, v.Reason)
		})
	}
}

func TestDebugStats(t *testing.T) {
	p := newPool()
	got := debugStats(p, func() (int64, int64) { return 3, 1 })
	assert.Equal(t, int64(3), got["fetchLiveFuncs"])
	assert.Equal(t, int64(1), got["fetchInFlight"])
	// Every Stats field, by its JSON name: none is left out of what JS reads.
	fields := reflect.TypeOf(mcp.Stats{})
	assert.Len(t, got, fields.NumField()+3)
	assert.Contains(t, got, "pacePauses")
	for i := 0; i < fields.NumField(); i++ {
		name := fields.Field(i).Tag.Get("json")
		v, ok := got[name]
		assert.True(t, ok, "mcpStats() lacks %s", name)
		assert.Zero(t, v)
	}
}
