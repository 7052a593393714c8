package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// Multi round-trip requests (docs/mcp-eras.md, "Input from the client"):
// on the 2026-07-28 wire a server that needs input (an elicitation, a
// sampling, the roots) answers tools/call, resources/read or prompts/get
// with resultType "input_required", its inputRequests and an opaque
// requestState. The client answers each input request with the hook the
// registration gave for it — the same elicitation, sampling and roots hooks
// that answer a legacy server's own requests — and sends the original
// request again, under a new id, with inputResponses and requestState
// echoed as sent; the server may ask again, up to maxInputRounds rounds.

// maxInputRounds bounds the input_required rounds of one request.
var maxInputRounds = 8

// maxInputRequests bounds the input requests of one round.
const maxInputRequests = 16

// inputMethods are the requests that may be answered input_required.
var inputMethods = map[string]bool{"tools/call": true, "resources/read": true, "prompts/get": true}

// inputRequired is one input_required result: its requests, in the
// server's order, and its requestState as sent (nil when absent).
type inputRequired struct {
	requests []jsontext.Member
	state    json.RawMessage
}

// fulfil returns the complete result of a modern request of method whose
// first answer is raw: raw itself when its resultType is "complete"
// (absent counts as complete); for "input_required", the result of the
// rounds that answer its inputs and send the request again. It fails with
// transport, naming the server: an unknown resultType, input_required for
// a method that may not ask for input, a malformed input_required result,
// an input the registration has no hook for, a hook that failed, more than
// maxInputRounds rounds; and with whatever a retry fails with.
func (p *Pool) fulfil(ctx context.Context, e *entry, c *conn, tool, method string, params any, raw json.RawMessage) (json.RawMessage, error) {
	cfg := e.cfg
	var base []byte // the original params, encoded at the first input round
	for round := 1; ; round++ {
		switch rt := resultType(raw); rt {
		case "complete":
			return raw, nil
		case "input_required":
		case "task":
			if method == "tools/call" {
				return raw, nil // a task handle: the proxy drives it (task.go)
			}
			return nil, serverError(core.CodeTransport, cfg.Name, cfg, "%s answered with a task, which only tools/call may", method)
		default:
			return nil, serverError(core.CodeTransport, cfg.Name, cfg,
				"%s answered with resultType %s, which toolgate does not know", method, cfg.quote(rt, 40))
		}
		if !inputMethods[method] {
			return nil, serverError(core.CodeTransport, cfg.Name, cfg, "%s answered input_required, which only tools/call, resources/read and prompts/get may", method)
		}
		if round > maxInputRounds {
			return nil, serverError(core.CodeTransport, cfg.Name, cfg,
				"%s still asks for input after %d rounds; giving up", method, maxInputRounds)
		}
		ir, err := parseInputRequired(cfg, method, raw)
		if err != nil {
			return nil, err
		}
		answers, err := c.guard.answerInputs(ctx, method, ir.requests)
		if err != nil {
			return nil, err
		}
		if base == nil {
			if base, err = json.Marshal(params); err != nil || jsontext.Kind(base) != jsontext.Object {
				base = []byte("{}")
			}
		}
		retry := base
		if answers != nil {
			retry, _ = jsontext.Replace(retry, "inputResponses", answers)
		}
		if ir.state != nil {
			retry, _ = jsontext.Replace(retry, "requestState", ir.state)
		}
		if raw, err = p.request1(ctx, e, c, tool, method, json.RawMessage(retry)); err != nil {
			return nil, err
		}
	}
}

// parseInputRequired reads an input_required result: inputRequests an
// object (at most maxInputRequests members, each an object), requestState a
// string, at least one of the two present.
func parseInputRequired(cfg *ServerConfig, method string, raw json.RawMessage) (*inputRequired, error) {
	bad := func(why string) error {
		return serverError(core.CodeTransport, cfg.Name, cfg, "malformed input_required answer to %s: %s", method, why)
	}
	fields, _ := jsontext.Members(raw)
	ir := &inputRequired{}
	if v, ok := fields["inputRequests"]; ok {
		ms, ok := jsontext.Split(v)
		if !ok || jsontext.Kind(v) != jsontext.Object {
			return nil, bad(`"inputRequests" is not an object`)
		}
		if len(ms) > maxInputRequests {
			return nil, bad(fmt.Sprintf("more than %d input requests in one round", maxInputRequests))
		}
		for _, m := range ms {
			if jsontext.Kind(m.Value) != jsontext.Object {
				return nil, bad(fmt.Sprintf("input request %s is not an object", cfg.quote(m.Key, 60)))
			}
		}
		ir.requests = ms
	}
	if v, ok := fields["requestState"]; ok {
		if jsontext.Kind(v) != jsontext.String {
			return nil, bad(`"requestState" is not a string`)
		}
		ir.state = v
	}
	if ir.requests == nil && ir.state == nil {
		return nil, bad("neither inputRequests nor requestState")
	}
	return ir, nil
}

// answerInputs answers one round's input requests, one after the other in
// the server's order (a person may be asked: never two prompts at once),
// each by the registration's hook for its method (holding one of the
// connection's hook slots), and returns the inputResponses object (nil for
// no requests). A request for a method no hook serves, a hook that fails or
// returns what its method may not answer, ends the round with an error.
func (g *guard) answerInputs(ctx context.Context, method string, reqs []jsontext.Member) (json.RawMessage, error) {
	if reqs == nil {
		return nil, nil
	}
	answers := make([]jsontext.Member, 0, len(reqs))
	for _, m := range reqs {
		result, err := g.answerInput(ctx, method, m)
		if err != nil {
			return nil, err
		}
		answers = append(answers, jsontext.Member{Key: m.Key, Value: result})
	}
	return jsontext.WriteObject(answers), nil
}

// answerInput answers one input request {method, params} with its hook.
func (g *guard) answerInput(ctx context.Context, method string, m jsontext.Member) (json.RawMessage, error) {
	var req struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	key := g.cfg.quote(m.Key, 60)
	if json.Unmarshal(m.Value, &req) != nil || req.Method == "" {
		return nil, g.wrap(core.CodeTransport, fmt.Sprintf("input request %s of %s has no method", key, method))
	}
	hook, kind := g.asks.hooks.forMethod(req.Method)
	if hook == nil {
		return nil, g.wrap(core.CodeTransport, fmt.Sprintf(
			"%s asks for %s input (request %s), which this registration does not offer: give the %s hook",
			method, g.cfg.quote(req.Method, 60), key, hookOption(req.Method)))
	}
	if hook.static != nil {
		return hook.static, nil
	}
	select {
	case g.asks.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-g.asks.slots }()
	g.stats.serverRequestsAnswered.Add(1)
	hctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	answer := runHook(hctx, hook, kind, &jsonrpcMessage{ID: jsontext.AppendString(nil, m.Key), Method: req.Method, Params: req.Params})
	if answer.Error != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, g.wrap(core.CodeTransport, fmt.Sprintf("input request %s of %s: %s", key, method, g.cfg.cut(answer.Error.Message, 300)))
	}
	return answer.Result, nil
}

// hookOption names the registration option that answers method.
func hookOption(method string) string {
	switch method {
	case "roots/list":
		return "roots"
	case "sampling/createMessage":
		return "sampling"
	case "elicitation/create":
		return "elicitation"
	}
	return "matching"
}
