package mcp

import (
	"context"
	"testing"
	"time"

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

// addUntilReported adds tool to s until log has n events: mcp-go hands a
// notification to whichever of a session's streams reads it first, and
// drops it when none is open yet.
func addUntilReported(t *testing.T, s *server.MCPServer, name string, log *changeLog, n int) []ToolsChangedEvent {
	t.Helper()
	for i := 0; i < 20 && len(log.events()) < n; i++ {
		s.AddTool(mcpgo.NewTool(name, mcpgo.WithDescription("Added at run time.")),
			func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				return mcpgo.NewToolResultText(name), nil
			})
		for j := 0; j < 50 && len(log.events()) < n; j++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return log.wait(t, n)
}

func TestListChangesOverBothTransportsOfMcpGo(t *testing.T) {
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
			var changes changeLog
			m := core.NewManager(nil)
			names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "st", URL: url, Transport: transport},
				&RegisterOptions{Security: loopback(), OnToolsChanged: changes.add})
			require.NoError(t, err)
			require.Equal(t, []string{"mcp__st__steps"}, names)
			if transport == TransportStreamableHTTP {
				waitUntil(t, "the standalone stream opens", func() bool { return p.Stats().StandaloneStreams == 1 })
			}
			ev := addUntilReported(t, s, "later", &changes, 1)[0]
			require.Nil(t, ev.Error)
			assert.Equal(t, []string{"mcp__st__later"}, ev.Added)
			assert.Equal(t, []string{"mcp__st__steps", "mcp__st__later"}, m.Names())

			s.DeleteTools("steps")
			waitUntil(t, "the removal", func() bool { return !m.Has("mcp__st__steps") })
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
	m := core.NewManager(nil)
	cfg := []byte(`{"mcpServers":{"st":{"url":"` + url + `"}}}`)
	_, names, err := LoadMcpConfig(context.Background(), p, m, cfg, &LoadOptions{Security: loopback(), OnToolsChanged: changes.add})
	require.NoError(t, err)
	require.Equal(t, []string{"mcp__st__steps"}, names["st"])
	tools, err := LoadMcpTools(context.Background(), p, cfg, &LoadOptions{Security: loopback(), OnToolsChanged: changes.add})
	require.NoError(t, err)
	require.Len(t, tools, 1)

	waitUntil(t, "the standalone stream opens", func() bool { return p.Stats().StandaloneStreams == 1 })
	addUntilReported(t, s, "later", &changes, 1)
	time.Sleep(3 * listChangedDebounce)
	assert.True(t, m.Has("mcp__st__later"))
	p.followed.mu.Lock()
	assert.Len(t, p.followed.byKey, 1, "the branch's registration is followed; loadMcpTools' tools are in none")
	p.followed.mu.Unlock()
}
