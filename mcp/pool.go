package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
)

// Options configure a Pool. A nil *Options means every default; the struct
// is copied on entry.
type Options struct {
	// BaseTransport is the RoundTripper under the policy guard (default nil:
	// net/http's DefaultTransport natively; under js there is no default,
	// and the wasm build passes jsbridge/fetch's transport: without one every
	// request fails). Every request reaches it only after the guard's checks.
	BaseTransport wire.RoundTripper
}

// Pool holds live MCP clients, keyed by server name, a fingerprint of the
// server config (URL, transport, headers), the policy's Fingerprint and the
// ids of the client hooks (RegisterOptions.Hooks), and
// reuses them across calls. A key has at most one live session at a time
// (so at most MaxConnectionsPerServer, which bounds sessions, not calls):
// concurrent operations (tool listings and calls) share it, all in flight
// at once, and one connect at a time makes it. A client
// whose connection was lost is replaced by the next operation; a call the
// server refused because its session ended (HTTP 404) is retried once on a
// new client. It is safe for concurrent use; Cleanup closes every client.
type Pool struct {
	base wire.RoundTripper

	mu      sync.Mutex
	entries map[string]*entry

	stats counters // what the connections dropped, limited or refused (Stats)

	followed followers // registrations whose list changes are followed (listchanged.go)

	eras  eraCache  // each origin's protocol era (era.go)
	lists listCache // modern servers' fresh tools/list pages (listcache.go)
}

// NewPool returns an empty pool.
func NewPool(opts *Options) *Pool {
	p := &Pool{entries: map[string]*entry{}}
	if opts != nil {
		p.base = opts.BaseTransport
	}
	return p
}

// entry is one pool key: a server config under one policy.
type entry struct {
	key     string // its key in Pool.entries (entryKeyOf)
	cfg     *ServerConfig
	sec     *Security // defaults applied
	timeout time.Duration
	auth    *authState // the registration's OAuth tokens (nil: no Auth); auth.go

	mu         sync.Mutex
	c          *conn
	connecting chan struct{} // closed when the connect in progress ends
	closed     bool          // Cleanup removed this entry
}

