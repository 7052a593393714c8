package core

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStatusTerminal(t *testing.T) {
	tests := []struct {
		s    Status
		want bool
	}{
		{StatusPending, false}, {StatusProcessing, false}, {StatusCompleted, true}, {StatusFailed, true},
		{StatusSkipped, true}, {StatusCancelled, true}, {StatusAborted, true}, {Status(""), false}, {Status("other"), false},
	}
	for _, tc := range tests {
		t.Run(string(tc.s), func(t *testing.T) {
			assert.Equal(t, tc.want, tc.s.Terminal(), "got %v for %q, want %v", tc.s.Terminal(), tc.s, tc.want)
		})
	}
}

// pendingCall builds a pending FunctionCalling of a tool around call.
func pendingCall(t *testing.T, call func(ctx context.Context, args *Arguments) (any, error), opts *ToolOptions) *FunctionCalling {
	t.Helper()
	o := ToolOptions{}
	if opts != nil {
		o = *opts
	}
	o.Schema = schemaFor("f", "")
	tool := mustTool(t, &fakeCallable{sig: Signature{Name: "f"}, call: call}, &o)
	return &FunctionCalling{ID: newUUID4(), CreatedAt: epochSeconds(), Metadata: map[string]any{}, Tool: tool,
		Arguments: argsOf(t, `{"x":1}`), Status: StatusPending}
}

