package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/provider"
)

// metaServer lists a tool with a title, an outputSchema, annotations,
// icons and _meta, and one whose execution.taskSupport is "required";
// calls counts its tools/call requests.
func metaServer(t *testing.T, calls *atomic.Int32) *hostile {
	h := newHostile(t)
	weather := toolJSON("weather")
	weather["title"] = "Weather Tool"
	weather["outputSchema"] = map[string]any{"type": "object", "properties": map[string]any{"t": map[string]any{"type": "number"}}}
	weather["annotations"] = map[string]any{"readOnlyHint": true}
	weather["icons"] = []any{map[string]any{"src": "https://example.com/w.png"}}
	weather["_meta"] = map[string]any{"x": 1}
	weather["execution"] = map[string]any{"taskSupport": "optional"}
	research := toolJSON("research")
	research["execution"] = map[string]any{"taskSupport": "required"}
	h.toolsList = listOf(weather, research)
	h.toolsCall = func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
		calls.Add(1)
		writeResult(w, m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
	}
	return h
}

// TestToolMetadata: tool.mcp keeps what the server said of a tool beside
// its schema, the mcp export writes it again, and a tool that requires
// tasks, of a server that runs none, is refused before tools/call (and
// still exported: on a server with tasks it runs as one, task_test.go).
func TestToolMetadata(t *testing.T) {
	var calls atomic.Int32
	h := metaServer(t, &calls)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	require.Equal(t, []string{"mcp__s__weather", "mcp__s__research"}, names)

	weather, _ := m.Get("mcp__s__weather")
	info := weather.Callable.(interface{ MCPTool() json.RawMessage }).MCPTool()
	assert.JSONEq(t, `{"server":"s","tool":"weather","annotations":{"readOnlyHint":true},"protocolVersion":"2025-06-18",
		"title":"Weather Tool","outputSchema":{"type":"object","properties":{"t":{"type":"number"}}},
		"execution":{"taskSupport":"optional"},"icons":[{"src":"https://example.com/w.png"}],"_meta":{"x":1}}`, string(info))
	research, _ := m.Get("mcp__s__research")
	info = research.Callable.(interface{ MCPTool() json.RawMessage }).MCPTool()
	assert.Contains(t, string(info), `"taskRequired":true`)

	fc := invoke(t, m, "mcp__s__research", map[string]any{"q": "x"})
	require.Equal(t, core.StatusFailed, fc.Status)
	var ce *core.Error
	require.ErrorAs(t, fc.Err, &ce)
	assert.Equal(t, core.CodeUnsupported, ce.Code)
	assert.Equal(t, RuleTaskRequired, ce.Rule)
	assert.Equal(t, "mcp__s__research", ce.Tool)
	assert.Zero(t, calls.Load(), "no tools/call was sent")

	for _, target := range provider.Targets {
		ex, err := provider.ExportTools(m.Tools(), target, nil)
		require.NoError(t, err, target)
		assert.Contains(t, string(ex.Tools), "mcp__s__research", target) // callable as a task, so offered
		assert.Contains(t, string(ex.Tools), "mcp__s__weather", target)
		for _, c := range ex.Report.Changes {
			assert.NotEqual(t, provider.ChangeToolLeftOut, c.Kind, target)
		}
	}
	ex, err := provider.ExportTools([]*core.Tool{weather}, provider.MCP, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"name":"mcp__s__weather","description":"tool weather",
		"inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},
		"title":"Weather Tool","outputSchema":{"type":"object","properties":{"t":{"type":"number"}}},
		"annotations":{"readOnlyHint":true},"icons":[{"src":"https://example.com/w.png"}],"_meta":{"x":1}}]`, string(ex.Tools))
}
