package mcp

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestRefuseCommand(t *testing.T) {
	err := refuseCommand("files", "npx")
	var ce *core.Error
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, core.CodeUnsupported, ce.Code, "got code %q, want unsupported", ce.Code)
	assert.Equal(t, "files", ce.Tool, "got tool %q, want the server name", ce.Tool)
	assert.Equal(t, `server "files": stdio MCP transport is not available in this runtime: there are no processes (command "npx")`, ce.Message)
}

func TestValidateServerConfig(t *testing.T) {
	tests := []struct {
		name      string
		server    string
		raw       string
		want      *ServerConfig
		code      core.Code
		inMessage string
	}{
		{
			name:   "minimal",
			server: "docs",
			raw:    `{"url": "https://api.example.com/mcp"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://api.example.com/mcp", Transport: TransportStreamableHTTP},
		},
		{
			name: "name from the config",
			raw:  `{"name": "docs", "url": "https://api.example.com/mcp", "transport": "sse"}`,
			want: &ServerConfig{Name: "docs", URL: "https://api.example.com/mcp", Transport: TransportSSE},
		},
		{
			name:   "same name in both places",
			server: "docs",
			raw:    `{"name": "docs", "url": "https://x.example/"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP},
		},
		{
			name:   "headers, env, unknown keys ignored, null counts as absent",
			server: "docs",
			raw:    `{"url": "https://x.example/", "headers": {"Authorization": "Bearer t"}, "env": {"K": "v"}, "args": null, "description": "x", "timeout": 5}`,
			want: &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP,
				Headers: map[string]string{"Authorization": "Bearer t"}, Env: map[string]string{"K": "v"}},
		},
		{
			name:   "type http",
			server: "docs",
			raw:    `{"type": "http", "url": "https://x.example/"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP},
		},
		{
			name:   "type sse agreeing with transport",
			server: "docs",
			raw:    `{"type": "sse", "transport": "sse", "url": "https://x.example/"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportSSE},
		},
		{
			name:   "own security",
			server: "docs",
			raw:    `{"url": "https://x.example/", "security": {"allowUrls": true}}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP, Security: Trusted()},
		},
		{name: "command", server: "fs", raw: `{"command": "npx", "args": ["-y", "server"]}`, code: core.CodeUnsupported, inMessage: "there are no processes"},
		{name: "command and url", server: "fs", raw: `{"command": "npx", "url": "https://x.example/"}`, code: core.CodeUnsupported, inMessage: `(command "npx")`},
		{name: "non-string command", server: "fs", raw: `{"command": ["npx"]}`, code: core.CodeUnsupported},
		{name: "neither url nor command", server: "fs", raw: `{"args": []}`, code: core.CodeInvalidTool, inMessage: `needs a "url"`},
		{name: "url null", server: "fs", raw: `{"url": null}`, code: core.CodeInvalidTool, inMessage: `needs a "url"`},
		{name: "url not a string", server: "fs", raw: `{"url": 5}`, code: core.CodeInvalidTool, inMessage: `"url" must be a string, got number`},
		{name: "url empty", server: "fs", raw: `{"url": ""}`, code: core.CodeInvalidTool, inMessage: `"url" is empty`},
		{name: "unknown transport", server: "fs", raw: `{"url": "https://x.example/", "transport": "stdio"}`, code: core.CodeInvalidTool, inMessage: `"transport" is "stdio"`},
		{name: "transport not a string", server: "fs", raw: `{"url": "https://x.example/", "transport": 1}`, code: core.CodeInvalidTool, inMessage: `"transport" must be a string`},
		{name: "unknown type", server: "fs", raw: `{"url": "https://x.example/", "type": "websocket"}`, code: core.CodeInvalidTool, inMessage: `"type" is "websocket"`},
		{name: "type and transport disagree", server: "fs", raw: `{"url": "https://x.example/", "type": "http", "transport": "sse"}`, code: core.CodeInvalidTool, inMessage: "different transports"},
		{name: "not an object", server: "fs", raw: `["https://x.example/"]`, code: core.CodeInvalidTool, inMessage: "must be a JSON object"},
		{name: "empty", server: "fs", raw: ``, code: core.CodeInvalidTool, inMessage: "must be a JSON object"},
		{name: "invalid JSON", server: "fs", raw: `{"url": `, code: core.CodeInvalidTool, inMessage: "must be a JSON object"},
		{name: "no name", raw: `{"url": "https://x.example/"}`, code: core.CodeInvalidTool, inMessage: "the server has no name"},
		{name: "name not a string", raw: `{"name": 1, "url": "https://x.example/"}`, code: core.CodeInvalidTool, inMessage: `"name" must be a string`},
		{name: "names disagree", server: "a", raw: `{"name": "b", "url": "https://x.example/"}`, code: core.CodeInvalidTool, inMessage: "differs from the server name"},
		{name: "headers not an object", server: "fs", raw: `{"url": "https://x.example/", "headers": ["a"]}`, code: core.CodeInvalidTool, inMessage: `"headers" must be an object of strings, got array`},
		{name: "header value not a string", server: "fs", raw: `{"url": "https://x.example/", "headers": {"X-Key": 12345}}`, code: core.CodeInvalidTool, inMessage: `headers."X-Key" must be a string, got number`},
		{name: "bad header name", server: "fs", raw: `{"url": "https://x.example/", "headers": {"X Key": "v"}}`, code: core.CodeInvalidTool, inMessage: `header name "X Key" is not an HTTP token`},
		{name: "empty header name", server: "fs", raw: `{"url": "https://x.example/", "headers": {"": "v"}}`, code: core.CodeInvalidTool, inMessage: "is not an HTTP token"},
		{name: "header value with CRLF", server: "fs", raw: `{"url": "https://x.example/", "headers": {"X-Key": "secretvalue\r\nHost: evil"}}`, code: core.CodeInvalidTool, inMessage: `the value of header "X-Key" contains a control character`},
		{name: "env not an object", server: "fs", raw: `{"url": "https://x.example/", "env": "K=v"}`, code: core.CodeInvalidTool, inMessage: `"env" must be an object of strings, got string`},
		{name: "bad security", server: "fs", raw: `{"url": "https://x.example/", "security": {"allowUrls": "true"}}`, code: core.CodeUnsupportedType, inMessage: "security.allowUrls: got string, want boolean"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ValidateServerConfig(tc.server, json.RawMessage(tc.raw))
			if tc.want != nil {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got, "got %+v, want %+v", got, tc.want)
				return
			}
			var ce *core.Error
			require.True(t, errors.As(err, &ce), "got %v, want a *core.Error", err)
			assert.Equal(t, tc.code, ce.Code, "got code %q, want %q (%s)", ce.Code, tc.code, ce.Message)
			assert.Contains(t, ce.Message, tc.inMessage, "got message %q, want it to contain %q", ce.Message, tc.inMessage)
			assert.NotContains(t, ce.Message, "secretvalue", "got message %q, want no header value", ce.Message)
			if ce.Message != "" && tc.server != "" {
				assert.Equal(t, tc.server, ce.Tool, "got tool %q, want the server name", ce.Tool)
			}
		})
	}
}

func TestServerConfigRedacted(t *testing.T) {
	cfg, err := ValidateServerConfig("docs", json.RawMessage(`{
		"url": "https://user:pw-secret@api.example.com/mcp?key=q-secret#f-secret",
		"transport": "sse",
		"headers": {"Authorization": "Bearer h-secret"},
		"env": {"API_KEY": "e-secret"},
		"security": {"allowUrls": true, "urlAllowlist": ["api.example.com"]}
	}`))
	require.NoError(t, err)
	got := cfg.Redacted()
	want := map[string]any{
		"name":      "docs",
		"url":       "https://[redacted]@api.example.com/mcp?key=[redacted]#[redacted]",
		"transport": "sse",
		"headers":   map[string]any{"Authorization": "[redacted]"},
		"env":       map[string]any{"API_KEY": "[redacted]"},
		"security": map[string]any{
			"allowUrls": true, "urlAllowlist": []any{"api.example.com"}, "allowCommands": false,
			"commandAllowlist": nil, "maxConnectionsPerServer": float64(5), "allowLoopbackHttp": false,
			"timeoutMs": float64(60000), "maxMessageBytes": float64(4 << 20),
		},
	}
	assert.Equal(t, want, got)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "secret", "got %s, want no secret", b)

	plain := (&ServerConfig{Name: "p", URL: "https://api.example.com/mcp", Transport: TransportStreamableHTTP}).Redacted()
	assert.Equal(t, map[string]any{"name": "p", "url": "https://api.example.com/mcp", "transport": TransportStreamableHTTP}, plain)
	assert.Nil(t, (*ServerConfig)(nil).Redacted(), "got a map for a nil config, want nil")
}
