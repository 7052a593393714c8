package jsbridge

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// TestDescribe checks that Describe gives JS exactly what "tool.info" gives
// for the same tool, and that describing a tool twice keeps its handle.
func TestDescribe(t *testing.T) {
	add, err := core.Func("add", func(a, b int) int { return a + b }, "a", "b")
	require.NoError(t, err)
	tests := []struct {
		name string
		opts *core.ToolOptions
	}{
		{"derived schema", nil},
		{"typed parameters", &core.ToolOptions{Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`)}},
		{"schema without required", &core.ToolOptions{Schema: json.RawMessage(`{"type":"function","function":{"name":"add","parameters":{"type":"object","properties":{}}}}`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := New("test")
			tool, err := core.NewTool(add, tc.opts)
			require.NoError(t, err)

			got := b.Describe(tool)
			var desc map[string]any
			require.NoError(t, json.Unmarshal(got, &desc), "got %s, want a JSON object", got)

			id := int64(desc["id"].(float64))
			stored, err := b.tool(id)
			require.NoError(t, err)
			assert.Same(t, tool, stored, "got another tool under handle %d, want the described one", id)

			info := b.callName("tool.info", id, nil)
			require.Equal(t, byte('0'), info[0], "tool.info failed: %s", info)
			var want map[string]any
			require.NoError(t, json.Unmarshal(info[1:], &want))
			assert.Equal(t, want, desc, "got %s, want tool.info's %s", got, info[1:])

			again := b.Describe(tool)
			assert.JSONEq(t, string(got), string(again), "got %s on the second call, want %s", again, got)
		})
	}
}
