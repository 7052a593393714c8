package mcp

import (
	"context"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// mcp-go's own task tools (its 2025-11-25 core tasks, Streamable HTTP): a
// required one is called as a task through the pool, polled and its result
// read, as one tool call; an optional one too under TasksAlways (mcp-go's
// task tools answer no plain call: the option exists for such servers).
// (mcp-go runs a task under the tools/call request's context, which ends
// with that request over HTTP: its handler must not wait on ctx.)
func TestTaskWithMcpGo(t *testing.T) {
	s := server.NewMCPServer("tasks", "1.0.0", server.WithTaskCapabilities(true, true, true), server.WithToolCapabilities(false))
	handler := func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CreateTaskResult, error) {
		return &mcpgo.CreateTaskResult{Content: []mcpgo.Content{mcpgo.NewTextContent(req.Params.Name + " " + req.GetString("q", ""))}}, nil
	}
	s.AddTaskTool(mcpgo.NewTool("slow", mcpgo.WithTaskSupport(mcpgo.TaskSupportRequired), mcpgo.WithString("q")), handler)
	s.AddTaskTool(mcpgo.NewTool("either", mcpgo.WithTaskSupport(mcpgo.TaskSupportOptional), mcpgo.WithString("q")), handler)
	_, url := serveStreamable(t, s)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "go", URL: url, ProtocolVersion: ProtocolLegacy}, &RegisterOptions{Security: loopback(), Tasks: TasksAlways})
	require.NoError(t, err)

	fc := invoke(t, m, "mcp__go__slow", map[string]any{"q": "done"})
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Equal(t, "slow done", fc.Response)
	fc = invoke(t, m, "mcp__go__either", map[string]any{"q": "plain"})
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Equal(t, "either plain", fc.Response)

	plain := core.NewManager(nil) // the default: the optional tool is called plainly, which mcp-go refuses
	_, err = RegisterServer(context.Background(), p, plain, &ServerConfig{Name: "go", URL: url, ProtocolVersion: ProtocolLegacy}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	ce := core.AsError(invoke(t, plain, "mcp__go__either", nil).Err)
	require.NotNil(t, ce)
	require.NotNil(t, ce.Transport)
	assert.Equal(t, -32601, *ce.Transport.RPCCode)
}
