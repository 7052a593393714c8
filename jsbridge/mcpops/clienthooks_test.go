package mcpops

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/jsbridge"
)

// serveSampling serves an mcp-go server whose tool "ask" asks the client
// for a completion and answers with its text.
func serveSampling(t *testing.T) string {
	t.Helper()
	s := server.NewMCPServer("sampling", "1.0.0", server.WithToolCapabilities(false))
	s.EnableSampling()
	s.AddTool(mcpgo.NewTool("ask", mcpgo.WithDescription("Asks the client's model.")),
		func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			//lint:ignore SA1019 servers still ask clients for sampling before protocol 2026-07-28
			r, err := s.RequestSampling(ctx, mcpgo.CreateMessageRequest{CreateMessageParams: mcpgo.CreateMessageParams{
				Messages: []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("hi")}}, MaxTokens: 5}})
			if err != nil {
				return mcpgo.NewToolResultError(err.Error()), nil
			}
			b, _ := json.Marshal(r.Content)
			return mcpgo.NewToolResultText(string(b)), nil
		})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// fakeClientHost installs a HostCall that answers host function 7 with a text
// completion and records the ids called.
func fakeClientHost(t *testing.T) *[]int64 {
	t.Helper()
	var called []int64
	old := jsbridge.HostCall
	jsbridge.HostCall = func(_ context.Context, id int64, payload []byte) (json.RawMessage, error) {
		called = append(called, id)
		if id != 7 {
			return nil, &core.Error{Code: core.CodeInternal, Message: "the sampling hook threw: Error"}
		}
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"from host 7"},"model":"m"}`), nil
	}
	t.Cleanup(func() { jsbridge.HostCall = old })
	return &called
}

func TestHookOptionsCallTheHost(t *testing.T) {
	called := fakeClientHost(t)
	url := serveSampling(t)
	p := newPool()
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := registerServer(context.Background(), p, m, []byte(fmt.Sprintf(
		`{"config": {"name": "s", "url": %q, "protocolVersion": "2025-11-25"}, "options": {"security": %s, "sampling": 7, "roots": [{"uri": "file:///w"}]}}`, url, loopbackJSON)))
	require.NoError(t, err)
	fc, err := m.Invoke(context.Background(), &core.Request{Function: "mcp__s__ask", Arguments: core.NewArguments()})
	require.NoError(t, err)
	require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
	assert.Contains(t, fc.Response, "from host 7")
	assert.Equal(t, []int64{7}, *called)
}

func TestHookOptionsRefuseOtherValues(t *testing.T) {
	for payload, want := range map[string]string{
		`"sampling": "f"`:                            "registerMcpServer: option sampling must be a function, got string",
		`"elicitation": 0`:                           "registerMcpServer: option elicitation must be a function, got number",
		`"roots": {"uri": "x"}`:                      "registerMcpServer: option roots must be a function, got object",
		`"roots": [{"uri": 1}]`:                      "registerMcpServer: option roots[0] must be {uri: string, name?: string}, got object",
		`"roots": [{"uri": "file:///a"}, null]`:      "registerMcpServer: option roots[1] must be {uri: string, name?: string}, got null",
		`"roots": [{"uri": "file:///a", "name": 2}]`: "registerMcpServer: option roots[0] must be {uri: string, name?: string}, got object",
		`"roots": [{"uri": "/a"}]`:                   `server "a": option roots: roots[0].uri must be a file:// URI, got "/a"`,
	} {
		_, err := registerServer(context.Background(), newPool(), core.NewManager(nil), []byte(
			`{"config": {"name": "a", "url": "https://a.example/"}, "options": {"security": {"allowUrls": true}, `+payload+`}}`))
		require.Error(t, err, payload)
		assert.Equal(t, core.CodeUnsupportedType, core.AsError(err).Code, payload)
		assert.Contains(t, err.Error(), want, payload)
	}
	for _, call := range []string{"loadMcpConfig", "loadMcpTools"} {
		opts := map[string]json.RawMessage{"sampling": json.RawMessage(`true`)}
		_, err := hooksOption(call, opts)
		require.Error(t, err)
		assert.Contains(t, err.Error(), call+": option sampling must be a function, got boolean")
	}
}
