package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// hookLog records what an approve hook was asked.
type hookLog struct {
	mu   sync.Mutex
	reqs []ApprovalRequest
}

func (l *hookLog) add(r *ApprovalRequest) {
	l.mu.Lock()
	l.reqs = append(l.reqs, *r)
	l.mu.Unlock()
}

func (l *hookLog) all() []ApprovalRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ApprovalRequest(nil), l.reqs...)
}

// registerGated registers the annotated server's tools (typed "n": integer
// on wipe) under approval with hook and returns the manager.
func registerGated(t *testing.T, h *hostile, p *Pool, require_ []ApprovalRule, hook ApprovalFunc, timeoutMs int) *core.Manager {
	t.Helper()
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{
		Security: loopback(), Qualify: bp(false),
		Approval: &Approval{Require: require_, Approve: hook, TimeoutMs: timeoutMs},
	})
	require.NoError(t, err)
	return m
}

// typedServer is annotatedServer with wipe taking {"n": integer}.
func typedServer(t *testing.T) *hostile {
	h := newHostile(t)
	wipe := annotated("wipe", map[string]any{"destructiveHint": true})
	wipe["inputSchema"] = map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}, "required": []any{"n"}}
	h.toolsList = listOf(
		annotated("read", map[string]any{"readOnlyHint": true, "openWorldHint": false}),
		annotated("write", map[string]any{"destructiveHint": false, "openWorldHint": true}),
		wipe,
	)
	return h
}

func TestApprovalAllowedSeesCoercedArguments(t *testing.T) {
	h := typedServer(t)
	calls, last := callCounter(h)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log hookLog
	m := registerGated(t, h, p, []ApprovalRule{ApproveDestructive}, func(_ context.Context, r *ApprovalRequest) (bool, string, error) {
		log.add(r)
		return true, "", nil
	}, 0)

	fc := invoke(t, m, "read", map[string]any{"q": "x"})
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Empty(t, log.all(), "a read-only tool is not destructive: no approval asked")

	fc = invoke(t, m, "wipe", map[string]any{"n": "7"})
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	got := log.all()
	require.Len(t, got, 1)
	assert.Equal(t, "s", got[0].Server)
	assert.Equal(t, "wipe", got[0].Tool)
	assert.Equal(t, "wipe", got[0].Name)
	assert.JSONEq(t, `{"n":7}`, string(got[0].Arguments), "the hook must see the coerced arguments")
	assert.JSONEq(t, `{"destructiveHint":true}`, string(got[0].Annotations))
	assert.Equal(t, []ApprovalRule{ApproveDestructive}, got[0].Rules)
	assert.Equal(t, int32(2), calls.Load())
	assert.JSONEq(t, `{"name":"wipe","arguments":{"n":7}}`, last.Load().(string))
}

func TestApprovalDeniedSendsNothing(t *testing.T) {
	h := typedServer(t)
	calls, _ := callCounter(h)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	cases := []struct {
		name string
		hook ApprovalFunc
		want string
	}{
		{"refused", func(context.Context, *ApprovalRequest) (bool, string, error) { return false, "", nil }, "the approve hook refused it"},
		{"refused with a reason", func(context.Context, *ApprovalRequest) (bool, string, error) { return false, "not on Fridays", nil },
			`the approve hook refused it: "not on Fridays"`},
		{"threw", func(context.Context, *ApprovalRequest) (bool, string, error) {
			return true, "", core.Errorf(core.CodeInternal, "", "the approve hook threw: TypeError")
		}, "the approve hook threw: TypeError"},
		{"panicked", func(context.Context, *ApprovalRequest) (bool, string, error) { panic("x") }, "the approve hook panicked"},
		{"timed out", func(ctx context.Context, _ *ApprovalRequest) (bool, string, error) {
			<-ctx.Done()
			return true, "", nil
		}, "the approve hook did not answer within 30 ms"},
		{"ignores its context and times out", func(context.Context, *ApprovalRequest) (bool, string, error) {
			time.Sleep(300 * time.Millisecond)
			return true, "", nil
		}, "the approve hook did not answer within 30 ms"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Only the hooks that do not answer meet the short timeout: on a busy
			// machine the others may take longer than 30 ms to be judged.
			timeoutMs := 60000
			if strings.Contains(tc.want, "did not answer") {
				timeoutMs = 30
			}
			m := registerGated(t, h, p, []ApprovalRule{ApproveAll}, tc.hook, timeoutMs)
			before := calls.Load()
			fc := invoke(t, m, "wipe", map[string]any{"n": 1})
			require.Equal(t, core.StatusFailed, fc.Status)
			var ce *core.Error
			require.True(t, errors.As(fc.Err, &ce), "got %T %v", fc.Err, fc.Err)
			assert.Equal(t, core.CodePolicyDenied, ce.Code)
			assert.Equal(t, "approval", ce.Rule)
			assert.Equal(t, "wipe", ce.Tool)
			assert.Contains(t, ce.Message, `tool "wipe" needs approval (requireApproval: all) and was not sent: `+tc.want)
			assert.Equal(t, before, calls.Load(), "the server must get no tools/call for a denied call")
		})
	}
}

