package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Code is one of toolgate's closed set of error codes, shared with the JS
// side (the TypeScript ErrorCode union is generated from Codes).
type Code string

// The closed set of error codes. Each mirrors one LionAGI exception class;
// docs/contract.md, "Errors", says when each is used.
const (
	// CodeInvalidTool: a tool can't be built (not callable, no name, bad MCP
	// config shape, a docstring the parser refuses).
	CodeInvalidTool Code = "invalid-tool"
	// CodeUnsupportedType: registration or schema selection got a value of the
	// wrong kind (LionAGI's TypeError).
	CodeUnsupportedType Code = "unsupported-type"
	// CodeDuplicateTool: the name is already registered and update is false.
	CodeDuplicateTool Code = "duplicate-tool"
	// CodeToolNotFound: a request names no registered tool.
	CodeToolNotFound Code = "tool-not-found"
	// CodeInvalidRequest: a call envelope lacks function or arguments, or they
	// have the wrong type.
	CodeInvalidRequest Code = "invalid-request"
	// CodeInvalidArguments: request-model validation or the strict /
	// non-strict key check failed; Issues lists each problem.
	CodeInvalidArguments Code = "invalid-arguments"
	// CodeInvalidSchema: a schema is malformed, or the strict check was asked
	// of a schema with no "required".
	CodeInvalidSchema Code = "invalid-schema"
	// CodeNotRestorable: Tool and FunctionCalling records cannot be turned back
	// into live objects.
	CodeNotRestorable Code = "not-restorable"
	// CodePolicyDenied: an MCP URL or command refused by the security policy.
	CodePolicyDenied Code = "policy-denied"
	// CodeUnsupported: a feature this runtime cannot offer (stdio MCP).
	CodeUnsupported Code = "unsupported"
	// CodeTransport: network, protocol or server failure talking to MCP;
	// Transport holds the server's answer when there was one.
	CodeTransport Code = "transport"
	// CodeTimeout: a deadline passed.
	CodeTimeout Code = "timeout"
	// CodeToolError: an MCP tool answered with a result whose isError is
	// true (the tool ran and reported a failure); Result holds that result.
	CodeToolError Code = "tool-error"
	// CodeInvalidResult: an MCP tool's structuredContent breaks the
	// outputSchema the server advertised; Issues lists each problem.
	CodeInvalidResult Code = "invalid-result"
	// CodeInternal: a bug caught at a boundary (a recovered panic).
	CodeInternal Code = "internal"
	// CodeAuthFailed: the MCP server asked for OAuth authorization and the
	// flow failed (Auth.Step names where; Auth.OAuthError and
	// Auth.OAuthErrorDescription are the authorization server's when it
	// sent them).
	CodeAuthFailed Code = "auth-failed"
)

// Codes lists every Code in a fixed order. Generators read it; nothing else
// may add codes.
var Codes = []Code{
	CodeInvalidTool, CodeUnsupportedType, CodeDuplicateTool, CodeToolNotFound,
	CodeInvalidRequest, CodeInvalidArguments, CodeInvalidSchema, CodeNotRestorable,
	CodePolicyDenied, CodeUnsupported, CodeTransport, CodeTimeout, CodeInternal,
	CodeToolError, CodeInvalidResult, CodeAuthFailed,
}

// Valid reports whether c is one of Codes.
func (c Code) Valid() bool {
	for _, k := range Codes {
		if k == c {
			return true
		}
	}
	return false
}

// Issue is one problem found while validating a call: a JSON pointer into the
// arguments (or the schema), the JSON Schema keyword or toolgate rule that
// failed, and a message a person can read.
type Issue struct {
	Path    string `json:"path"`
	Keyword string `json:"keyword"`
	Message string `json:"message"`
}

// Error is the only error type toolgate returns. Compare with errors.Is
// against the sentinel values (ErrInvalidArguments, …), which match by Code.
// Messages never carry configured secrets (header values, tokens, env).
//
// What code compares is data: Code always, Issues for argument and schema
// problems (each with its keyword), Rule for a refusal by a named rule (the
// URL policy's rule for policy-denied), and the Detail groups (an MCP
// server's HTTP status and JSON-RPC code, an OAuth flow's step). Message is
// for people.
type Error struct {
	Code    Code    `json:"code"`
	Message string  `json:"message"`
	Tool    string  `json:"tool,omitempty"`
	Issues  []Issue `json:"issues,omitempty"`
	Rule    string  `json:"rule,omitempty"`
	// CallID is the provider's call id of the request refused ("" when it
	// had none), so the refusal can be sent back as that call's result.
	CallID string `json:"callId,omitempty"`
	// Result is the tool's own result when it reported a failure
	// (tool-error: the MCP CallToolResult, compact JSON); nil otherwise.
	Result json.RawMessage `json:"result,omitempty"`
	// Detail holds what some codes say beyond the fields above, one group
	// per kind of failure; its members are written at the top level of
	// the error's JSON ("transport", "auth").
	Detail
	Cause error `json:"-"`
}

