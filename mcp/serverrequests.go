package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"sync"
	"time"

	"github.com/toolgate/toolgate/internal/wire"
)

// A server may send requests of its own on a stream (ping, and roots,
// sampling or elicitation, which the client hooks answer). The guard answers
// them (docs/security.md, "Answers, server requests and resumed streams"):
// pings, fixed roots and refusals one at a time per connection, and at most
// serverRequestBurst at once, then one per serverRequestEvery (any other is
// dropped, and counted); hook calls apart, at most maxHooksInFlight at once
// (hookanswers.go).
var (
	serverRequestBurst = 4
	serverRequestEvery = time.Second
)

// postTarget is where an answer to a server request goes: the URL and the
// headers (session, protocol version, configured headers) of a request of
// ours to the server. header is that request's own, never changed after
// the request is sent; an answer sends a copy (answerHeader).
type postTarget struct {
	url    *url.URL
	header wire.Header
}

// targetOf is the target of answers to the server requests that arrive on
// req's stream. It copies nothing: most requests never see a server
// request.
func targetOf(req *wire.Request) *postTarget {
	return &postTarget{url: req.URL, header: req.Header}
}

// answerHeader is the header of an answer sent to t: the request's, without
// Last-Event-ID, as a JSON POST.
func (t *postTarget) answerHeader() wire.Header {
	h := t.header.Clone()
	h.Del("Last-Event-ID")
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	return h
}

// answerLimiter is a token bucket of burst tokens, one more every every.
// newAnswerLimiter fills it from serverRequestBurst and serverRequestEvery.
// The answers it admits are sent one at a time (guard.sendAnswers).
type answerLimiter struct {
	burst float64
	every time.Duration

	mu     sync.Mutex
	tokens float64
	at     time.Time
}

// newAnswerLimiter returns a full bucket of the package's limits.
func newAnswerLimiter(now time.Time) *answerLimiter {
	b := float64(serverRequestBurst)
	return &answerLimiter{burst: b, every: serverRequestEvery, tokens: b, at: now}
}

// take reports whether an answer may be sent, and if so spends its token.
func (l *answerLimiter) take(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens = min(l.burst, l.tokens+float64(now.Sub(l.at))/float64(l.every))
	l.at = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}

// queuedAnswer is one answer waiting for the connection's sender.
type queuedAnswer struct {
	to   *postTarget
	body []byte
}

// serverRequest answers req, a request the server sent on a stream: ping
// with an empty result, a method a client hook serves (capabilities.go) by
// that hook (hookRequest: bounded apart, so a slow hook starves no ping),
// anything else with "method not found". The answer is POSTed to `to`
// (nil: to the latest POST of ours, the legacy transport's endpoint); without
// a target the request is dropped.
func (g *guard) serverRequest(to *postTarget, req *jsonrpcMessage) {
	if to == nil {
		to = g.lastPost.Load()
	}
	if to == nil {
		g.stats.serverRequestsDropped.Add(1)
		return
	}
	hook, kind := g.asks.hooks.forMethod(req.Method)
	switch {
	case hook != nil && hook.static == nil:
		g.hookRequest(to, req, hook, kind)
	case hook != nil:
		g.answerNow(to, jsonrpcMessage{JSONRPC: "2.0", ID: req.ID, Result: hook.static})
	case req.Method == "ping":
		g.answerNow(to, jsonrpcMessage{JSONRPC: "2.0", ID: req.ID, Result: json.RawMessage("{}")})
	default:
		g.answerNow(to, jsonrpcMessage{JSONRPC: "2.0", ID: req.ID, Error: &jsonrpcErrorObj{Code: -32601, Message: "Method not found"}})
	}
}

// answerNow queues answer for the connection's sender under the limiter:
// without a token, or with serverRequestBurst answers queued already, it is
// dropped. The sender POSTs the answers one at a time, each ending with
// the connection (guard.close) or at TimeoutMs, not with the stream, which
// may end as soon as the server answered.
func (g *guard) answerNow(to *postTarget, answer jsonrpcMessage) {
	if !g.limiter.take(time.Now()) {
		g.stats.serverRequestsDropped.Add(1)
		return
	}
	body, _ := json.Marshal(answer) // ids, strings and raw JSON always marshal
	select {
	case g.asks.answers <- queuedAnswer{to: to, body: body}:
		g.stats.serverRequestsAnswered.Add(1)
		g.asks.sender.Do(func() { go g.sendAnswers() })
	default:
		g.stats.serverRequestsDropped.Add(1)
	}
}

// sendAnswers POSTs the queued answers in order until the connection
// closes.
func (g *guard) sendAnswers() {
	for {
		select {
		case q := <-g.asks.answers:
			g.postAnswer(g.life, q.to, q.body)
		case <-g.life.Done():
			return
		}
	}
}

// postAnswer sends one answer through the guard, as any request, and
// drains what the server says back (capped, within TimeoutMs).
func (g *guard) postAnswer(ctx context.Context, to *postTarget, body []byte) {
	req, err := wire.NewRequest(ctx, wire.MethodPost, to.url.String(), body)
	if err != nil {
		return
	}
	req.Header = to.answerHeader()
	resp, err := g.RoundTrip(req)
	if err != nil {
		return
	}
	discardBody(resp.Body)
}
