package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks, SEP-2663):
// toolgate declares the extension in every modern request's client
// capabilities (modernMeta), and the server decides per call whether to
// answer tools/call with a task handle (resultType "task", the task's
// fields inline). tasks/get answers the detailed task: an input_required
// one carries inputRequests (a map of key → {method, params}, as in a
// multi round-trip request), answered with the registration's hooks and
// sent with tasks/update {taskId, inputResponses}; a completed one carries
// its result, a failed one its JSON-RPC error. tasks/get, tasks/update and
// tasks/cancel carry the task id in Mcp-Name (requestHeaders).

// extTasks is the extension's identifier.
const extTasks = "io.modelcontextprotocol/tasks"

// answerModern answers the input requests of an input_required task that
// were not answered before (a key asked again with the same request is
// the same question, seen again before the server took the answer), then
// sends them with tasks/update. A key asked again with another request, a
// malformed inputRequests, an input no hook serves or a hook that fails
// ends the task.
func (r *taskRun) answerModern(ctx context.Context, t *taskState) error {
	v, ok := jsontext.Lookup(t.raw, "inputRequests")
	ms, split := jsontext.Split(v)
	if !ok || !split || jsontext.Kind(v) != jsontext.Object {
		return r.malformed("tasks/get", `an input_required task has no "inputRequests" object`)
	}
	if len(ms) > maxInputRequests {
		return r.malformed("tasks/get", fmt.Sprintf("more than %d input requests at once", maxInputRequests))
	}
	var fresh []jsontext.Member
	for _, m := range ms {
		if jsontext.Kind(m.Value) != jsontext.Object {
			return r.malformed("tasks/get", "input request "+r.e.cfg.quote(m.Key, 60)+" is not an object")
		}
		prev, seen := r.answered[m.Key]
		switch {
		case !seen:
			fresh = append(fresh, m)
		case prev != string(m.Value):
			return r.malformed("tasks/get", "input request "+r.e.cfg.quote(m.Key, 60)+" was answered already and is asked again, changed")
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	r.rounds++
	if r.rounds > taskMaxInputRounds {
		return r.fail(core.CodeTransport, RuleTaskInputRounds, fmt.Sprintf("asked for input more than %d times; it was cancelled", taskMaxInputRounds))
	}
	answers, err := r.c.guard.answerInputs(ctx, "the task", fresh)
	if err != nil {
		return named(err, r.px.name)
	}
	params := map[string]any{"taskId": r.id, "inputResponses": answers}
	if _, err := r.p.request1(ctx, r.e, r.c, r.px.name, "tasks/update", params); err != nil {
		return err
	}
	for _, m := range fresh {
		r.answered[m.Key] = string(m.Value)
	}
	return nil
}

// finishModern reads a terminal task's inline outcome: a completed task's
// result (the CallToolResult), a failed task's JSON-RPC error as a
// transport error with its code and message.
func (r *taskRun) finishModern(t *taskState) (json.RawMessage, error) {
	if t.status == "completed" {
		res, ok := jsontext.Lookup(t.raw, "result")
		if !ok || jsontext.Kind(res) != jsontext.Object {
			return nil, r.malformed("tasks/get", `a completed task has no "result" object`)
		}
		return res, nil
	}
	var rpc jsonrpcErrorObj
	v, ok := jsontext.Lookup(t.raw, "error")
	if !ok || jsontext.Kind(v) != jsontext.Object || json.Unmarshal(v, &rpc) != nil {
		return nil, r.fail(core.CodeTransport, RuleTaskFailed, "failed"+r.said(t))
	}
	e := rpcError(r.e.cfg, &rpc)
	e.Tool, e.Rule = r.px.name, RuleTaskFailed
	return nil, e
}
