package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/core"
)

// conn is one live MCP client: mcp-go's client over our guard.
type conn struct {
	client *client.Client
	guard  *guard
	legacy bool // the server speaks a protocol version before 2026-07-28

	dead         atomic.Bool // the connection was lost or the session ended
	sessionEnded atomic.Bool // the server answered 404 for the session: it ran nothing
	closeMu      sync.Once
}

// close closes the client once.
func (c *conn) close() {
	c.closeMu.Do(func() {
		_ = c.client.Close()
		c.guard.close()
	})
}

// maxProbeTime bounds the server/discover probe (mcp-go's default): a
// server that ignores the probe still leaves the handshake the rest of the
// connect deadline. A shorter TimeoutMs gets half of it for the probe.
const maxProbeTime = 5 * time.Second

// discardLogger swallows mcp-go's own logging: every failure it logs
// reaches the caller as a typed error instead.
var discardLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// connect starts a client for the pool entry e (its config under its
// policy, defaults applied) and runs the MCP handshake under ctx, which it
// keeps (bounded). A server the pool knows to predate protocol version
// 2026-07-28 gets no server/discover probe. The guard counts into the
// pool's Stats. The
// error is typed (classify) and names the server.
func connect(ctx context.Context, p *Pool, e *entry) (*conn, error) {
	cfg, sec, legacy := e.cfg, e.sec, p.isLegacy(e.id)
	g := newGuard(cfg, sec, p.base)
	g.stats = &p.stats
	timeout := time.Duration(sec.TimeoutMs) * time.Millisecond
	hc := g.httpClient()
	var tr transport.Interface
	var err error
	switch cfg.Transport {
	case TransportSSE:
		tr, err = transport.NewSSE(cfg.URL,
			transport.WithHTTPClient(hc),
			transport.WithHeaders(cloneHeaders(cfg.Headers)),
			transport.WithSSELogger(discardLogger),
			transport.WithEndpointTimeout(timeout),
			transport.WithResponseTimeout(timeout),
		)
	default:
		tr, err = transport.NewStreamableHTTP(cfg.URL,
			transport.WithHTTPBasicClient(hc),
			transport.WithHTTPHeaders(cloneHeaders(cfg.Headers)),
			transport.WithHTTPLogger(discardLogger),
		)
	}
	if err != nil {
		g.close()
		return nil, serverError(core.CodeInvalidTool, cfg.Name, cfg, "the URL cannot be used: %s", describeNetError(cfg, err))
	}
	opts := []client.ClientOption{client.WithDiscoverTimeout(min(maxProbeTime, timeout/2))}
	if legacy {
		// The initialize handshake straight away, no server/discover probe:
		// pinning the newest version that still uses it is how mcp-go says so.
		opts = append(opts, client.WithProtocolVersion(mcpgo.LATEST_LEGACY_PROTOCOL_VERSION))
	}
	c := &conn{guard: g}
	c.client = client.NewClient(&captureTransport{inner: tr, guard: g}, opts...)
	c.client.OnConnectionLost(func(err error) {
		// The SSE stream ended: requests waiting for an answer on it would
		// wait for their deadline, so close now and let them fail.
		g.conn.set(serverError(core.CodeTransport, cfg.Name, cfg, "the SSE stream ended: %s", describeNetError(cfg, err)), false)
		c.dead.Store(true)
		go c.close()
	})

	sink := &failureSink{}
	initCap := &capture{method: string(mcpgo.MethodInitialize)}
	opCtx := withValue(withValue(ctx, sink), initCap)
	// The SSE transport keeps the context of Start for its stream, so Start
	// gets one that outlives this call; ctx still bounds the wait.
	started := make(chan error, 1)
	go func() { started <- c.client.Start(context.WithoutCancel(opCtx)) }()
	select {
	case err = <-started:
	case <-ctx.Done():
		c.close()
		err = ctx.Err()
	}
	if err != nil {
		c.close()
		return nil, classify(ctx, cfg, "", sink, c, nil, err)
	}
	var res *mcpgo.InitializeResult
	err = bounded(ctx, func() error {
		var err error
		res, err = c.client.Initialize(opCtx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{
			ProtocolVersion: mcpgo.LATEST_PROTOCOL_VERSION,
			ClientInfo:      mcpgo.Implementation{Name: "toolgate", Version: toolgate.Version},
		}})
		return err
	})
	if err != nil {
		c.close()
		_, rpcErr, _ := initCap.take()
		return nil, classify(ctx, cfg, "", sink, c, rpcErr, err)
	}
	c.legacy = !mcpgo.IsModernProtocol(res.ProtocolVersion)
	return c, nil
}

