package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// MCP tasks (docs/mcp-tasks.md): a tool call the server runs as a task
// answers at once with a task handle instead of its result; the client
// polls the task (tasks/get) until it ends, answers the input it asks for
// with the registration's hooks, and reads its result. Both eras run one
// loop (runTask): the 2025-11-25 core tasks (task_legacy.go: the client
// asks for a task with params.task, input arrives as the server's own
// requests on the tasks/result stream) and the 2026-07-28 tasks extension
// (task_modern.go: the server decides, input arrives as inputRequests in
// tasks/get and is answered with tasks/update). For the caller it is one
// tools/call: the same result, the same errors, the same signal.

// The bounds of one task (each in docs/limits.md and README's table).
var (
	// taskPollFloor is the shortest wait between two polls, whatever
	// interval the server suggests (0 included).
	taskPollFloor = 50 * time.Millisecond
	// taskPollCeiling is the longest: a larger suggestion is cut to it, so
	// a server cannot make the client sleep past the task's end.
	taskPollCeiling = 30 * time.Second
	// taskPollDefault is the wait when the server suggests none.
	taskPollDefault = time.Second
	// taskMaxTime is the longest a task may run, from its creation to its
	// result; then it is cancelled and the call fails with timeout.
	taskMaxTime = 30 * time.Minute
	// taskMaxInputRounds is the most times one task may ask for input.
	taskMaxInputRounds = 16
	// taskMaxPolls is the most tasks/get requests of one task.
	taskMaxPolls = 10000
)

// maxTaskIDBytes is the longest task id a server may give.
const maxTaskIDBytes = 256

// The Rules of the errors a task call fails with for breaking a bound or
// the protocol (core.Error.Rule).
const (
	// RuleTaskTime: the task did not finish within taskMaxTime.
	RuleTaskTime = "task-time"
	// RuleTaskPolls: the task was still running after taskMaxPolls polls.
	RuleTaskPolls = "task-polls"
	// RuleTaskInputRounds: the task asked for input more than taskMaxInputRounds times.
	RuleTaskInputRounds = "task-input-rounds"
	// RuleTaskMalformed: the server's task handle or state breaks the protocol
	// (a task id that is not a string of 1 to 256 bytes, or names another
	// task; an unknown status; a terminal state without its result).
	RuleTaskMalformed = "task-malformed"
	// RuleTaskCancelled: the server cancelled the task.
	RuleTaskCancelled = "task-cancelled"
	// RuleTaskFailed: the task failed without a tool result.
	RuleTaskFailed = "task-failed"
)

// taskStatuses are the statuses a task may have.
var taskStatuses = map[string]bool{"working": true, "input_required": true, "completed": true, "failed": true, "cancelled": true}

// taskState is one observation of a task: its status, the server's
// message and suggested poll interval (-1: none), and the task object as
// sent (the 2026-07-28 wire inlines the result, the error or the input
// requests in it).
type taskState struct {
	id      string
	status  string
	message string
	poll    time.Duration
	raw     json.RawMessage
}

// taskRun is one task of one tools/call.
type taskRun struct {
	p      *Pool
	e      *entry
	c      *conn
	px     *proxy
	modern bool
	id     string
	polls  int
	rounds int
	// answered are the input request keys already answered (2026-07-28),
	// with the request as sent: a key asked again unchanged is not asked
	// twice; asked again changed, the task fails.
	answered map[string]string
}

// runTask drives the task whose handle created is (the answer to a
// tools/call) to its end and returns the tool's CallToolResult. The task
// ends by its own terminal status, or is cancelled (tasks/cancel, in the
// background) when the caller's context ends, taskMaxTime passes, a bound
// is broken, or an input cannot be answered. Errors are typed, name the
// tool and, for a bound or a protocol breach, the rule.
func (p *Pool) runTask(ctx context.Context, e *entry, c *conn, px *proxy, created json.RawMessage) (json.RawMessage, error) {
	r := &taskRun{p: p, e: e, c: c, px: px, modern: c.sess.isModern(), answered: map[string]string{}}
	handle := created
	if !r.modern {
		handle, _ = jsontext.Lookup(created, "task")
	}
	t, err := r.parse(handle, "tools/call")
	if err != nil {
		return nil, err
	}
	r.id = t.id
	tctx, cancel := context.WithTimeoutCause(ctx, taskMaxTime, r.fail(core.CodeTimeout, RuleTaskTime,
		fmt.Sprintf("did not finish within %s; it was cancelled", taskMaxTime)))
	defer cancel()
	raw, terminal, err := r.drive(tctx, t)
	if err == nil {
		return raw, nil
	}
	if !terminal {
		r.cancel()
	}
	if tctx.Err() != nil {
		return nil, classify(tctx, e.cfg, px.name, nil, c, nil, err)
	}
	return nil, err
}

// drive polls the task from t until a terminal status and returns the
// result; terminal reports whether the task ended (nothing to cancel).
func (r *taskRun) drive(ctx context.Context, t *taskState) (json.RawMessage, bool, error) {
	if r.modern && t.status != "working" && t.status != "cancelled" {
		// A 2026-07-28 handle is the task's seed state, without its input
		// requests, result or error: those are read with tasks/get, at once.
		next, err := r.get(ctx)
		if err != nil {
			return nil, false, err
		}
		t = next
	}
	for {
		switch t.status {
		case "completed", "failed", "cancelled":
			raw, err := r.finish(ctx, t)
			return raw, true, err
		case "input_required":
			raw, done, err := r.input(ctx, t)
			if err != nil || done {
				return raw, done, err
			}
		}
		if err := r.wait(ctx, t.poll); err != nil {
			return nil, false, err
		}
		next, err := r.get(ctx)
		if err != nil {
			return nil, false, err
		}
		t = next
	}
}

