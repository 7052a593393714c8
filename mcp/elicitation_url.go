package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// URL-mode elicitation (MCP 2025-11-25 and 2026-07-28, client/elicitation):
// a server asks the client to have the user open a URL (a third-party
// authorization, a payment, a secret typed into the server's own page). The
// URL is the server's, so untrusted: it must pass elicitationURLCheck before
// the ElicitationURL hook sees it, and it is never written into an error or a
// record (an error names its origin only). The answer is {action} without
// content. On the 2025-11-25 wire an accepted elicitation's id is remembered
// (at most maxPendingElicitations per connection) until the server's
// notifications/elicitation/complete names it; the 2026-07-28 revision has
// neither the id nor the notification.

// maxPendingElicitations bounds the accepted URL elicitations a connection
// remembers while it waits for their completion notifications; the oldest
// is forgotten first.
const maxPendingElicitations = 64

// maxElicitationIDBytes bounds an elicitationId.
const maxElicitationIDBytes = 256

// Rules of URL-mode elicitation, beside the URL rules of the URL check.
const (
	// RuleElicitationURL refuses a URL-mode elicitation's URL that is not a
	// web page a person may safely be sent to: a scheme other than https
	// (javascript:, data:, file:, ws…; http only to a loopback host under
	// allowLoopbackHttp). The URL check's own rules (userinfo, ip-forbidden,
	// characters, …) refuse the rest.
	RuleElicitationURL Rule = "elicitation-url"
	// RuleElicitationDeclined: the ElicitationURL hook declined or
	// cancelled an elicitation a tools/call needed (-32042).
	RuleElicitationDeclined Rule = "elicitation-declined"
)

// RuleURLElicitationRequired is the rule of a tools/call the server refused
// until the user opens URLs (-32042) when the registration has no
// ElicitationURL hook, or after the retries.
const RuleURLElicitationRequired = "url-elicitation-required"

// urlElicitation is a URL-mode elicitation/create's params.
type urlElicitation struct {
	Mode          string  `json:"mode"`
	URL           string  `json:"url"`
	Message       string  `json:"message"`
	ElicitationID *string `json:"elicitationId"`
}

// isURLMode reports whether elicitation params ask for URL mode.
func isURLMode(params json.RawMessage) bool {
	m, ok := jsontext.Lookup(params, "mode")
	return ok && string(m) == `"url"`
}

// readURLElicitation decodes and checks URL-mode params: url and message
// strings, elicitationId (when present) a non-empty string of at most
// maxElicitationIDBytes, and the URL allowed by elicitationURLCheck under
// sec. A failure is -32602, with refusal a policy-denied error for a URL
// the check refused.
func readURLElicitation(params json.RawMessage, sec *Security) (*urlElicitation, *rpcFailure) {
	var p urlElicitation
	if jsontext.Kind(params) != jsontext.Object || json.Unmarshal(params, &p) != nil {
		return nil, invalidParams("invalid URL-mode elicitation request: url, message and elicitationId must be strings")
	}
	switch {
	case p.URL == "":
		return nil, invalidParams("invalid URL-mode elicitation request: url must be a non-empty string")
	case p.ElicitationID != nil && (*p.ElicitationID == "" || len(*p.ElicitationID) > maxElicitationIDBytes):
		return nil, invalidParams("invalid URL-mode elicitation request: elicitationId must be a string of 1 to %d bytes", maxElicitationIDBytes)
	}
	if refusal := elicitationURLCheck(p.URL, sec); refusal != nil {
		return nil, &rpcFailure{code: rpcInvalidParams, msg: "URL-mode elicitation refused: " + refusal.Message, refusal: refusal}
	}
	return &p, nil
}

// elicitationURLCheck decides whether a person may be sent to raw: the URL
// check of MCP URLs (no userinfo, no bytes browsers rewrite, no forbidden or
// unlisted IP literal, no parser disagreement) without the registration's
// allowlist — the page is often another host's, a third party's — and with
// https only, or http to a loopback host when sec allows loopback http.
// nil, or policy-denied with the rule, the URL shown without its query,
// fragment or userinfo.
func elicitationURLCheck(raw string, sec *Security) *core.Error {
	scheme, _, _ := strings.Cut(raw, ":")
	switch strings.ToLower(scheme) {
	case "https", "http":
	default:
		return &core.Error{Code: core.CodePolicyDenied, Rule: string(RuleElicitationURL),
			Message: fmt.Sprintf("URL refused by rule %q: a URL-mode elicitation's URL must be https (http only to a loopback host under allowLoopbackHttp), not %s", RuleElicitationURL,
				strconv.QuoteToASCII(truncate(strings.ToLower(scheme), 20)+":"))}
	}
	open := &Security{AllowURLs: true}
	if sec != nil {
		open.AllowLoopbackHTTP = sec.AllowLoopbackHTTP
	}
	return checkURLError(raw, open)
}