// cloneHeaders copies the configured headers, so mcp-go never shares the
// config's map.
func cloneHeaders(h map[string]string) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = v
	}
	return out
}

// capture receives the raw JSON-RPC answer to one method, which mcp-go
// would otherwise decode into its own types (losing schema keywords it does
// not model, and failing on content types it does not know).
type capture struct {
	method string
	mu     sync.Mutex
	result json.RawMessage
	rpcErr *mcpgo.JSONRPCErrorDetails
	got    bool
}

// take returns what was captured.
func (c *capture) take() (json.RawMessage, *mcpgo.JSONRPCErrorDetails, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.result, c.rpcErr, c.got
}

// captureTransport is mcp-go's transport with every answer matched to its
// request by id and the raw answers of captured methods kept for the
// caller. It forwards every optional interface the client looks for.
type captureTransport struct {
	inner transport.Interface
	guard *guard
}

// Start starts the inner transport.
func (t *captureTransport) Start(ctx context.Context) error { return t.inner.Start(ctx) }

// SendRequest sends through the inner transport with the request's
// exchange in the context (the id the guard's stream filter waits for; the
// id is pending on the connection meanwhile), refuses an answer that
// carries another id (answers), and keeps the raw answer when ctx asks for
// this method's.
func (t *captureTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	x := newExchange(req.ID)
	t.guard.pending.add(x.key)
	defer t.guard.pending.remove(x.key)
	resp, err := t.inner.SendRequest(withValue(ctx, x), req)
	if err == nil && resp != nil && !answers(resp, x.key) {
		e := t.guard.wrongAnswer(x.shown, resp.ID)
		valueFrom[failureSink](ctx).set(e, true)
		return nil, e
	}
	if err == nil && resp != nil {
		if c := valueFrom[capture](ctx); c != nil && c.method == req.Method {
			c.mu.Lock()
			c.result = append(json.RawMessage(nil), resp.Result...)
			c.rpcErr = resp.Error
			c.got = true
			c.mu.Unlock()
		}
	}
	return resp, err
}

// SendNotification forwards to the inner transport.
func (t *captureTransport) SendNotification(ctx context.Context, n mcpgo.JSONRPCNotification) error {
	return t.inner.SendNotification(ctx, n)
}

// SetNotificationHandler forwards to the inner transport.
func (t *captureTransport) SetNotificationHandler(h func(mcpgo.JSONRPCNotification)) {
	t.inner.SetNotificationHandler(h)
}

// Close closes the inner transport.
func (t *captureTransport) Close() error { return t.inner.Close() }

// GetSessionId returns the inner transport's session.
func (t *captureTransport) GetSessionId() string { return t.inner.GetSessionId() }

// SetProtocolVersion forwards the negotiated version (the
// Mcp-Protocol-Version header) to the inner transport.
func (t *captureTransport) SetProtocolVersion(v string) {
	if h, ok := t.inner.(transport.HTTPConnection); ok {
		h.SetProtocolVersion(v)
	}
}

// SetRequestHandler forwards server-to-client requests' handler.
func (t *captureTransport) SetRequestHandler(h transport.RequestHandler) {
	if b, ok := t.inner.(transport.BidirectionalInterface); ok {
		b.SetRequestHandler(h)
	}
}

