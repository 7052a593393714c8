package core

import (
	"encoding/json"
	"slices"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// CallRecord is the state one call's record is written from, whichever
// runtime ran the call: FunctionCalling.ToDict fills one from a Go event, and
// the JS bridge fills one from a JS event whose values JS has already made
// JSON (docs/lionagi.md, "Records"). One writer, so Go and JS records cannot
// drift apart.
type CallRecord struct {
	// ID is the event's UUID.
	ID string
	// CreatedAt is the creation time in epoch seconds.
	CreatedAt float64
	// Metadata is written with its keys sorted, then "lion_class".
	Metadata map[string]any
	// Function is the tool's name.
	Function string
	// Arguments are written as they marshal; nil writes {}.
	Arguments any
	// CallID is the provider's call id; "" writes no call_id member.
	CallID string
	// Status is the event's status; "" counts as pending.
	Status Status
	// Duration is the run time in seconds; nil writes null.
	Duration *float64
	// Response is written as it marshals, or "<unserializable>".
	Response any
	// Err is why the call failed or was cancelled; nil writes null. A
	// *RecordedError is written as it says; any other error as
	// RecordedErrorOf describes it.
	Err error
}

// RecordedError is an error as a call record writes it: {"error": Name,
// "message": Message}, then for a toolgate error (Code set) "code", "issues"
// when Issues is a non-empty JSON array, and "result" (the tool's own result,
// not LionAGI's) when Code is tool-error and Result is not null. A JS
// event's error crosses the bridge as one, described by JS: a ToolgateError,
// an Error's name, or the typeof of any other thrown value.
type RecordedError struct {
	Name    string          `json:"name"`
	Message string          `json:"message"`
	Code    Code            `json:"code,omitempty"`
	Issues  json.RawMessage `json:"issues,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
}

// Error returns the message.
func (e *RecordedError) Error() string { return e.Message }

// ErrorName returns Name, as a record names the error.
func (e *RecordedError) ErrorName() string { return e.Name }

// RecordedErrorOf describes err as a record writes it: an *Error as
// "ToolgateError" with its code, issues and result; any other error under
// ErrorName with its text ("<unprintable error>" when Error panics). It
// returns nil for nil.
func RecordedErrorOf(err error) *RecordedError {
	if err == nil {
		return nil
	}
	if r, ok := err.(*RecordedError); ok {
		return r
	}
	if e, ok := err.(*Error); ok && e != nil {
		r := &RecordedError{Name: "ToolgateError", Message: e.Message, Code: e.Code, Result: e.Result}
		if len(e.Issues) > 0 {
			r.Issues, _ = jsontext.Marshal(e.Issues)
		}
		return r
	}
	return &RecordedError{Name: ErrorName(err), Message: safeErrorText(err)}
}

// ToDict returns the event's record, LionAGI's FunctionCalling.to_dict:
// {id, created_at, metadata, execution: {status, duration, response, error,
// retryable}, function, arguments}, then "call_id" when the call came with a
// provider call id (LionAGI has no such key; a call without one writes
// LionAGI's record exactly). metadata carries "lion_class" =
// FunctionCallingClass ("node_metadata" in mode "db"); duration is null
// before the call; a response that cannot be marshalled is
// "<unserializable>"; error is null or as RecordedError says; retryable is
// always null. It refuses an unknown mode or status with invalid-request and
// metadata that is not JSON with unsupported-type.
func (r *CallRecord) ToDict(mode string) (json.RawMessage, error) {
	name := r.Function
	metaKey, err := metadataKey(mode, name)
	if err != nil {
		return nil, err
	}
	status := r.Status
	if status == "" {
		status = StatusPending
	}
	if !slices.Contains(Statuses, status) {
		return nil, Errorf(CodeInvalidRequest, name, "the call of %s has status %q, which is not one of %v.", name, status, Statuses)
	}
	meta, err := metadataJSON(r.Metadata, FunctionCallingClass, name)
	if err != nil {
		return nil, err
	}
	ex := &objectWriter{tool: name}
	ex.value("status", string(status))
	if r.Duration == nil {
		ex.raw("duration", []byte("null"))
	} else {
		ex.raw("duration", exactFloatJSON(*r.Duration))
	}
	ex.raw("response", responseJSON(r.Response))
	ex.raw("error", errorJSON(RecordedErrorOf(r.Err)))
	ex.raw("retryable", []byte("null"))
	exec, err := ex.finish()
	if err != nil {
		return nil, err
	}

	w := &objectWriter{tool: name}
	w.value("id", r.ID)
	w.raw("created_at", exactFloatJSON(r.CreatedAt))
	w.raw(metaKey, meta)
	w.raw("execution", exec)
	w.value("function", name)
	if r.Arguments == nil {
		w.raw("arguments", []byte("{}"))
	} else {
		w.value("arguments", r.Arguments)
	}
	if r.CallID != "" {
		w.value("call_id", r.CallID)
	}
	return w.finish()
}

// ToDict returns the event's record as CallRecord.ToDict writes it, read
// under the event's lock.
func (fc *FunctionCalling) ToDict(mode string) (json.RawMessage, error) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	r := CallRecord{
		ID: fc.ID, CreatedAt: fc.CreatedAt, Metadata: fc.Metadata, Function: fc.Function(),
		CallID: fc.CallID, Status: fc.Status, Duration: fc.Duration, Response: fc.Response, Err: fc.Err,
	}
	if fc.Arguments != nil {
		r.Arguments = fc.Arguments
	}
	return r.ToDict(mode)
}

// errorJSON writes a record's error member: null, or {"error", "message",
// then "code", "issues", "result" as RecordedError says}.
func errorJSON(e *RecordedError) []byte {
	if e == nil {
		return []byte("null")
	}
	w := &objectWriter{}
	w.value("error", e.Name)
	w.value("message", e.Message)
	if e.Code != "" {
		w.value("code", string(e.Code))
		if nonEmptyArray(e.Issues) {
			w.value("issues", e.Issues)
		}
		if e.Code == CodeToolError && !jsontext.Absent(e.Result) {
			w.value("result", e.Result) // the tool's own (redacted) result: not LionAGI's, which has no tool-error
		}
	}
	b, err := w.finish()
	if err != nil {
		return []byte(`{"error":"error","message":"<unserializable>"}`)
	}
	return b
}

// nonEmptyArray reports whether raw is a JSON array with at least one item.
func nonEmptyArray(raw json.RawMessage) bool {
	var items []json.RawMessage
	return json.Unmarshal(raw, &items) == nil && len(items) > 0
}
