package mcpops

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/mcp"
)

// callHost runs a JS hook (jsbridge.CallHost); tests replace it.
var callHost = jsbridge.CallHost

// filterKeys are the members of the filter option.
var filterKeys = []string{"allow", "block", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// filterOption reads the filter option: {allow?, block?, readOnlyHint?,
// destructiveHint?, idempotentHint?, openWorldHint?} (null members count as
// absent). It refuses with unsupported-type a value that is not an object,
// an unknown member and a member of the wrong type, and with
// invalid-request a bad pattern (mcp.Filter.Validate). Absent gives nil.
func filterOption(call string, raw json.RawMessage) (*mcp.Filter, error) {
	if raw == nil {
		return nil, nil
	}
	members, ok := jsontext.Members(raw)
	if !ok || jsontext.Kind(raw) != jsontext.Object {
		return nil, optionTypeError(call, "filter", "an object {allow?, block?, readOnlyHint?, destructiveHint?, idempotentHint?, openWorldHint?}", raw)
	}
	f := &mcp.Filter{}
	hints := map[string]**bool{"readOnlyHint": &f.ReadOnlyHint, "destructiveHint": &f.DestructiveHint,
		"idempotentHint": &f.IdempotentHint, "openWorldHint": &f.OpenWorldHint}
	for k, v := range members {
		if !slices.Contains(filterKeys, k) {
			return nil, core.Errorf(core.CodeUnsupportedType, "", "%s: unknown member %s of option filter; known members are %s",
				call, strconv.QuoteToASCII(k), strings.Join(filterKeys, ", "))
		}
		if jsontext.Kind(v) == jsontext.Null {
			continue
		}
		var err error
		switch k {
		case "allow":
			f.Allow, err = patternList(call, "filter.allow", v)
		case "block":
			f.Block, err = patternList(call, "filter.block", v)
		default:
			if jsontext.Kind(v) != jsontext.Boolean {
				return nil, optionTypeError(call, "filter."+k, "a boolean", v)
			}
			b := string(bytes.TrimSpace(v)) == "true"
			*hints[k] = &b
		}
		if err != nil {
			return nil, err
		}
	}
	return f, f.Validate(call)
}

// patternList is stringList keeping an empty list non-nil (allow: [] keeps
// no tool).
func patternList(call, key string, raw json.RawMessage) ([]string, error) {
	l, err := stringList(call, key, raw)
	if l == nil && err == nil {
		l = []string{}
	}
	return l, err
}

// approvalOption reads requireApproval (an array of rule names), approve
// (the id of the JS hook, from ctx.inst.hostFunction) and approvalTimeoutMs
// (a number of milliseconds). Neither requireApproval nor approve gives
// nil (approvalTimeoutMs is still checked). It refuses with
// unsupported-type a value of the wrong type; the
// combination is checked by mcp.Approval.Validate (invalid-request).
func approvalOption(call string, opts map[string]json.RawMessage) (*mcp.Approval, error) {
	rules, err := stringList(call, "requireApproval", opts["requireApproval"])
	if err != nil {
		return nil, err
	}
	a := &mcp.Approval{}
	if v, ok := opts["approvalTimeoutMs"]; ok {
		if a.TimeoutMs, err = intOption(call, "approvalTimeoutMs", "a whole number of milliseconds", v); err != nil {
			return nil, err
		}
	}
	_, hasHook := opts["approve"]
	if rules == nil && !hasHook {
		return nil, nil
	}
	for _, r := range rules {
		a.Require = append(a.Require, mcp.ApprovalRule(r))
	}
	if hasHook {
		id, err := intOption(call, "approve", "a function", opts["approve"])
		if err != nil {
			return nil, err
		}
		a.Approve = approveHook(int64(id))
	}
	return a, a.Validate(call)
}

// intOption decodes an integer option (unsupported-type otherwise).
func intOption(call, key, want string, raw json.RawMessage) (int, error) {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	if jsontext.Kind(raw) != jsontext.Number || err != nil || n < -1<<31 || n > 1<<31-1 {
		return 0, optionTypeError(call, key, want, raw)
	}
	return int(n), nil
}

// approveHook is the mcp.ApprovalFunc of the JS hook registered under id:
// it sends the mcp.ApprovalRequest as JSON through the host call and reads
// the answer, true, false or {approved: boolean, reason?: string}. Any
// other answer, and a hook that threw, is an error (the call is denied).
func approveHook(id int64) mcp.ApprovalFunc {
	return func(ctx context.Context, req *mcp.ApprovalRequest) (bool, string, error) {
		payload, err := json.Marshal(req)
		if err != nil {
			return false, "", core.Errorf(core.CodeInternal, "", "the approval request does not encode")
		}
		out, err := callHost(ctx, id, payload)
		if err != nil {
			return false, "", err
		}
		return readApproval(out)
	}
}

// readApproval reads the approve hook's answer.
func readApproval(out json.RawMessage) (bool, string, error) {
	switch jsontext.Kind(out) {
	case jsontext.Boolean:
		return string(bytes.TrimSpace(out)) == "true", "", nil
	case jsontext.Object:
		var a struct {
			Approved json.RawMessage `json:"approved"`
			Reason   json.RawMessage `json:"reason"`
		}
		_ = json.Unmarshal(out, &a) // an object: always decodes
		var reason string
		if jsontext.Kind(a.Reason) == jsontext.String {
			_ = json.Unmarshal(a.Reason, &reason)
		}
		if jsontext.Kind(a.Approved) == jsontext.Boolean {
			return string(bytes.TrimSpace(a.Approved)) == "true", reason, nil
		}
		return false, "", core.Errorf(core.CodeUnsupportedType, "", "the approve hook answered an object without a boolean \"approved\"")
	}
	return false, "", core.Errorf(core.CodeUnsupportedType, "", "the approve hook answered %s; want true, false or {approved, reason?}", jsontext.Kind(out))
}
