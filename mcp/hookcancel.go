package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
)

// A server may give up a request it sent (notifications/cancelled with the
// request's id, for instance when the tool call that needed the answer was
// cancelled): the hook answering it then sees its AbortSignal fire, and no
// answer is sent, as MCP asks of a request's receiver.

// errServerCancelled is the cause of a hook's context when the server
// cancelled the request.
var errServerCancelled = errors.New("the server cancelled the request")

// hookCalls are the cancel functions of the hook calls in flight, by the id
// key of the server's request.
type hookCalls struct {
	mu     sync.Mutex
	cancel map[string]context.CancelCauseFunc
}

// start records the hook call of request key and returns its context,
// derived from parent, and the function that forgets it.
func (h *hookCalls) start(parent context.Context, key string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	h.mu.Lock()
	if h.cancel == nil {
		h.cancel = map[string]context.CancelCauseFunc{}
	}
	h.cancel[key] = cancel
	h.mu.Unlock()
	return ctx, func() {
		h.mu.Lock()
		delete(h.cancel, key)
		h.mu.Unlock()
		cancel(nil)
	}
}

// serverNotice handles a notification the server sent on a stream:
// notifications/cancelled ends the hook call of the request it names;
// notifications/elicitation/complete completes a URL elicitation.
// Every notification goes on to the session as before.
func (g *guard) serverNotice(msg *jsonrpcMessage) {
	if msg.Method == "notifications/elicitation/complete" {
		g.elicitationComplete(msg) // elicitation_url.go
		return
	}
	if msg.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(msg.Params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	key := idKey(p.RequestID)
	g.asks.calls.mu.Lock()
	cancel := g.asks.calls.cancel[key]
	g.asks.calls.mu.Unlock()
	if cancel != nil {
		cancel(errServerCancelled)
	}
}
