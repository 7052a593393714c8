package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate/core"
)

// ApprovalRule names which tools need an approval before each call (JS
// option requireApproval).
type ApprovalRule string

// The approval rules. A tool needs approval when any listed rule selects it;
// hints are effective ones (Annotations.Effective), so a tool without
// annotations, and every declared tool, is destructive and open-world.
const (
	// ApproveDestructive selects tools whose effective destructiveHint is true.
	ApproveDestructive ApprovalRule = "destructive"
	// ApproveOpenWorld selects tools whose effective openWorldHint is true.
	ApproveOpenWorld ApprovalRule = "openWorld"
	// ApproveAll selects every tool.
	ApproveAll ApprovalRule = "all"
)

// DefaultApprovalTimeoutMs is how long a call waits for the approve hook by
// default (2 minutes: a person may be asked); past it the call is denied.
const DefaultApprovalTimeoutMs = 120000

// ApprovalRequest is what the approve hook is asked about one call.
type ApprovalRequest struct {
	// Server is the server's name.
	Server string `json:"server"`
	// Tool is the tool's name on the server.
	Tool string `json:"tool"`
	// Name is the registered name (what the model called).
	Name string `json:"name"`
	// Arguments are the arguments as they will be sent: validated against
	// the tool's inputSchema and coerced.
	Arguments json.RawMessage `json:"arguments"`
	// Annotations are the tool's annotations as the server sent them; null
	// when it sent none (a declared tool has none).
	Annotations json.RawMessage `json:"annotations"`
	// Rules are the requireApproval rules that select this tool.
	Rules []ApprovalRule `json:"rules"`
}

// ApprovalFunc decides one call: approved true lets it be sent; false, an
// error, or no answer within the timeout denies it. reason (optional) is
// quoted in the denial, and so is the error's message (a hook made from a
// JS function says "the approve hook threw: TypeError", never the thrown
// text). It should return when ctx is done; one that does not is not
// waited for.
type ApprovalFunc func(ctx context.Context, req *ApprovalRequest) (approved bool, reason string, err error)

// Approval is the approval policy of a server's tools.
type Approval struct {
	// Require lists the rules that select tools needing approval (nil or
	// empty: none, no hook is called).
	Require []ApprovalRule
	// Approve is the hook; required when Require is not empty.
	Approve ApprovalFunc
	// TimeoutMs bounds each wait for Approve (0: DefaultApprovalTimeoutMs).
	TimeoutMs int
}

// Validate refuses with invalid-request, naming call and the option: an
// unknown rule, Require without Approve, Approve without Require (a hook no
// call would ask is a mistake, not a policy), and a TimeoutMs below 0 or
// above 2147483647. A nil a is valid (no approval).
func (a *Approval) Validate(call string) error {
	if a == nil {
		return nil
	}
	bad := func(format string, args ...any) error {
		return core.Errorf(core.CodeInvalidRequest, "", call+": "+format, args...)
	}
	for i, r := range a.Require {
		switch r {
		case ApproveDestructive, ApproveOpenWorld, ApproveAll:
		default:
			return bad("option requireApproval[%d] is %s; want \"destructive\", \"openWorld\" or \"all\"", i, strconv.QuoteToASCII(truncate(string(r), 40)))
		}
	}
	switch {
	case len(a.Require) > 0 && a.Approve == nil:
		return bad("option requireApproval needs an approve hook: without one every such call would be denied")
	case len(a.Require) == 0 && a.Approve != nil:
		return bad("option approve is given without requireApproval: say which tools need approval, e.g. [\"destructive\"] or [\"all\"]")
	case a.TimeoutMs < 0 || a.TimeoutMs > maxTimeoutMs:
		return bad("option approvalTimeoutMs must be between 0 and %d, got %d", maxTimeoutMs, a.TimeoutMs)
	}
	return nil
}

// gate is one tool's approval: the rules that select it and the hook.
type gate struct {
	rules       []ApprovalRule
	approve     ApprovalFunc
	timeout     time.Duration
	annotations json.RawMessage
}

// gateFor returns the approval gate of a tool with these annotations (raw
// as sent, parsed as a), or nil when no rule of a selects it.
func (a *Approval) gateFor(raw json.RawMessage, ann *Annotations) *gate {
	if a == nil || len(a.Require) == 0 {
		return nil
	}
	h := ann.Effective()
	var rules []ApprovalRule
	for _, r := range a.Require {
		if r == ApproveAll || (r == ApproveDestructive && h.Destructive) || (r == ApproveOpenWorld && h.OpenWorld) {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return nil
	}
	ms := a.TimeoutMs
	if ms == 0 {
		ms = DefaultApprovalTimeoutMs
	}
	if raw == nil {
		raw = json.RawMessage("null")
	}
	return &gate{rules: rules, approve: a.Approve, timeout: time.Duration(ms) * time.Millisecond, annotations: raw}
}

// approve asks p's gate about one call with these arguments: nil when
// approved; otherwise policy-denied with rule "approval" naming the tool,
// or, when ctx ended (the caller's cancellation or the tool's timeout),
// that failure.
func (p *proxy) approve(ctx context.Context, args json.RawMessage) error {
	g := p.gate
	req := &ApprovalRequest{Server: p.cfg.Name, Tool: p.wire, Name: p.name, Arguments: args, Annotations: g.annotations, Rules: g.rules}
	hctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	type answer struct {
		ok     bool
		reason string
		err    error
	}
	ch := make(chan answer, 1)
	go func() {
		var a answer
		defer func() {
			if recover() != nil {
				a = answer{err: core.Errorf(core.CodeInternal, "", "the approve hook panicked")}
			}
			ch <- a
		}()
		a.ok, a.reason, a.err = g.approve(hctx, req)
	}()
	var a answer
	select {
	case a = <-ch:
	case <-hctx.Done():
		a.err = hctx.Err()
	}
	switch {
	case ctx.Err() != nil:
		return classify(ctx, p.cfg, p.name, nil, nil, nil, ctx.Err())
	case a.err == nil && a.ok:
		return nil
	case hctx.Err() != nil:
		return p.denied("the approve hook did not answer within %d ms", g.timeout.Milliseconds())
	case a.err != nil:
		return p.denied("%s", p.cfg.cut(core.AsError(a.err).Message, 200))
	case a.reason != "":
		return p.denied("the approve hook refused it: %s", p.cfg.quote(a.reason, 200))
	}
	return p.denied("the approve hook refused it")
}

// denied is the policy-denied error of a call the approval gate stopped.
func (p *proxy) denied(format string, args ...any) error {
	rules := make([]string, len(p.gate.rules))
	for i, r := range p.gate.rules {
		rules[i] = string(r)
	}
	e := serverError(core.CodePolicyDenied, p.cfg.Name, p.cfg, "tool %q needs approval (requireApproval: %s) and was not sent: "+format,
		append([]any{p.wire, strings.Join(rules, ", ")}, args...)...)
	e.Tool = p.name
	e.Rule = string(RuleApproval)
	return e
}
