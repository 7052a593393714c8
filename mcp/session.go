package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/internal/wire"
)

// The MCP client session layer. On the 2026-07-28 wire (modern.go,
// docs/mcp-eras.md) there is no handshake and no session: each request is
// a POST of its own with the protocol's _meta and headers, answered with
// JSON or an SSE stream that is never resumed. On the legacy wire: the
// initialize handshake, then requests
// and notifications over Streamable HTTP (a POST each, answered with JSON
// or an SSE stream, resumed with GET and Last-Event-ID when it ends early;
// Mcp-Session-Id and MCP-Protocol-Version on every request after
// initialize; DELETE on close) or over the legacy SSE transport (one GET
// stream whose endpoint event names where to POST, answers arriving on the
// stream). Every request goes through the guard (transport.go), which
// applies the policy, the caps and the answer filter.

// supportedVersions are the revisions a server may answer initialize with.
var supportedVersions = map[string]bool{
	"2024-11-05": true, "2025-03-26": true, "2025-06-18": true, "2025-11-25": true,
}

// The session layer's own failures, which classify reports.
var (
	errSessionEnded     = errors.New("the server ended the session (HTTP 404)")
	errNoAnswer         = errors.New("the server gave no answer")
	errStreamEnded      = errors.New("the SSE stream ended")
	errEndpointMissing  = errors.New("the SSE stream ended before its endpoint event")
	errAcceptedNoAnswer = errors.New("the server accepted the request but sent no answer")
)

// defaultRetry is how long a resume waits when the server sent no retry
// field (the guard adds its backoff).
const defaultRetry = time.Second

// session is one MCP session with one server.
type session struct {
	g       *guard
	cfg     *ServerConfig
	auth    *authState // the registration's OAuth (nil: none); authsend.go
	legacy  bool       // the legacy SSE transport
	headers map[string]string
	nextID  atomic.Int64

	mu        sync.Mutex
	postURL   string // cfg.URL, or the SSE endpoint
	sessionID string
	version   string // negotiated protocol version, after initialize; ProtocolModern on the modern wire
	modern    bool   // the 2026-07-28 wire (setModern), decided before the first request
	meta      json.RawMessage

	// The legacy transport's stream.
	waiters   map[string]chan *jsonrpcMessage
	streamEnd chan struct{} // closed when the stream ends
	streamErr error
	onLost    func(error)
	stop      context.CancelFunc
	closing   chan struct{} // closed by close
	closeOnce sync.Once
}

// newSession returns a session of cfg over g; nothing is sent yet.
func newSession(cfg *ServerConfig, g *guard) *session {
	return &session{
		g: g, cfg: cfg, legacy: cfg.Transport == TransportSSE,
		headers: cloneHeaders(cfg.Headers), postURL: cfg.URL, meta: modernMeta(cfg.hooks),
		waiters: map[string]chan *jsonrpcMessage{}, streamEnd: make(chan struct{}), closing: make(chan struct{}),
	}
}

