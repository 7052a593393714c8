package core

import "context"

// Callable is the executable half of a tool: something with a signature that
// can be called with one object of arguments. Go functions (Func,
// HandlerFunc, Typed), JS functions and MCP proxies implement it.
//
// Signature reports what the raw schema path knows of the callable; an error
// is LionAGI's inspect.signature failure: NewTool refuses the callable unless
// a whole provider schema is given, and MinimumAcceptableFields becomes empty.
//
// Call runs the callable. It receives the arguments after validation (and
// after the preprocessor, if any); an error it returns is the tool's own
// failure and ends the FunctionCalling as failed. Call should return when ctx
// is done; when it does not, the FunctionCalling still ends as cancelled and
// the late result is dropped.
type Callable interface {
	Signature() (Signature, error)
	Call(ctx context.Context, args *Arguments) (any, error)
}
