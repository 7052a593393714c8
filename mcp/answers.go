package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/core"
)

// Answers are matched to requests by id (docs/security.md, "Answers,
// server requests and resumed streams"): on a JSON answer by the session
// (session.go), on an SSE stream by sseFilter, which drops (and counts)
// every answer that is not for a request waiting for one.

// exchange is the guard's state of one JSON-RPC request: the id its answer
// must carry and how often the server's stream for it was resumed. It
// travels in the request's context, from the session to the guard.
type exchange struct {
	key     string // the id as idKey keys it ("n:5")
	shown   string // the id as JSON, for messages
	resumes atomic.Int32
	modern  bool         // a request of the 2026-07-28 wire: its stream is never resumed
	headers [][2]string  // the request's own headers (modern: Mcp-Method, Mcp-Name, Mcp-Param-*)
	notify  notifyBudget // the notification bytes of its streams (notifybudget.go)
}

// pendingIDs are the ids of the requests waiting for an answer on a
// connection: the legacy SSE transport answers every request on its one
// stream.
type pendingIDs struct {
	mu sync.Mutex
	n  map[string]int
}

func (p *pendingIDs) add(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == nil {
		p.n = map[string]int{}
	}
	p.n[key]++
}

func (p *pendingIDs) remove(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n[key] <= 1 {
		delete(p.n, key)
	} else {
		p.n[key]--
	}
}

func (p *pendingIDs) has(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[key] > 0
}

// wrongAnswer counts an answer whose id got matches no request waiting for
// one, and returns the error that says so; want is the id of the request
// the answer came for, or "" on the connection's stream.
func (g *guard) wrongAnswer(want string, got json.RawMessage) *core.Error {
	g.stats.answersDropped.Add(1)
	id := g.cfg.cut(idShown(got), 60)
	if want == "" {
		return g.wrap(core.CodeTransport, fmt.Sprintf(
			"the server answered with id %s, which no request is waiting for; the answer was dropped", id))
	}
	return g.wrap(core.CodeTransport, fmt.Sprintf(
		"the server answered request %s with id %s; answers are matched by id, so it was dropped", g.cfg.cut(want, 60), id))
}

// sseFilter reads an SSE stream for the session as the server sent it,
// less the events the session must not see: an answer that is not for this stream's
// request (or, on the connection's stream, for no waiting request), which
// is dropped and counted, and a request of the server's own (a ping),
// which the guard answers (serverRequest) instead. It splits
// lines and fields exactly as the session's sseReader does ('\n' ends a line, "\r\n" are
// trimmed, a blank line ends an event, data lines join with '\n'), so both
// see the same events. A dropped event keeps its id: and retry: lines, so
// a resumed stream resumes after it.
type sseFilter struct {
	g      *guard
	ctx    context.Context // the stream's (its exchange and failure sink)
	to     *postTarget     // where server requests are answered (nil: the latest POST)
	want   string          // the id key of the request this stream answers; "" on the connection's stream
	legacy bool            // the legacy transport's stream: only "message" events are JSON-RPC
	body   io.ReadCloser
	r      *bufio.Reader

	out   []byte // what the session reads next
	raw   []byte // the event so far, as sent
	keep  []byte // its id: and retry: lines
	event string
	data  string
	err   error
	pace  pacer // pace.go: a pause may follow each event

	// parsed holds the latest messages passed on, as pass decoded them:
	// the session takes them (parsedMessage) instead of decoding the same
	// data again.
	parsed [2]parsedMessage
	next   int
}

// parsedMessage is one event's data and the message it decoded to.
type parsedMessage struct {
	data string
	msg  jsonrpcMessage
}

// remember keeps msg as the decoding of data.
func (f *sseFilter) remember(data string, msg *jsonrpcMessage) {
	f.parsed[f.next] = parsedMessage{data: data, msg: *msg}
	f.next = (f.next + 1) % len(f.parsed)
}

// decodeMessage decodes an event's data into m, taking the message the
// stream's filter decoded when body is one and it holds that data; false
// when data is not a JSON-RPC message.
func decodeMessage(body io.Reader, data string, m *jsonrpcMessage) bool {
	if f, ok := body.(*sseFilter); ok {
		for i := range f.parsed {
			if p := &f.parsed[i]; p.data != "" && p.data == data {
				*m = p.msg
				return true
			}
		}
	}
	return json.Unmarshal([]byte(data), m) == nil
}

