package mcp

import (
	"context"
	"encoding/json"
	"mime"
	"strconv"
	"time"

	"github.com/toolgate/toolgate/internal/wire"
)

// The subscriptions/listen stream of a modern connection (docs/mcp-eras.md,
// "List changes"): the 2026-07-28 wire's one long-lived stream, a POST
// whose SSE answer stays open and carries the change notifications the
// client opted in to. toolgate opts in to toolsListChanged only, and only
// when a followed registration of the connection has an OnToolsChanged hook
// (as the legacy GET stream, it holds a connection open: in Node the
// process stays up until Pool.Cleanup). The server's acknowledgement says
// whether it honours the opt-in: when it does not, the stream is closed and
// not opened again. Its notifications go through the guard like any
// stream's (notifications.go), so a notifications/tools/list_changed
// refreshes the registrations as on the legacy wire. When it ends (a
// graceful result, or a broken stream) it is opened again under a new id
// after the guard's resume backoff; after maxStreamResumes attempts in a row
// that delivered no event it stays closed. It closes with the connection.

// methodListen is the subscriptions/listen request.
const methodListen = "subscriptions/listen"

// methodSubscriptionAck is the server's first notification on a listen
// stream.
const methodSubscriptionAck = "notifications/subscriptions/acknowledged"

// openListen opens the connection's listen stream unless it is open or
// the connection is dead.
func (c *conn) openListen(p *Pool) {
	if c.dead.Load() {
		return
	}
	c.stream.mu.Lock()
	defer c.stream.mu.Unlock()
	if c.stream.open {
		return
	}
	c.stream.open = true
	go c.runListen(c.guard.life, p)
}

// runListen keeps the listen stream open until ctx ends (the connection
// closes) or it gives up (keepOpen).
func (c *conn) runListen(ctx context.Context, p *Pool) {
	c.keepOpen(ctx, p, func() (int, bool, time.Duration) {
		events, again := c.listenOnce(ctx, p)
		return events, again, defaultRetry
	})
}

// listenOnce sends one subscriptions/listen request and reads its stream
// to its end; it returns how many events it read and whether to open it
// again.
func (c *conn) listenOnce(ctx context.Context, p *Pool) (int, bool) {
	s := c.sess
	id := json.RawMessage(strconv.FormatInt(s.nextID.Add(1), 10))
	params, _ := withMeta(map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, s.meta)
	body, _ := json.Marshal(jsonrpcMessage{JSONRPC: "2.0", ID: id, Method: methodListen, Params: params})
	x := &exchange{key: idKey(id), shown: string(id), modern: true, headers: requestHeaders(methodListen, params)}
	s.g.pending.add(x.key)
	defer s.g.pending.remove(x.key)
	rctx := withValue(withValue(withValue(ctx, &standaloneMark{}), &failureSink{}), x)
	resp, err := s.post(rctx, body)
	if err != nil {
		return 0, ctx.Err() == nil
	}
	defer resp.Body.Close()
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode >= 500:
		return 0, true
	case resp.StatusCode != wire.StatusOK:
		return 0, false // no listen here (404, 405, a refusal): list changes are not followed
	case mediaType != "text/event-stream":
		return 0, false // answered at once (an error, or a result): nothing to listen to
	}
	return p.readOpenStream(resp.Body, func(ev sseEvent) bool { return c.takeListenEvent(ev, x.key) })
}

// takeListenEvent reads one event of the listen stream whose request id
// key is key (its notifications were routed by the guard already) and
// reports whether to go on listening: not after an acknowledgement that
// leaves toolsListChanged out, or a JSON-RPC error answering the request.
func (c *conn) takeListenEvent(ev sseEvent, key string) bool {
	var m jsonrpcMessage
	if ev.data == "" || json.Unmarshal([]byte(ev.data), &m) != nil {
		return true
	}
	switch {
	case m.Method == methodSubscriptionAck:
		var ack struct {
			Notifications struct {
				ToolsListChanged bool `json:"toolsListChanged"`
			} `json:"notifications"`
		}
		_ = json.Unmarshal(m.Params, &ack)
		c.toolsListChanged.Store(ack.Notifications.ToolsListChanged)
		return ack.Notifications.ToolsListChanged
	case m.isAnswer() && answersID(&m, key):
		return m.Error == nil // a graceful end: listen again; an error: the server will not
	}
	return true
}
