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

// progressServer is an mcp-go server declaring listChanged whose tool
// "steps" reports progress 1..3 of 3 for the call's token.
func progressServer() *server.MCPServer {
	s := server.NewMCPServer("steps", "1.0.0", server.WithToolCapabilities(true))
	s.AddTool(mcpgo.NewTool("steps", mcpgo.WithDescription("Reports progress.")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
				for i := 1; i <= 3; i++ {
					_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, methodProgress, map[string]any{
						"progressToken": req.Params.Meta.ProgressToken, "progress": i, "total": 3})
				}
			}
			return mcpgo.NewToolResultText("done"), nil
		})
	return s
}

func TestNotificationsOverBothTransportsOfMcpGo(t *testing.T) {
	for _, transport := range []string{TransportStreamableHTTP, TransportSSE} {
		t.Run(transport, func(t *testing.T) {
			s := progressServer()
			var url string
			if transport == TransportSSE {
				_, url = serveSSE(t, s)
			} else {
				_, url = serveStreamable(t, s)
			}
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			var prog progressLog
			var changes changeLog
			m := core.NewManager(nil)
			names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "st", URL: url, Transport: transport},
				&RegisterOptions{Security: loopback(), OnProgress: prog.add, OnToolsChanged: changes.add})
			require.NoError(t, err)
			require.Equal(t, []string{"mcp__st__steps"}, names)

			require.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__st__steps", nil).Status)
			assert.Equal(t, []float64{1, 2, 3}, progresses(prog.events()))

			if transport == TransportStreamableHTTP {
				waitUntil(t, "the standalone stream opens", func() bool { return p.Stats().StandaloneStreams == 1 })
			}
			s.AddTool(mcpgo.NewTool("later", mcpgo.WithDescription("Added at run time.")),
				func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
					return mcpgo.NewToolResultText("later"), nil
				})
			ev := changes.wait(t, 1)[0]
			require.Nil(t, ev.Error)
			assert.Equal(t, []string{"mcp__st__later"}, ev.Added)
			assert.Equal(t, []string{"mcp__st__steps", "mcp__st__later"}, m.Names())

			s.DeleteTools("steps")
			ev = changes.wait(t, 2)[1]
			assert.Equal(t, []string{"mcp__st__steps"}, ev.Removed)
			assert.Equal(t, []string{"mcp__st__later"}, m.Names())
		})
	}
}

func TestLoadMcpConfigFollowsAndLoadMcpToolsDoesNot(t *testing.T) {
	s := progressServer()
	_, url := serveStreamable(t, s)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var changes changeLog
	var prog progressLog
	m := core.NewManager(nil)
	cfg := []byte(`{"mcpServers":{"st":{"url":"` + url + `"}}}`)
	_, names, err := LoadMcpConfig(context.Background(), p, m, cfg, &LoadOptions{Security: loopback(), OnToolsChanged: changes.add, OnProgress: prog.add})
	require.NoError(t, err)
	require.Equal(t, []string{"mcp__st__steps"}, names["st"])
	tools, err := LoadMcpTools(context.Background(), p, cfg, &LoadOptions{Security: loopback(), OnToolsChanged: changes.add})
	require.NoError(t, err)
	require.Len(t, tools, 1)
	require.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__st__steps", nil).Status)
	assert.Len(t, prog.events(), 3, "loadMcpConfig's onProgress")

	waitUntil(t, "the standalone stream opens", func() bool { return p.Stats().StandaloneStreams == 1 })
	s.AddTool(mcpgo.NewTool("later"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("later"), nil
	})
	ev := changes.wait(t, 1)
	assert.Len(t, ev, 1, "one report: the branch's; loadMcpTools' tools follow nothing")
	assert.True(t, m.Has("mcp__st__later"))
}
