package gostruct

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"

	"github.com/toolgate/toolgate/core"
)

// Tool builds a typed tool (LionAGI's request_options path) from fn: its
// Parameters are Schema of T, so arguments are validated and normalised
// against T's schema before the call, and then decoded into a T the way
// encoding/json decodes them (a decoding failure is an invalid-arguments
// error that ends the call as failed). MinimumAcceptableFields is the
// schema's "required". A panic in fn is recovered into an internal error.
// Tool refuses a nil fn or an empty name with invalid-tool, and a T without
// a usable schema with Schema's error.
func Tool[T any, R any](name string, fn func(context.Context, T) (R, error)) (*core.Tool, error) {
	if name == "" {
		return nil, core.Errorf(core.CodeInvalidTool, "", "Function must have a name.")
	}
	if fn == nil {
		return nil, core.Errorf(core.CodeInvalidTool, name, "Value must be a callable function (got a nil func).")
	}
	var zero T
	schema, err := Schema(zero)
	if err != nil {
		return nil, err
	}
	call := core.HandlerFunc(name, func(ctx context.Context, args *core.Arguments) (any, error) {
		in, err := decodeInto[T](name, args)
		if err != nil {
			return nil, err
		}
		r, err := fn(ctx, in)
		if err != nil {
			return nil, err // the function's own error, as is; no zero R beside it
		}
		return r, nil
	})
	return core.NewTool(call, &core.ToolOptions{Name: name, Parameters: schema})
}

// decodeInto decodes the (validated) arguments into a T.
func decodeInto[T any](name string, args *core.Arguments) (T, error) {
	var in T
	values := map[string]any{}
	if args != nil && args.Values != nil {
		values = args.Values
	}
	data, err := json.Marshal(values)
	if err != nil {
		return in, core.Errorf(core.CodeInvalidArguments, name, "arguments of %s are not JSON: %v", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&in); err != nil {
		return in, core.Errorf(core.CodeInvalidArguments, name, "arguments of %s do not decode into %s: %v", name, reflect.TypeFor[T](), err)
	}
	return in, nil
}
