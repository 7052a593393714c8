package mcp

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

const weatherTools = `"tools":[{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}]`

func TestSamplingRequestsWithTools(t *testing.T) {
	cases := []struct {
		name, params string
		declared     bool
		fail         string
	}{
		{"no tools, not declared", `{"messages":[],"maxTokens":5}`, false, ""},
		{"tools, not declared", `{"messages":[],"maxTokens":5,` + weatherTools + `}`, false,
			"Client does not support sampling with tools (the registration did not set samplingTools)"},
		{"toolChoice alone, not declared", `{"messages":[],"maxTokens":5,"toolChoice":{"mode":"auto"}}`, false,
			"Client does not support sampling with tools (the registration did not set samplingTools)"},
		{"tools, declared", `{"messages":[],"maxTokens":5,` + weatherTools + `,"toolChoice":{"mode":"required"}}`, true, ""},
		{"tools not an array", `{"messages":[],"tools":{}}`, true, "invalid sampling request: tools must be an array of tools {name, inputSchema, ...}"},
		{"a tool without a name", `{"messages":[],"tools":[{"inputSchema":{}}]}`, true, "invalid sampling request: tools[0].name must be a non-empty string"},
		{"an unknown toolChoice mode", `{"messages":[],` + weatherTools + `,"toolChoice":{"mode":"any"}}`, true,
			`invalid sampling request: toolChoice.mode must be "auto", "required" or "none"`},
		{"tool results mixed with text", `{"messages":[
			{"role":"assistant","content":{"type":"tool_use","id":"c1","name":"get_weather","input":{}}},
			{"role":"user","content":[{"type":"tool_result","toolUseId":"c1","content":[]},{"type":"text","text":"and"}]}],` + weatherTools + `}`, true,
			"Tool results mixed with other content"},
		{"a tool result missing", `{"messages":[
			{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"get_weather","input":{}},{"type":"tool_use","id":"c2","name":"get_weather","input":{}}]},
			{"role":"user","content":[{"type":"tool_result","toolUseId":"c1","content":[]}]}],` + weatherTools + `}`, true,
			"Tool result missing in request"},
		{"every tool use answered", `{"messages":[
			{"role":"assistant","content":{"type":"tool_use","id":"c1","name":"get_weather","input":{}}},
			{"role":"user","content":{"type":"tool_result","toolUseId":"c1","content":[]}}],` + weatherTools + `}`, true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, f := samplingRequest(json.RawMessage(tc.params), tc.declared)
			if tc.fail == "" {
				assert.Nil(t, f)
				return
			}
			if assert.NotNil(t, f) {
				assert.Equal(t, rpcInvalidParams, f.code)
				assert.Equal(t, tc.fail, f.msg)
			}
		})
	}
}

func TestSamplingAnswersWithToolUse(t *testing.T) {
	offer := func(mode string) *samplingOffer {
		return &samplingOffer{names: map[string]bool{"get_weather": true}, mode: mode}
	}
	use := `{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Paris"}}`
	cases := []struct {
		name, answer string
		offer        *samplingOffer
		fail         string
	}{
		{"tool uses with stopReason toolUse", `{"role":"assistant","model":"m","stopReason":"toolUse","content":[` + use + `,` + use + `]}`, offer("auto"), ""},
		{"text after tools", `{"role":"assistant","model":"m","stopReason":"endTurn","content":{"type":"text","text":"sunny"}}`, offer("auto"), ""},
		{"a tool use when none was offered", `{"role":"assistant","model":"m","content":` + use + `}`, nil,
			"invalid sampling result: content[0] is a tool_use, but the request offered no tools"},
		{"a tool use under toolChoice none", `{"role":"assistant","model":"m","content":` + use + `}`, offer("none"),
			`invalid sampling result: content[0] is a tool_use, but the request's toolChoice is "none"`},
		{"a tool the request did not offer", `{"role":"assistant","model":"m","content":{"type":"tool_use","id":"c1","name":"rm_rf","input":{}}}`, offer("auto"),
			"invalid sampling result: content[0].name must name one of the request's tools"},
		{"no id", `{"role":"assistant","model":"m","content":{"type":"tool_use","name":"get_weather","input":{}}}`, offer("auto"),
			"invalid sampling result: content[0].id must be a non-empty string"},
		{"input not an object", `{"role":"assistant","model":"m","content":{"type":"tool_use","id":"c","name":"get_weather","input":"Paris"}}`, offer("auto"),
			"invalid sampling result: content[0].input must be an object"},
		{"a user's tool use", `{"role":"user","model":"m","content":` + use + `}`, offer("auto"),
			`invalid sampling result: a tool_use block needs role "assistant"`},
		{"a tool result in an answer", `{"role":"assistant","model":"m","content":{"type":"tool_result","toolUseId":"c1","content":[]}}`, offer("auto"),
			"invalid sampling result: content[0] is a tool_result, which only the server's messages carry"},
		{"toolUse without a tool use", `{"role":"assistant","model":"m","stopReason":"toolUse","content":{"type":"text","text":"x"}}`, offer("auto"),
			`invalid sampling result: stopReason "toolUse" needs at least one tool_use block`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, f := samplingAnswer(json.RawMessage(tc.answer), tc.offer)
			if tc.fail == "" {
				if assert.Nil(t, f) {
					assert.Equal(t, tc.answer, string(got), "sent as the hook gave it")
				}
				return
			}
			if assert.NotNil(t, f) {
				assert.Equal(t, tc.fail, f.msg)
			}
		})
	}
}

