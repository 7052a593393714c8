package mcp

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestExpandConfig(t *testing.T) {
	env := map[string]string{"TOKEN": "tg-planted-secret-env-1", "EMPTY": "", "HOST": "mcp.example.com"}
	cases := []struct {
		name, url, header, wantURL, wantHeader, rule string
	}{
		{"${NAME}", "https://${HOST}/mcp", "Bearer ${TOKEN}", "https://mcp.example.com/mcp", "Bearer tg-planted-secret-env-1", ""},
		{"${env:NAME} (VS Code)", "https://x.example/mcp", "Bearer ${env:TOKEN}", "https://x.example/mcp", "Bearer tg-planted-secret-env-1", ""},
		{"a default for an unset variable", "https://${NOPE:-d.example}/mcp", "${NOPE:-none}", "https://d.example/mcp", "none", ""},
		{"a default for an empty variable", "https://x.example/", "${env:EMPTY:-dflt}", "https://x.example/", "dflt", ""},
		{"an empty variable without default", "https://x.example/", "a${EMPTY}b", "https://x.example/", "ab", ""},
		{"no reference", "https://x.example/$HOME", "$TOKEN", "https://x.example/$HOME", "$TOKEN", ""},
		{"an unset variable", "https://x.example/", "Bearer ${GITHUB_TOKEN}", "", "", RuleUnsetVariable},
		{"an unset variable in the url", "https://x.example/${MISSING}", "", "", "", RuleUnsetVariable},
		{"VS Code's input", "https://x.example/", "Bearer ${input:api-key}", "", "", RuleInputVariable},
		{"no closing brace", "https://x.example/", "Bearer ${TOKEN", "", "", RuleVariableSyntax},
		{"not a name", "https://x.example/", "${1X}", "", "", RuleVariableSyntax},
		{"an empty reference", "https://x.example/", "${}", "", "", RuleVariableSyntax},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &ServerConfig{Name: "srv", URL: tc.url, Headers: map[string]string{"Authorization": tc.header}}
			err := expandConfig(cfg, env)
			if tc.rule != "" {
				var ce *core.Error
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, core.CodeInvalidTool, ce.Code)
				assert.Equal(t, tc.rule, ce.Rule)
				assert.Equal(t, "srv", ce.Tool)
				noSecret(t, ce.Message, "tg-planted-secret-env-1")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantURL, cfg.URL)
			assert.Equal(t, tc.wantHeader, cfg.Headers["Authorization"])
		})
	}
	cfg := &ServerConfig{Name: "srv", URL: "https://x.example/", Headers: map[string]string{"X": "${NL}"}}
	require.ErrorIs(t, expandConfig(cfg, map[string]string{"NL": "a\r\nb"}), core.ErrInvalidTool, "a value that would split the header")
}

// TestLoadMcpConfigExpandsVariables: a VS Code mcp.json ("servers") whose
// header names a variable sends the variable's value, which no record or
// error shows; an unset variable refuses the whole load, naming it.
func TestLoadMcpConfigExpandsVariables(t *testing.T) {
	const secret = "tg-planted-secret-env-2"
	h := newHostile(t)
	var mu sync.Mutex
	var seen []string
	h.toolsList = func(w http.ResponseWriter, r *http.Request, m rpcMessage) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		writeResult(w, m.ID, map[string]any{"tools": []any{toolJSON("t")}})
	}
	h.toolsCall = func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		writeResult(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo " + secret}}, "isError": true})
	}
	data := []byte(fmt.Sprintf(`{"inputs": [], "servers": {"vs": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer ${env:API_TOKEN}"}}}}`, h.url))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, names, err := LoadMcpConfig(context.Background(), p, m, data, &LoadOptions{Security: loopback(), Env: map[string]string{"API_TOKEN": secret}})
	require.NoError(t, err)
	require.Equal(t, []string{"mcp__vs__t"}, names["vs"])
	mu.Lock()
	assert.Equal(t, []string{"Bearer " + secret}, seen, "the header went out expanded")
	mu.Unlock()
	tool, _ := m.Get("mcp__vs__t")
	noSecret(t, fmt.Sprint(tool.MCPConfig), secret)
	fc := invoke(t, m, "mcp__vs__t", map[string]any{"q": "x"})
	require.Error(t, fc.Err)
	noSecret(t, fc.Err.Error(), secret)

	m2 := core.NewManager(nil)
	_, _, err = LoadMcpConfig(context.Background(), p, m2, data, &LoadOptions{Security: loopback(), Env: map[string]string{}})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, RuleUnsetVariable, ce.Rule)
	assert.Equal(t, "vs", ce.Tool)
	assert.Contains(t, ce.Message, "API_TOKEN")
	assert.Empty(t, m2.Names(), "nothing registered")
}
