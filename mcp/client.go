package mcp

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
)

// conn is one live MCP session over our guard.
type conn struct {
	sess  *session
	guard *guard

	dead         atomic.Bool // the connection was lost or the session ended
	sessionEnded atomic.Bool // the server answered 404 for the session: it ran nothing
	closeMu      sync.Once

	toolsListChanged atomic.Bool      // the server declared capabilities.tools.listChanged
	stream           standaloneStream // getstream.go; on the modern wire, subscriptions/listen (listen.go)

	taskCaps taskCaps // what a 2025-11-25 server declared of tasks (task_legacy.go)

	eraCached bool        // the era came from the pool's cache, not a probe of this connection
	staleEra  atomic.Bool // a request's answer says the cached era is wrong: run connects again
}

// close ends the session and the guard once.
func (c *conn) close() {
	c.closeMu.Do(func() {
		c.sess.close(c.guard.timeout)
		c.guard.close()
	})
}

// connect starts a session for the pool entry e (its config under its
// policy, defaults applied) and runs the MCP handshake under ctx, which it
// keeps (bounded). The guard counts into the pool's Stats. The error is
// typed (classify) and names the server.
func connect(ctx context.Context, p *Pool, e *entry) (*conn, error) {
	cfg, sec := e.cfg, e.sec
	g := newGuard(cfg, sec, p.base)
	g.stats = &p.stats
	c := &conn{guard: g, sess: newSession(cfg, g)}
	c.sess.auth = e.auth
	p.hookListChanged(e, c)
	onLost := func(err error) {
		// The SSE stream ended: requests waiting for an answer on it fail
		// now; the next operation connects again.
		g.conn.set(serverError(core.CodeTransport, cfg.Name, cfg, "the SSE stream ended: %s", describeNetError(cfg, err)), false)
		c.dead.Store(true)
		go c.close()
	}
	sink := &failureSink{}
	opCtx := withValue(ctx, sink)
	var got answerOf
	err := bounded(ctx, func() error {
		modern, discover, err := p.chooseEra(opCtx, c, e)
		if err != nil {
			return err
		}
		if modern {
			c.sess.setModern()
			got.set(discover, nil)
			return nil
		}
		if err := c.sess.start(opCtx, onLost); err != nil {
			return err
		}
		raw, rpcErr, err := c.sess.initialize(opCtx)
		if c.eraCached && legacyRefused(err, rpcErr) {
			p.eras.forget(originOf(cfg.URL)) // the server changed era: probe it now
			return errStaleEra
		}
		got.set(raw, rpcErr)
		return err
	})
	if errors.Is(err, errStaleEra) {
		c.close()
		return connect(ctx, p, e)
	}
	raw, rpcErr := got.get()
	if err == nil && rpcErr != nil {
		err = errNoAnswer
	}
	if err != nil {
		c.close()
		return nil, classify(ctx, cfg, "", sink, c, rpcErr, err)
	}
	c.toolsListChanged.Store(toolsListChanged(raw))
	c.taskCaps = serverTaskCaps(raw) // task_legacy.go
	p.connected(e, c)
	return c, nil
}

// cloneHeaders copies the configured headers, so the session never shares
// the config's map.
func cloneHeaders(h map[string]string) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		out[k] = v
	}
	return out
}

// classify turns what an MCP operation returned into a typed error that
// names the server, in this order: a *core.Error as it is; a hard failure
// the guard recorded for the operation's latest request (policy, cap,
// redirect, Content-Type, timeout, network); the operation's deadline
// (timeout) or the caller's cancellation; a JSON-RPC error the server
// answered; a failure of the SSE stream; the session layer's known errors (ended
// session, a stream that ended); an HTTP error status; anything else
// as transport. tool, when not "", is the
// error's Tool (a proxy call); otherwise the server's name is.
func classify(ctx context.Context, cfg *ServerConfig, tool string, sink *failureSink, c *conn, rpcErr *jsonrpcErrorObj, err error) *core.Error {
	e := *classifyServer(ctx, cfg, sink, c, rpcErr, err) // a copy: sinks share their errors
	if tool != "" {
		e.Tool = tool
	}
	return &e
}

func classifyServer(ctx context.Context, cfg *ServerConfig, sink *failureSink, c *conn, rpcErr *jsonrpcErrorObj, err error) *core.Error {
	var ce *core.Error
	if errors.As(err, &ce) && ce.Code != core.CodeInternal {
		return ce
	}
	if e, hard := sink.get(); e != nil && hard {
		return e
	}
	if dl, ok := ctx.Deadline(); ok && ctx.Err() == nil && !time.Now().Before(dl) {
		<-ctx.Done() // a timer of the same deadline fired a moment before ctx's
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		cause := context.Cause(ctx)
		if lt, ok := cause.(*lazyTimeout); ok {
			cause = lt.coreError()
		}
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
		return rpcError(cfg, rpcErr)
	}
	if c != nil {
		if e, hard := c.guard.conn.get(); e != nil && (hard || c.dead.Load()) {
			return e
		}
	}
	switch {
	case errors.Is(err, errSessionEnded):
		e := serverError(core.CodeTransport, cfg.Name, cfg, "%s", err.Error())
		e.Transport = &core.TransportDetail{HTTPStatus: wire.StatusNotFound}
		return e
	case errors.Is(err, errStreamEnded),
		errors.Is(err, errAcceptedNoAnswer), errors.Is(err, errEndpointMissing):
		return serverError(core.CodeTransport, cfg.Name, cfg, "%s", err.Error())
	}
	if e, _ := sink.get(); e != nil {
		return e
	}
	if errors.Is(err, errNoAnswer) {
		return serverError(core.CodeTransport, cfg.Name, cfg, "%s", err.Error())
	}
	if err == nil {
		return serverError(core.CodeTransport, cfg.Name, cfg, "the server gave no answer")
	}
	e := serverError(core.CodeTransport, cfg.Name, cfg, "%s", describeNetError(cfg, err))
	return e
}

// rpcError is the transport error of a JSON-RPC error answer, its code
// and message (redacted, cut) also in Transport; for one of
// the 2026-07-28 revision's codes the message says what it means
// (modernErrorText).
func rpcError(cfg *ServerConfig, rpc *jsonrpcErrorObj) *core.Error {
	e := serverError(core.CodeTransport, cfg.Name, cfg, "JSON-RPC error %d: %s%s", rpc.Code, cfg.quote(rpc.Message, 300), modernErrorText(cfg, rpc))
	withRPC(e, cfg, rpc.Code, rpc.Message)
	return e
}
