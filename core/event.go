package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Status is an event's execution status (LionAGI's EventStatus).
type Status string

// The statuses, as LionAGI spells them.
const (
	StatusPending    Status = "pending"
	StatusProcessing Status = "processing"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
	StatusSkipped    Status = "skipped"
	StatusCancelled  Status = "cancelled"
	StatusAborted    Status = "aborted"
)

// Statuses lists every status in LionAGI's order; the JS package's Status
// type and STATUS constants are generated from it (cmd/gen-contract).
var Statuses = []Status{StatusPending, StatusProcessing, StatusCompleted, StatusFailed, StatusSkipped, StatusCancelled, StatusAborted}

// Terminal reports whether s is final: completed, failed, skipped, cancelled
// or aborted.
func (s Status) Terminal() bool {
	switch s {
	case StatusCompleted, StatusFailed, StatusSkipped, StatusCancelled, StatusAborted:
		return true
	}
	return false
}

// FunctionCalling is one call of a tool with validated arguments (LionAGI's
// FunctionCalling event). Manager.Match builds it pending; Invoke runs it
// once. Read its fields after Invoke has returned.
type FunctionCalling struct {
	// ID is a random UUID4 string.
	ID string
	// CreatedAt is the creation time in epoch seconds.
	CreatedAt float64
	// Metadata is free-form and appears in records (with "lion_class").
	Metadata map[string]any
	// Tool is the tool called; never serialised (its function name is).
	Tool *Tool
	// Arguments are the validated, normalised arguments; a preprocessor's
	// result replaces them when the call runs.
	Arguments *Arguments
	// Conversions lists the lax conversions validation made.
	Conversions []Conversion
	// CallID is the provider's call id from the request ("" when none), to
	// pair a response with its call. It is not part of the record.
	CallID string
	// Status is pending until Invoke; "" counts as pending.
	Status Status
	// Response is what the callable (then the postprocessor) returned.
	Response any
	// Err is why the call failed or was cancelled: the callable's or a
	// processor's own error, an internal *Error for a panic, a timeout
	// *Error, or the context's cause.
	Err error
	// Duration is the run time in seconds; nil until invoked.
	Duration *float64

	mu   sync.Mutex
	done chan struct{}
}

// Function returns the tool's function name ("" without a tool).
func (fc *FunctionCalling) Function() string {
	return fc.Tool.Function()
}

// Outcome returns the call's status, response and error, read together:
// Invoke sets them together when the call ends.
func (fc *FunctionCalling) Outcome() (Status, any, error) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return fc.Status, fc.Response, fc.Err
}

// callResult is what the call goroutine hands back.
type callResult struct {
	args     *Arguments
	response any
	err      error
}

// Invoke runs the call once. It never panics and returns nothing: the outcome
// is in Status, Response, Err and Duration. Only a pending event runs: it
// becomes processing, the preprocessor (if any) replaces the arguments, the
// callable runs, the postprocessor (if any) replaces the response, and the
// event ends completed; an error from any of them, or a panic, ends it
// failed with Err set and Response nil. When ctx is done or Tool.Timeout
// passes first, it ends cancelled with Err a timeout *Error (a deadline) or
// the context's cause, and a late result is dropped (the callable keeps
// running until it returns: it should watch its ctx). Duration is always set.
//
// A second Invoke does not run the call again: while the first is running it
// waits for it (or for its own ctx), otherwise it returns at once. An event
// whose Status was set to anything but pending is never run.
func (fc *FunctionCalling) Invoke(ctx context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	fc.mu.Lock()
	if fc.Status != "" && fc.Status != StatusPending {
		done := fc.done
		fc.mu.Unlock()
		if done != nil {
			select {
			case <-done:
			case <-ctx.Done():
			}
		}
		return
	}
	fc.Status = StatusProcessing
	fc.done = make(chan struct{})
	fc.mu.Unlock()

	start := time.Now()
	status, res := fc.run(ctx)

	fc.mu.Lock()
	d := time.Since(start).Seconds()
	fc.Duration = &d
	fc.Status = status
	if res.args != nil {
		fc.Arguments = res.args
	}
	fc.Response = res.response
	fc.Err = res.err
	close(fc.done)
	fc.mu.Unlock()
}

