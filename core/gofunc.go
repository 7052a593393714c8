package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

var (
	reflectContextType = reflect.TypeFor[context.Context]()
	reflectErrorType   = reflect.TypeFor[error]()
)

// goFunc is a Go function called by reflection with arguments by name.
type goFunc struct {
	name   string
	fn     reflect.Value
	hasCtx bool
	params []Param
	types  []reflect.Type // one per param; the element slice type for a variadic
}

// Func wraps a Go function as a Callable. Go keeps no parameter names at run
// time, so paramNames gives one name per parameter, in order, not counting an
// optional leading context.Context (which receives the call's context).
//
// Each parameter's Type is the Python name of its kind, so LionAGI's type map
// applies to the raw schema: strings → "str", integers → "int", floats →
// "float", bool → "bool", slices and arrays → "list" ([]byte → "str", as JSON
// carries it base64), maps and structs → "dict", interfaces → "" (no
// annotation); pointers take their element's name. A variadic last parameter
// is a rest parameter: it takes a JSON array whose items are spread.
//
// fn may return nothing, (R), (error) or (R, error). At call time each
// argument is taken by name and converted to the parameter's Go type the way
// encoding/json decodes it; a missing argument (other than the variadic), an
// argument no parameter takes, null for a non-nillable type or a value of the
// wrong type is an invalid-arguments error from Call, which ends the call as
// failed (Python's TypeError at call time). A panic in fn is recovered into
// an internal error.
//
// Func refuses with invalid-tool: an empty name, a fn that is not a non-nil
// func, a name count that differs from the parameter count, an empty or
// repeated name, a parameter of a kind JSON cannot carry (chan, func,
// complex, unsafe pointer, context.Context after the first position) and
// any other result shape.
func Func(name string, fn any, paramNames ...string) (Callable, error) {
	if name == "" {
		return nil, Errorf(CodeInvalidTool, "", "Function must have a name.")
	}
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func || v.IsNil() {
		return nil, Errorf(CodeInvalidTool, name, "Value must be a callable function (got %T).", fn)
	}
	ft := v.Type()
	f := &goFunc{name: name, fn: v}
	start := 0
	if ft.NumIn() > 0 && ft.In(0) == reflectContextType {
		f.hasCtx = true
		start = 1
	}
	if n := ft.NumIn() - start; n != len(paramNames) {
		return nil, Errorf(CodeInvalidTool, name,
			"Func %s takes %d parameters (besides a leading context.Context) but %d names were given.", name, n, len(paramNames))
	}
	seen := map[string]bool{}
	for i, pn := range paramNames {
		if pn == "" {
			return nil, Errorf(CodeInvalidTool, name, "parameter %d of %s has an empty name.", i, name)
		}
		if seen[pn] {
			return nil, Errorf(CodeInvalidTool, name, "parameter name %q of %s is repeated.", pn, name)
		}
		seen[pn] = true
		pt := ft.In(start + i)
		p := Param{Name: pn, Kind: ParamPlain}
		tt := pt
		if ft.IsVariadic() && start+i == ft.NumIn()-1 {
			p.Kind = ParamRest
			tt = pt.Elem()
		}
		tn, err := pythonTypeName(tt)
		if err != nil {
			return nil, Errorf(CodeInvalidTool, name, "parameter %q of %s: %v.", pn, name, err)
		}
		p.Type = tn
		f.params = append(f.params, p)
		f.types = append(f.types, pt)
	}
	switch ft.NumOut() {
	case 0:
	case 1:
	case 2:
		if ft.Out(1) != reflectErrorType {
			return nil, Errorf(CodeInvalidTool, name, "%s must return (R, error); its second result is %s.", name, ft.Out(1))
		}
	default:
		return nil, Errorf(CodeInvalidTool, name, "%s returns %d results; want none, (R), (error) or (R, error).", name, ft.NumOut())
	}
	return f, nil
}

// pythonTypeName maps a Go type to the Python annotation name LionAGI's type
// map understands, refusing kinds JSON cannot carry.
func pythonTypeName(t reflect.Type) (string, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflectContextType {
		return "", fmt.Errorf("context.Context is only accepted as the first parameter")
	}
	switch t.Kind() {
	case reflect.String:
		return "str", nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "int", nil
	case reflect.Float32, reflect.Float64:
		return "float", nil
	case reflect.Bool:
		return "bool", nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "str", nil
		}
		return "list", nil
	case reflect.Array:
		return "list", nil
	case reflect.Map, reflect.Struct:
		return "dict", nil
	case reflect.Interface:
		return "", nil
	}
	return "", fmt.Errorf("type %s cannot be decoded from JSON", t)
}

