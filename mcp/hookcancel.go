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
// answer is sent, as MCP asks of a request's receiver. The same happens to
// the hook calls of a task's requests (their related-task _meta) when the
// client gives the task up (endTask): no one waits for their answers.

// errServerCancelled is the cause of a hook's context when the server
// cancelled the request.
var errServerCancelled = errors.New("the server cancelled the request")

// errTaskEnded is the cause of a hook's context when the client gave up
// the task the server's request belongs to (task.go).
var errTaskEnded = errors.New("the task the request belongs to was given up")

// hookCalls are the cancel functions of the hook calls in flight, by the id
// key of the server's request.
type hookCalls struct {
	mu     sync.Mutex
	cancel map[string]context.CancelCauseFunc
	tasks  map[string]string // request key → the task it belongs to, when it said so
}

// start records the hook call of request key (of the task task, "" for
// none) and returns its context, derived from parent, and the function
// that forgets it.
func (h *hookCalls) start(parent context.Context, key, task string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	h.mu.Lock()
	if h.cancel == nil {
		h.cancel, h.tasks = map[string]context.CancelCauseFunc{}, map[string]string{}
	}
	h.cancel[key] = cancel
	if task != "" {
		h.tasks[key] = task
	}
	h.mu.Unlock()
	return ctx, func() {
		h.mu.Lock()
		delete(h.cancel, key)
		delete(h.tasks, key)
		h.mu.Unlock()
		cancel(nil)
	}
}

// endTask ends the hook calls of the requests that belong to task.
func (h *hookCalls) endTask(task string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, t := range h.tasks {
		if t == task {
			h.cancel[key](errTaskEnded)
		}
	}
}

// relatedTask is the task id a server request's params name in their
// _meta (io.modelcontextprotocol/related-task), or "".
func relatedTask(params json.RawMessage) string {
	var p struct {
		Meta map[string]struct {
			TaskID string `json:"taskId"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return p.Meta[metaRelatedTask].TaskID
}

// serverNotice handles a notification the server sent on a stream:
// notifications/cancelled ends the hook call of the request it names.
// Every notification goes on to the session as before.
func (g *guard) serverNotice(msg *jsonrpcMessage) {
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
