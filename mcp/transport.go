package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/internal/wire"
)

// guard is the wire.RoundTripper under every MCP client: the policy check,
// the origin pin, the refusal of redirects, the per-request deadline, the
// Content-Type check and the per-message byte cap; on SSE streams, the
// filter that lets through only answers to waiting requests and answers
// the server's own requests itself (answers.go, serverrequests.go); and the
// bound on resumed SSE streams (resume.go). One guard serves one pooled
// connection (one server config under one policy).
//
// What it refuses it also records, typed, in the request's failure sink
// (withValue): the session may turn a refusal into an error of its own
// (a stream that ended, no answer), and the caller reads the sink to
// report the real cause.
//
// Its messages are wire's (internal/wire), not net/http's: the full wasm
// build links no net/http.
type guard struct {
	server  string
	cfg     *ServerConfig
	sec     *Security // defaults applied
	origin  string    // scheme://host[:port] of cfg.URL, lower-cased
	timeout time.Duration
	base    wire.RoundTripper
	conn    *failureSink // failures of long-lived GET streams (the SSE connection)

	timeoutErr *core.Error // a request's answer took longer than TimeoutMs
	capErr     *core.Error // a message was larger than MaxMessageBytes

	stats    *counters                  // the pool's (its own for a guard made alone)
	pending  pendingIDs                 // requests waiting for an answer (the legacy transport's one stream)
	limiter  *answerLimiter             // answers to the server's requests
	asks     *serverAsks                // the client hooks, their calls, the answers queued
	resume   resumeLimits               // how often, how slowly a request's SSE stream is resumed
	lastPost atomic.Pointer[postTarget] // the latest request POSTed: where the connection stream's server requests are answered
	allowed  atomic.Pointer[string]     // the last URL check allowed
	life     context.Context            // ends when the connection closes (close): answers to server requests end with it
	close    context.CancelFunc

	progress    progressTokens         // calls waiting for progress notifications (progress.go)
	notify      notifyBudget           // the notification bytes of the connection's own streams (notifybudget.go)
	listChanged atomic.Pointer[func()] // what a notifications/tools/list_changed runs (listchanged.go)
}

// newGuard returns the guard of one connection. sec must have its defaults
// applied; base nil means defaultBase (net/http's transport natively; under
// js none: the wasm program passes jsbridge/fetch).
func newGuard(cfg *ServerConfig, sec *Security, base wire.RoundTripper) *guard {
	if base == nil {
		base = defaultBase
	}
	if base == nil {
		base = noBase{}
	}
	g := &guard{
		server:  cfg.Name,
		cfg:     cfg,
		sec:     sec,
		origin:  originOf(cfg.URL),
		timeout: time.Duration(sec.TimeoutMs) * time.Millisecond,
		base:    base,
		conn:    &failureSink{},
		stats:   &counters{},
		limiter: newAnswerLimiter(time.Now()),
		asks:    newServerAsks(cfg.hooks),
		resume:  defaultResumeLimits(),
	}
	g.life, g.close = context.WithCancel(context.Background())
	g.timeoutErr = g.wrap(core.CodeTimeout, fmt.Sprintf("no answer within %d ms (timeoutMs)", sec.TimeoutMs))
	g.capErr = g.wrap(core.CodeTransport, fmt.Sprintf("a message from the server is larger than %d bytes (maxMessageBytes)", sec.MaxMessageBytes))
	return g
}

// defaultBase is the base transport of a guard made without one: set
// natively (base_native.go) to net/http's, nil under js.
var defaultBase wire.RoundTripper

// noBase is the base of a guard without a transport (under js, when the
// program passed none): it refuses every request.
type noBase struct{}

// RoundTrip refuses req: there is no HTTP transport to send it with.
func (noBase) RoundTrip(*wire.Request) (*wire.Response, error) {
	return nil, errors.New("no HTTP transport: Options.BaseTransport is required under js (the wasm build passes jsbridge/fetch)")
}

// originOf returns "scheme://host" of raw, lower-cased, or "" when raw does
// not parse.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host := jsontext.LowerASCII(u.Host)
	if port := u.Port(); port != "" && port == defaultPort(jsontext.LowerASCII(u.Scheme)) {
		host = strings.TrimSuffix(host, ":"+port) // "host:443" is the origin of "host"
	}
	return jsontext.LowerASCII(u.Scheme) + "://" + host
}

// defaultPort is the port a scheme implies.
func defaultPort(scheme string) string {
	switch scheme {
	case "https", "wss":
		return "443"
	case "http", "ws":
		return "80"
	}
	return ""
}