// SetConnectionLostHandler forwards the SSE connection-lost handler.
func (t *captureTransport) SetConnectionLostHandler(h func(error)) {
	if s, ok := t.inner.(interface{ SetConnectionLostHandler(func(error)) }); ok {
		s.SetConnectionLostHandler(h)
	}
}

// RequiresLegacyProtocol forwards the inner transport's answer.
func (t *captureTransport) RequiresLegacyProtocol() bool {
	l, ok := t.inner.(interface{ RequiresLegacyProtocol() bool })
	return ok && l.RequiresLegacyProtocol()
}

// classify turns what an MCP operation returned into a typed error that
// names the server, in this order: a *core.Error as it is; a hard failure
// the guard recorded for the operation's latest request (policy, cap,
// redirect, Content-Type, timeout, network); the operation's deadline
// (timeout) or the caller's cancellation; a JSON-RPC error the server
// answered; a failure of the SSE stream; mcp-go's known errors (legacy
// SSE-only server, ended session, 401); an HTTP error status; anything else
// as transport. tool, when not "", is the
// error's Tool (a proxy call); otherwise the server's name is.
func classify(ctx context.Context, cfg *ServerConfig, tool string, sink *failureSink, c *conn, rpcErr *mcpgo.JSONRPCErrorDetails, err error) *core.Error {
	e := *classifyServer(ctx, cfg, sink, c, rpcErr, err) // a copy: sinks share their errors
	if tool != "" {
		e.Tool = tool
	}
	return &e
}

func classifyServer(ctx context.Context, cfg *ServerConfig, sink *failureSink, c *conn, rpcErr *mcpgo.JSONRPCErrorDetails, err error) *core.Error {
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code != core.CodeInternal {
		return ce
	}
	if e, hard := sink.get(); e != nil && hard {
		return e
	}
	if dl, ok := ctx.Deadline(); ok && ctx.Err() == nil && !time.Now().Before(dl) {
		<-ctx.Done() // mcp-go's own timer fired at the deadline, a moment before ctx
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		cause := context.Cause(ctx)
		if errors.As(cause, &ce) {
			return ce
		}
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			e := serverError(core.CodeTimeout, cfg.Name, cfg, "the deadline passed before the server answered")
			e.Cause = ctxErr
			return e
		}
		e := serverError(core.CodeTransport, cfg.Name, cfg, "the request was cancelled")
		e.Cause = ctxErr
		return e
	}
	if rpcErr != nil {
		return rpcError(cfg, rpcErr.Code, rpcErr.Message)
	}
	if c != nil {
		if e, hard := c.guard.conn.get(); e != nil && (hard || c.dead.Load()) {
			return e
		}
	}
	var authErr *transport.AuthorizationRequiredError
	switch {
	case errors.Is(err, transport.ErrLegacySSEServer):
		return serverError(core.CodeTransport, cfg.Name, cfg,
			"the server refused the Streamable HTTP handshake with an HTTP 4xx; it may speak only the legacy SSE transport (transport: %q)", TransportSSE)
	case errors.Is(err, transport.ErrSessionTerminated):
		return serverError(core.CodeTransport, cfg.Name, cfg, "the server ended the session (HTTP 404)")
	case errors.As(err, &authErr):
		return serverError(core.CodeTransport, cfg.Name, cfg, "the server asks for authorization (HTTP 401)")
	}
	if e, _ := sink.get(); e != nil {
		return e
	}
	if err == nil {
		return serverError(core.CodeTransport, cfg.Name, cfg, "the server gave no answer")
	}
	e := serverError(core.CodeTransport, cfg.Name, cfg, "%s", describeNetError(cfg, err))
	return e
}

// rpcError is the transport error of a JSON-RPC error answer.
func rpcError(cfg *ServerConfig, code int, message string) *core.Error {
	return serverError(core.CodeTransport, cfg.Name, cfg, "JSON-RPC error %d: %s", code, cfg.quote(message, 300))
}
