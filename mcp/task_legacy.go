package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// The 2025-11-25 core tasks (experimental in that revision): a server
// that declares capabilities.tasks.requests.tools.call runs a tool call as
// a task when the request carries params.task; the answer is a
// CreateTaskResult {task}. When the task needs input (status
// input_required) the client calls tasks/result, on whose stream the
// server sends its elicitation and sampling requests (the guard answers
// them with the registration's hooks, as any server request) and which
// answers, once the task ends, with its result. At a terminal status
// tasks/result gives the result, or the JSON-RPC error the call would have
// given.

// metaRelatedTask is the _meta key a 2025-11-25 server names the task of a
// message under; it is taken out of the result the caller sees.
const metaRelatedTask = "io.modelcontextprotocol/related-task"

// taskCaps is what a 2025-11-25 server declared of tasks in initialize.
type taskCaps struct {
	toolCall bool // tasks.requests.tools.call: tools/call may be task-augmented
	cancel   bool // tasks.cancel: tasks/cancel is served
}

// serverTaskCaps reads capabilities.tasks of an initialize result (each
// capability present when it is an object).
func serverTaskCaps(initResult json.RawMessage) taskCaps {
	caps, _ := jsontext.Lookup(initResult, "capabilities")
	tasks, _ := jsontext.Lookup(caps, "tasks")
	if jsontext.Kind(tasks) != jsontext.Object {
		return taskCaps{}
	}
	cancel, _ := jsontext.Lookup(tasks, "cancel")
	reqs, _ := jsontext.Lookup(tasks, "requests")
	tools, _ := jsontext.Lookup(reqs, "tools")
	call, _ := jsontext.Lookup(tools, "call")
	return taskCaps{toolCall: jsontext.Kind(call) == jsontext.Object, cancel: jsontext.Kind(cancel) == jsontext.Object}
}

// TaskMode chooses which tool calls toolgate makes task-augmented on the
// 2025-11-25 wire (RegisterOptions.Tasks); on the 2026-07-28 wire the
// server decides.
type TaskMode string

const (
	// TasksRequired augments only the calls of tools whose
	// execution.taskSupport is "required" (the default).
	TasksRequired TaskMode = "required"
	// TasksAlways also augments those of tools whose taskSupport is
	// "optional".
	TasksAlways TaskMode = "always"
)

// TaskModes are the values of the tasks option.
var TaskModes = []TaskMode{TasksRequired, TasksAlways}

// TaskModeChoice describes the tasks option's values for an error message.
func TaskModeChoice() string { return jsontext.Choice(TaskModes) }

// ParseTaskMode reads the tasks option ("" is TasksRequired); another
// value is unsupported-type naming where.
func ParseTaskMode(where, s string) (TaskMode, error) {
	switch TaskMode(s) {
	case "", TasksRequired:
		return TasksRequired, nil
	case TasksAlways:
		return TasksAlways, nil
	}
	return "", core.Errorf(core.CodeUnsupportedType, "", "%s: option tasks must be \"required\" or \"always\", got %s", where, strconv.QuoteToASCII(truncate(s, 40)))
}

// taskSupport reads a tool descriptor's execution.taskSupport ("" when
// absent or not a string).
func taskSupport(raw json.RawMessage) string {
	ex, ok := jsontext.Lookup(raw, "execution")
	if !ok || jsontext.Kind(ex) != jsontext.Object {
		return ""
	}
	ts, ok := jsontext.Lookup(ex, "taskSupport")
	if !ok || jsontext.Kind(ts) != jsontext.String {
		return ""
	}
	return jsontext.Unquote(ts)
}

