package core

// The errors of provider calls: a refusal carries the call it refuses (the
// provider's call id and the tool), and argument text that is not JSON is
// invalid-arguments with the byte position where it goes wrong.

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// WithCall returns err carrying the call: a copy of its *Error with CallID
// set to id and Tool to tool when it had none. err itself is never changed
// (an error may be shared: a tool's compile error is returned to every
// call). A nil err, an empty id with no tool to add, or an error that is no
// *Error is returned as is.
func WithCall(err error, tool, id string) error {
	var e *Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	if (id == "" || e.CallID == id) && (tool == "" || e.Tool != "") {
		return err
	}
	c := *e
	if id != "" {
		c.CallID = id
	}
	if c.Tool == "" {
		c.Tool = tool
	}
	return &c
}

// argumentsError is the error Match returns for a request whose
// RawArguments could not be decoded: the error ParseToolCalls met, else
// the same decoding, by the request's provider rules, run again.
func (r *Request) argumentsError() error {
	if r.argsErr != nil {
		return r.argsErr
	}
	raw := jsontext.AppendString(nil, r.RawArguments)
	provider := r.Provider
	if !knownProvider(provider) {
		provider = ProviderLionAGI
	}
	if _, err := providerArguments(provider, r.Function, "arguments", raw); err != nil {
		return err
	}
	return Errorf(CodeInvalidRequest, r.Function, "the arguments of %s could not be read.", r.Function)
}

// malformedArguments refuses an arguments member that is a string whose
// text is not JSON, with invalid-arguments (keyword "json") naming the
// byte of the text where the JSON goes wrong. Any other member is nil: the
// caller reads it.
func malformedArguments(name, key string, raw json.RawMessage) error {
	r := bytes.TrimSpace(raw)
	if len(r) == 0 || r[0] != '"' {
		return nil
	}
	var s string
	if json.Unmarshal(r, &s) != nil || json.Valid([]byte(s)) {
		return nil
	}
	var v any
	err := json.Unmarshal([]byte(s), &v)
	pos := len(s)
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 && int(se.Offset) <= len(s) && se.Error() != "unexpected end of JSON input" {
		pos = int(se.Offset) - 1
	}
	why := "it is empty"
	if err != nil && len(bytes.TrimSpace([]byte(s))) > 0 {
		why = err.Error()
	}
	detail := "not valid JSON at byte " + strconv.Itoa(pos) + ": " + why
	return &Error{Code: CodeInvalidArguments, Tool: name, Cause: err,
		Message: "the " + strconv.Quote(key) + " text of " + name + " is " + detail,
		Issues:  []Issue{{Path: "", Keyword: "json", Message: "the arguments are " + detail}}}
}
