package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// URLElicitationRequiredError (-32042, MCP 2025-11-25 only): a server may
// refuse a request until the user has opened one or more URLs, listing them
// as URL-mode elicitations in the error's data. The spec lets the client
// ask the user, wait for each elicitation's notifications/elicitation/
// complete, and retry the request. toolgate asks with the registration's
// ElicitationURL hook: every URL is checked first (none is shown to the hook
// when one is refused), each is put to the hook in the server's order; once
// all are accepted the request is sent again at once (a hook may resolve
// when the user is done, and many servers send no notification). Refused
// -32042 again, it waits for the completion notifications of the
// elicitations the user accepted (at most TimeoutMs) and, when all came,
// sends it a last time. So at most two retries, and one wait. The 2026-07-28 revision asks for URLs in input rounds instead
// (mrtr.go), so this error never comes from a modern server.

// rpcURLElicitationRequired is URLElicitationRequiredError's code.
const rpcURLElicitationRequired = -32042

// urlElicitationRequired answers a -32042 error err (rpcErr as the server
// sent it) to method with params: it fails with a typed error naming the
// elicitations' origins (never a URL's path or query) when the data is
// malformed, when the registration has no ElicitationURL hook
// (unsupported, rule url-elicitation-required), when a URL is refused
// (policy-denied, the URL check's rule), when the hook fails (transport) or
// declines or cancels one (policy-denied, rule elicitation-declined), and
// when the retries are refused -32042 again (transport, rule
// url-elicitation-required); otherwise it returns what a retry returns.
func (p *Pool) urlElicitationRequired(ctx context.Context, e *entry, c *conn, tool, method string, params any, rpcErr *jsonrpcErrorObj, err error) (json.RawMessage, error) {
	g, cfg := c.guard, e.cfg
	fail := func(code core.Code, rule, format string, args ...any) error {
		out := serverError(code, cfg.Name, cfg, format, args...)
		out.Rule = rule
		if tool != "" {
			out.Tool = tool
		}
		var ce *core.Error
		if errors.As(err, &ce) && ce.Transport != nil {
			t := *ce.Transport
			t.RPCMessage = "" // the server's words may quote a URL
			out.Transport = &t
		}
		return out
	}
	list, why := requiredElicitations(rpcErr.Data, g.sec)
	if why != "" {
		return nil, fail(core.CodeTransport, RuleURLElicitationRequired,
			"%s answered URLElicitationRequiredError (-32042) with malformed data: %s", method, why)
	}
	origins := make([]string, len(list))
	for i, el := range list {
		origins[i] = urlOrigin(el.p.URL)
	}
	at := strings.Join(origins, ", ")
	if g.asks.hooks == nil || g.asks.hooks.ElicitationURL == nil {
		return nil, fail(core.CodeUnsupported, RuleURLElicitationRequired,
			"%s needs the user to open %d URL(s) first (at %s); give the elicitationUrl hook to be asked, then call again",
			method, len(list), at)
	}
	for _, el := range list {
		if el.refusal != nil {
			out := serverError(core.CodePolicyDenied, cfg.Name, cfg, "%s asks the user to open a URL toolgate refuses: %s", method, el.refusal.Message)
			out.Rule = el.refusal.Rule
			return nil, out
		}
	}
	waits := make([]<-chan struct{}, len(list))
	for i, el := range list {
		waits[i] = g.asks.pending.expect(*el.p.ElicitationID)
	}
	forgetAll := func() {
		for _, el := range list {
			g.asks.pending.forget(*el.p.ElicitationID)
		}
	}
	for i, el := range list {
		result, f := g.askURL(ctx, el.raw)
		if f != nil {
			forgetAll()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fail(core.CodeTransport, RuleURLElicitationRequired, "%s needs the user to open %s: %s", method, origins[i], f.msg)
		}
		if !accepted(result) {
			forgetAll()
			return nil, fail(core.CodePolicyDenied, string(RuleElicitationDeclined),
				"%s needs the user to open %s, and the elicitationUrl hook did not accept", method, origins[i])
		}
	}
	// accepted ids stay expected after a return: a late completion still reaches the hook
	raw, rpc2, err2 := p.requestRPC(ctx, e, c, tool, method, params)
	if err2 == nil || rpc2 == nil || rpc2.Code != rpcURLElicitationRequired {
		return raw, err2
	}
	if awaitCompletions(ctx, waits, e.timeout) {
		raw, rpc2, err2 = p.requestRPC(ctx, e, c, tool, method, params)
		if err2 == nil || rpc2 == nil || rpc2.Code != rpcURLElicitationRequired {
			return raw, err2
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, fail(core.CodeTransport, RuleURLElicitationRequired,
		"%s still needs URLs opened (at %s) after the user accepted them; call again once they are done", method, at)
}

// requiredElicitation is one elicitation of a -32042 error: its JSON as
// sent, its params, and the URL check's refusal (nil: allowed).
type requiredElicitation struct {
	raw     json.RawMessage
	p       *urlElicitation
	refusal *core.Error
}

// requiredElicitations reads a -32042 error's data.elicitations: a
// non-empty array of at most maxInputRequests URL-mode elicitations, each
// with an elicitationId. It returns why the data is malformed ("" when it
// is not); a URL the check refuses is reported on its entry.
func requiredElicitations(data json.RawMessage, sec *Security) ([]requiredElicitation, string) {
	var d struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if jsontext.Kind(data) != jsontext.Object || json.Unmarshal(data, &d) != nil || len(d.Elicitations) == 0 {
		return nil, "data.elicitations must be a non-empty array"
	}
	if len(d.Elicitations) > maxInputRequests {
		return nil, fmt.Sprintf("more than %d elicitations", maxInputRequests)
	}
	out := make([]requiredElicitation, len(d.Elicitations))
	for i, raw := range d.Elicitations {
		if !isURLMode(raw) {
			return nil, fmt.Sprintf(`elicitations[%d] is not a URL-mode elicitation (mode "url")`, i)
		}
		p, f := readURLElicitation(raw, sec)
		switch {
		case f != nil && f.refusal == nil:
			return nil, fmt.Sprintf("elicitations[%d]: %s", i, f.msg)
		case f != nil:
			var q urlElicitation
			_ = json.Unmarshal(raw, &q) // read by readURLElicitation already
			p = &q
		}
		if p.ElicitationID == nil || *p.ElicitationID == "" || len(*p.ElicitationID) > maxElicitationIDBytes {
			return nil, fmt.Sprintf("elicitations[%d].elicitationId must be a string of 1 to %d bytes", i, maxElicitationIDBytes)
		}
		out[i] = requiredElicitation{raw: raw, p: p}
		if f != nil {
			out[i].refusal = f.refusal
		}
	}
	return out, ""
}

// askURL puts one checked URL elicitation to the ElicitationURL hook,
// holding one of the connection's hook slots, bounded by TimeoutMs; the
// answer is urlElicitationAnswer's.
func (g *guard) askURL(ctx context.Context, params json.RawMessage) (json.RawMessage, *rpcFailure) {
	select {
	case g.asks.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, &rpcFailure{code: rpcInternal, msg: "the call ended"}
	}
	defer func() { <-g.asks.slots }()
	g.stats.serverRequestsAnswered.Add(1)
	hctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	raw, f := callHook(hctx, g.asks.hooks.ElicitationURL, "elicitationUrl", params)
	if f != nil {
		return nil, f
	}
	return urlElicitationAnswer(raw)
}

// awaitCompletions waits until every channel of waits is closed (their
// completion notifications came: true), ctx ends, or timeout passes.
func awaitCompletions(ctx context.Context, waits []<-chan struct{}, timeout time.Duration) bool {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for _, w := range waits {
		select {
		case <-w:
		case <-ctx.Done():
			return false
		case <-t.C:
			return false
		}
	}
	return true
}
