package provider

// Results out: one call's outcome as the tool-result message of a provider.

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// ToolResult is the outcome of one call, as FormatToolResult writes it back
// to a provider: the call id and function name it answers, and either the
// output of a completed call or the error of a refused, failed or
// cancelled one.
type ToolResult struct {
	// CallID is the provider's id of the call; the OpenAI and Anthropic
	// targets need it.
	CallID string `json:"callId,omitempty"`
	// Function is the tool's name.
	Function string `json:"function"`
	// Status is the call's final status; "" with Error set is a call
	// refused before it ran (by Match or Validate).
	Status core.Status `json:"status,omitempty"`
	// Output is the JSON value a completed call returned (a JSON string is
	// sent as its text; null or empty is null).
	Output json.RawMessage `json:"output,omitempty"`
	// Error is why the call did not complete; nil for a completed one.
	Error *ToolResultError `json:"error,omitempty"`
}

// ToolResultError is the error of a ToolResult: the toolgate code ("" for
// an error of the tool's own), the message, the problems found in the
// arguments, each with its JSON Pointer and keyword, and a tool-error's
// own result.
type ToolResultError struct {
	Code    core.Code    `json:"code,omitempty"`
	Message string       `json:"message"`
	Issues  []core.Issue `json:"issues,omitempty"`
	// Result is the tool's own result of a tool-error (the MCP
	// CallToolResult, as Error.Result holds it); the mcp target sends its
	// content items. nil for every other error.
	Result json.RawMessage `json:"result,omitempty"`
}

// FormatCall writes a finished call's outcome as target's tool-result
// message (FormatToolResult of ResultOf). It refuses what FormatToolResult
// refuses, and a call that has not finished (pending or processing) with
// invalid-request.
func FormatCall(target string, fc *core.FunctionCalling) (json.RawMessage, error) {
	r, err := ResultOf(fc)
	if err != nil {
		return nil, err
	}
	return FormatToolResult(target, r)
}

// ResultOf returns the call's outcome as a ToolResult, for
// FormatToolResult and FormatToolResults: the response as JSON for a
// completed call, the error for one that failed or was cancelled. It
// refuses a call that has not finished (pending or processing) with
// invalid-request carrying the call id, and a response that cannot be
// written as JSON with unsupported-type.
func ResultOf(fc *core.FunctionCalling) (*ToolResult, error) {
	status, response, callErr := fc.Outcome()
	r := &ToolResult{CallID: fc.CallID, Function: fc.Function(), Status: status}
	switch {
	case status == core.StatusCompleted:
		out, err := jsontext.Marshal(response)
		if err != nil {
			return nil, core.Errorf(core.CodeUnsupportedType, r.Function, "the response of %s cannot be written as JSON: %v", r.Function, err)
		}
		r.Output = out
	case status.Terminal():
		r.Error = resultError(callErr)
	default:
		return nil, core.WithCall(core.Errorf(core.CodeInvalidRequest, r.Function, "the call of %s has not finished (status %q): invoke it first.", r.Function, statusName(status)), r.Function, fc.CallID)
	}
	return r, nil
}

// statusName is s, with "" named pending.
func statusName(s core.Status) string {
	if s == "" {
		return string(core.StatusPending)
	}
	return string(s)
}

// ErrorToolResult is the ToolResult of a call Match, Validate or Invoke
// refused: its tool, call id and error, as err carries them (a toolgate
// *Error from a request with a call id carries both). err nil is nil.
func ErrorToolResult(err error) *ToolResult {
	if err == nil {
		return nil
	}
	r := &ToolResult{Error: resultError(err)}
	var e *core.Error
	if errors.As(err, &e) {
		r.Function, r.CallID = e.Tool, e.CallID
	}
	return r
}

// resultError is err as a ToolResultError: a toolgate *Error's code,
// message and issues; any other error's text.
func resultError(err error) *ToolResultError {
	if err == nil {
		return &ToolResultError{Message: "the call did not complete"}
	}
	var e *core.Error
	if errors.As(err, &e) {
		out := &ToolResultError{Code: e.Code, Message: e.Message, Issues: e.Issues}
		if e.Code == core.CodeToolError {
			out.Result = e.Result
		}
		return out
	}
	return &ToolResultError{Message: err.Error()}
}

// outputText is a completed call's content as text: a JSON string's text
// as is, any other value as its JSON.
func outputText(out json.RawMessage) string {
	r := bytes.TrimSpace(out)
	if len(r) == 0 {
		return "null"
	}
	if r[0] == '"' {
		var s string
		if json.Unmarshal(r, &s) == nil {
			return s
		}
	}
	return string(r)
}