func newSSEFilter(g *guard, ctx context.Context, to *postTarget, want string, legacy bool, body io.ReadCloser) *sseFilter {
	return &sseFilter{g: g, ctx: ctx, to: to, want: want, legacy: legacy, body: body, r: bufio.NewReader(body), pace: newPacer()}
}

// Read returns what the session may see of the stream.
func (f *sseFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 && f.err == nil {
		line, err := f.r.ReadBytes('\n')
		if err != nil {
			// sseReader drops a last line without '\n', and dispatches the
			// event in progress only at EOF.
			if err == io.EOF && f.data != "" && f.pass() {
				f.out = append(f.out, f.raw...)
			}
			f.err = err
			break
		}
		f.line(line)
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	if len(f.out) == 0 && f.err != nil {
		return n, f.err
	}
	return n, nil
}

// Close closes the stream.
func (f *sseFilter) Close() error { return f.body.Close() }

// line takes one line, '\n' included.
func (f *sseFilter) line(line []byte) {
	f.raw = append(f.raw, line...)
	text := strings.TrimRight(string(line), "\r\n")
	switch {
	case text == "":
		f.dispatch()
	case strings.HasPrefix(text, "event:"):
		f.event = strings.TrimSpace(text[len("event:"):])
	case strings.HasPrefix(text, "data:"):
		v := strings.TrimPrefix(text[len("data:"):], " ")
		if f.data == "" {
			f.data = v
		} else {
			f.data += "\n" + v
		}
	case strings.HasPrefix(text, "id:"), strings.HasPrefix(text, "retry:"):
		f.keep = append(f.keep, line...)
	}
}

// dispatch ends the event: passed on as sent, or dropped but for its id:
// and retry: lines.
func (f *sseFilter) dispatch() {
	if f.data == "" || f.pass() {
		f.out = append(f.out, f.raw...)
	} else if len(f.keep) > 0 {
		f.out = append(append(f.out, f.keep...), '\n')
	}
	f.raw, f.keep, f.event, f.data = f.raw[:0], f.keep[:0], "", ""
	f.pace.step() // between this event's parse and the session's, or the next event
}

// budget pays for n bytes of notifications from the budget of the stream's
// request (or, on the connection's stream, the connection's), waiting
// before the stream is read on when it is spent (notifybudget.go).
func (f *sseFilter) budget(n int) {
	b := &f.g.notify
	if x := valueFrom[exchange](f.ctx); x != nil && f.want != "" {
		b = &x.notify
	}
	if d := b.take(n, time.Now()); d > 0 {
		f.g.stats.notificationsThrottled.Add(1)
		waitBudget(f.ctx, d)
	}
}

// pass reports whether the session may see the event, classified as the
// session does: not JSON-RPC (passed on; the session ignores it), a notification
// (passed on), a request of the server's (answered here, not passed on),
// or an answer (passed on only when a request waits for its id).
func (f *sseFilter) pass() bool {
	if event := f.event; f.legacy && event != "" && event != "message" {
		return true // "endpoint", or an event type the session ignores
	}
	data := []byte(f.data)
	var msg jsonrpcMessage
	if json.Unmarshal(data, &msg) != nil {
		return true
	}
	if isNotification(&msg) {
		f.g.serverNotice(&msg) // a server's cancellation of a request a hook is answering (hookcancel.go)
		f.g.notification(&msg) // notifications.go
		f.budget(len(data))
		return true
	}
	if !msg.hasID() {
		return true
	}
	if msg.Method != "" {
		f.g.serverRequest(f.to, &msg)
		return false
	}
	key := idKey(msg.ID)
	if key == f.want || f.want == "" && f.g.pending.has(key) {
		f.remember(f.data, &msg)
		return true
	}
	want := ""
	if x := valueFrom[exchange](f.ctx); x != nil && f.want != "" {
		want = x.shown
	}
	valueFrom[failureSink](f.ctx).set(f.g.wrongAnswer(want, msg.ID), false)
	return false
}