// urlOrigin is raw's scheme://host[:port] only, for messages: never its
// path, query, fragment or userinfo.
func urlOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(no origin)"
	}
	return u.Scheme + "://" + u.Host
}

// answerURLElicitation answers a URL-mode elicitation/create (a legacy
// server's request, or an input request of a 2026-07-28 round) with the
// ElicitationURL hook: the params checked first (readURLElicitation), then
// passed as the server sent them; the answer is {action, _meta?}. An
// accepted elicitation with an id waits for its completion notification.
func (g *guard) answerURLElicitation(ctx context.Context, params json.RawMessage) (json.RawMessage, *rpcFailure) {
	hook := g.asks.hooks.ElicitationURL
	if hook == nil {
		return nil, invalidParams("Client does not support URL-mode elicitation requests (give the elicitationUrl hook)")
	}
	p, f := readURLElicitation(params, g.sec)
	if f != nil {
		return nil, f
	}
	if p.ElicitationID != nil {
		g.asks.pending.expect(*p.ElicitationID)
	}
	raw, f := callHook(ctx, hook, "elicitationUrl", params)
	if f == nil {
		raw, f = urlElicitationAnswer(raw)
	}
	if p.ElicitationID != nil && (f != nil || !accepted(raw)) {
		g.asks.pending.forget(*p.ElicitationID)
	}
	return raw, f
}

// urlElicitationAnswer is the ElicitResult of what the ElicitationURL hook
// returned: {action, _meta?}, content dropped (URL mode carries none).
func urlElicitationAnswer(raw json.RawMessage) (json.RawMessage, *rpcFailure) {
	var r struct {
		Action string          `json:"action"`
		Meta   json.RawMessage `json:"_meta"`
	}
	if jsontext.Kind(raw) != jsontext.Object || json.Unmarshal(raw, &r) != nil {
		return nil, invalidParams("invalid elicitation result: the client's elicitationUrl hook returned %s, not {action}", jsontext.Kind(raw))
	}
	switch r.Action {
	case "accept", "decline", "cancel":
	default:
		return nil, invalidParams(`invalid elicitation result: action must be "accept", "decline" or "cancel"`)
	}
	out := struct {
		Action string          `json:"action"`
		Meta   json.RawMessage `json:"_meta,omitempty"`
	}{Action: r.Action}
	if jsontext.Kind(r.Meta) == jsontext.Object {
		out.Meta = r.Meta
	}
	b, _ := json.Marshal(out) // a string and raw JSON the decoder read: always marshals
	return b, nil
}

// accepted reports whether an ElicitResult's action is accept.
func accepted(result json.RawMessage) bool {
	a, _ := jsontext.Lookup(result, "action")
	return string(a) == `"accept"`
}

// pendingElicitations are the accepted URL elicitations of a connection
// whose completion notification has not come: each id's channel closes when
// it does. At most maxPendingElicitations; the oldest goes first.
type pendingElicitations struct {
	mu    sync.Mutex
	done  map[string]chan struct{}
	order []string
}

// expect remembers id (again: the same channel) and returns its channel.
func (p *pendingElicitations) expect(id string) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ch, ok := p.done[id]; ok {
		return ch
	}
	if p.done == nil {
		p.done = map[string]chan struct{}{}
	}
	for len(p.order) >= maxPendingElicitations {
		delete(p.done, p.order[0])
		p.order = p.order[1:]
	}
	ch := make(chan struct{})
	p.done[id] = ch
	p.order = append(p.order, id)
	return ch
}

// forget drops id without completing it.
func (p *pendingElicitations) forget(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drop(id)
}

// complete closes id's channel and forgets it; false when id is unknown or
// completed already (MCP: such a notification is ignored).
func (p *pendingElicitations) complete(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch, ok := p.done[id]
	if ok {
		close(ch)
		p.drop(id)
	}
	return ok
}

// drop removes id; p.mu is held.
func (p *pendingElicitations) drop(id string) {
	delete(p.done, id)
	for i, x := range p.order {
		if x == id {
			p.order = append(p.order[:i], p.order[i+1:]...)
			break
		}
	}
}

// elicitationComplete handles notifications/elicitation/complete: an id
// this connection accepted and has not seen completed is completed (its
// waiters go on) and the ElicitationComplete hook is told; any other is
// ignored.
func (g *guard) elicitationComplete(msg *jsonrpcMessage) {
	var p struct {
		ID string `json:"elicitationId"`
	}
	if json.Unmarshal(msg.Params, &p) != nil || p.ID == "" || !g.asks.pending.complete(p.ID) {
		return
	}
	if h := g.asks.hooks; h != nil && h.ElicitationComplete != nil && h.ElicitationComplete.Func != nil {
		b, _ := json.Marshal(map[string]string{"server": g.server, "elicitationId": p.ID}) // strings: always marshals
		go func() {
			defer func() { _ = recover() }() // a listener's panic must not end the instance
			_, _ = h.ElicitationComplete.Func(g.life, b)
		}()
	}
}
