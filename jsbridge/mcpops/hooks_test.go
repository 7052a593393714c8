package mcpops

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// fakeNotifier replaces jsbridge.HostNotify for the test.
func fakeNotifier(t *testing.T) *notified {
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

// serveSteps serves a Streamable HTTP server declaring listChanged (405 to
// GET) whose tool "steps" answers on an SSE stream: progress 1 and 2 of 2
// for the call's token, then notifications/tools/list_changed (after which
// tools/list adds "later"), then the answer.
func serveSteps(t *testing.T) string {
	var touched atomic.Bool
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "inputSchema": map[string]any{"type": "object"}}
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta struct {
					Token json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			} `json:"params"`
		}
		_ = json.NewDecoder(r.Body).Decode(&m)
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		msg := func(v map[string]any) string {
			v["jsonrpc"] = "2.0"
			b, _ := json.Marshal(v)
			return "data: " + string(b) + "\n\n"
		}
		w.Header().Set("Content-Type", "text/event-stream")
		var out []string
		switch m.Method {
		case "initialize":
			out = append(out, msg(map[string]any{"id": m.ID, "result": map[string]any{"protocolVersion": "2025-06-18",
				"capabilities": map[string]any{"tools": map[string]any{"listChanged": true}}, "serverInfo": map[string]any{"name": "s", "version": "0"}}}))
		case "tools/list":
			tools := []any{tool("steps")}
			if touched.Load() {
				tools = append(tools, tool("later"))
			}
			out = append(out, msg(map[string]any{"id": m.ID, "result": map[string]any{"tools": tools}}))
		case "tools/call":
			for i := 1; i <= 2 && m.Params.Meta.Token != nil; i++ {
				out = append(out, msg(map[string]any{"method": "notifications/progress",
					"params": map[string]any{"progressToken": m.Params.Meta.Token, "progress": i, "total": 2}}))
			}
			touched.Store(true)
			out = append(out, msg(map[string]any{"method": "notifications/tools/list_changed"}))
			out = append(out, msg(map[string]any{"id": m.ID, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}}))
		default:
			out = append(out, msg(map[string]any{"id": m.ID, "result": map[string]any{}}))
		}
		for _, ev := range out {
			_, _ = io.WriteString(w, ev)
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

func TestListenerOptionsNotifyTheHost(t *testing.T) {
	host := fakeNotifier(t)
	url := serveSteps(t)
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

	for i := 0; i < 500 && len(host.of(8)) == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, []string{`{"server":"st","added":["mcp__st__later"],"removed":[],"changed":[]}`}, host.of(8))
	assert.True(t, m.Has("mcp__st__later"), "the branch is held weakly: it must live to be refreshed")
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
