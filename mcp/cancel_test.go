package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// TestAbandonedCallsAreCancelledOnTheServer: a tools/call the caller
// cancels, or whose timeoutMs passes, is announced to the server with
// notifications/cancelled naming the request's id and why, so the server
// can stop the work; a call that is answered sends none.
func TestAbandonedCallsAreCancelledOnTheServer(t *testing.T) {
	for _, tc := range []struct {
		name, reason string
		timeoutMs    int
		cancelOnCall bool // the caller cancels once the server has the call: no fixed delay load can outrun
	}{
		{"caller cancels", "the caller cancelled the request", 60000, true},
		{"deadline passes", "the request's deadline (timeoutMs) passed", 2000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			h.notified = make(chan rpcMessage, 16)
			called := make(chan json.RawMessage, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h.setCall(func(w http.ResponseWriter, r *http.Request, m rpcMessage) {
				called <- m.ID
				if tc.cancelOnCall {
					cancel()
				}
				select { // never answers
				case <-r.Context().Done():
				case <-h.stop:
				}
			})
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: tc.timeoutMs}
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "f", URL: h.url},
				&RegisterOptions{Security: sec, ToolNames: []string{"slow"}})
			require.NoError(t, err)
			fc, err := m.Invoke(ctx, &core.Request{Function: "mcp__f__slow", Arguments: core.NewArguments()})
			require.NoError(t, err)
			assert.NotEqual(t, core.StatusCompleted, fc.Status)
			var id json.RawMessage
			select {
			case id = <-called:
			default:
				t.Fatalf("the call ended %s (%v) before it reached the server", fc.Status, fc.Err)
			}
			n, ok := waitFor(h.notified, "notifications/cancelled", 10*time.Second)
			require.True(t, ok, "no notifications/cancelled reached the server")
			var params struct {
				RequestID json.RawMessage `json:"requestId"`
				Reason    string          `json:"reason"`
			}
			require.NoError(t, json.Unmarshal(n.Params, &params))
			assert.JSONEq(t, string(id), string(params.RequestID), "the notice names the abandoned request")
			assert.Equal(t, tc.reason, params.Reason)
		})
	}
	t.Run("an answered call sends none", func(t *testing.T) {
		h := newHostile(t)
		h.notified = make(chan rpcMessage, 16)
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		m := core.NewManager(nil)
		sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true}
		_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "f", URL: h.url},
			&RegisterOptions{Security: sec, ToolNames: []string{"t"}})
		require.NoError(t, err)
		fc := invoke(t, m, "mcp__f__t", nil)
		assert.Equal(t, core.StatusCompleted, fc.Status)
		for _, n := range drain(h.notified) {
			assert.NotEqual(t, "notifications/cancelled", n.Method)
		}
	})
}

// waitFor returns the first message of method that ch delivers within d,
// skipping others (notifications/initialized).
func waitFor(ch chan rpcMessage, method string, d time.Duration) (rpcMessage, bool) {
	deadline := time.After(d)
	for {
		select {
		case m := <-ch:
			if m.Method == method {
				return m, true
			}
		case <-deadline:
			return rpcMessage{}, false
		}
	}
}

// drain takes what ch holds now.
func drain(ch chan rpcMessage) []rpcMessage {
	var out []rpcMessage
	for {
		select {
		case m := <-ch:
			out = append(out, m)
		default:
			return out
		}
	}
}