// run performs the call under ctx and the tool's timeout.
func (fc *FunctionCalling) run(ctx context.Context) (Status, callResult) {
	t := fc.Tool
	name := t.Function()
	if t == nil || isNilCallable(t.Callable) {
		return StatusFailed, callResult{err: Errorf(CodeInvalidTool, name, "the FunctionCalling has no tool with a callable.")}
	}
	callCtx := ctx
	if t.Timeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeoutCause(ctx, t.Timeout,
			Errorf(CodeTimeout, name, "tool %s did not finish within %s ms.", name, strconv.FormatFloat(float64(t.Timeout)/float64(time.Millisecond), 'f', -1, 64)))
		defer cancel()
	}
	if callCtx.Err() != nil {
		return StatusCancelled, callResult{err: cancelCause(callCtx, name)}
	}
	ch := make(chan callResult, 1)
	args := fc.Arguments
	go func() {
		var r callResult
		defer func() {
			if p := recover(); p != nil {
				r = callResult{err: panicToError(name, p)}
			}
			ch <- r
		}()
		r = callTool(callCtx, t, name, args)
	}()
	select {
	case r := <-ch:
		return settled(callCtx, name, r)
	case <-callCtx.Done():
		return StatusCancelled, callResult{err: cancelCause(callCtx, name)}
	}
}

// settled is the outcome of a call whose callable answered r: completed
// with its result, failed with its error, or cancelled when it failed after
// callCtx ended (it gave up because of the cancellation, and answered
// before run's select saw the end: cancelled all the same, whichever of
// the two the select picked).
func settled(callCtx context.Context, name string, r callResult) (Status, callResult) {
	switch {
	case r.err != nil && callCtx.Err() != nil:
		return StatusCancelled, callResult{err: cancelCause(callCtx, name)}
	case r.err != nil:
		return StatusFailed, callResult{args: r.args, err: r.err}
	}
	return StatusCompleted, r
}

// callTool runs preprocessor, callable and postprocessor.
func callTool(ctx context.Context, t *Tool, name string, args *Arguments) callResult {
	var r callResult
	if t.Preprocessor != nil {
		v, err := t.Preprocessor(ctx, args, shallowCopyMap(t.PreprocessorKwargs))
		if err != nil {
			return callResult{err: err}
		}
		switch a := v.(type) {
		case *Arguments:
			if a == nil {
				return callResult{err: Errorf(CodeUnsupportedType, name, "the preprocessor of %s returned a nil *Arguments; want *Arguments or map[string]any.", name)}
			}
			args = a
		case map[string]any:
			args = &Arguments{Keys: mapKeysSorted(a), Values: a}
		default:
			return callResult{err: Errorf(CodeUnsupportedType, name, "the preprocessor of %s returned %T; want *Arguments or map[string]any.", name, v)}
		}
		r.args = args
	}
	resp, err := t.Callable.Call(ctx, args)
	if err != nil {
		r.err = err
		return r
	}
	if t.Postprocessor != nil {
		if resp, err = t.Postprocessor(ctx, resp, shallowCopyMap(t.PostprocessorKwargs)); err != nil {
			r.err = err
			return r
		}
	}
	r.response = resp
	return r
}

// cancelCause is the error of a call ended by ctx: a timeout *Error for a
// deadline (the tool's own timeout error when it fired), else the context's
// cause.
func cancelCause(ctx context.Context, name string) error {
	cause := context.Cause(ctx)
	var e *Error
	if errors.As(cause, &e) && e.Code == CodeTimeout {
		return e
	}
	if errors.Is(cause, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Tool: name, Message: fmt.Sprintf("the deadline for tool %s passed.", name), Cause: cause}
	}
	if cause == nil {
		return context.Canceled
	}
	return cause
}

// FunctionCallingFromDict is LionAGI's Event.from_dict: an event cannot be
// recreated, so it always refuses with not-restorable.
func FunctionCallingFromDict(data json.RawMessage) (*FunctionCalling, error) {
	return nil, Errorf(CodeNotRestorable, "", "Cannot recreate an event once it's done.")
}

// mapKeysSorted returns a map's keys sorted, for maps that carry no order.
func mapKeysSorted(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
