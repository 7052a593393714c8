package provider

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// A tool-error's own content items reach the mcp target; every other
// target, and every other error, keeps the failure text.
func TestFormatToolResultToolErrorContent(t *testing.T) {
	whole := json.RawMessage(`{"content":[{"type":"text","text":"disk full"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"isError":true}`)
	fc := &core.FunctionCalling{CallID: "c1", Status: core.StatusFailed, Err: &core.Error{Code: core.CodeToolError, Tool: "mcp__s__save",
		Message: `server "s": tool "save" reported an error: "disk full"`, Result: whole}}
	fc.Tool = &core.Tool{Schema: json.RawMessage(`{"type":"function","function":{"name":"mcp__s__save","parameters":{"type":"object"}}}`)}
	r, err := ResultOf(fc)
	require.NoError(t, err)
	assert.JSONEq(t, string(whole), string(r.Error.Result), "the ToolResult carries the tool's own result")

	got, err := FormatToolResult(MCP, r)
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"disk full"},{"type":"image","data":"aGk=","mimeType":"image/png"}],"isError":true}`, string(got))

	got, err = FormatToolResult(core.ProviderAnthropic, r)
	require.NoError(t, err)
	assert.Contains(t, string(got), `"is_error":true`)
	assert.Contains(t, string(got), "disk full")
	assert.NotContains(t, string(got), "aGk=", "other targets send the failure text")

	other := &ToolResult{Function: "f", Error: &ToolResultError{Code: core.CodeTransport, Message: "down", Result: whole}}
	got, err = FormatToolResult(MCP, other)
	require.NoError(t, err)
	assert.NotContains(t, string(got), "aGk=", "only a tool-error sends its content")

	for _, res := range []string{`{"isError":true}`, `{"content":[],"isError":true}`, `{"content":"x"}`} {
		noContent := &ToolResult{Function: "f", Error: &ToolResultError{Code: core.CodeToolError, Message: "bad", Result: json.RawMessage(res)}}
		got, err = FormatToolResult(MCP, noContent)
		require.NoError(t, err)
		assert.Contains(t, string(got), `"text":"`, "%s: without content items the text is sent", res)
		assert.Contains(t, string(got), `"isError":true`)
	}
}