// Signature returns the name and parameters given to Func; Doc is empty (Go
// keeps no doc comments at run time: use ToolOptions.Description).
func (f *goFunc) Signature() (Signature, error) {
	ps := make([]Param, len(f.params))
	copy(ps, f.params)
	return Signature{Name: f.name, Params: ps}, nil
}

// Call converts the arguments by name and calls the function.
func (f *goFunc) Call(ctx context.Context, args *Arguments) (res any, err error) {
	defer recoverInto(f.name, &err)
	if ctx == nil {
		ctx = context.Background()
	}
	var values map[string]any
	var keys []string
	if args != nil {
		values, keys = args.Values, args.OrderedKeys()
	}
	for _, k := range keys {
		if !f.takes(k) {
			return nil, Errorf(CodeInvalidArguments, f.name, "%s() got an unexpected keyword argument '%s'", f.name, k)
		}
	}
	in := make([]reflect.Value, 0, len(f.params)+1)
	if f.hasCtx {
		in = append(in, reflect.ValueOf(ctx))
	}
	var rest []reflect.Value
	for i, p := range f.params {
		v, ok := values[p.Name]
		if p.Kind == ParamRest {
			if !ok || v == nil {
				continue
			}
			items, isList := v.([]any)
			if !isList {
				return nil, Errorf(CodeInvalidArguments, f.name, "%s() argument '%s' must be an array (it collects the variadic values), got %s", f.name, p.Name, decodedJSONType(v))
			}
			for j, item := range items {
				rv, err := convertGoArg(item, f.types[i].Elem())
				if err != nil {
					return nil, Errorf(CodeInvalidArguments, f.name, "%s() argument '%s/%d': %v", f.name, p.Name, j, err)
				}
				rest = append(rest, rv)
			}
			continue
		}
		if !ok {
			return nil, Errorf(CodeInvalidArguments, f.name, "%s() missing required argument: '%s'", f.name, p.Name)
		}
		rv, err := convertGoArg(v, f.types[i])
		if err != nil {
			return nil, Errorf(CodeInvalidArguments, f.name, "%s() argument '%s': %v", f.name, p.Name, err)
		}
		in = append(in, rv)
	}
	in = append(in, rest...)
	return splitResults(f.fn.Call(in))
}

func (f *goFunc) takes(name string) bool {
	for _, p := range f.params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// splitResults turns a func's results into (response, error).
func splitResults(out []reflect.Value) (any, error) {
	switch len(out) {
	case 0:
		return nil, nil
	case 1:
		if out[0].Type() == reflectErrorType {
			if out[0].IsNil() {
				return nil, nil
			}
			return nil, out[0].Interface().(error)
		}
		return out[0].Interface(), nil
	}
	if !out[1].IsNil() {
		return nil, out[1].Interface().(error)
	}
	return out[0].Interface(), nil
}

// convertGoArg converts one decoded JSON value to t, as encoding/json would
// decode its JSON text into t; null is only accepted by nillable types.
func convertGoArg(v any, t reflect.Type) (reflect.Value, error) {
	if v == nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
			return reflect.Zero(t), nil
		}
		return reflect.Value{}, fmt.Errorf("null is not a %s", t)
	}
	if vt := reflect.TypeOf(v); vt.AssignableTo(t) {
		rv := reflect.New(t).Elem()
		rv.Set(reflect.ValueOf(v))
		return rv, nil
	}
	if err := exactFields(v, t, ""); err != nil {
		return reflect.Value{}, err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return reflect.Value{}, fmt.Errorf("value is not JSON: %v", err)
	}
	ptr := reflect.New(t)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(ptr.Interface()); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			if ute.Field != "" {
				return reflect.Value{}, fmt.Errorf("cannot use JSON %s as %s (at %s)", ute.Value, ute.Type, ute.Field)
			}
			return reflect.Value{}, fmt.Errorf("cannot use JSON %s as %s", ute.Value, ute.Type)
		}
		return reflect.Value{}, fmt.Errorf("cannot use %s as %s: %v", decodedJSONType(v), t, err)
	}
	return ptr.Elem(), nil
}