// RoundTrip sends req through the base transport when the policy allows its
// URL and the URL stays on the configured server's origin. It refuses:
// with policy-denied, a URL CheckURL refuses or one on another origin (an
// SSE endpoint the server sent back included); with transport, any 3xx
// answer, a 200 answer to a POST whose Content-Type is neither
// application/json nor text/event-stream (the body is not read), a body
// message larger than MaxMessageBytes (for text/event-stream: one event),
// a network failure, and a resume of a request's SSE stream beyond
// maxStreamResumes (each resume first waits its backoff); with timeout, a
// request whose answer (for a GET stream: whose headers) takes longer than
// TimeoutMs. An SSE body it passes on is filtered (sseFilter). No message
// quotes a header value.
func (g *guard) RoundTrip(req *wire.Request) (*wire.Response, error) {
	sink := valueFrom[failureSink](req.Context())
	sink.reset()
	x := valueFrom[exchange](req.Context())
	stream := req.Method == wire.MethodGet
	standalone := valueFrom[standaloneMark](req.Context()) != nil                // getstream.go: its own backoff and sink
	connStream := stream && !standalone && req.Header.Get("Last-Event-ID") == "" // not a request's resumed stream
	// Only the legacy transport's stream is the connection: a failure of
	// Streamable HTTP's standalone GET stream is no call's cause.
	connFail := connStream && g.cfg.Transport == TransportSSE
	if err := g.admit(req, x, stream && !connStream && !standalone); err != nil {
		var ce *core.Error
		if errors.As(err, &ce) {
			return nil, g.record(sink, connFail, ce)
		}
		return nil, err // the caller's own cancellation while a resume waited
	}
	if req.Method == wire.MethodPost && x != nil {
		g.lastPost.Store(targetOf(req))
	}

	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(g.timeout, func() {
		g.record(sink, connFail, g.timeoutErr)
		cancel(g.timeoutErr)
	})
	if valueFrom[longAnswer](req.Context()) != nil {
		timer.Stop() // the caller's deadline bounds it (a task's tasks/result)
	}
	done := func() {
		timer.Stop()
		cancel(nil)
	}
	resp, err := g.base.RoundTrip(req.WithContext(ctx))
	if err != nil && staleConnection(err) && ctx.Err() == nil {
		// A kept-alive connection the server had just closed: the request
		// never reached a live server, so it is sent once more, on a new one.
		g.stats.staleRetries.Add(1)
		resp, err = g.base.RoundTrip(req.WithContext(ctx))
	}
	if err != nil {
		done()
		if context.Cause(ctx) == error(g.timeoutErr) {
			return nil, g.timeoutErr
		}
		if req.Context().Err() != nil {
			return nil, err // the caller's own cancellation: not the server's failure
		}
		e := g.wrap(core.CodeTransport, "the request failed: "+describeNetError(g.cfg, err))
		e.Cause = err // never serialised; errors.Is finds wire.ErrOpaque through it (era probe)
		return nil, g.record(sink, connFail, e)
	}
	if e := g.refuseAnswer(req, resp, sink); e != nil {
		_ = resp.Body.Close()
		done()
		return nil, g.record(sink, connFail, e)
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode >= 400 && mediaType != "application/json" {
		// Not a JSON-RPC error: nothing in it is for us to parse.
		_ = resp.Body.Close()
		resp.Body = wire.NoBody
		done()
		return resp, nil
	}
	if stream || standalone {
		timer.Stop() // a stream's deadline (GET, or the modern listen POST) covers its headers only
	}
	resp.Body = g.body(req, x, connStream, mediaType == "text/event-stream", &cappedBody{
		r:     resp.Body,
		max:   g.sec.MaxMessageBytes,
		sse:   mediaType == "text/event-stream",
		done:  done,
		onCap: func(e *core.Error) { g.record(sink, connFail, e) },
		err:   g.capErr,
		pace:  newPacer(),
	})
	return resp, nil
}

// admit applies the policy to req and, to a GET that resumes the stream of
// x's request, the resume backoff and bound (beforeResume).
func (g *guard) admit(req *wire.Request, x *exchange, resume bool) error {
	if e := g.check(req.URL.String()); e != nil {
		return e
	}
	if resume {
		return g.beforeResume(req.Context(), x)
	}
	return nil
}

// refuseAnswer returns the transport error of an answer whose body is never
// read: a redirect, or a 200 whose Content-Type is wrong for the request.
// An HTTP error status is recorded in the sink as a soft failure (its
// JSON-RPC error, if any, says more).
func (g *guard) refuseAnswer(req *wire.Request, resp *wire.Response, sink *failureSink) *core.Error {
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return g.wrap(core.CodeTransport, fmt.Sprintf(
			"the server answered HTTP %d (a redirect); redirects are never followed", resp.StatusCode))
	}
	if resp.StatusCode >= 400 {
		sink.set(g.wrap(core.CodeTransport, fmt.Sprintf("the server answered HTTP %d", resp.StatusCode)), false)
		return nil
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	sse := mediaType == "text/event-stream"
	stream := req.Method == wire.MethodGet
	if resp.StatusCode != wire.StatusOK || !(stream && !sse || req.Method == wire.MethodPost && !sse && mediaType != "application/json") {
		return nil
	}
	want := "application/json or text/event-stream"
	if stream {
		want = "text/event-stream"
	}
	e := g.wrap(core.CodeTransport, fmt.Sprintf("the server answered with Content-Type %s; want %s",
		g.cfg.quote(resp.Header.Get("Content-Type"), 80), want))
	e.Cause = errNotMCPAnswer
	return e
}

// errNotMCPAnswer is the Cause of the refusal of a 200 answer that is
// neither JSON nor an event stream (refuseAnswer): to the era probe, legacy
// evidence (docs/mcp-eras.md).
var errNotMCPAnswer = errors.New("the answer is neither JSON nor an event stream")

// body is what the session reads of an answer: capped, and for an SSE stream of
// ours (a request's answer, or the connection's stream) filtered by
// sseFilter, so that only answers to waiting requests reach the session and the
// server's own requests are answered here.
func (g *guard) body(req *wire.Request, x *exchange, connStream, sse bool, b *cappedBody) io.ReadCloser {
	switch {
	case !sse:
		return b
	case valueFrom[standaloneMark](req.Context()) != nil:
		return newSSEFilter(g, req.Context(), targetOf(req), "", false, b)
	case connStream:
		return newSSEFilter(g, req.Context(), nil, "", g.cfg.Transport == TransportSSE, b)
	case x != nil:
		return newSSEFilter(g, req.Context(), targetOf(req), x.key, false, b)
	}
	return b
}

// check returns the policy-denied error of a URL CheckURL refuses or that
// leaves the configured server's origin, or nil. The verdict depends on raw
// alone (the policy is fixed per guard), so the last URL allowed is
// remembered and not checked again: a session sends every request to one
// or two URLs.
func (g *guard) check(raw string) *core.Error {
	if ok := g.allowed.Load(); ok != nil && *ok == raw {
		return nil
	}
	if e := g.checkURL(raw); e != nil {
		return e
	}
	g.allowed.Store(&raw)
	return nil
}

// checkURL is check without the memory.
func (g *guard) checkURL(raw string) *core.Error {
	if e := checkServerURL(raw, g.sec, g.server, g.cfg); e != nil {
		return e
	}
	if o := originOf(raw); o != g.origin {
		s := g.cfg.secrets()
		e := g.wrap(core.CodePolicyDenied, fmt.Sprintf(
			"URL %s refused by rule %q: requests stay on the configured server's origin %s",
			displayURL(raw, s), RuleOrigin, displayURL(g.origin, s)))
		e.Rule = string(RuleOrigin)
		return e
	}
	return nil
}

// wrap builds a guard error that names the server.
func (g *guard) wrap(code core.Code, msg string) *core.Error {
	return serverError(code, g.server, g.cfg, "%s", msg)
}

// record stores e as a hard failure of the request (and of the connection,
// for a GET stream) and returns it.
func (g *guard) record(sink *failureSink, stream bool, e *core.Error) *core.Error {
	sink.set(e, true)
	if stream {
		g.conn.set(e, true)
	}
	return e
}

// describeNetError names a network failure without the URL a *url.Error
// puts in front of it (a URL may carry a secret query), redacted and then cut to
// 200 bytes: an error may quote what the server sent.
func describeNetError(cfg *ServerConfig, err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return cfg.cut(err.Error(), 200)
}

// cappedBody counts what is read from a response body and fails the read
// once one message is larger than max bytes: for JSON the whole body, for
// text/event-stream each event (the bytes since the last empty line, so an
// endless line fails too). done runs once, at EOF, error or Close.
type cappedBody struct {
	r     io.ReadCloser
	max   int
	sse   bool
	done  func()
	onCap func(*core.Error)
	err   *core.Error

	n         int // bytes of the current message
	lineBytes int // bytes of the current line, CR excluded
	pendingCR int // CRs not counted yet
	once      sync.Once
	failed    bool

	pace  pacer // pace.go: a large body gives the JS thread turns
	paced int   // bytes read, up to pacedBytes
}

// Read reads from the body and fails with the cap error once the current
// message passes max bytes.
func (b *cappedBody) Read(p []byte) (int, error) {
	if b.failed {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	if b.paced += n; b.paced >= pacedBytes {
		b.pace.step() // every read once the body has passed pacedBytes
	}
	if b.sse {
		for i := 0; i < n; i++ {
			switch p[i] {
			case '\r':
				b.pendingCR++ // counted with what follows: part of an empty line or not
			case '\n':
				if b.lineBytes == 0 {
					b.n = 0 // an empty line ends the event
				} else {
					b.n += b.pendingCR + 1
				}
				b.pendingCR, b.lineBytes = 0, 0
			default:
				b.n += b.pendingCR + 1
				b.pendingCR = 0
				b.lineBytes++
			}
			if b.n > b.max || b.pendingCR > b.max {
				return b.capped()
			}
		}
	} else {
		b.n += n
		if b.n > b.max {
			return b.capped()
		}
	}
	if err != nil {
		b.finish()
	}
	return n, err
}

// capped records the cap error, ends the request and returns the error.
func (b *cappedBody) capped() (int, error) {
	b.failed = true
	b.onCap(b.err)
	b.finish()
	return 0, b.err
}

// finish stops the request's deadline timer and releases its context.
func (b *cappedBody) finish() {
	b.once.Do(b.done)
}

// Close closes the body and ends the request.
func (b *cappedBody) Close() error {
	err := b.r.Close()
	b.finish()
	return err
}

// discardBody ends an answer whose body nobody reads: closed at once when
// the base transport's body ends the exchange cleanly on Close
// (wire.ClosesClean: fetch), else read to its end first (capped, within the
// request's deadline), so that net/http can reuse the connection.
func discardBody(b io.ReadCloser) {
	inner := b
	if c, ok := b.(*cappedBody); ok {
		inner = c.r
	}
	if _, ok := inner.(wire.ClosesClean); !ok {
		_, _ = io.Copy(io.Discard, b)
	}
	_ = b.Close()
}

// longAnswer marks the context of a request whose answer may take longer
// than TimeoutMs (a task's tasks/result): the guard sets no timer of its
// own, the caller's context bounds it.
type longAnswer struct{}

// failureSink keeps the typed failure of the latest request of one
// operation (or, for the guard's own sink, of the connection). A hard
// failure (policy, cap, redirect, Content-Type, timeout, network) outranks
// a soft one (an HTTP error status, which may carry a JSON-RPC error worth
// more). A nil sink ignores everything.
type failureSink struct {
	mu   sync.Mutex
	err  *core.Error
	hard bool
}

// set records e unless a hard failure is already recorded.
func (s *failureSink) set(e *core.Error, hard bool) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil && s.hard {
		return
	}
	s.err, s.hard = e, hard
}

// reset forgets the previous request's failure: a new request starts.
func (s *failureSink) reset() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.err, s.hard = nil, false
	s.mu.Unlock()
}

