package provider

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestFormatToolResultCompleted(t *testing.T) {
	r := &ToolResult{CallID: "call_1", Function: "add", Status: core.StatusCompleted, Output: json.RawMessage(`{"sum":3}`)}
	tests := []struct{ target, want string }{
		{core.ProviderOpenAIChat, `{"role":"tool","tool_call_id":"call_1","content":"{\"sum\":3}"}`},
		{core.ProviderOpenAIResponses, `{"type":"function_call_output","call_id":"call_1","output":"{\"sum\":3}"}`},
		{core.ProviderAnthropic, `{"type":"tool_result","tool_use_id":"call_1","content":"{\"sum\":3}"}`},
		{core.ProviderGemini, `{"functionResponse":{"id":"call_1","name":"add","response":{"output":{"sum":3}}}}`},
		{MCP, `{"content":[{"type":"text","text":"{\"sum\":3}"}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			got, err := FormatToolResult(tc.target, r)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

func TestFormatToolResultOutputs(t *testing.T) {
	tests := []struct{ name, output, text, gemini string }{
		{"a string is its text", `"18°C <sunny> & dry"`, `18°C <sunny> & dry`, `"18°C <sunny> & dry"`},
		{"no output is null", ``, `null`, `null`},
		{"big integers exact", `{"n":12345678901234567890,"m":[-9007199254740993,1.5e300,42],"s":"12345678901234567890"}`,
			`{"n":12345678901234567890,"m":[-9007199254740993,1.5e300,42],"s":"12345678901234567890"}`,
			`{"n":"12345678901234567890","m":["-9007199254740993",1.5e300,42],"s":"12345678901234567890"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &ToolResult{CallID: "c", Function: "f", Status: core.StatusCompleted, Output: json.RawMessage(tc.output)}
			got, err := FormatToolResult(core.ProviderOpenAIChat, r)
			require.NoError(t, err)
			var msg struct{ Content string }
			require.NoError(t, json.Unmarshal(got, &msg))
			assert.Equal(t, tc.text, msg.Content)
			got, err = FormatToolResult(core.ProviderGemini, r)
			require.NoError(t, err)
			assert.Equal(t, `{"functionResponse":{"id":"c","name":"f","response":{"output":`+tc.gemini+`}}}`, string(got))
		})
	}
}

// failed is a refused call's result: two issues.
func failed() *ToolResult {
	return &ToolResult{CallID: "call_2", Function: "add", Error: &ToolResultError{Code: core.CodeInvalidArguments, Message: "arguments do not match",
		Issues: []core.Issue{{Path: "/a", Keyword: "type", Message: "field /a: expected integer, but got string"}, {Path: "", Keyword: "required", Message: "missing property b"}}}}
}

func TestFormatToolResultFailed(t *testing.T) {
	for _, target := range []string{core.ProviderOpenAIChat, core.ProviderOpenAIResponses, core.ProviderAnthropic, core.ProviderGemini, MCP} {
		t.Run(target, func(t *testing.T) {
			got, err := FormatToolResult(target, failed())
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(got, &m))
			var text string
			switch target {
			case core.ProviderOpenAIChat:
				text = m["content"].(string)
			case core.ProviderOpenAIResponses:
				text = m["output"].(string)
			case core.ProviderAnthropic:
				text = m["content"].(string)
				assert.Equal(t, true, m["is_error"])
			case core.ProviderGemini:
				resp := m["functionResponse"].(map[string]any)["response"].(map[string]any)
				assert.NotContains(t, resp, "output")
				text = resp["error"].(string)
			case MCP:
				text = m["content"].([]any)[0].(map[string]any)["text"].(string)
				assert.Equal(t, true, m["isError"])
			}
			for _, part := range []string{`"add"`, "/a", `"type"`, `"required"`, string(core.CodeInvalidArguments)} {
				assert.Contains(t, text, part)
			}
		})
	}
	for _, target := range []string{core.ProviderAnthropic, MCP} {
		ok, err := FormatToolResult(target, &ToolResult{CallID: "c", Function: "f", Status: core.StatusCompleted, Output: json.RawMessage(`1`)})
		require.NoError(t, err)
		assert.NotContains(t, string(ok), "rror", "%s: the error flag only on failure", target)
	}
}