// Detail is the part of an Error that only some failures fill: one
// pointer per group, nil when the failure has none of it, each written as
// one JSON member of the error ({"transport": {...}}) when set. A new
// group is a new pointer field here (the JS bridge writes Detail as a
// whole, and the JS ToolgateError copies every member it is sent).
type Detail struct {
	// Transport is what the MCP server answered behind a transport error
	// (also an auth-failed one that ends on a status); nil when the
	// failure had no answer (a network error, a timeout).
	Transport *TransportDetail `json:"transport,omitempty"`
	// Auth says where an auth-failed error's OAuth flow failed, and what
	// the authorization server said; nil for every other code.
	Auth *AuthDetail `json:"auth,omitempty"`
}

// TransportDetail is the answer of an MCP server behind a failure: its
// HTTP status and the JSON-RPC error it sent, each when there was one.
type TransportDetail struct {
	// HTTPStatus is the HTTP status of the server's answer (401, 404, 500,
	// …); 0 when the failure had none (a JSON-RPC error in a 200 answer).
	HTTPStatus int `json:"httpStatus,omitempty"`
	// RPCCode is the code of the JSON-RPC error the server answered (in
	// an HTTP error's body or a 200 answer); nil when it sent none.
	RPCCode *int `json:"rpcCode,omitempty"`
	// RPCMessage is that JSON-RPC error's message, redacted and cut to
	// 300 bytes ("" when it sent none).
	RPCMessage string `json:"rpcMessage,omitempty"`
}

// AuthDetail is where an MCP server's OAuth flow failed (auth-failed).
type AuthDetail struct {
	// Step is the part of the flow that failed: discovery, registration,
	// authorization, token, refresh or step-up.
	Step string `json:"step,omitempty"`
	// OAuthError is the authorization server's OAuth error code
	// (invalid_grant, …), redacted and cut, when it sent one.
	OAuthError string `json:"oauthError,omitempty"`
	// OAuthErrorDescription is its error_description, redacted and cut to
	// 300 bytes, when it sent one.
	OAuthErrorDescription string `json:"oauthErrorDescription,omitempty"`
}

// Error returns "code: message" with the tool name and call id when there
// are.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Tool != "" {
		b.WriteString(" (tool ")
		b.WriteString(e.Tool)
		if e.CallID != "" {
			b.WriteString(", call ")
			b.WriteString(e.CallID)
		}
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(e.Message)
	return b.String()
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Cause }

// Is reports whether target is an *Error with the same Code. A target with an
// empty Code never matches.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code != "" && t.Code == e.Code
}

// Sentinels for errors.Is, one per Code.
var (
	ErrInvalidTool      = &Error{Code: CodeInvalidTool}
	ErrUnsupportedType  = &Error{Code: CodeUnsupportedType}
	ErrDuplicateTool    = &Error{Code: CodeDuplicateTool}
	ErrToolNotFound     = &Error{Code: CodeToolNotFound}
	ErrInvalidRequest   = &Error{Code: CodeInvalidRequest}
	ErrInvalidArguments = &Error{Code: CodeInvalidArguments}
	ErrInvalidSchema    = &Error{Code: CodeInvalidSchema}
	ErrNotRestorable    = &Error{Code: CodeNotRestorable}
	ErrPolicyDenied     = &Error{Code: CodePolicyDenied}
	ErrUnsupported      = &Error{Code: CodeUnsupported}
	ErrTransport        = &Error{Code: CodeTransport}
	ErrTimeout          = &Error{Code: CodeTimeout}
	ErrInternal         = &Error{Code: CodeInternal}
	ErrToolError        = &Error{Code: CodeToolError}
	ErrInvalidResult    = &Error{Code: CodeInvalidResult}
	ErrAuthFailed       = &Error{Code: CodeAuthFailed}
)

// Errorf builds an *Error with the given code, tool name and formatted message.
func Errorf(code Code, tool string, format string, args ...any) *Error {
	return &Error{Code: code, Tool: tool, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error: itself when it is one (or wraps one),
// otherwise an internal error wrapping it.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: err.Error(), Cause: err}
}