// get returns the recorded failure and whether it is hard.
func (s *failureSink) get() (*core.Error, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err, s.hard
}

// ctxKey is the context key of the *T an operation hands down, through
// the session, to the guard: its failure sink (withValue(ctx, sink)) and
// the exchange of one request.
type ctxKey[T any] struct{}

// withValue returns ctx carrying v.
func withValue[T any](ctx context.Context, v *T) context.Context {
	return context.WithValue(ctx, ctxKey[T]{}, v)
}

// valueFrom returns the *T ctx carries, or nil.
func valueFrom[T any](ctx context.Context) *T {
	v, _ := ctx.Value(ctxKey[T]{}).(*T)
	return v
}

// serverError builds an error whose message starts with the server's name
// and carries no secret of cfg (Redact).
func serverError(code core.Code, server string, cfg *ServerConfig, format string, args ...any) *core.Error {
	msg := fmt.Sprintf("server %s: %s", strconv.QuoteToASCII(server), fmt.Sprintf(format, args...))
	return &core.Error{Code: code, Tool: server, Message: cfg.scrub(msg)}
}

// staleConnection reports whether err is the failure of a request sent on a
// kept-alive connection the server closed in the meantime (its idle
// timeout ran out while this side's event loop was busy), before any
// answer: Node's fetch reports it as "other side closed" (undici's
// SocketError, the server's FIN) or ECONNRESET (its RST, when the request
// reached a socket the server had already closed), Go's transport as a
// closed idle connection. Only such a failure is retried (guard.RoundTrip),
// once: the server closed the connection without reading the request, as
// Go's own transport assumes when it retries on a reused connection.
func staleConnection(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "other side closed") || strings.Contains(msg, "ECONNRESET") || strings.Contains(msg, "server closed idle connection")
}