func TestApprovalRulesSelectTools(t *testing.T) {
	h := typedServer(t)
	callCounter(h)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log hookLog
	hook := func(_ context.Context, r *ApprovalRequest) (bool, string, error) { log.add(r); return true, "", nil }
	m := registerGated(t, h, p, []ApprovalRule{ApproveOpenWorld}, hook, 0)
	for _, name := range []string{"read", "write", "wipe"} {
		args := map[string]any{"q": "x"}
		if name == "wipe" {
			args = map[string]any{"n": 1}
		}
		require.Equal(t, core.StatusCompleted, invoke(t, m, name, args).Status)
	}
	var asked []string
	for _, r := range log.all() {
		asked = append(asked, r.Tool)
	}
	assert.Equal(t, []string{"write", "wipe"}, asked, "openWorld: write says so, wipe has the default; read says false")

	// Declared tools have no annotations: the defaults make them destructive.
	m2 := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m2, &ServerConfig{Name: "d", URL: h.url}, &RegisterOptions{
		Security: loopback(), ToolNames: []string{"read"},
		Approval: &Approval{Require: []ApprovalRule{ApproveDestructive}, Approve: func(context.Context, *ApprovalRequest) (bool, string, error) {
			return false, "", nil
		}},
	})
	require.NoError(t, err)
	fc := invoke(t, m2, "mcp__d__read", map[string]any{"kwargs": "{}"})
	require.ErrorIs(t, fc.Err, core.ErrPolicyDenied)
}

func TestApprovalRefusals(t *testing.T) {
	h := typedServer(t)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	yes := func(context.Context, *ApprovalRequest) (bool, string, error) { return true, "", nil }
	cases := []struct {
		name string
		a    *Approval
		want string
	}{
		{"requireApproval without approve", &Approval{Require: []ApprovalRule{ApproveDestructive}}, "needs an approve hook"},
		{"approve without requireApproval", &Approval{Approve: yes}, "without requireApproval"},
		{"unknown rule", &Approval{Require: []ApprovalRule{"readOnly"}, Approve: yes}, "requireApproval[0]"},
		{"negative timeout", &Approval{Require: []ApprovalRule{ApproveAll}, Approve: yes, TimeoutMs: -1}, "approvalTimeoutMs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := core.NewManager(nil)
			before := h.requests.Load()
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "s", URL: h.url}, &RegisterOptions{Security: loopback(), Approval: tc.a})
			var ce *core.Error
			require.True(t, errors.As(err, &ce), "got %v", err)
			assert.Equal(t, core.CodeInvalidRequest, ce.Code)
			assert.Equal(t, "s", ce.Tool)
			assert.Contains(t, ce.Message, tc.want)
			assert.Empty(t, m.Tools())
			assert.Equal(t, before, h.requests.Load(), "a refusal must contact nobody")
			_, _, err = LoadMcpConfig(context.Background(), p, m, []byte(`{"mcpServers":{"s":{"url":"`+h.url+`"}}}`),
				&LoadOptions{Security: loopback(), Approval: tc.a})
			require.ErrorIs(t, err, core.ErrInvalidRequest, "the loader must refuse the whole load")
		})
	}
}

func TestApprovalRequestJSON(t *testing.T) {
	b, err := json.Marshal(&ApprovalRequest{Server: "s", Tool: "t", Name: "mcp__s__t", Arguments: json.RawMessage(`{"a":1}`),
		Annotations: json.RawMessage("null"), Rules: []ApprovalRule{ApproveAll}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"server":"s","tool":"t","name":"mcp__s__t","arguments":{"a":1},"annotations":null,"rules":["all"]}`, string(b))
}

func TestApprovalCallerCancellationIsNotADenial(t *testing.T) {
	h := typedServer(t)
	calls, _ := callCounter(h)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	asked := make(chan struct{})
	m := registerGated(t, h, p, []ApprovalRule{ApproveAll}, func(ctx context.Context, _ *ApprovalRequest) (bool, string, error) {
		close(asked)
		<-ctx.Done()
		return false, "", ctx.Err()
	}, 0)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-asked; cancel() }()
	a := core.NewArguments()
	a.Set("q", "x")
	fc, err := m.Invoke(ctx, &core.Request{Function: "read", Arguments: a})
	require.NoError(t, err)
	assert.Equal(t, core.StatusCancelled, fc.Status, "got %s (%v)", fc.Status, fc.Err)
	var ce *core.Error
	if errors.As(fc.Err, &ce) {
		assert.NotEqual(t, "approval", ce.Rule)
	}
	assert.Zero(t, calls.Load())

	// The gate's own error path, called directly: a done context is the caller's failure.
	px := &proxy{cfg: &ServerConfig{Name: "s"}, name: "n", wire: "w", gate: &gate{rules: []ApprovalRule{ApproveAll}, timeout: time.Second,
		approve: func(context.Context, *ApprovalRequest) (bool, string, error) { return true, "", nil }}}
	done, stop := context.WithCancel(context.Background())
	stop()
	err = px.approve(done, json.RawMessage(`{}`))
	require.Error(t, err)
	assert.NotEqual(t, "approval", core.AsError(err).Rule, "a cancelled caller is not denied by approval")
}
