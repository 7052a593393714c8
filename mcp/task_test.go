package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// eras runs f for each protocol era.
func eras(t *testing.T, f func(t *testing.T, modern bool)) {
	for _, modern := range []bool{false, true} {
		name := "2025-11-25"
		if modern {
			name = "2026-07-28"
		}
		t.Run(name, func(t *testing.T) { f(t, modern) })
	}
}

// A task-required tool is called as a task and polled to its result, even
// when the server suggests polling at once (pollInterval 0: the floor
// holds); the caller sees an ordinary result.
func TestTaskCompletesWithPolling(t *testing.T) {
	eras(t, func(t *testing.T, modern bool) {
		s := newTaskServer(t, modern, "working", "working", "completed")
		m := s.manager(t, nil)
		fc := invoke(t, m, "mcp__ts__research", map[string]any{"q": "go"})
		require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
		assert.Contains(t, fc.Response, "done")
		assert.Equal(t, 3, s.gets)
		if modern {
			assert.Equal(t, []string{"tasks/get", "tasks/get", "tasks/get"}, s.tasksSent())
			assert.Equal(t, []string{"task-1", "task-1", "task-1"}, s.names, "Mcp-Name carries the task id")
			meta := string(s.calls[0])
			assert.Contains(t, meta, `"extensions":{"io.modelcontextprotocol/tasks":{}}`)
		} else {
			assert.Equal(t, []string{"tasks/get", "tasks/get", "tasks/get", "tasks/result"}, s.tasksSent())
			assert.Contains(t, string(s.calls[0]), `"task":{"ttl":1800000}`)
		}
	})
}

// A 2026-07-28 handle is the task's seed state: one that is already
// input_required or completed carries neither its input requests nor its
// result, and is read with tasks/get at once, not refused as malformed.
func TestTaskModernSeedStateIsPolled(t *testing.T) {
	for _, seed := range []string{"input_required", "completed", "failed"} {
		t.Run(seed, func(t *testing.T) {
			script := map[string][]string{"input_required": {"input", "completed"}, "completed": {"completed"}, "failed": {"failed"}}[seed]
			s := newTaskServer(t, true, script...)
			s.seed = seed
			hooks := &ClientHooks{Elicitation: fixedHook("e", `{"action":"accept","content":{"name":"Ada"}}`)}
			m := s.manager(t, &RegisterOptions{Hooks: hooks})
			fc := invoke(t, m, "mcp__ts__research", nil)
			assert.Equal(t, "tasks/get", s.tasksSent()[0], "the first thing sent after the handle")
			if seed == "failed" {
				require.Equal(t, core.StatusFailed, fc.Status)
				var e *core.Error
				require.ErrorAs(t, fc.Err, &e)
				assert.Equal(t, RuleTaskFailed, e.Rule)
				return
			}
			require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
			assert.Contains(t, fc.Response, "done")
		})
	}
}

// The input a task asks for is answered by the registration's elicitation
// hook: on the 2025-11-25 wire on the tasks/result stream (the progress
// sent there reaches onProgress), on the 2026-07-28 wire with tasks/update.
func TestTaskInputAnsweredByHook(t *testing.T) {
	eras(t, func(t *testing.T, modern bool) {
		script := []string{"working", "input", "working", "completed"}
		if !modern {
			script = []string{"working", "input"}
		}
		s := newTaskServer(t, modern, script...)
		var mu sync.Mutex
		var asked []string
		var progress []ProgressEvent
		hooks := &ClientHooks{Elicitation: hookFn("e", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
			mu.Lock()
			asked = append(asked, string(params))
			mu.Unlock()
			return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
		})}
		m := s.manager(t, &RegisterOptions{Hooks: hooks, OnProgress: func(ev ProgressEvent) {
			mu.Lock()
			progress = append(progress, ev)
			mu.Unlock()
		}})
		fc := invoke(t, m, "mcp__ts__research", nil)
		require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
		assert.Contains(t, fc.Response, `Ada`)
		require.Len(t, asked, 1, "asked once, though a poll may see the same request again")
		assert.Contains(t, asked[0], "who?")
		if modern {
			require.Len(t, s.updates, 1)
			assert.JSONEq(t, `{"name":{"action":"accept","content":{"name":"Ada"}}}`, string(s.updates[0]))
			assert.Contains(t, s.tasksSent(), "tasks/update")
			for _, name := range s.names {
				assert.Equal(t, "task-1", name, "Mcp-Name of every tasks/* request")
			}
		} else {
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, progress, 1)
			assert.Equal(t, 3.0, progress[0].Progress)
			assert.Equal(t, "research", progress[0].Tool)
		}
	})
}