// toolLoopServer is an mcp-go server (both eras) whose tool "plan" asks the
// client's model with a tool offered, then, on a 2026-07-28 retry or the
// legacy answer, reports the model's tool use; "pay" asks the user to open
// a URL (an input request on 2026-07-28, a request of its own before).
func toolLoopServer() *server.MCPServer {
	s := server.NewMCPServer("loop", "1.0.0", server.WithToolCapabilities(false), server.WithElicitation())
	s.EnableSampling()
	sample := mcpgo.CreateMessageParams{MaxTokens: 50,
		Messages:   []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("weather in Paris?")}},
		Tools:      []mcpgo.Tool{mcpgo.NewTool("get_weather", mcpgo.WithString("city"))},
		ToolChoice: &mcpgo.ToolChoice{Mode: mcpgo.ToolChoiceModeRequired}}
	pay := mcpgo.ElicitationParams{Mode: mcpgo.ElicitationModeURL, Message: "Pay first", ElicitationID: "el-9",
		URL: "https://pay.example.com/checkout?session=" + urlSecret}
	s.AddTool(mcpgo.NewTool("plan"), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if got := server.SamplingResponse(req.Params.InputResponses, "model"); got != nil {
			b, _ := json.Marshal(got)
			return mcpgo.NewToolResultText(string(b)), nil
		}
		return server.NewInputRequestBuilder("").Sample("model", sample).ToolResult(), nil
	})
	s.AddTool(mcpgo.NewTool("pay"), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if got := server.ElicitationResponse(req.Params.InputResponses, "pay"); got != nil {
			return mcpgo.NewToolResultText("paid: " + string(got.Action)), nil
		}
		return server.NewInputRequestBuilder("").Elicit("pay", pay).ToolResult(), nil
	})
	return s
}

func TestSamplingWithToolsAndURLElicitationOnBothEras(t *testing.T) {
	for _, era := range []string{"", ProtocolLegacy} {
		t.Run("era "+era, func(t *testing.T) {
			ts := httptest.NewServer(server.NewStreamableHTTPServer(toolLoopServer()))
			defer ts.Close()
			var mu sync.Mutex
			var sampled, asked []string
			var toolsOff atomic.Bool
			hooks := &ClientHooks{
				SamplingTools: true,
				Sampling: hookFn("s", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
					mu.Lock()
					sampled = append(sampled, string(params))
					mu.Unlock()
					if toolsOff.Load() {
						return json.RawMessage(`{"role":"assistant","model":"m","stopReason":"toolUse","content":{"type":"tool_use","id":"c1","name":"rm_rf","input":{}}}`), nil
					}
					return json.RawMessage(`{"role":"assistant","model":"m","stopReason":"toolUse","content":[{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Paris"}}]}`), nil
				}),
				ElicitationURL: hookFn("u", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
					mu.Lock()
					asked = append(asked, string(params))
					mu.Unlock()
					return json.RawMessage(`{"action":"accept"}`), nil
				}),
			}
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "l", URL: ts.URL + "/mcp", ProtocolVersion: era},
				&RegisterOptions{Security: loopback(), Hooks: hooks})
			require.NoError(t, err)

			fc := invoke(t, m, "mcp__l__plan", nil)
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			assert.JSONEq(t, `{"role":"assistant","model":"m","stopReason":"toolUse","content":[{"type":"tool_use","id":"c1","name":"get_weather","input":{"city":"Paris"}}]}`, fc.Response.(string))
			require.Len(t, sampled, 1)
			var got struct {
				Tools      []map[string]any `json:"tools"`
				ToolChoice map[string]any   `json:"toolChoice"`
			}
			require.NoError(t, json.Unmarshal([]byte(sampled[0]), &got))
			require.Len(t, got.Tools, 1, "the tools reach the hook")
			assert.Equal(t, "get_weather", got.Tools[0]["name"])
			assert.Equal(t, map[string]any{"mode": "required"}, got.ToolChoice)

			fc = invoke(t, m, "mcp__l__pay", nil)
			require.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			assert.Equal(t, "paid: accept", fc.Response)
			require.Len(t, asked, 1)
			assert.Contains(t, asked[0], `"url":"https://pay.example.com/checkout?session=`+urlSecret+`"`, "the hook gets the URL as sent")

			toolsOff.Store(true) // the hook names a tool the request did not offer
			fc = invoke(t, m, "mcp__l__plan", nil)
			if era == "" {
				ce := callError(t, fc, core.CodeTransport) // a 2026-07-28 round has no server to answer: the call fails
				assert.Contains(t, ce.Message, "content[0].name must name one of the request's tools")
				return
			}
			require.Equal(t, core.StatusFailed, fc.Status, "the server's sampling got -32602 and its tool failed")
		})
	}
}

func TestAModernURLInputWithoutItsHookNamesElicitationURL(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(toolLoopServer()))
	defer ts.Close()
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "l", URL: ts.URL + "/mcp"},
		&RegisterOptions{Security: loopback(), Hooks: &ClientHooks{Sampling: fixedHook("s", `{}`)}})
	require.NoError(t, err)
	ce := callError(t, invoke(t, m, "mcp__l__pay", nil), core.CodeTransport)
	assert.Contains(t, ce.Message, "give the elicitationUrl hook")
	assertNoSecretIn(t, ce)
}