func TestFormatToolResultRefused(t *testing.T) {
	tests := []struct {
		name, target string
		r            *ToolResult
	}{
		{"unknown target", "mistral", &ToolResult{CallID: "c", Function: "f"}},
		{"nil result", core.ProviderOpenAIChat, nil},
		{"no call id for openai-chat", core.ProviderOpenAIChat, &ToolResult{Function: "f", Status: core.StatusCompleted}},
		{"no call id for openai-responses", core.ProviderOpenAIResponses, &ToolResult{Function: "f", Status: core.StatusCompleted}},
		{"no call id for anthropic", core.ProviderAnthropic, &ToolResult{Function: "f", Error: &ToolResultError{Message: "x"}}},
		{"no name for gemini", core.ProviderGemini, &ToolResult{CallID: "c", Error: &ToolResultError{Message: "x"}}},
		{"output not JSON", MCP, &ToolResult{Function: "f", Status: core.StatusCompleted, Output: json.RawMessage(`{`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FormatToolResult(tc.target, tc.r)
			assert.ErrorIs(t, err, core.ErrInvalidRequest, "got %v", err)
			if tc.r != nil && tc.r.Function != "" && tc.target != "mistral" {
				assert.Equal(t, tc.r.Function, core.AsError(err).Tool)
			}
		})
	}
	for _, target := range []string{core.ProviderGemini, MCP} {
		_, err := FormatToolResult(target, &ToolResult{Function: "f", Status: core.StatusCompleted})
		assert.NoError(t, err, "%s needs no call id", target)
	}
}

func TestFormatToolResults(t *testing.T) {
	ok := &ToolResult{CallID: "call_1", Function: "add", Status: core.StatusCompleted, Output: json.RawMessage(`3`)}
	tests := []struct{ target, prefix string }{
		{core.ProviderOpenAIChat, `[{"role":"tool","tool_call_id":"call_1","content":"3"},{"role":"tool"`},
		{core.ProviderOpenAIResponses, `[{"type":"function_call_output","call_id":"call_1","output":"3"},{`},
		{core.ProviderAnthropic, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"3"},{`},
		{core.ProviderGemini, `{"role":"user","parts":[{"functionResponse":{"id":"call_1","name":"add","response":{"output":3}}},{`},
		{MCP, `[{"content":[{"type":"text","text":"3"}]},{`},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			got, err := FormatToolResults(tc.target, []*ToolResult{ok, failed()})
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(got), tc.prefix), "got %s", got)
			assert.True(t, json.Valid(got))
		})
	}
	_, err := FormatToolResults(core.ProviderOpenAIChat, nil)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	_, err = FormatToolResults(core.ProviderOpenAIChat, []*ToolResult{ok, {Function: "f", Status: core.StatusCompleted}})
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
}

func TestFunctionCallingToolResult(t *testing.T) {
	m := core.NewManager(nil)
	require.NoError(t, m.Register(core.HandlerFunc("div", func(_ context.Context, a *core.Arguments) (any, error) {
		if v, _ := a.Get("b"); v == json.Number("0") {
			return nil, errors.New("division by zero")
		}
		return map[string]any{"q": 2}, nil
	}), false))
	fc, err := m.Invoke(context.Background(), &core.Request{ID: "call_ok", Function: "div", Arguments: &core.Arguments{Keys: []string{"b"}, Values: map[string]any{"b": json.Number("1")}}})
	require.NoError(t, err)
	got, err := FormatCall(core.ProviderAnthropic, fc)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"tool_result","tool_use_id":"call_ok","content":"{\"q\":2}"}`, string(got))

	fc, err = m.Invoke(context.Background(), &core.Request{ID: "call_zero", Function: "div", Arguments: &core.Arguments{Keys: []string{"b"}, Values: map[string]any{"b": json.Number("0")}}})
	require.NoError(t, err)
	got, err = FormatCall(core.ProviderAnthropic, fc)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"is_error":true`)
	assert.Contains(t, string(got), "division by zero")

	pending, err := m.Match(&core.Request{ID: "call_p", Function: "div", Arguments: core.NewArguments()})
	require.NoError(t, err)
	_, err = FormatCall(core.ProviderOpenAIChat, pending)
	assert.ErrorIs(t, err, core.ErrInvalidRequest)
	assert.Equal(t, "call_p", core.AsError(err).CallID)
}

func TestErrorToolResult(t *testing.T) {
	m := core.NewManager(nil)
	_, err := m.Match(&core.Request{ID: "call_x", Function: "nope", Arguments: core.NewArguments()})
	r := ErrorToolResult(err)
	require.NotNil(t, r)
	assert.Equal(t, "call_x", r.CallID)
	assert.Equal(t, "nope", r.Function)
	got, err := FormatToolResult(core.ProviderOpenAIChat, r)
	require.NoError(t, err)
	assert.Contains(t, string(got), string(core.CodeToolNotFound))
	assert.Nil(t, ErrorToolResult(nil))
	assert.Equal(t, "", FailureText(&ToolResult{Function: "f"}))
}
