//go:build toolgate_remote_validator

package core

// The validator in another module: under the toolgate_remote_validator
// build tag the validator (santhosh-tekuri/jsonschema/v5) is not linked;
// compiling and validating with it go through RemoteValidator to the
// validator module, which runs engine_local.go and answers with the same
// errors. The fast path and everything else stay here.

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime"
	"sync"
	"weak"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// remoteSchema is a schema the validator module compiled, by its handle
// there; the module forgets it once this is collected (remoteHandles). raw
// is the schema, compiled again if the module answers that it does not
// hold the handle (it was restarted since), which gives a new handle.
type remoteSchema struct {
	mu     sync.Mutex
	handle []byte
	raw    json.RawMessage
}

// current is the schema's handle now.
func (rs *remoteSchema) current() []byte {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.handle
}

// remoteHandles are the handles of the schemas the validator module holds
// for this module, each with a weak pointer to its remoteSchema. A
// collected remoteSchema's pointer reads nil as soon as the collector has
// seen it unreachable, with no finalizer or cleanup to run: a finalizer's
// goroutine gets no time while JS makes only synchronous calls, so the
// module's schemas would pile up in a process that only validates. Each
// compile sweeps them when they have doubled since the last sweep (at
// least minSweep): it runs the collector first (a compile that allocates
// little may otherwise find none collected yet), then releases the
// collected ones in one call. The module holds at most about twice the
// live schemas (and minSweep), and a compile costs O(1) amortised.
var remoteHandles = struct {
	sync.Mutex
	live    map[string]weak.Pointer[remoteSchema]
	sweepAt int
}{live: map[string]weak.Pointer[remoteSchema]{}, sweepAt: minSweep}

// minSweep is the number of held schemas below which compiles do not sweep.
const minSweep = 64

// trackRemote adds rs to remoteHandles, then sweeps them if it is time.
func trackRemote(rs *remoteSchema) {
	h := &remoteHandles
	h.Lock()
	h.live[string(rs.current())] = weak.Make(rs)
	var dead [][]byte
	if len(h.live) >= h.sweepAt {
		runtime.GC() // so that every unreachable remoteSchema's weak pointer reads nil now
		for k, p := range h.live {
			if p.Value() == nil {
				dead = append(dead, []byte(k))
				delete(h.live, k)
			}
		}
		h.sweepAt = max(minSweep, 2*len(h.live))
	}
	h.Unlock()
	if len(dead) > 0 {
		releaseRemote(dead)
	}
}

// validatorSchema is a schema compiled with the validator.
type validatorSchema = *remoteSchema

// errValidatorUnavailable is the cause of the errors that say the
// validator module could not be reached.
var errValidatorUnavailable = errors.New("the validator module is not available")

// validatorUnavailable reports whether err says the validator could not be
// reached (a later call may succeed).
func validatorUnavailable(err *Error) bool { return err != nil && err.Cause == errValidatorUnavailable }

// remoteCall calls the validator module and splits its answer: the result,
// or the error it reported (with tool), or one saying it is unavailable.
func remoteCall(tool string, op int, payload []byte) ([]byte, *Error) {
	if RemoteValidator == nil {
		return nil, &Error{Code: CodeUnsupported, Tool: tool, Cause: errValidatorUnavailable,
			Message: "this schema needs the full JSON Schema validator, and this build has no way to reach it"}
	}
	out := RemoteValidator(op, payload)
	if len(out) == 0 {
		return nil, Errorf(CodeInternal, tool, "the validator module gave no answer")
	}
	switch out[0] {
	case validatorOK:
		return out[1:], nil
	case validatorUnreachable:
		return nil, &Error{Code: CodeUnsupported, Tool: tool, Cause: errValidatorUnavailable, Message: string(out[1:])}
	}
	var e Error
	if err := json.Unmarshal(out[1:], &e); err != nil || !e.Code.Valid() {
		return nil, Errorf(CodeInternal, tool, "the validator module gave an answer that is not an error: %.200q", out)
	}
	e.Tool = tool
	return nil, &e
}

// compileValidator compiles a schema in the validator module; its errors
// are the ones CompileSchema gives with the validator linked.
func compileValidator(tool string, schema json.RawMessage, _ any, _ bool) (*remoteSchema, *Error) {
	handle, err := remoteCall(tool, validatorOpCompile, validatorPayload([]byte(tool), schema))
	if err != nil {
		return nil, err
	}
	rs := &remoteSchema{handle: bytes.Clone(handle), raw: bytes.Clone(schema)}
	trackRemote(rs)
	return rs, nil
}

// recompile compiles sch again in the validator module, which no longer
// holds its handle, and keeps the new handle.
func recompile(sch *remoteSchema, tool string) *Error {
	handle, err := remoteCall(tool, validatorOpCompile, validatorPayload([]byte(tool), sch.raw))
	if err != nil {
		return err
	}
	sch.mu.Lock()
	old := sch.handle
	sch.handle = bytes.Clone(handle)
	sch.mu.Unlock()
	remoteHandles.Lock()
	delete(remoteHandles.live, string(old)) // the restarted module never held it
	remoteHandles.Unlock()
	trackRemote(sch)
	return nil
}

// unknownSchema reports whether e is the validator module's answer that it
// holds no schema by the handle it was sent.
func unknownSchema(e *Error) bool {
	return e != nil && e.Code == CodeInternal && len(e.Issues) == 1 && e.Issues[0].Keyword == "unknownSchema"
}

// releaseRemote tells the validator module to forget schemas.
func releaseRemote(handles [][]byte) {
	defer func() { _ = recover() }()
	if RemoteValidator != nil {
		RemoteValidator(validatorOpRelease, validatorPayload(handles...))
	}
}

// validateWith validates v (see validateValue) in the validator module.
func validateWith(sch *remoteSchema, tool string, v any) *Error {
	value, err := jsontext.Marshal(v)
	if err != nil {
		return Errorf(CodeInvalidArguments, tool, "arguments hold a value that is not JSON: %v", err)
	}
	_, e := remoteCall(tool, validatorOpValidate, validatorPayload(sch.current(), []byte(tool), value))
	if unknownSchema(e) {
		if e = recompile(sch, tool); e == nil {
			_, e = remoteCall(tool, validatorOpValidate, validatorPayload(sch.current(), []byte(tool), value))
		}
	}
	runtime.KeepAlive(sch) // its handle must not be released during the call
	return e
}