// input answers an input_required task in its era's way; done means the
// answer was the task's final result (2025-11-25's tasks/result).
func (r *taskRun) input(ctx context.Context, t *taskState) (json.RawMessage, bool, error) {
	if r.modern {
		return nil, false, r.answerModern(ctx, t)
	}
	raw, err := r.resultLegacy(ctx)
	return raw, err == nil, err
}

// finish reads the result of a task in a terminal status.
func (r *taskRun) finish(ctx context.Context, t *taskState) (json.RawMessage, error) {
	if t.status == "cancelled" {
		return nil, r.fail(core.CodeTransport, RuleTaskCancelled, "was cancelled by the server"+r.said(t))
	}
	if r.modern {
		return r.finishModern(t)
	}
	return r.finishLegacy(ctx, t)
}

// wait sleeps the server's suggested interval, within the floor and the
// ceiling (taskPollDefault when it suggested none), or until ctx ends.
func (r *taskRun) wait(ctx context.Context, d time.Duration) error {
	if d < 0 {
		d = taskPollDefault
	}
	d = min(max(d, taskPollFloor), taskPollCeiling)
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// get polls the task once (tasks/get), within taskMaxPolls.
func (r *taskRun) get(ctx context.Context) (*taskState, error) {
	r.polls++
	if r.polls > taskMaxPolls {
		return nil, r.fail(core.CodeTransport, RuleTaskPolls, fmt.Sprintf("was still running after %d polls; it was cancelled", taskMaxPolls))
	}
	raw, err := r.p.request1(ctx, r.e, r.c, r.px.name, "tasks/get", map[string]any{"taskId": r.id})
	if err != nil {
		return nil, err
	}
	return r.parse(raw, "tasks/get")
}

// cancel ends the hook calls answering the task's requests (2025-11-25:
// the server's requests on the tasks/result stream) and sends tasks/cancel
// for the task in the background, best effort and bounded like
// notifications/cancelled (cancelNoticeWait); on the 2025-11-25 wire only
// to a server that declared tasks.cancel.
func (r *taskRun) cancel() {
	r.c.guard.asks.calls.endTask(r.id) // hookcancel.go: its hooks in flight stop
	if !r.modern && !r.c.taskCaps.cancel {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), min(r.e.timeout, cancelNoticeWait))
		defer cancel()
		_, _ = r.p.request1(ctx, r.e, r.c, r.px.name, "tasks/cancel", map[string]any{"taskId": r.id})
	}()
}

// parse reads a task object answered to method: its taskId (a string of 1
// to maxTaskIDBytes bytes, the run's own once known), its status (one of
// taskStatuses), statusMessage and poll interval (pollInterval on the
// 2025-11-25 wire, pollIntervalMs on the 2026-07-28 one; a value that is
// not a non-negative number counts as none).
func (r *taskRun) parse(raw json.RawMessage, method string) (*taskState, error) {
	var v struct {
		TaskID         *string  `json:"taskId"`
		Status         *string  `json:"status"`
		StatusMessage  *string  `json:"statusMessage"`
		PollInterval   *float64 `json:"pollInterval"`
		PollIntervalMs *float64 `json:"pollIntervalMs"`
	}
	if jsontext.Kind(raw) != jsontext.Object {
		return nil, r.malformed(method, "the task is not a JSON object")
	}
	_ = json.Unmarshal(raw, &v) // a member of the wrong kind stays nil, and is refused below
	switch {
	case v.TaskID == nil:
		return nil, r.malformed(method, `"taskId" is missing or not a string`)
	case len(*v.TaskID) == 0 || len(*v.TaskID) > maxTaskIDBytes:
		return nil, r.malformed(method, fmt.Sprintf(`"taskId" must be 1 to %d bytes, got %d`, maxTaskIDBytes, len(*v.TaskID)))
	case r.id != "" && *v.TaskID != r.id:
		return nil, r.malformed(method, "the answer is about another task, "+r.e.cfg.quote(*v.TaskID, 60))
	case v.Status == nil || !taskStatuses[*v.Status]:
		s := "missing"
		if v.Status != nil {
			s = r.e.cfg.quote(*v.Status, 40)
		}
		return nil, r.malformed(method, `"status" is `+s+", not working, input_required, completed, failed or cancelled")
	}
	t := &taskState{id: *v.TaskID, status: *v.Status, poll: -1, raw: raw}
	if v.StatusMessage != nil {
		t.message = *v.StatusMessage
	}
	interval := v.PollInterval
	if r.modern {
		interval = v.PollIntervalMs
	}
	if interval != nil && *interval >= 0 {
		t.poll = time.Duration(min(*interval, float64(taskPollCeiling/time.Millisecond))) * time.Millisecond
	}
	return t, nil
}

// said is the task's statusMessage as a suffix of an error message
// (redacted, cut), or "".
func (r *taskRun) said(t *taskState) string {
	if t.message == "" {
		return ""
	}
	return ": " + r.e.cfg.quote(t.message, 300)
}

// malformed is the error of a task answer that breaks the protocol.
func (r *taskRun) malformed(method, why string) *core.Error {
	return r.fail(core.CodeTransport, RuleTaskMalformed, "got a malformed answer to "+method+": "+why)
}

// fail is an error of the task, naming the server, the tool and the task,
// with rule.
func (r *taskRun) fail(code core.Code, rule, what string) *core.Error {
	task := "its task"
	if r.id != "" {
		task = "its task " + strconv.QuoteToASCII(truncate(r.id, 60))
	}
	e := serverError(code, r.e.cfg.Name, r.e.cfg, "tool %s: %s %s", strconv.QuoteToASCII(r.px.wire), task, what)
	e.Tool, e.Rule = r.px.name, rule
	return e
}
