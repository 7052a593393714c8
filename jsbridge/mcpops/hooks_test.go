package mcpops

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/jsbridge"
)

// notified records what Go sent to the host's listeners, by hook number.
type notified struct {
	mu  sync.Mutex
	got map[int64][]string
}

// fakeHost replaces jsbridge.HostNotify for the test.
func fakeHost(t *testing.T) *notified {
	n := &notified{got: map[int64][]string{}}
	old := jsbridge.HostNotify
	jsbridge.HostNotify = func(id int64, payload []byte) {
		n.mu.Lock()
		n.got[id] = append(n.got[id], string(payload))
		n.mu.Unlock()
	}
	t.Cleanup(func() { jsbridge.HostNotify = old })
	return n
}

func (n *notified) of(id int64) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.got[id]...)
}

// serveSteps serves an mcp-go server declaring listChanged whose tool
// "steps" reports progress 1..2 of 2.
func serveSteps(t *testing.T) (*server.MCPServer, string) {
	s := server.NewMCPServer("steps", "1.0.0", server.WithToolCapabilities(true))
	s.AddTool(mcpgo.NewTool("steps"), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
			for i := 1; i <= 2; i++ {
				_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress",
					map[string]any{"progressToken": req.Params.Meta.ProgressToken, "progress": i, "total": 2})
			}
		}
		return mcpgo.NewToolResultText("done"), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	return s, ts.URL + "/mcp"
}

func TestListenerOptionsNotifyTheHost(t *testing.T) {
	host := fakeHost(t)
	s, url := serveSteps(t)
	p := newPool()
	defer p.Cleanup(context.Background())
	b := jsbridge.New("test")
	m := core.NewManager(nil)
	_, err := registerServer(context.Background(), p, m, []byte(fmt.Sprintf(
		`{"config": {"name": "st", "url": %q}, "options": {"security": %s, "onProgress": 7, "onToolsChanged": 8}}`, url, loopbackJSON)))
	require.NoError(t, err)
	tool, ok := m.Get("mcp__st__steps")
	require.True(t, ok)
	var info struct {
		ID int64 `json:"id"`
	}
	require.NoError(t, json.Unmarshal(b.Describe(tool), &info))

	out, err := invokeTool(context.Background(), b, info.ID, []byte(`{"arguments": {}, "onProgress": 9}`))
	require.NoError(t, err)
	assert.JSONEq(t, `"done"`, string(out.(json.RawMessage)))
	want := []string{
		`{"server":"st","tool":"steps","name":"mcp__st__steps","progress":1,"total":2}`,
		`{"server":"st","tool":"steps","name":"mcp__st__steps","progress":2,"total":2}`,
	}
	assert.Equal(t, want, host.of(7), "the registration's listener")
	assert.Equal(t, want, host.of(9), "the call's listener")

	for i := 0; i < 500 && p.Stats().StandaloneStreams == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	s.AddTool(mcpgo.NewTool("later"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("later"), nil
	})
	for i := 0; i < 500 && len(host.of(8)) == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, []string{`{"server":"st","added":["mcp__st__later"],"removed":[],"changed":[]}`}, host.of(8))
}

func TestListenerOptionsRefuseWhatIsNotAHook(t *testing.T) {
	for _, bad := range []string{`"f"`, `0`, `-1`, `1.5`, `true`, `{}`} {
		_, err := registerServer(context.Background(), newPool(), core.NewManager(nil), []byte(
			`{"config": {"name": "st", "url": "https://mcp.example.com/mcp"}, "options": {"onProgress": `+bad+`}}`))
		assert.True(t, core.AsError(err).Code == core.CodeUnsupportedType, "%s: %v", bad, err)
	}
	_, _, err := loadMcpTools(context.Background(), newPool(), []byte(`{"config": {"mcpServers": {}}, "options": {"onToolsChanged": 3}}`))
	assert.Equal(t, core.CodeUnsupportedType, core.AsError(err).Code, "loadMcpTools has no onToolsChanged")
	_, err = invokeTool(context.Background(), jsbridge.New("test"), 1, []byte(`{"arguments": {}, "onProgress": "x"}`))
	assert.Equal(t, core.CodeUnsupportedType, core.AsError(err).Code)
	_, err = invokeTool(context.Background(), jsbridge.New("test"), 1, []byte(`{"args": {}}`))
	assert.Equal(t, core.CodeInvalidRequest, core.AsError(err).Code)
}