func TestInvokeOutcomes(t *testing.T) {
	boom := errors.New("boom")
	echo := func(ctx context.Context, args *Arguments) (any, error) { return args.Values["x"], nil }
	tests := []struct {
		name       string
		call       func(ctx context.Context, args *Arguments) (any, error)
		opts       *ToolOptions
		wantStatus Status
		wantResp   any
		wantErr    error // errors.Is, or nil for no error
		wantArgs   string
	}{
		{"completed", echo, nil, StatusCompleted, json.Number("1"), nil, `{"x":1}`},
		{"callable error", func(context.Context, *Arguments) (any, error) { return "partial", boom }, nil, StatusFailed, nil, boom, `{"x":1}`},
		{"callable panic", func(context.Context, *Arguments) (any, error) { panic("p") }, nil, StatusFailed, nil, ErrInternal, `{"x":1}`},
		{"preprocessor replaces arguments", echo, &ToolOptions{
			Preprocessor: func(ctx context.Context, v any, kw map[string]any) (any, error) {
				a := cloneArguments(v.(*Arguments))
				a.Set("x", kw["x"])
				return a, nil
			},
			PreprocessorKwargs: map[string]any{"x": "from kwargs"},
		}, StatusCompleted, "from kwargs", nil, `{"x":"from kwargs"}`},
		{"preprocessor map", echo, &ToolOptions{
			Preprocessor: func(context.Context, any, map[string]any) (any, error) {
				return map[string]any{"y": 2, "x": 3}, nil
			},
		}, StatusCompleted, 3, nil, `{"x":3,"y":2}`},
		{"preprocessor wrong result", echo, &ToolOptions{
			Preprocessor: func(context.Context, any, map[string]any) (any, error) { return "nope", nil },
		}, StatusFailed, nil, ErrUnsupportedType, `{"x":1}`},
		{"preprocessor nil arguments", echo, &ToolOptions{
			Preprocessor: func(context.Context, any, map[string]any) (any, error) { return (*Arguments)(nil), nil },
		}, StatusFailed, nil, ErrUnsupportedType, `{"x":1}`},
		{"preprocessor error", echo, &ToolOptions{
			Preprocessor: func(context.Context, any, map[string]any) (any, error) { return nil, boom },
		}, StatusFailed, nil, boom, `{"x":1}`},
		{"preprocessor panic", echo, &ToolOptions{
			Preprocessor: func(context.Context, any, map[string]any) (any, error) { panic("pre") },
		}, StatusFailed, nil, ErrInternal, `{"x":1}`},
		{"postprocessor replaces response", echo, &ToolOptions{
			Postprocessor: func(ctx context.Context, v any, kw map[string]any) (any, error) {
				return []any{v, kw["tag"]}, nil
			},
			PostprocessorKwargs: map[string]any{"tag": "t"},
		}, StatusCompleted, []any{json.Number("1"), "t"}, nil, `{"x":1}`},
		{"postprocessor error", echo, &ToolOptions{
			Postprocessor: func(context.Context, any, map[string]any) (any, error) { return nil, boom },
		}, StatusFailed, nil, boom, `{"x":1}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fc := pendingCall(t, tc.call, tc.opts)
			assert.Nil(t, fc.Duration, "no duration before invoke")
			fc.Invoke(context.Background())
			assert.Equal(t, tc.wantStatus, fc.Status, "got %s, want %s (err %v)", fc.Status, tc.wantStatus, fc.Err)
			assert.Equal(t, tc.wantResp, fc.Response)
			if tc.wantErr == nil {
				assert.NoError(t, fc.Err)
			} else {
				assert.ErrorIs(t, fc.Err, tc.wantErr, "got %v, want %v", fc.Err, tc.wantErr)
			}
			require.NotNil(t, fc.Duration, "duration is always set")
			assert.GreaterOrEqual(t, *fc.Duration, 0.0)
			b, err := json.Marshal(fc.Arguments)
			require.NoError(t, err)
			assert.JSONEq(t, tc.wantArgs, string(b))
		})
	}
}

func TestInvokeRunsOnce(t *testing.T) {
	var calls int
	var mu sync.Mutex
	release := make(chan struct{})
	fc := pendingCall(t, func(context.Context, *Arguments) (any, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		<-release
		return "done", nil
	}, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fc.Invoke(context.Background())
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	assert.Equal(t, 1, calls, "got %d calls, want 1", calls)
	assert.Equal(t, StatusCompleted, fc.Status, "every Invoke returns after the one run ended")
	assert.Equal(t, "done", fc.Response)

	d := *fc.Duration
	fc.Invoke(context.Background())
	assert.Equal(t, 1, calls, "a second Invoke is a no-op")
	assert.Equal(t, d, *fc.Duration)
}

func TestInvokeWaiterHonoursItsContext(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	fc := pendingCall(t, func(context.Context, *Arguments) (any, error) { <-release; return nil, nil }, nil)
	go fc.Invoke(context.Background())
	require.Eventually(t, func() bool {
		fc.mu.Lock()
		defer fc.mu.Unlock()
		return fc.Status == StatusProcessing
	}, time.Second, time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	fc.Invoke(ctx)
	assert.Less(t, time.Since(start), time.Second, "a waiting Invoke returns when its own context ends")
}

func TestInvokeSkipsNonPending(t *testing.T) {
	for _, s := range []Status{StatusSkipped, StatusCompleted, StatusAborted} {
		t.Run(string(s), func(t *testing.T) {
			called := false
			fc := pendingCall(t, func(context.Context, *Arguments) (any, error) { called = true; return nil, nil }, nil)
			fc.Status = s
			fc.Invoke(context.Background())
			assert.False(t, called)
			assert.Equal(t, s, fc.Status)
			assert.Nil(t, fc.Duration)
		})
	}
	called := false
	fc := pendingCall(t, func(context.Context, *Arguments) (any, error) { called = true; return nil, nil }, nil)
	fc.Status = ""
	fc.Invoke(context.Background())
	assert.True(t, called, "an empty status counts as pending")
}

func TestInvokeCancellation(t *testing.T) {
	block := func(ctx context.Context, _ *Arguments) (any, error) {
		<-ctx.Done()
		return "late", nil
	}
	ignore := func(context.Context, *Arguments) (any, error) {
		time.Sleep(200 * time.Millisecond)
		return "late", nil
	}
	reason := errors.New("user aborted")
	tests := []struct {
		name    string
		call    func(ctx context.Context, args *Arguments) (any, error)
		timeout time.Duration
		ctx     func() (context.Context, context.CancelFunc)
		wantErr error
	}{
		{"tool timeout", block, 10 * time.Millisecond, nil, ErrTimeout},
		{"tool timeout, callable ignores ctx", ignore, 10 * time.Millisecond, nil, ErrTimeout},
		{"caller deadline", block, 0, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 10*time.Millisecond)
		}, ErrTimeout},
		{"caller cancel with cause", block, 0, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() { time.Sleep(10 * time.Millisecond); cancel(reason) }()
			return ctx, func() { cancel(nil) }
		}, reason},
		{"caller cancel", block, 0, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			go func() { time.Sleep(10 * time.Millisecond); cancel() }()
			return ctx, cancel
		}, context.Canceled},
		{"already cancelled", block, 0, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}, context.Canceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fc := pendingCall(t, tc.call, &ToolOptions{Timeout: tc.timeout})
			ctx := context.Background()
			if tc.ctx != nil {
				var cancel context.CancelFunc
				ctx, cancel = tc.ctx()
				defer cancel()
			}
			start := time.Now()
			fc.Invoke(ctx)
			assert.Less(t, time.Since(start), 150*time.Millisecond, "cancellation does not wait for the callable")
			assert.Equal(t, StatusCancelled, fc.Status)
			assert.ErrorIs(t, fc.Err, tc.wantErr, "got %v, want %v", fc.Err, tc.wantErr)
			assert.Nil(t, fc.Response, "a late result is dropped")
			require.NotNil(t, fc.Duration)
		})
	}
}

// A callable that answers its context's end with an error races the
// cancellation in run's select; whichever is seen first, the call is
// cancelled, never failed. settled decides when the answer is seen first.
func TestSettledAfterCancellationIsCancelled(t *testing.T) {
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	failure := errors.New("transport: the request was cancelled")
	st, r := settled(gone, "f", callResult{err: failure})
	assert.Equal(t, StatusCancelled, st)
	assert.ErrorIs(t, r.err, context.Canceled)
	st, r = settled(context.Background(), "f", callResult{err: failure})
	assert.Equal(t, StatusFailed, st)
	assert.Equal(t, failure, r.err)
	st, r = settled(gone, "f", callResult{response: 3})
	assert.Equal(t, StatusCompleted, st, "a result that arrived is kept")
	assert.Equal(t, 3, r.response)
}

func TestInvokeWithoutTool(t *testing.T) {
	fc := &FunctionCalling{Status: StatusPending}
	//lint:ignore SA1012 a nil context must not crash Invoke: that is what this tests
	fc.Invoke(nil)
	assert.Equal(t, StatusFailed, fc.Status)
	assert.ErrorIs(t, fc.Err, ErrInvalidTool)
	assert.Equal(t, "", fc.Function())

	fc = &FunctionCalling{Tool: &Tool{Schema: schemaFor("f", "")}}
	fc.Invoke(context.Background())
	assert.Equal(t, StatusFailed, fc.Status)
	assert.Equal(t, "f", fc.Function())
}

func TestFunctionCallingFromDict(t *testing.T) {
	fc, err := FunctionCallingFromDict(json.RawMessage(`{}`))
	assert.Nil(t, fc)
	assert.ErrorIs(t, err, ErrNotRestorable)
	assert.Contains(t, err.Error(), "Cannot recreate an event once it's done.")
}