// start opens the legacy transport's stream and waits for its endpoint
// (for Streamable HTTP it does nothing). The stream lives on ctx's values
// (its failure sink) but not its deadline; it ends with close. onLost runs
// once if the stream ends before close.
func (s *session) start(ctx context.Context, onLost func(error)) error {
	if !s.legacy {
		return nil
	}
	life, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	s.onLost, s.stop = onLost, stop
	s.mu.Unlock()
	req, err := wire.NewRequest(life, wire.MethodGet, s.cfg.URL, nil)
	if err != nil {
		return err
	}
	s.setHeaders(req.Header, "text/event-stream")
	req.Header.Del("Content-Type")
	type opened struct {
		resp *wire.Response
		err  error
	}
	got := make(chan opened, 1)
	go func() {
		resp, err := s.send(req, true)
		got <- opened{resp, err}
	}()
	var resp *wire.Response
	select {
	case o := <-got:
		resp, err = o.resp, o.err
	case <-ctx.Done():
		stop()
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	if resp.StatusCode != wire.StatusOK {
		a := answerOfStatus(resp, wire.MethodGet, s.cfg.URL)
		_ = resp.Body.Close()
		return s.httpFailure(ctx, a, "", "the server refused the SSE stream")
	}
	endpoint := make(chan error, 1)
	go s.readStream(resp.Body, endpoint)
	select {
	case err := <-endpoint:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// readStream reads the legacy transport's stream: the endpoint event (sent
// to endpoint once: nil, or the refusal of the URL), then answers for the
// requests waiting. When the stream ends, every waiting request fails.
func (s *session) readStream(body io.ReadCloser, endpoint chan<- error) {
	defer body.Close()
	r := newSSEReader(body)
	haveEndpoint := false
	var err error
	for {
		var ev sseEvent
		ev, err = r.next()
		if err != nil {
			break
		}
		switch ev.event {
		case "endpoint":
			if haveEndpoint {
				continue
			}
			u, perr := url.Parse(s.cfg.URL)
			if perr == nil {
				u, perr = u.Parse(ev.data)
			}
			if perr != nil {
				endpoint <- s.g.wrap(core.CodeTransport, "the SSE endpoint event is not a URL")
				return
			}
			if e := s.g.check(u.String()); e != nil {
				endpoint <- e
				return
			}
			s.mu.Lock()
			s.postURL = u.String()
			s.mu.Unlock()
			haveEndpoint = true
			endpoint <- nil
		case "", "message":
			var m jsonrpcMessage
			if ev.data == "" || !decodeMessage(body, ev.data, &m) || !m.isAnswer() {
				continue // a notification, or a server request the guard answered
			}
			s.mu.Lock()
			ch := s.waiters[idKey(m.ID)]
			delete(s.waiters, idKey(m.ID))
			s.mu.Unlock()
			if ch != nil {
				ch <- &m
			}
		}
	}
	if !haveEndpoint {
		endpoint <- errEndpointMissing
	}
	s.mu.Lock()
	if err == io.EOF {
		err = errStreamEnded
	}
	s.streamErr = err
	close(s.streamEnd)
	s.mu.Unlock()
	s.mu.Lock()
	onLost := s.onLost
	s.mu.Unlock()
	select {
	case <-s.closing: // the end is ours
	default:
		if onLost != nil {
			onLost(err)
		}
	}
}

// setHeaders writes the configured headers, then the protocol's (which
// win): Accept, Content-Type, and after initialize the session id and the
// protocol version.
func (s *session) setHeaders(h wire.Header, accept string) {
	for k, v := range s.headers {
		h.Set(k, v)
	}
	h.Set("Accept", accept)
	h.Set("Content-Type", "application/json")
	s.mu.Lock()
	id, version := s.sessionID, s.version
	s.mu.Unlock()
	if !s.legacy {
		if id != "" {
			h.Set("Mcp-Session-Id", id)
		}
		if version != "" {
			h.Set("Mcp-Protocol-Version", version)
		}
	}
}

// initialize runs the handshake: initialize, then notifications/initialized.
func (s *session) initialize(ctx context.Context) (json.RawMessage, *jsonrpcErrorObj, error) {
	params := map[string]any{
		"protocolVersion": ProtocolLegacy,
		"capabilities":    s.cfg.hooks.capabilities(),
		"clientInfo":      map[string]any{"name": "toolgate", "version": toolgate.Version},
	}
	raw, rpcErr, err := s.call(ctx, "initialize", params)
	if err != nil || rpcErr != nil {
		return nil, rpcErr, err
	}
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(raw, &res) != nil {
		return nil, nil, s.g.wrap(core.CodeTransport, "malformed initialize result")
	}
	if !supportedVersions[res.ProtocolVersion] {
		return nil, nil, s.g.wrap(core.CodeTransport, fmt.Sprintf(
			"the server answered initialize with protocol version %s, which toolgate does not speak", s.cfg.quote(res.ProtocolVersion, 40)))
	}
	s.mu.Lock()
	s.version = res.ProtocolVersion
	s.mu.Unlock()
	if err := s.notify(ctx, "notifications/initialized"); err != nil {
		return nil, nil, err
	}
	return raw, nil, nil
}

// call sends one request and returns its answer's result or error member.
// The request's exchange (the id its answer must carry) travels in the
// context to the guard, and the id is pending on the connection meanwhile.
// A legacy request abandoned because ctx ended is announced with
// notifications/cancelled (cancelNotice); on the modern wire closing its
// stream is the cancellation, and a request whose answer stream broke is
// sent again under a new id, at most maxReissues times.
func (s *session) call(ctx context.Context, method string, params any) (json.RawMessage, *jsonrpcErrorObj, error) {
	modern := s.isModern()
	var p json.RawMessage
	var err error
	if modern {
		p, err = withMeta(params, s.meta)
	} else {
		p, err = json.Marshal(params)
	}
	if err != nil {
		return nil, nil, err
	}
	for attempt := 0; ; attempt++ {
		m, id, err := s.send1(ctx, method, p, modern)
		if errors.Is(err, errStreamBroken) && attempt < maxReissues && ctx.Err() == nil {
			continue
		}
		if err != nil {
			if !modern {
				s.cancelNotice(ctx, method, id, err)
			}
			return nil, nil, err
		}
		if m.Error != nil {
			return nil, m.Error, nil
		}
		return m.Result, nil, nil
	}
}

// send1 sends one request of method with params (JSON) under a new id and
// returns its answer and the id.
func (s *session) send1(ctx context.Context, method string, p json.RawMessage, modern bool) (*jsonrpcMessage, json.RawMessage, error) {
	id := json.RawMessage(strconv.FormatInt(s.nextID.Add(1), 10))
	body := requestBody(id, method, p)
	x := &exchange{key: idKey(id), shown: string(id), modern: modern}
	if modern {
		x.headers = requestHeaders(method, p)
		if ph := valueFrom[paramHeaderSet](ctx); ph != nil && method == "tools/call" {
			x.headers = append(x.headers, ph.headers...)
		}
	}
	s.g.pending.add(x.key)
	defer s.g.pending.remove(x.key)
	ctx = withValue(ctx, x)
	var m *jsonrpcMessage
	var err error
	if s.legacy {
		m, err = s.callLegacy(ctx, x, body)
	} else {
		m, err = s.callStreamable(ctx, x, method, body)
	}
	return m, id, err
}

// requestBody is the JSON-RPC request {"jsonrpc": "2.0", "id", "method",
// "params"?} (params omitted when empty), written around p as it is: p is
// the compact JSON call made of the params (json.Marshal or withMeta), and
// encoding it again would only copy and check it a second time.
func requestBody(id json.RawMessage, method string, p json.RawMessage) []byte {
	b := make([]byte, 0, len(p)+len(method)+48)
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"method":`...)
	b = jsontext.AppendString(b, method)
	if len(p) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, p...)
	}
	return append(b, '}')
}

// notify sends a notification without params.
func (s *session) notify(ctx context.Context, method string) error {
	body, _ := json.Marshal(jsonrpcMessage{JSONRPC: "2.0", Method: method}) // strings only
	resp, err := s.post(ctx, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return s.httpFailure(ctx, answerOfStatus(resp, wire.MethodPost, s.target()), method, "")
	}
	discardBody(resp.Body)
	return nil
}

// target is where the session POSTs.
func (s *session) target() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.postURL
}

// post POSTs body to the session's URL.
func (s *session) post(ctx context.Context, body []byte) (*wire.Response, error) {
	s.mu.Lock()
	target := s.postURL
	s.mu.Unlock()
	req, err := wire.NewRequest(ctx, wire.MethodPost, target, body)
	if err != nil {
		return nil, err
	}
	s.setHeaders(req.Header, "application/json, text/event-stream")
	if x := valueFrom[exchange](ctx); x != nil {
		for _, h := range x.headers {
			req.Header.Set(h[0], h[1])
		}
	}
	return s.send(req, true)
}

// callStreamable sends one request over Streamable HTTP and reads its
// answer: JSON, or the first answer on the SSE stream of the POST, which is
// resumed (GET with Last-Event-ID, after the server's retry) when it ends
// early.
func (s *session) callStreamable(ctx context.Context, x *exchange, method string, body []byte) (*jsonrpcMessage, error) {
	resp, err := s.post(ctx, body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	s.mu.Lock()
	hadSession := s.sessionID != ""
	s.mu.Unlock()
	switch {
	case resp.StatusCode == wire.StatusNotFound && hadSession:
		return nil, errSessionEnded
	case resp.StatusCode >= 300:
		a := answerOfStatus(resp, wire.MethodPost, s.target())
		if a.rpc != nil && !answersID(&jsonrpcMessage{ID: a.rpcID, Error: a.rpc}, x.key) {
			e := s.g.wrongAnswer(x.shown, a.rpcID)
			valueFrom[failureSink](ctx).set(e, true)
			return nil, e
		}
		return nil, s.httpFailure(ctx, a, method, "")
	}
	if method == "initialize" {
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			s.mu.Lock()
			s.sessionID = id
			s.mu.Unlock()
		}
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == wire.StatusAccepted || resp.StatusCode == wire.StatusNoContent:
		return nil, errAcceptedNoAnswer
	case mediaType == "text/event-stream":
		return s.readAnswer(ctx, x, resp.Body)
	}
	var m jsonrpcMessage
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		var ce *core.Error
		if errors.As(err, &ce) {
			return nil, ce
		}
		return nil, s.g.wrap(core.CodeTransport, "malformed JSON answer: "+s.cfg.cut(err.Error(), 120))
	}
	if !m.isAnswer() || !answersID(&m, x.key) {
		e := s.g.wrongAnswer(x.shown, m.ID)
		valueFrom[failureSink](ctx).set(e, true)
		return nil, e
	}
	return &m, nil
}

// answersID reports whether m answers the request whose id key is key: the
// same id, or an error with a null id (JSON-RPC's answer to a request whose
// id the server could not read).
func answersID(m *jsonrpcMessage, key string) bool {
	if !m.hasID() {
		return m.Error != nil
	}
	return idKey(m.ID) == key
}

// readAnswer reads the SSE stream of x's request until its answer. On the
// modern wire a stream that ends first is errStreamBroken. On the legacy
// wire, when the stream ends first after an event id, it is resumed with a GET carrying
// Last-Event-ID once the server's retry has passed (the guard bounds and
// backs off resumes).
func (s *session) readAnswer(ctx context.Context, x *exchange, body io.ReadCloser) (*jsonrpcMessage, error) {
	lastID, retry := "", defaultRetry
	for {
		r := newSSEReader(body)
		for {
			ev, err := r.next()
			if err != nil {
				var ce *core.Error
				if errors.As(err, &ce) || ctx.Err() != nil {
					return nil, err
				}
				break // the stream ended: resume it, or fail
			}
			if ev.id != "" {
				lastID = ev.id
			}
			if ev.retry >= 0 {
				retry = time.Duration(ev.retry) * time.Millisecond
			}
			if ev.data == "" || (ev.event != "" && ev.event != "message") {
				continue
			}
			var m jsonrpcMessage
			if !decodeMessage(body, ev.data, &m) || !m.isAnswer() {
				continue // a notification, or a server request the guard answered
			}
			if answersID(&m, x.key) {
				return &m, nil
			}
		}
		_ = body.Close()
		if x.modern {
			return nil, errStreamBroken // never resumed on the modern wire: call sends it again
		}
		if lastID == "" {
			return nil, errNoAnswer
		}
		t := time.NewTimer(retry)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		resp, err := s.resume(ctx, lastID)
		if err != nil {
			return nil, err
		}
		body = resp.Body
	}
}

// resume opens the GET stream that continues after event lastID.
func (s *session) resume(ctx context.Context, lastID string) (*wire.Response, error) {
	s.mu.Lock()
	target := s.postURL
	s.mu.Unlock()
	req, err := wire.NewRequest(ctx, wire.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	s.setHeaders(req.Header, "text/event-stream")
	req.Header.Del("Content-Type")
	req.Header.Set("Last-Event-ID", lastID)
	resp, err := s.send(req, true)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != wire.StatusOK {
		defer resp.Body.Close()
		if resp.StatusCode == wire.StatusNotFound {
			return nil, errSessionEnded
		}
		return nil, s.httpFailure(ctx, answerOfStatus(resp, wire.MethodGet, target), "",
			"the server ended the SSE stream of its answer and refused to resume it")
	}
	return resp, nil
}

// callLegacy POSTs one request to the legacy transport's endpoint and waits
// for its answer on the stream.
func (s *session) callLegacy(ctx context.Context, x *exchange, body []byte) (*jsonrpcMessage, error) {
	ch := make(chan *jsonrpcMessage, 1)
	s.mu.Lock()
	s.waiters[x.key] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.waiters, x.key)
		s.mu.Unlock()
	}()
	resp, err := s.post(ctx, body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		return nil, s.httpFailure(ctx, answerOfStatus(resp, wire.MethodPost, s.target()), "", "")
	}
	discardBody(resp.Body)
	select {
	case m := <-ch:
		return m, nil
	case <-s.streamEnd:
		s.mu.Lock()
		err := s.streamErr
		s.mu.Unlock()
		return nil, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// close ends the session: DELETE for a Streamable HTTP session with an id
// (best effort, within timeout), the stream for the legacy transport.
func (s *session) close(timeout time.Duration) {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.mu.Lock()
		id, stop := s.sessionID, s.stop
		s.mu.Unlock()
		if stop != nil {
			stop()
		}
		if s.legacy || id == "" {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), min(timeout, 5*time.Second))
		defer cancel()
		req, err := wire.NewRequest(ctx, wire.MethodDelete, s.cfg.URL, nil)
		if err != nil {
			return
		}
		s.setHeaders(req.Header, "application/json, text/event-stream")
		req.Header.Del("Content-Type")
		if resp, err := s.send(req, false); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	})
}