// Cleanup closes every pooled client and empties the pool; operations in
// progress on them fail with a transport error. The pool stays usable: the
// next operation connects again. It returns ctx's error when ctx is
// done before every client is closed, nil otherwise.
func (p *Pool) Cleanup(ctx context.Context) error {
	p.mu.Lock()
	entries := p.entries
	p.entries = map[string]*entry{}
	p.mu.Unlock()
	p.followed.pause()
	var conns []*conn
	for _, e := range entries {
		e.mu.Lock()
		e.closed = true
		if e.c != nil {
			conns = append(conns, e.c)
			e.c = nil
		}
		e.mu.Unlock()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, c := range conns {
			c.close()
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return &core.Error{Code: core.CodeTimeout, Message: "mcp cleanup: the context ended before every connection was closed", Cause: ctx.Err()}
	}
}

// configFingerprint is the hex SHA-256 of the parts of cfg that make a
// connection: name, URL, transport, headers and a pinned protocol version.
func configFingerprint(cfg *ServerConfig) string {
	b, _ := json.Marshal(struct {
		Name      string            `json:"name"`
		URL       string            `json:"url"`
		Transport string            `json:"transport"`
		Headers   map[string]string `json:"headers"`
		Version   string            `json:"protocolVersion,omitempty"`
	}{cfg.Name, cfg.URL, cfg.Transport, cfg.Headers, cfg.ProtocolVersion}) // strings only: always marshals
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// entryKeyOf is the pool key of cfg under sec (defaults applied): the
// server's name, configFingerprint, the policy's Fingerprint and the
// client hooks' ids (registrations with other hooks get other connections).
func entryKeyOf(cfg *ServerConfig, sec *Security) string {
	return cfg.Name + "\x00" + configFingerprint(cfg) + "\x00" + sec.Fingerprint() + "\x00" + cfg.hooks.key() + "\x00" + cfg.auth.key()
}

// entryFor returns the entry of cfg under sec (defaults applied), creating it.
func (p *Pool) entryFor(cfg *ServerConfig, sec *Security) *entry {
	key := entryKeyOf(cfg, sec)
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.entries[key]; ok {
		return e
	}
	e := &entry{
		key:     key,
		cfg:     cfg,
		sec:     sec,
		timeout: time.Duration(sec.TimeoutMs) * time.Millisecond,
	}
	if cfg.auth != nil {
		e.auth = newAuthState(cfg, sec, p.base)
	}
	p.entries[key] = e
	return e
}

// opFunc is one operation on a live client: its requests go through
// Pool.request.
type opFunc func(ctx context.Context, e *entry, c *conn) error

// run runs op for the server cfg under sec on the key's live client
// (connecting first when there is none or it was lost), which concurrent
// operations share: nothing waits for another operation but a connect
// in progress. When op
// fails because the server ended the session (HTTP 404), the client is
// replaced and op runs once more. cfg's URL is checked against sec first:
// a refusal (policy-denied) or a nil sec happens before any request.
//
// slot, when not nil, remembers the entry of cfg under sec between runs
// (entrymemo.go): the caller passes the same cfg and sec each time.
func (p *Pool) run(ctx context.Context, cfg *ServerConfig, sec *Security, slot *entrySlot, tool string, op opFunc) error {
	if e := checkServerURL(cfg.URL, sec, cfg.Name, cfg); e != nil {
		if tool != "" {
			e.Tool = tool
		}
		return e
	}
	e := memoEntry(slot, cfg, sec)
	if e == nil {
		m := newEntryMemo(nil, cfg, sec) // the values the key is made of, read first
		e = p.entryFor(cfg, sec.withDefaults())
		if slot != nil {
			m.e = e
			slot.Store(m)
		}
	}
	if ctx.Err() != nil {
		return classify(ctx, cfg, tool, nil, nil, nil, ctx.Err())
	}
	for attempt := 0; ; attempt++ {
		c, err := p.get(ctx, e)
		if err != nil {
			return named(err, tool)
		}
		err = op(ctx, e, c)
		if err == nil {
			return nil
		}
		if c.dead.Load() {
			e.drop(c)
			if attempt == 0 && (c.sessionEnded.Load() || c.staleEra.Load()) {
				continue
			}
		}
		return err
	}
}

// named returns err with Tool set to tool when tool is not "".
func named(err error, tool string) error {
	var ce *core.Error
	if tool == "" || !errors.As(err, &ce) {
		return err
	}
	c := *ce
	c.Tool = tool
	return &c
}

// get returns the entry's live client, connecting (one connect at a time
// per entry, bounded by TimeoutMs) when there is none or it was lost.
func (p *Pool) get(ctx context.Context, e *entry) (*conn, error) {
	for {
		e.mu.Lock()
		if e.c != nil && !e.c.dead.Load() {
			c := e.c
			e.mu.Unlock()
			return c, nil
		}
		if e.c != nil {
			old := e.c
			e.c = nil
			go old.close()
		}
		if ch := e.connecting; ch != nil {
			e.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, classify(ctx, e.cfg, "", nil, nil, nil, ctx.Err())
			}
		}
		ch := make(chan struct{})
		e.connecting = ch
		e.mu.Unlock()

		cctx, cancel := context.WithTimeoutCause(ctx, e.timeout, e.timeoutError("while connecting"))
		c, err := connect(cctx, p, e)
		cancel()

		e.mu.Lock()
		e.connecting = nil
		close(ch)
		closed := e.closed
		if err == nil && !closed {
			e.c = c
		}
		e.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if closed {
			c.close()
			return nil, serverError(core.CodeTransport, e.cfg.Name, e.cfg, "the connection pool was cleaned up while connecting")
		}
		return c, nil
	}
}

// bounded runs f and returns its error, or ctx's as soon as ctx ends: the
// session layer returns soon after its context ends, but a flood from the server or a
// read that does not watch the context can keep it a while, and a deadline
// is a deadline. f keeps running until it notices; it must use ctx.
func bounded(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		select {
		case err := <-done:
			return err // f ended at the same moment: its answer counts
		default:
			return ctx.Err()
		}
	}
}