// decodedJSONType names the JSON type of a decoded value for messages,
// telling integers from other numbers as JSON Schema does.
func decodedJSONType(v any) string {
	switch x := v.(type) {
	case json.Number:
		if !jsontext.IsIntegerText(string(x)) {
			return jsontext.Number
		}
		return "integer"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	}
	return jsontext.KindOf(v)
}

// recoverInto turns a panic into an internal *Error stored in *err. It must
// be deferred directly.
func recoverInto(tool string, err *error) {
	if r := recover(); r != nil {
		*err = panicToError(tool, r)
	}
}

// panicToError turns a recovered panic value into an internal *Error whose
// cause keeps the value and the stack.
func panicToError(tool string, r any) error {
	return &Error{
		Code:    CodeInternal,
		Tool:    tool,
		Message: fmt.Sprintf("panic in tool %s: %v", tool, r),
		Cause:   &panicError{value: r, stack: string(debug.Stack())},
	}
}

// panicError keeps a recovered panic value and its stack as an error cause.
type panicError struct {
	value any
	stack string
}

// Error returns the panic value and the stack (for Go logs; the Error's
// Message, which JS sees, carries only the value).
func (p *panicError) Error() string { return fmt.Sprintf("panic: %v\n%s", p.value, p.stack) }

// Handler is a Go tool body that takes the whole arguments object, like a JS
// handler or an MCP proxy.
type Handler func(ctx context.Context, args *Arguments) (any, error)

// handlerFunc adapts a Handler to Callable.
type handlerFunc struct {
	name string
	h    Handler
}

// HandlerFunc wraps h as a Callable named name. Its signature is one
// keywords parameter named "kwargs" (LionAGI's **kwargs proxy signature), so
// the raw schema advertises a single required "kwargs" string property and
// MinimumAcceptableFields is empty: give the tool Parameters or a Schema to
// describe its real arguments. A nil h makes Signature fail, so NewTool
// refuses it with invalid-tool; a panic in h is recovered into an internal
// error.
func HandlerFunc(name string, h Handler) Callable {
	return &handlerFunc{name: name, h: h}
}

func kwargsSignature(name string) Signature {
	return Signature{Name: name, Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}
}

// Signature returns the kwargs signature, or invalid-tool for a nil handler.
func (f *handlerFunc) Signature() (Signature, error) {
	if f.h == nil {
		return Signature{}, Errorf(CodeInvalidTool, f.name, "handler of %s is nil.", f.name)
	}
	return kwargsSignature(f.name), nil
}

// Call calls the handler, recovering a panic into an internal error.
func (f *handlerFunc) Call(ctx context.Context, args *Arguments) (res any, err error) {
	defer recoverInto(f.name, &err)
	if f.h == nil {
		return nil, Errorf(CodeInvalidTool, f.name, "handler of %s is nil.", f.name)
	}
	if args == nil {
		args = &Arguments{Values: map[string]any{}}
	}
	return f.h(ctx, args)
}

// exactFields refuses a key of v that would reach a field of the struct
// type t (or of a struct inside it) only by encoding/json's case-insensitive
// match: validation saw the key as written ("\u212aind" is not "kind"), so
// the call must not receive it under another name. Keys that match no field
// are left for encoding/json, which ignores them.
func exactFields(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := jsonFields(t)
		for k, e := range m {
			if f, ok := fields[k]; ok {
				if err := exactFields(e, f, path+"/"+k); err != nil {
					return err
				}
				continue
			}
			for name := range fields {
				if strings.EqualFold(name, k) {
					return fmt.Errorf("key %q at %s names field %q only by case; keys match exactly", k, jsontext.Display(path), name)
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if a, ok := v.([]any); ok {
			for i, e := range a {
				if err := exactFields(e, t.Elem(), path+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		if m, ok := v.(map[string]any); ok {
			for k, e := range m {
				if err := exactFields(e, t.Elem(), path+"/"+k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// jsonFields maps the JSON names of a struct's fields, those of embedded
// structs included, to their types, as encoding/json names them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					if _, dup := out[k]; !dup {
						out[k] = v
					}
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
