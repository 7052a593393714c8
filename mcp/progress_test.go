package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// progressLog collects progress events.
type progressLog struct {
	mu  sync.Mutex
	got []ProgressEvent
}

func (l *progressLog) add(ev ProgressEvent) {
	l.mu.Lock()
	l.got = append(l.got, ev)
	l.mu.Unlock()
}

func (l *progressLog) events() []ProgressEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ProgressEvent(nil), l.got...)
}

// progresses is the progress values of evs, in order.
func progresses(evs []ProgressEvent) []float64 {
	out := make([]float64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Progress
	}
	return out
}

func TestProgressReachesTheHookInOrderAndNoneAfterTheEnd(t *testing.T) {
	for _, transport := range []string{TransportStreamableHTTP, TransportSSE} {
		t.Run(transport, func(t *testing.T) { testProgress(t, transport) })
	}
}

// testProgress is TestProgressReachesTheHookInOrderAndNoneAfterTheEnd over
// one transport.
func testProgress(t *testing.T, transport string) {
	n := newNotifier(t, toolJSON("slow"))
	n.legacy = transport == TransportSSE
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var reg, call progressLog
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "nf", URL: n.url, Transport: transport},
		&RegisterOptions{Security: loopback(), OnProgress: reg.add})
	require.NoError(t, err)

	a := core.NewArguments()
	fc, err := m.Invoke(WithProgress(context.Background(), call.add), &core.Request{Function: "mcp__nf__slow", Arguments: a})
	require.NoError(t, err)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)

	evs := reg.events()
	require.Equal(t, []float64{1, 2, 3}, progresses(evs), "the call's own token, in the order sent; the foreign one dropped")
	assert.Equal(t, ProgressEvent{Server: "nf", Tool: "slow", Name: "mcp__nf__slow", Progress: 3, Total: fptr(3), Message: "step 3"}, evs[2])
	assert.Equal(t, evs, call.events(), "the per-call hook sees the same events")
	assert.EqualValues(t, 3, p.Stats().ProgressDelivered)
	assert.EqualValues(t, 1, p.Stats().ProgressDropped, "the foreign token")

	var params struct {
		Meta struct {
			Token string `json:"progressToken"`
		} `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(n.lastCall(), &params))
	token := params.Meta.Token
	assert.True(t, strings.HasPrefix(token, "toolgate-") && len(token) == len("toolgate-")+24, "a random token: %q", token)

	// The same token after the call ended, on another stream: dropped.
	late := event(methodProgress, map[string]any{"progressToken": token, "progress": 4})
	c := connOf(t, p, n.url)
	c.guard.notification(mustMessage(t, late))
	assert.Len(t, reg.events(), 3, "no progress after the call ended")
	assert.EqualValues(t, 2, p.Stats().ProgressDropped)

	fc = invoke(t, m, "mcp__nf__slow", nil)
	require.Equal(t, core.StatusCompleted, fc.Status)
	require.NoError(t, json.Unmarshal(n.lastCall(), &params))
	assert.NotEqual(t, token, params.Meta.Token, "a fresh token per call")
}

func TestNoProgressTokenWithoutAHook(t *testing.T) {
	n := newNotifier(t, toolJSON("slow"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "nf", URL: n.url}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	fc := invoke(t, m, "mcp__nf__slow", nil)
	require.Equal(t, core.StatusCompleted, fc.Status)
	assert.NotContains(t, string(n.lastCall()), "_meta")
	assert.EqualValues(t, 1, p.Stats().ProgressDropped, "the foreign token: no call asked for it")
}

func TestProgressBoundsAndMessages(t *testing.T) {
	g := newGuard(&ServerConfig{Name: "s", URL: "http://127.0.0.1/mcp", Headers: map[string]string{"Authorization": "Bearer s3cret-token"}},
		loopback().withDefaults(), nil)
	var log progressLog
	token, end := g.progress.start(&progressSink{base: ProgressEvent{Server: "s"}, hooks: []ProgressFunc{log.add}})
	send := func(params map[string]any) {
		b, _ := json.Marshal(params)
		g.notification(&jsonrpcMessage{Method: methodProgress, Params: b})
	}
	send(map[string]any{"progressToken": token, "progress": "half"})
	send(map[string]any{"progressToken": token})
	send(map[string]any{"progressToken": token, "progress": 1, "message": "Bearer s3cret-token " + strings.Repeat("x", 900)})
	defer func(n int) { maxProgressPerCall = n }(maxProgressPerCall)
	maxProgressPerCall = 2
	send(map[string]any{"progressToken": token, "progress": 2})
	send(map[string]any{"progressToken": token, "progress": 3})
	end()
	send(map[string]any{"progressToken": token, "progress": 4})
	evs := log.events()
	require.Equal(t, []float64{1, 2}, progresses(evs), "non-numeric and missing progress dropped; at most maxProgressPerCall")
	noSecret(t, evs[0].Message, "s3cret-token")
	assert.LessOrEqual(t, len(evs[0].Message), maxProgressMessage+3)
	assert.EqualValues(t, 2, g.stats.progressDelivered.Load())
	assert.EqualValues(t, 4, g.stats.progressDropped.Load())
}

func fptr(v float64) *float64 { return &v }

// connOf is the live connection of the pool's entry for url (the first
// entry whose config has it).
func connOf(t *testing.T, p *Pool, url string) *conn {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.entries {
		if e.cfg.URL == url {
			e.mu.Lock()
			c := e.c
			e.mu.Unlock()
			if c != nil {
				return c
			}
		}
	}
	t.Fatalf("no live connection to %s", url)
	return nil
}

// mustMessage decodes the JSON-RPC message of one SSE event.
func mustMessage(t *testing.T, ev string) *jsonrpcMessage {
	t.Helper()
	ev = strings.TrimSpace(ev)
	data := ev[strings.Index(ev, "data: ")+len("data: "):]
	var m jsonrpcMessage
	require.NoError(t, json.Unmarshal([]byte(data), &m))
	return &m
}