// A related-task _meta key is taken out of the result the caller sees.
func TestTaskResultWithoutRelatedTask(t *testing.T) {
	s := newTaskServer(t, false, "completed")
	m := s.manager(t, &RegisterOptions{Result: ResultFull})
	fc := invoke(t, m, "mcp__ts__research", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"done"}]}`, string(fc.Response.(json.RawMessage)))
}

// The caller's cancellation sends tasks/cancel for the task.
func TestTaskCancelSendsTasksCancel(t *testing.T) {
	eras(t, func(t *testing.T, modern bool) {
		s := newTaskServer(t, modern, "working")
		m := s.manager(t, nil)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan *core.FunctionCalling, 1)
		go func() {
			fc, _ := m.Invoke(ctx, &core.Request{Function: "mcp__ts__research", Arguments: core.NewArguments()})
			done <- fc
		}()
		waitUntil(t, "the task is polled", func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.gets > 0
		})
		cancel()
		fc := <-done
		assert.NotEqual(t, core.StatusCompleted, fc.Status)
		select {
		case id := <-s.cancelled:
			assert.Equal(t, "task-1", id)
			if modern {
				waitUntil(t, "tasks/cancel is recorded", func() bool {
					s.mu.Lock()
					defer s.mu.Unlock()
					return len(s.names) > 0 && s.taskCalls[len(s.taskCalls)-1].Method == "tasks/cancel"
				})
				s.mu.Lock()
				assert.Equal(t, "task-1", s.names[len(s.names)-1], "Mcp-Name of tasks/cancel")
				s.mu.Unlock()
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no tasks/cancel")
		}
	})
}

// A task that never ends is cancelled when its time runs out, and the call
// fails with timeout naming the rule.
func TestTaskTimeBound(t *testing.T) {
	eras(t, func(t *testing.T, modern bool) {
		setBound(t, &taskMaxTime, 300*time.Millisecond)
		s := newTaskServer(t, modern, "working")
		m := s.manager(t, nil)
		fc := invoke(t, m, "mcp__ts__research", nil)
		ce := core.AsError(fc.Err)
		require.NotNil(t, ce)
		assert.Equal(t, core.CodeTimeout, ce.Code, ce.Message)
		assert.Equal(t, RuleTaskTime, ce.Rule)
		assert.Equal(t, "mcp__ts__research", ce.Tool)
		assert.Contains(t, ce.Message, `"ts"`)
		select {
		case <-s.cancelled:
		case <-time.After(10 * time.Second):
			t.Fatal("no tasks/cancel")
		}
	})
}

// The polls of one task are bounded.
func TestTaskPollBound(t *testing.T) {
	eras(t, func(t *testing.T, modern bool) {
		setBound(t, &taskMaxPolls, 3)
		s := newTaskServer(t, modern, "working")
		m := s.manager(t, nil)
		fc := invoke(t, m, "mcp__ts__research", nil)
		ce := core.AsError(fc.Err)
		require.NotNil(t, ce)
		assert.Equal(t, RuleTaskPolls, ce.Rule, ce.Message)
		assert.Equal(t, 3, s.gets)
	})
}

// A task that keeps asking for new input fails after the bound, and is
// cancelled.
func TestTaskInputRoundsBound(t *testing.T) {
	setBound(t, &taskMaxInputRounds, 3)
	s := newTaskServer(t, true, "input")
	s.inputKey = func(n int) string { return "q" + string(rune('a'+n)) }
	m := s.manager(t, &RegisterOptions{Hooks: &ClientHooks{Elicitation: fixedHook("e", `{"action":"decline"}`)}})
	fc := invoke(t, m, "mcp__ts__research", nil)
	ce := core.AsError(fc.Err)
	require.NotNil(t, ce)
	assert.Equal(t, RuleTaskInputRounds, ce.Rule, ce.Message)
	assert.Len(t, s.updates, 3)
	select {
	case <-s.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("no tasks/cancel")
	}
}

// An input request no hook serves fails the task, which is cancelled.
func TestTaskInputWithoutHook(t *testing.T) {
	s := newTaskServer(t, true, "input")
	m := s.manager(t, nil)
	fc := invoke(t, m, "mcp__ts__research", nil)
	ce := core.AsError(fc.Err)
	require.NotNil(t, ce)
	assert.Equal(t, core.CodeTransport, ce.Code)
	assert.Contains(t, ce.Message, "elicitation")
	assert.Equal(t, "mcp__ts__research", ce.Tool)
	<-s.cancelled
}

// Malformed task handles are refused with the rule named.
func TestTaskMalformed(t *testing.T) {
	long := make([]byte, maxTaskIDBytes+1)
	for i := range long {
		long[i] = 'x'
	}
	eras(t, func(t *testing.T, modern bool) {
		s := newTaskServer(t, modern, "completed")
		s.taskID = string(long)
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		m := s.register(t, p, nil)
		fc := invoke(t, m, "mcp__ts__research", nil)
		ce := core.AsError(fc.Err)
		require.NotNil(t, ce)
		assert.Equal(t, RuleTaskMalformed, ce.Rule, ce.Message)
		assert.Contains(t, ce.Message, "taskId")

		s2 := newTaskServer(t, modern, "exploded")
		m2 := s2.register(t, p, nil)
		fc = invoke(t, m2, "mcp__ts__research", nil)
		ce = core.AsError(fc.Err)
		require.NotNil(t, ce)
		assert.Equal(t, RuleTaskMalformed, ce.Rule, ce.Message)
		assert.Contains(t, ce.Message, `"exploded"`)
	})
}

// A failed task fails the call: a 2025-11-25 tool result with isError is a
// tool-error; a 2026-07-28 JSON-RPC error is transport with its code. A
// task the server cancelled fails with its rule.
func TestTaskFailedAndCancelled(t *testing.T) {
	eras(t, func(t *testing.T, modern bool) {
		s := newTaskServer(t, modern, "failed")
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		m := s.register(t, p, nil)
		ce := core.AsError(invoke(t, m, "mcp__ts__research", nil).Err)
		require.NotNil(t, ce)
		if modern {
			assert.Equal(t, core.CodeTransport, ce.Code)
			require.NotNil(t, ce.Transport)
			require.NotNil(t, ce.Transport.RPCCode)
			assert.Equal(t, -32603, *ce.Transport.RPCCode)
			assert.Equal(t, RuleTaskFailed, ce.Rule)
		} else {
			assert.Equal(t, core.CodeToolError, ce.Code, ce.Message)
		}
		s2 := newTaskServer(t, modern, "cancelled")
		m2 := s2.register(t, p, nil)
		ce = core.AsError(invoke(t, m2, "mcp__ts__research", nil).Err)
		require.NotNil(t, ce)
		assert.Equal(t, RuleTaskCancelled, ce.Rule, ce.Message)
	})
}

// On the 2025-11-25 wire an optional tool runs as a task only under
// TasksAlways; a required tool of a server without tasks is refused
// before tools/call.
func TestTaskLegacyModes(t *testing.T) {
	s := newTaskServer(t, false, "completed")
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := s.register(t, p, nil)
	fc := invoke(t, m, "mcp__ts__quick", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Equal(t, "ordinary", fc.Response)

	s2 := newTaskServer(t, false, "completed")
	m2 := s2.register(t, p, &RegisterOptions{Tasks: TasksAlways})
	fc = invoke(t, m2, "mcp__ts__quick", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Equal(t, "done", fc.Response)

	s3 := newTaskServer(t, false, "completed")
	s3.noCaps = true
	m3 := s3.register(t, p, nil)
	ce := core.AsError(invoke(t, m3, "mcp__ts__research", nil).Err)
	require.NotNil(t, ce)
	assert.Equal(t, core.CodeUnsupported, ce.Code)
	assert.Equal(t, RuleTaskRequired, ce.Rule)
	assert.Empty(t, s3.calls, "no tools/call was sent")

	_, err := ParseTaskMode("registerMcpServer", "sometimes")
	assert.Equal(t, core.CodeUnsupportedType, core.AsError(err).Code)
}

// The 2025-11-25 tasks/result that carries the task's input waits for the
// task, not for timeoutMs: its answer may come later than one request may
// take (the guard's own timer is off for it; the task time bounds it).
func TestTaskLegacyResultOutlivesTimeoutMs(t *testing.T) {
	s := newTaskServer(t, false, "working", "input")
	s.hold = 600 * time.Millisecond
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	sec := loopback()
	sec.TimeoutMs = 200
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "ts", URL: s.url},
		&RegisterOptions{Security: sec, Hooks: &ClientHooks{Elicitation: fixedHook("e", `{"action":"accept","content":{"name":"Ada"}}`)}})
	require.NoError(t, err)
	fc := invoke(t, m, "mcp__ts__research", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Contains(t, fc.Response, "Ada")
}

// A server that suggests polling at once (pollInterval 0) is polled no
// faster than the floor: within the task time, at most time/floor + 1
// polls (a loaded machine polls less, never more).
func TestTaskPollFloor(t *testing.T) {
	eras(t, func(t *testing.T, modern bool) {
		setBound(t, &taskMaxTime, 400*time.Millisecond)
		s := newTaskServer(t, modern, "working")
		m := s.manager(t, nil)
		fc := invoke(t, m, "mcp__ts__research", nil)
		assert.Equal(t, RuleTaskTime, core.AsError(fc.Err).Rule)
		s.mu.Lock()
		defer s.mu.Unlock()
		assert.LessOrEqual(t, s.gets, int(taskMaxTime/taskPollFloor)+1)
		assert.Positive(t, s.gets)
	})
}

// On the 2026-07-28 wire a server may ask for input before it creates the
// task (a multi round-trip round on tools/call), then answer the retry
// with a task handle.
func TestTaskModernInputBeforeTheTask(t *testing.T) {
	s := newTaskServer(t, true, "working", "completed")
	s.preInput = true
	var asked []string
	m := s.manager(t, &RegisterOptions{Hooks: &ClientHooks{Elicitation: hookFn("e", func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
		asked = append(asked, string(params))
		return json.RawMessage(`{"action":"accept","content":{}}`), nil
	})}})
	fc := invoke(t, m, "mcp__ts__research", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	require.Len(t, asked, 1)
	assert.Contains(t, asked[0], "before?")
	assert.Len(t, s.calls, 2, "the call, then its retry with the answer")
}

// On the 2025-11-25 wire the task's input is the server's request on the
// tasks/result stream, answered by a hook outside the call; when the call
// is given up, that hook's context ends too (it would run on to timeoutMs),
// and no answer is sent.
func TestTaskLegacyHookStopsWithTheCall(t *testing.T) {
	s := newTaskServer(t, false, "working", "input")
	started, stopped := make(chan struct{}), make(chan error, 1)
	hooks := &ClientHooks{Elicitation: hookFn("e", func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		stopped <- context.Cause(ctx)
		return nil, ctx.Err()
	})}
	m := s.manager(t, &RegisterOptions{Hooks: hooks})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *core.FunctionCalling, 1)
	go func() {
		fc, _ := m.Invoke(ctx, &core.Request{Function: "mcp__ts__research", Arguments: core.NewArguments()})
		done <- fc
	}()
	<-started
	cancel()
	assert.NotEqual(t, core.StatusCompleted, (<-done).Status)
	select {
	case cause := <-stopped:
		assert.ErrorIs(t, cause, errTaskEnded)
	case <-time.After(10 * time.Second): // timeoutMs is 60 s: only the task's end stops it sooner
		t.Fatal("the hook ran on after the call was given up")
	}
	<-s.cancelled
	assert.Empty(t, s.answers, "no answer for a task given up")
}
