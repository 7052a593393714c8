package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

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
		answer := runHook(ctx, hook, kind, req)
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
func runHook(ctx context.Context, hook *Hook, kind string, req *jsonrpcMessage) jsonrpcMessage {
	params := req.Params
	if len(params) == 0 {
		params = json.RawMessage("null")
	}
	var schema json.RawMessage
	if kind == "elicitation" {
		var f *rpcFailure
		if schema, f = elicitationSchema(params); f != nil {
			return errorAnswer(req.ID, f)
		}
	}
	raw, err := hook.Func(ctx, params)
	if err != nil {
		msg := fmt.Sprintf("the client's %s hook failed", kind)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			msg = fmt.Sprintf("the client's %s hook did not answer in time", kind)
		}
		return errorAnswer(req.ID, &rpcFailure{code: rpcInternal, msg: msg})
	}
	var result json.RawMessage
	var f *rpcFailure
	switch kind {
	case "roots":
		result, f = rootsAnswer(raw)
	case "sampling":
		result, f = samplingAnswer(raw)
	default:
		result, f = elicitationAnswer(raw, schema)
	}
	if f != nil {
		return errorAnswer(req.ID, f)
	}
	return jsonrpcMessage{JSONRPC: "2.0", ID: req.ID, Result: result}
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

// samplingAnswer checks the sampling hook's CreateMessageResult: an object
// with a string model, role "user" or "assistant", and content an object
// with a string type (or an array of such). It is sent as the hook gave it.
func samplingAnswer(raw json.RawMessage) (json.RawMessage, *rpcFailure) {
	var r struct {
		Model   *string         `json:"model"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &r) != nil {
		return nil, invalidParams("invalid sampling result: the client's hook returned %s, not {role, content, model}", jsontext.Kind(raw))
	}
	switch {
	case r.Model == nil:
		return nil, invalidParams("invalid sampling result: model must be a string")
	case r.Role != "user" && r.Role != "assistant":
		return nil, invalidParams(`invalid sampling result: role must be "user" or "assistant"`)
	case !contentBlocks(r.Content):
		return nil, invalidParams("invalid sampling result: content must be a content block {type, ...} or an array of them")
	}
	return raw, nil
}

// contentBlocks reports whether raw is an object with a string "type", or a
// non-empty array of them.
func contentBlocks(raw json.RawMessage) bool {
	var one struct {
		Type *string `json:"type"`
	}
	switch jsontext.Kind(raw) {
	case jsontext.Object:
		return json.Unmarshal(raw, &one) == nil && one.Type != nil
	case jsontext.Array:
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
			return false
		}
		for _, item := range list {
			if !contentBlocks(item) || jsontext.Kind(item) != jsontext.Object {
				return false
			}
		}
		return true
	}
	return false
}