// legacyTask reports whether px's call on c is sent task-augmented
// (2025-11-25 wire only): a task-required tool, or an optional one under
// TasksAlways, of a server that declared tasks.requests.tools.call. A
// task-required tool of a server that did not is refused (unsupported,
// RuleTaskRequired) before anything is sent: MCP forbids augmenting its
// calls, and the server answers others with an error.
func (px *proxy) legacyTask(c *conn) (bool, error) {
	if c.sess.isModern() {
		return false, nil
	}
	wanted := px.taskRequired || (px.taskOptional && px.tasks == TasksAlways)
	switch {
	case !wanted:
		return false, nil
	case c.taskCaps.toolCall:
		return true, nil
	case px.taskRequired:
		return false, px.refuseTask()
	}
	return false, nil
}

// taskParam is params.task of a task-augmented tools/call: the task is
// asked to be kept as long as it may run.
func taskParam() map[string]any {
	return map[string]any{"ttl": taskMaxTime.Milliseconds()}
}

// asTaskHandle reports whether raw, the answer to px's tools/call on c,
// is a task handle to drive: on the 2026-07-28 wire resultType "task"; on
// the 2025-11-25 wire a CreateTaskResult ({task: {…}}) answering a
// task-augmented call (a server that ran it as an ordinary call answers
// the result itself).
func asTaskHandle(c *conn, augmented bool, raw json.RawMessage) bool {
	if c.sess.isModern() {
		return resultType(raw) == "task"
	}
	if !augmented {
		return false
	}
	t, ok := jsontext.Lookup(raw, "task")
	return ok && jsontext.Kind(t) == jsontext.Object
}

// resultLegacy calls tasks/result, which the server answers when the task
// ends (meanwhile sending its requests for input on the stream), and
// returns the CallToolResult. Its deadline is the task's, not TimeoutMs:
// the answer waits for the task.
func (r *taskRun) resultLegacy(ctx context.Context) (json.RawMessage, error) {
	r.rounds++
	if r.rounds > taskMaxInputRounds {
		return nil, r.fail(core.CodeTransport, RuleTaskInputRounds, "asked for input more than "+strconv.Itoa(taskMaxInputRounds)+" times; it was cancelled")
	}
	raw, err := r.p.requestWithin(withValue(ctx, &longAnswer{}), r.e, r.c, r.px.name, "tasks/result", map[string]any{"taskId": r.id}, taskMaxTime)
	if err != nil {
		return nil, err
	}
	return withoutMetaKey(raw, metaRelatedTask), nil
}

// finishLegacy reads the result of a completed or failed task with
// tasks/result: a completed task's CallToolResult; for a failed one, the
// JSON-RPC error tasks/result answers, its CallToolResult when isError is
// true (a tool-error), or else a transport error with the task's message.
func (r *taskRun) finishLegacy(ctx context.Context, t *taskState) (json.RawMessage, error) {
	raw, err := r.p.request1(ctx, r.e, r.c, r.px.name, "tasks/result", map[string]any{"taskId": r.id})
	if err != nil {
		return nil, err
	}
	raw = withoutMetaKey(raw, metaRelatedTask)
	if t.status == "failed" {
		if isErr, _ := jsontext.Lookup(raw, "isError"); strings.TrimSpace(string(isErr)) != "true" {
			return nil, r.fail(core.CodeTransport, RuleTaskFailed, "failed"+r.said(t))
		}
	}
	return raw, nil
}

// withoutMetaKey returns the result object raw without _meta's key (and
// without _meta when nothing else is in it); raw unchanged otherwise.
func withoutMetaKey(raw json.RawMessage, key string) json.RawMessage {
	meta, ok := jsontext.Lookup(raw, "_meta")
	if !ok || jsontext.Kind(meta) != jsontext.Object {
		return raw
	}
	ms, _ := jsontext.Split(meta)
	kept := ms[:0:0]
	for _, m := range ms {
		if m.Key != key {
			kept = append(kept, m)
		}
	}
	if len(kept) == len(ms) {
		return raw
	}
	all, _ := jsontext.Split(raw)
	out := all[:0:0]
	for _, m := range all {
		if m.Key == "_meta" {
			if len(kept) == 0 {
				continue
			}
			m.Value = jsontext.WriteObject(kept)
		}
		out = append(out, m)
	}
	return jsontext.WriteObject(out)
}
