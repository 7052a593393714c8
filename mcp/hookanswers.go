package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// maxHooksInFlight bounds the hook calls of one connection at once: a
// server request for a hook beyond it is answered -32603 at once (under
// the answer limiter) instead of waiting.
var maxHooksInFlight = 4

// JSON-RPC error codes of hook answers.
const (
	rpcInvalidParams = -32602 // the request or the hook's answer breaks the protocol's shape
	rpcInternal      = -32603 // the hook failed, timed out, or too many are running
)

// serverAsks is a guard's state of the server's requests: the hooks that
// answer them, the hook calls in flight (at most maxHooksInFlight), and the
// other answers queued for the connection's one sender.
type serverAsks struct {
	hooks   *ClientHooks
	calls   hookCalls
	slots   chan struct{}
	answers chan queuedAnswer
	sender  sync.Once
	pending pendingElicitations // accepted URL elicitations awaiting completion (elicitation_url.go)
}

// newServerAsks returns the state of a connection answering with hooks.
func newServerAsks(hooks *ClientHooks) *serverAsks {
	return &serverAsks{
		hooks:   hooks,
		slots:   make(chan struct{}, maxHooksInFlight),
		answers: make(chan queuedAnswer, max(serverRequestBurst, 1)),
	}
}

// rpcFailure is a JSON-RPC error answer in the making.
type rpcFailure struct {
	code int
	msg  string
	// refusal, when set, is the typed error a call fails with when the
	// failure ends an input round of its own (mrtr.go): a URL the URL check
	// refused is policy-denied naming the rule, not a transport error.
	refusal *core.Error
}

// Error is the failure's message.
func (f *rpcFailure) Error() string { return f.msg }

// invalidParams is a -32602 failure.
func invalidParams(format string, args ...any) *rpcFailure {
	return &rpcFailure{code: rpcInvalidParams, msg: fmt.Sprintf(format, args...)}
}

// hookRequest runs hook for req in a goroutine of its own, holding one of
// the connection's maxHooksInFlight slots until its answer is POSTed: a
// slow hook holds no answer limiter, so pings go on being answered, and a
// tools/call waiting for the hook's answer is not blocked by the stream
// reader (which goes on reading). The hook's context ends with the
// connection, at TimeoutMs, or when the server cancels the request
// (hookcancel.go: then nothing is answered).
func (g *guard) hookRequest(to *postTarget, req *jsonrpcMessage, hook *Hook, kind string) {
	select {
	case g.asks.slots <- struct{}{}:
	default:
		g.answerNow(to, errorAnswer(req.ID, &rpcFailure{code: rpcInternal,
			msg: fmt.Sprintf("too many requests for the client's hooks at once (at most %d per connection)", cap(g.asks.slots))}))
		return
	}
	g.stats.serverRequestsAnswered.Add(1)
	call, forget := g.asks.calls.start(g.life, idKey(req.ID), relatedTask(req.Params))
	go func() {
		defer func() { <-g.asks.slots }()
		defer forget()
		ctx, cancel := context.WithTimeout(call, g.timeout)
		answer := g.runHook(ctx, hook, kind, req)
		cancel()
		if cause := context.Cause(call); cause == errServerCancelled || cause == errTaskEnded {
			return // MCP: no answer to a request its sender cancelled, nor for a task given up
		}
		body, _ := json.Marshal(answer) // ids, strings and raw JSON always marshal
		pctx, pcancel := context.WithCancel(g.life)
		defer pcancel()
		g.postAnswer(pctx, to, body)
	}()
}

// errorAnswer is the JSON-RPC error answer to the request id.
func errorAnswer(id json.RawMessage, f *rpcFailure) jsonrpcMessage {
	return jsonrpcMessage{JSONRPC: "2.0", ID: id, Error: &jsonrpcErrorObj{Code: f.code, Message: f.msg}}
}

// runHook is the answer to req by hook: its result, checked (and for an
// elicitation completed with the schema's defaults), or a JSON-RPC error
// that names the hook and what was wrong, never what the hook's error said.
func (g *guard) runHook(ctx context.Context, hook *Hook, kind string, req *jsonrpcMessage) jsonrpcMessage {
	result, f := g.answerHook(ctx, hook, kind, req)
	if f != nil {
		return errorAnswer(req.ID, f)
	}
	return jsonrpcMessage{JSONRPC: "2.0", ID: req.ID, Result: result}
}

// answerHook is runHook's result or failure. An elicitation/create in URL
// mode goes to the ElicitationURL hook (elicitation_url.go), whatever hook
// forMethod found; a sampling request's tools are checked against
// SamplingTools (samplingtools.go).
func (g *guard) answerHook(ctx context.Context, hook *Hook, kind string, req *jsonrpcMessage) (json.RawMessage, *rpcFailure) {
	params := req.Params
	if len(params) == 0 {
		params = json.RawMessage("null")
	}
	var schema json.RawMessage
	var offer *samplingOffer
	switch kind {
	case "elicitation":
		if isURLMode(params) {
			return g.answerURLElicitation(ctx, params)
		}
		if g.asks.hooks.Elicitation == nil {
			return nil, invalidParams("Client does not support form-mode elicitation requests (the registration gives elicitationUrl only)")
		}
		hook = g.asks.hooks.Elicitation
		var f *rpcFailure
		if schema, f = elicitationSchema(params); f != nil {
			return nil, f
		}
	case "sampling":
		var f *rpcFailure
		if offer, f = samplingRequest(params, g.asks.hooks.SamplingTools); f != nil {
			return nil, f
		}
	}
	raw, f := callHook(ctx, hook, kind, params)
	if f != nil {
		return nil, f
	}
	switch kind {
	case "roots":
		return rootsAnswer(raw)
	case "sampling":
		return samplingAnswer(raw, offer)
	default:
		return elicitationAnswer(raw, schema)
	}
}

// callHook runs hook on params: its raw answer, or a -32603 failure naming
// the hook (kind) and whether it failed or ran out of time.
func callHook(ctx context.Context, hook *Hook, kind string, params json.RawMessage) (json.RawMessage, *rpcFailure) {
	raw, err := hook.Func(ctx, params)
	if err != nil {
		msg := fmt.Sprintf("the client's %s hook failed", kind)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			msg = fmt.Sprintf("the client's %s hook did not answer in time", kind)
		}
		return nil, &rpcFailure{code: rpcInternal, msg: msg}
	}
	return raw, nil
}

// rootsAnswer is roots/list's result of what the roots hook returned: an
// array of {uri, name?} with file:// URIs, answered as {"roots": [...]}.
func rootsAnswer(raw json.RawMessage) (json.RawMessage, *rpcFailure) {
	var roots []Root
	if jsontext.Kind(raw) != jsontext.Array || json.Unmarshal(raw, &roots) != nil {
		return nil, invalidParams("the client's roots hook returned %s, not an array of {uri, name?}", jsontext.Kind(raw))
	}
	if msg := checkRoots(roots); msg != "" {
		return nil, invalidParams("the client's roots hook returned a bad root: %s", msg)
	}
	b, _ := json.Marshal(struct {
		Roots []Root `json:"roots"`
	}{append([]Root{}, roots...)}) // strings only
	return b, nil
}
