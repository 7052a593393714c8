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

	"github.com/toolgate/toolgate/internal/jsontext"
)

// remoteSchema is a schema the validator module compiled, by its handle
// there; the module forgets it when this is collected.
type remoteSchema struct{ handle []byte }

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
	payload := append(append([]byte(tool), 0), schema...)
	handle, err := remoteCall(tool, validatorOpCompile, payload)
	if err != nil {
		return nil, err
	}
	rs := &remoteSchema{handle: bytes.Clone(handle)}
	runtime.AddCleanup(rs, releaseRemote, rs.handle)
	return rs, nil
}

// releaseRemote tells the validator module to forget a schema.
func releaseRemote(handle []byte) {
	defer func() { _ = recover() }()
	if RemoteValidator != nil {
		RemoteValidator(validatorOpRelease, handle)
	}
}

// validateWith validates v (see validateValue) in the validator module.
func validateWith(sch *remoteSchema, tool string, v any) *Error {
	value, err := jsontext.Marshal(v)
	if err != nil {
		return Errorf(CodeInvalidArguments, tool, "arguments hold a value that is not JSON: %v", err)
	}
	payload := make([]byte, 0, len(sch.handle)+len(tool)+len(value)+2)
	payload = append(append(append(append(append(payload, sch.handle...), 0), tool...), 0), value...)
	_, e := remoteCall(tool, validatorOpValidate, payload)
	return e
}
