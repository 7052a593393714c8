package core

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func batchTool(t *testing.T, name string, mcp bool) *Tool {
	t.Helper()
	c, err := Func(name, func() int { return 1 })
	require.NoError(t, err)
	tool, err := NewTool(c, nil)
	require.NoError(t, err)
	tool.MCP = mcp
	return tool
}

func TestRegisterBatchIsAllOrNothing(t *testing.T) {
	local := batchTool(t, "local", false)
	tests := []struct {
		name   string
		batch  []*Tool
		update bool
		check  func(old, in *Tool) error
		want   error
		names  []string
	}{
		{"all new", []*Tool{batchTool(t, "a", true), batchTool(t, "b", true)}, false, nil, nil, []string{"local", "a", "b"}},
		{"one duplicate refuses all", []*Tool{batchTool(t, "a", true), batchTool(t, "local", true)}, false, nil, ErrDuplicateTool, []string{"local"}},
		{"mcp never replaces local, even with update", []*Tool{batchTool(t, "a", true), batchTool(t, "local", true)}, true, nil, ErrDuplicateTool, []string{"local"}},
		{"repeated within the batch", []*Tool{batchTool(t, "a", true), batchTool(t, "a", true)}, false, nil, ErrDuplicateTool, []string{"local"}},
		{"nil tool", []*Tool{batchTool(t, "a", true), nil}, false, nil, ErrUnsupportedType, []string{"local"}},
		{"check refuses a replacement", []*Tool{batchTool(t, "b", false), batchTool(t, "local", false)}, true,
			func(old, in *Tool) error { return Errorf(CodeDuplicateTool, "x", "owned elsewhere") }, ErrDuplicateTool, []string{"local"}},
		{"update replaces in place", []*Tool{batchTool(t, "local", false), batchTool(t, "z", false)}, true, nil, nil, []string{"local", "z"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewManager(nil)
			require.NoError(t, m.Register(local, false))
			err := m.RegisterBatch(tc.batch, tc.update, tc.check)
			if tc.want != nil {
				assert.True(t, errors.Is(err, tc.want), "got %v, want %v", err, tc.want)
			} else {
				assert.NoError(t, err)
			}
			assert.Equal(t, tc.names, m.Names())
		})
	}
}
