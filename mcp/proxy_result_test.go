package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestProxyFactoryResultMode(t *testing.T) {
	_, url := serveStreamable(t, fixtureTools(nil))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(&core.ManagerOptions{MCPFactory: p.ProxyFactory()})
	sec := map[string]any{"allowUrls": true, "allowLoopbackHttp": true}

	require.NoError(t, m.Register(map[string]any{"echo": map[string]any{"url": url, "security": sec, "result": "full"}}, false))
	fc := invoke(t, m, "echo", map[string]any{"message": "whole"})
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	whole, ok := fc.Response.(json.RawMessage)
	require.True(t, ok, "got %T, want the whole CallToolResult (JSON) in full mode", fc.Response)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"whole"}]}`, string(whole))
	tool, _ := m.Get("echo")
	assert.Equal(t, "full", tool.MCPConfig["echo"].(map[string]any)["result"], "the record's config keeps the mode")

	require.NoError(t, m.Register(map[string]any{"multi": map[string]any{"url": url, "security": sec}}, false))
	tool, _ = m.Get("multi")
	_, has := tool.MCPConfig["multi"].(map[string]any)["result"]
	assert.False(t, has, "without result the record is LionAGI's")
	fc = invoke(t, m, "echo", map[string]any{"message": "x"})
	require.Equal(t, core.StatusCompleted, fc.Status)

	for _, bad := range []any{"raw", 1} {
		err := m.Register(map[string]any{"add": map[string]any{"url": url, "security": sec, "result": bad}}, false)
		require.ErrorIs(t, err, core.ErrUnsupportedType, "result %v", bad)
		assert.Contains(t, err.Error(), `"add"`)
		assert.False(t, m.Has("add"))
	}
}
