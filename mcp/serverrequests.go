package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"sync"
	"time"

	"github.com/toolgate/toolgate/internal/wire"
)

// A server may send requests of its own on a stream (ping, and sampling or
// roots, which toolgate does not offer). The guard answers them (docs/security.md, "Answers, server requests and resumed
// streams"): one at a time per connection, and at most
// serverRequestBurst at once, then one per
// serverRequestEvery. Any other is dropped, and counted.
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

// answerLimiter is a token bucket of burst tokens, one more every every,
// with at most one answer in flight. newAnswerLimiter fills it from
// serverRequestBurst and serverRequestEvery.
type answerLimiter struct {
	burst float64
	every time.Duration

	mu     sync.Mutex
	tokens float64
	at     time.Time
	busy   bool
}

// newAnswerLimiter returns a full bucket of the package's limits.
func newAnswerLimiter(now time.Time) *answerLimiter {
	b := float64(serverRequestBurst)
	return &answerLimiter{burst: b, every: serverRequestEvery, tokens: b, at: now}
}

// take reports whether an answer may start now, and if so starts it.
func (l *answerLimiter) take(now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens = min(l.burst, l.tokens+float64(now.Sub(l.at))/float64(l.every))
	l.at = now
	if l.busy || l.tokens < 1 {
		return false
	}
	l.tokens--
	l.busy = true
	return true
}

// release ends the answer in flight.
func (l *answerLimiter) release() {
	l.mu.Lock()
	l.busy = false
	l.mu.Unlock()
}

// serverRequest answers req, a request the server sent on a stream: ping
// with an empty result, anything else with "method not found". The answer
// is POSTed to `to` (nil: to the latest POST of ours, the legacy
// transport's endpoint) under the limiter,
// in one goroutine that ends with the connection (guard.close) or at
// TimeoutMs, not with the stream, which may end as soon as the server
// answered; without a token the request is dropped.
func (g *guard) serverRequest(to *postTarget, req *jsonrpcMessage) {
	if to == nil {
		to = g.lastPost.Load()
	}
	if to == nil || !g.startAnswer() {
		g.stats.serverRequestsDropped.Add(1)
		return
	}
	g.stats.serverRequestsAnswered.Add(1)
	answer := jsonrpcMessage{JSONRPC: "2.0", ID: req.ID, Result: json.RawMessage("{}")}
	if req.Method != "ping" {
		answer = jsonrpcMessage{JSONRPC: "2.0", ID: req.ID, Error: &jsonrpcErrorObj{Code: -32601, Message: "Method not found"}}
	}
	body, _ := json.Marshal(answer) // ids, strings and raw JSON always marshal
	ctx, cancel := context.WithCancel(g.life)
	go func() {
		defer g.endAnswer()
		defer cancel()
		g.postAnswer(ctx, to, body)
	}()
}

// startAnswer takes a token of the limiter, or reports that none is free.
func (g *guard) startAnswer() bool {
	return g.limiter.take(time.Now())
}

// endAnswer gives the limiter back.
func (g *guard) endAnswer() {
	g.limiter.release()
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
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
}