// drop forgets c (if it is still the entry's client) and closes it.
func (e *entry) drop(c *conn) {
	e.mu.Lock()
	if e.c == c {
		e.c = nil
	}
	e.mu.Unlock()
	go c.close()
}

// lazyTimeout is the cause of a request's deadline: its *core.Error
// (timeoutError) is built only when the deadline passes, not for every
// request.
type lazyTimeout struct {
	e    *entry
	what string
}

// Error is the timeout error's message.
func (t *lazyTimeout) Error() string { return t.coreError().Error() }

// coreError is the timeout error.
func (t *lazyTimeout) coreError() *core.Error { return t.e.timeoutError(t.what) }

// timeoutError is the timeout error of one request or connect.
func (e *entry) timeoutError(what string) *core.Error {
	return serverError(core.CodeTimeout, e.cfg.Name, e.cfg, "no answer within %d ms (timeoutMs) %s", e.sec.TimeoutMs, what)
}

// request runs one MCP request of method with params on c under the
// per-request deadline, which it keeps however long the session takes to
// notice it (bounded), with a failure sink for the guard. It returns the
// raw JSON-RPC result. Errors are typed and name the server (Tool is tool
// when not ""). A 404 for the session marks c dead and ended, so run
// replaces it.
//
// On the modern wire a result of resultType "input_required" is answered
// with the registration's hooks and the request sent again until it
// completes (fulfil, mrtr.go); each round is a request of its own, with its
// own deadline.
func (p *Pool) request(ctx context.Context, e *entry, c *conn, tool, method string, params any) (json.RawMessage, error) {
	raw, err := p.request1(ctx, e, c, tool, method, params)
	if err != nil || !c.sess.isModern() {
		return raw, err
	}
	return p.fulfil(ctx, e, c, tool, method, params, raw)
}

// request1 is one request of request: one round, without input rounds.
func (p *Pool) request1(ctx context.Context, e *entry, c *conn, tool, method string, params any) (json.RawMessage, error) {
	return p.requestWithin(ctx, e, c, tool, method, params, e.timeout)
}

// requestWithin is request1 under the deadline timeout instead of
// TimeoutMs (a task's tasks/result waits for the task: task_legacy.go).
func (p *Pool) requestWithin(ctx context.Context, e *entry, c *conn, tool, method string, params any, timeout time.Duration) (json.RawMessage, error) {
	sink := &failureSink{}
	rctx, cancel := context.WithTimeoutCause(ctx, timeout, &lazyTimeout{e: e, what: "to the " + method + " request"})
	defer cancel()
	var got answerOf
	err := bounded(rctx, func() error {
		raw, rpcErr, err := c.sess.call(withValue(rctx, sink), method, params)
		got.set(raw, rpcErr)
		return err
	})
	raw, rpcErr := got.get()
	if err == nil && rpcErr == nil {
		return raw, nil
	}
	if errors.Is(err, errSessionEnded) {
		c.sessionEnded.Store(true)
		c.dead.Store(true)
	}
	ce := classify(rctx, e.cfg, tool, sink, c, rpcErr, err)
	if c.eraCached && c.sess.isModern() && modernRefused(ce) {
		p.eras.forget(originOf(e.cfg.URL)) // a legacy server after all: run connects again, with a probe
		c.staleEra.Store(true)
		c.dead.Store(true)
	}
	return nil, ce
}

// answerOf hands a request's answer from the goroutine bounded runs to the
// caller, who may have stopped waiting for it.
type answerOf struct {
	mu     sync.Mutex
	raw    json.RawMessage
	rpcErr *jsonrpcErrorObj
}

// set records the answer.
func (a *answerOf) set(raw json.RawMessage, rpcErr *jsonrpcErrorObj) {
	a.mu.Lock()
	a.raw, a.rpcErr = raw, rpcErr
	a.mu.Unlock()
}

// get returns what was recorded so far.
func (a *answerOf) get() (json.RawMessage, *jsonrpcErrorObj) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.raw, a.rpcErr
}
