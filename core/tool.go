package core

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sync/atomic"
	"time"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// Processor transforms a value around a call: a preprocessor receives the
// arguments (*Arguments) and returns the arguments to call with (*Arguments
// or map[string]any); a postprocessor receives the response and returns the
// response to record. kwargs is a copy of the tool's PreprocessorKwargs or
// PostprocessorKwargs (LionAGI's **preprocessor_kwargs). An error ends the
// call as failed.
type Processor func(ctx context.Context, value any, kwargs map[string]any) (any, error)

// Tool is LionAGI's Tool: a provider schema next to the callable it
// describes. Build one with NewTool (or Func/HandlerFunc + NewTool, or
// Typed). Like LionAGI's Tool it is not frozen: fields may be reassigned after
// construction and are not re-validated; a Manager holds the same *Tool by
// reference. Do not reassign fields while the tool is in use by other
// goroutines.
type Tool struct {
	// ID is a random UUID4 string.
	ID string
	// CreatedAt is the creation time in epoch seconds.
	CreatedAt float64
	// Metadata is free-form and appears in records (with "lion_class").
	Metadata map[string]any
	// Callable is what a FunctionCalling calls; never serialised.
	Callable Callable
	// MCPConfig is the one-entry MCP config of an MCP proxy ({name: config}),
	// already redacted; nil for local tools. Records redact it again.
	MCPConfig map[string]any
	// MCP marks an MCP proxy. An MCP tool never replaces a local tool in a
	// Manager, even with update.
	MCP bool
	// Schema is the provider schema {"type":"function","function":{name,
	// description, parameters, strict?}}; Function() reads its name.
	Schema json.RawMessage
	// RequestOptions is the typed parameters JSON Schema (ToolOptions.Parameters)
	// or nil. When set, arguments are validated and normalised against it
	// before the key checks, and MinimumAcceptableFields is its "required".
	RequestOptions json.RawMessage
	// Preprocessor, when set, replaces the arguments before the call.
	Preprocessor Processor
	// PreprocessorKwargs are passed (copied) to the preprocessor.
	PreprocessorKwargs map[string]any
	// Postprocessor, when set, replaces the response after the call.
	Postprocessor Processor
	// PostprocessorKwargs are passed (copied) to the postprocessor.
	PostprocessorKwargs map[string]any
	// StrictFuncCall selects the strict key check (argument keys equal
	// RequiredFields) instead of the non-strict one (every name of
	// MinimumAcceptableFields present).
	StrictFuncCall bool
	// Coerce is the scalar conversion mode of request-model validation;
	// "" means CoerceLax.
	Coerce CoerceMode
	// Timeout ends a call that runs longer as cancelled with a timeout
	// error; 0 means no timeout.
	Timeout time.Duration
	// InputExamples are argument objects showing a model good calls
	// (ToolOptions.InputExamples), as compact JSON in the given key order,
	// checked by NewTool (a reassignment is not checked again). Provider
	// exports send them (Anthropic's input_examples, or folded into the
	// description); the provider schema and records do not hold them.
	InputExamples []json.RawMessage

	compiled     *CompiledSchema // RequestOptions compiled at construction
	input        *CompiledSchema // ToolOptions.InputSchema: validates when RequestOptions is not given
	absentNulls  map[string]bool // ToolOptions.AbsentNulls
	compiledFrom json.RawMessage // the RequestOptions bytes compiled
	sig          Signature       // the callable's signature read at construction
	sigErr       error
	sigSet       bool
	derived      atomic.Pointer[derivedFields] // cached reads of Schema and RequestOptions
}

// ToolOptions are the knobs of NewTool, mirroring the JS tool() options. A nil
// *ToolOptions means every default; the struct is copied on entry.
type ToolOptions struct {
	// Name overrides the function name (default: the callable's signature
	// name, or the name in Schema). With Schema it renames function.name.
	Name string
	// Description replaces the docstring's description (raw path only).
	Description string
	// ParameterDescriptions replace (never merge with) the docstring's
	// parameter descriptions (raw path only).
	ParameterDescriptions map[string]string
	// Parameters is a JSON Schema object for the arguments: the typed path.
	// It becomes function.parameters (unless Schema is given) and
	// Tool.RequestOptions, and is compiled here. nil, "null" and an empty
	// object {} mean "not given" (LionAGI tests request_options by truthiness).
	Parameters json.RawMessage
	// Schema is a whole provider schema kept byte for byte (except for a Name
	// override); it must be an object whose "function" has a non-empty string
	// "name". Its function.parameters, if any, is compiled to catch a bad
	// schema now, but only Parameters drives argument validation, as in
	// LionAGI. Description, ParameterDescriptions, Strict, SchemaMode and
	// DocstringStyle are ignored when Schema is given.
	Schema json.RawMessage
	// Strict adds "strict": true to the derived schema's function object.
	Strict bool
	// StrictFuncCall selects the strict local key check (default false).
	StrictFuncCall bool
	// Preprocessor replaces the arguments before each call (default none).
	Preprocessor Processor
	// PreprocessorKwargs are passed to Preprocessor (default empty).
	PreprocessorKwargs map[string]any
	// Postprocessor replaces the response after each call (default none).
	Postprocessor Processor
	// PostprocessorKwargs are passed to Postprocessor (default empty).
	PostprocessorKwargs map[string]any
	// SchemaMode is SchemaLionAGI (default) or SchemaAccurate.
	SchemaMode SchemaMode
	// DocstringStyle is "google" (default) or "rest".
	DocstringStyle string
	// Coerce is CoerceLax (default) or CoerceNone.
	Coerce CoerceMode
	// Timeout bounds each call (default 0: none); negative is refused.
	Timeout time.Duration
	// Metadata is copied into Tool.Metadata (default empty).
	Metadata map[string]any
	// InputSchema, when Parameters is not given, validates and normalises
	// the arguments exactly as Parameters would (lax coercion with its
	// conversions reported, unnamed top-level keys dropped, the fast path)
	// without being the tool's request options: Tool.RequestOptions and the
	// record's request_options stay null, the provider schema is not derived
	// from it, and MinimumAcceptableFields still comes from the signature.
	// MCP proxies set it to a discovered tool's inputSchema (default nil).
	InputSchema *CompiledSchema
	// AbsentNulls names top-level arguments for which a null means "not
	// given": Manager.Match removes such a null before validation and
	// reports the conversion {path, "null", "absent"} (default nil: a null is
	// a value like any other). MCP proxies set it to the optional parameters
	// whose schema does not accept null, as MCP's header rules treat a null
	// and an absent value alike (docs/mcp-headers.md).
	AbsentNulls []string
	// InputExamples are argument objects that show a model good calls of
	// the tool (Anthropic's input_examples), each a JSON object (default
	// none). NewTool checks each as a call of the tool, as Manager.Validate
	// would, and refuses with invalid-tool (issues at /inputExamples/<i>)
	// one the tool would refuse, one that only passes by a lax conversion
	// (a string for an integer), one with a key the tool drops, and more
	// than MaxInputExamples or MaxInputExamplesBytes of them.
	InputExamples []json.RawMessage
}

// NewTool builds a Tool around c, as LionAGI's Tool(func_callable=...,
// tool_schema=..., request_options=...) does.
//
// Without opts.Schema the provider schema is derived from c's signature by
// FunctionToSchema (docstring style, descriptions, strict and schema mode
// from opts; Parameters as request options). With opts.Schema it is kept as
// given. opts.Parameters is compiled now.
//
// NewTool refuses with invalid-tool: a nil c, a c whose Signature fails when
// the schema must be derived from it, an empty name, a name CheckToolName
// refuses (control characters, over MaxToolNameBytes), a Schema that is not an
// object with a non-empty string function.name, an unknown SchemaMode or
// Coerce, a negative Timeout, a docstring the parser refuses, and input
// examples the tool would not accept as written (setInputExamples). It refuses
// with invalid-schema: Parameters that is not a JSON object, and a
// Parameters or function.parameters that does not compile.
func NewTool(c Callable, opts *ToolOptions) (*Tool, error) {
	var o ToolOptions
	if opts != nil {
		o = *opts
	}
	if isNilCallable(c) {
		return nil, Errorf(CodeInvalidTool, o.Name, "Value must be a callable function.")
	}
	if err := checkToolOptions(&o); err != nil {
		return nil, err
	}
	sig, sigErr := safeSignature(c)
	t := &Tool{
		ID:                  newUUID4(),
		CreatedAt:           epochSeconds(),
		Metadata:            shallowCopyMap(o.Metadata),
		Callable:            c,
		PreprocessorKwargs:  shallowCopyMap(o.PreprocessorKwargs),
		PostprocessorKwargs: shallowCopyMap(o.PostprocessorKwargs),
		Preprocessor:        o.Preprocessor,
		Postprocessor:       o.Postprocessor,
		StrictFuncCall:      o.StrictFuncCall,
		Coerce:              o.Coerce,
		Timeout:             o.Timeout,
		sig:                 sig,
		sigErr:              sigErr,
		sigSet:              true,
		input:               o.InputSchema,
		absentNulls:         nameSet(o.AbsentNulls),
	}
	if t.Coerce == "" {
		t.Coerce = CoerceLax
	}
	var err error
	if !jsontext.Absent(o.Schema) {
		err = t.useSchema(&o)
	} else {
		err = t.deriveSchema(&o, sig, sigErr)
	}
	if err != nil {
		return nil, err
	}
	if err := t.setInputExamples(o.InputExamples); err != nil { // examples.go
		return nil, err
	}
	return t, nil
}

// checkToolOptions refuses option values NewTool cannot use, with
// invalid-tool naming the option: the modes' enums and a negative timeout.
func checkToolOptions(o *ToolOptions) error {
	switch o.SchemaMode {
	case "", SchemaLionAGI, SchemaAccurate:
	default:
		return Errorf(CodeInvalidTool, o.Name, "schemaMode %q is not supported; use %q or %q.", o.SchemaMode, SchemaLionAGI, SchemaAccurate)
	}
	switch o.Coerce {
	case "", CoerceLax, CoerceNone:
	default:
		return Errorf(CodeInvalidTool, o.Name, "coerce %q is not supported; use %q or %q.", o.Coerce, CoerceLax, CoerceNone)
	}
	if o.Timeout < 0 {
		return Errorf(CodeInvalidTool, o.Name, "timeout must not be negative (got %s).", o.Timeout)
	}
	return nil
}

// useSchema keeps a whole provider schema (ToolOptions.Schema), renamed
// when o.Name says so; its parameters are compiled only to refuse a bad
// one, and o.Parameters, when given, is what validates.
func (t *Tool) useSchema(o *ToolOptions) error {
	schema, name, err := checkProviderSchema(o.Name, o.Schema)
	if err != nil {
		return err
	}
	if err := CheckToolName(firstNonEmpty(o.Name, name)); err != nil {
		return err
	}
	if o.Name != "" && o.Name != name {
		if schema, err = renameFunction(schema, o.Name); err != nil {
			return Errorf(CodeInvalidTool, o.Name, "cannot rename the schema's function: %v", err)
		}
		name = o.Name
	}
	if params, ok := schemaParameters(schema); ok && !jsontext.Absent(params) && !o.InputSchema.compiledFrom(params) {
		if _, err := compileParameters(name, params); err != nil {
			return err
		}
	}
	t.Schema = schema
	if schemaNotGiven(o.Parameters) {
		return nil
	}
	return t.setRequestOptions(name, o.Parameters)
}

// deriveSchema builds the provider schema from the callable's signature
// and docstring (FunctionToSchema), or from o.Parameters on the typed path.
func (t *Tool) deriveSchema(o *ToolOptions, sig Signature, sigErr error) error {
	if sigErr != nil {
		if e, ok := sigErr.(*Error); ok {
			return e
		}
		return &Error{Code: CodeInvalidTool, Tool: o.Name, Message: "cannot read the callable's signature: " + sigErr.Error(), Cause: sigErr}
	}
	if o.Name != "" {
		sig.Name = o.Name
	}
	if sig.Name == "" {
		return Errorf(CodeInvalidTool, "", "Function must have a name.")
	}
	if err := CheckToolName(sig.Name); err != nil {
		return err
	}
	so := &SchemaOptions{
		Style:                 o.DocstringStyle,
		Strict:                o.Strict,
		FuncDescription:       o.Description,
		ParameterDescriptions: o.ParameterDescriptions,
		Mode:                  o.SchemaMode,
	}
	if !schemaNotGiven(o.Parameters) {
		if err := t.setRequestOptions(sig.Name, o.Parameters); err != nil {
			return err
		}
		so.RequestOptions = t.RequestOptions
	}
	schema, err := functionToSchema(sig, so, so.RequestOptions != nil) // compiled: valid JSON
	if err != nil {
		return err
	}
	t.Schema = schema
	return nil
}

// setRequestOptions compiles params and keeps it as the typed schema.
func (t *Tool) setRequestOptions(name string, params json.RawMessage) error {
	cs, err := compileParameters(name, params)
	if err != nil {
		return err
	}
	t.RequestOptions = append(json.RawMessage(nil), bytes.TrimSpace(params)...)
	t.compiled = cs
	t.compiledFrom = t.RequestOptions
	return nil
}

// compileParameters refuses a parameters schema that is not a JSON object,
// then compiles it.
func compileParameters(name string, params json.RawMessage) (*CompiledSchema, error) {
	p := bytes.TrimSpace(params)
	var tp *jsontext.Tape // read once, for this check and the compile
	if len(p) > 0 && p[0] == '{' && len(p) <= MaxSchemaBytes {
		if tp = parseSchemaTape(p); tp != nil {
			defer schemaTapes.Put(tp)
		}
	}
	if len(p) == 0 || p[0] != '{' || tp == nil && !jsontext.Valid(p) {
		return nil, Errorf(CodeInvalidSchema, name, "the parameters schema of %s must be a JSON object.", name)
	}
	return compileSchemaSafely(name, p, tp)
}

// Function returns the function name from the schema (function.name), the
// tool's identity in a Manager; "" when the schema does not have that shape.
func (t *Tool) Function() string {
	if t == nil {
		return ""
	}
	return t.fields().function
}

func (t *Tool) functionUncached() string {
	fn, ok := jsontext.Lookup(t.Schema, "function")
	if !ok {
		return ""
	}
	raw, ok := jsontext.Lookup(fn, "name")
	if !ok {
		return ""
	}
	if raw[0] != '"' {
		return "" // not a string (raw is valid JSON: Lookup checked the schema)
	}
	return jsontext.Unquote(raw)
}

// RequiredFields returns function.parameters.required of the schema, in
// schema order without repeats. It refuses with invalid-schema a schema
// without "required" (LionAGI's KeyError('required'), common for MCP input
// schemas) or of another shape.
func (t *Tool) RequiredFields() ([]string, error) {
	d := t.fields()
	if d.requiredErr != nil {
		return nil, d.requiredErr
	}
	return slices.Clone(d.required), nil
}

func (t *Tool) requiredFieldsUncached(name string) ([]string, error) {
	params, ok := schemaParameters(t.Schema)
	if !ok || jsontext.Absent(params) {
		return nil, noParametersError(name)
	}
	req, ok := jsontext.Lookup(params, "required")
	if !ok {
		return nil, noRequiredError(name)
	}
	fields, ok := stringList(req)
	if !ok {
		if err := json.Unmarshal(req, &fields); err != nil {
			return nil, requiredNotStringsError(name)
		}
	}
	return uniqueStrings(fields), nil
}

// noParametersError is RequiredFields' refusal of a schema without
// function.parameters.
func noParametersError(name string) error {
	return &Error{Code: CodeInvalidSchema, Tool: name, Message: "the schema of " + name + " has no function.parameters, so it has no \"required\"."}
}

// noRequiredError is RequiredFields' refusal of parameters without
// "required".
func noRequiredError(name string) error {
	return &Error{Code: CodeInvalidSchema, Tool: name, Message: "the parameters schema of " + name + " has no \"required\", which the strict check needs."}
}

// requiredNotStringsError is RequiredFields' refusal of a "required" that
// is not an array of strings.
func requiredNotStringsError(name string) error {
	return &Error{Code: CodeInvalidSchema, Tool: name, Message: "\"required\" of " + name + " must be an array of strings."}
}

// stringList reads a JSON array of strings (raw is valid JSON), as
// json.Unmarshal into []string does; false for anything else, which
// json.Unmarshal then decides.
func stringList(raw json.RawMessage) ([]string, bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	items, _ := jsontext.ParseValid(raw).([]any)
	out := make([]string, len(items))
	for i, v := range items {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// MinimumAcceptableFields returns the names the non-strict check requires,
// in order. For a typed tool (RequestOptions set) it is the request schema's
// "required" (none when it has none). Otherwise, from the callable's
// signature: every parameter without a default (rest and keywords parameters
// included), a destructured parameter contributing its fields without a
// default unless it has a default itself, then every name "args", "kwargs"
// or "kw" removed (LionAGI's name rule, not a kind rule). A signature error
// gives none, so the check accepts any arguments. The result is never nil.
func (t *Tool) MinimumAcceptableFields() []string {
	return append([]string{}, t.fields().minimum...)
}

func (t *Tool) minimumAcceptableFieldsUncached() []string {
	out := []string{}
	if !schemaNotGiven(t.RequestOptions) {
		if req, ok := jsontext.Lookup(t.RequestOptions, "required"); ok {
			var fields []string
			if json.Unmarshal(req, &fields) == nil {
				out = append(out, uniqueStrings(fields)...)
			}
		}
		return out
	}
	sig, err := t.signature()
	if err != nil {
		return out
	}
	var names []string
	for _, p := range sig.Params {
		if p.HasDefault {
			continue
		}
		if p.Kind == ParamDestructured {
			for _, f := range p.Fields {
				if !f.HasDefault {
					names = append(names, f.Name)
				}
			}
			continue
		}
		names = append(names, p.Name)
	}
	for _, n := range uniqueStrings(names) {
		switch n {
		case "args", "kwargs", "kw":
			continue
		}
		out = append(out, n)
	}
	return out
}

// signature is the signature read at construction, or read now for a Tool
// built without NewTool.
func (t *Tool) signature() (sig Signature, err error) {
	if t.sigSet {
		return t.sig, t.sigErr
	}
	if isNilCallable(t.Callable) {
		return Signature{}, Errorf(CodeInvalidTool, t.functionUncached(), "the tool has no callable.")
	}
	defer recoverInto(t.functionUncached(), &err)
	return t.Callable.Signature()
}

// ValidateArguments is FunctionCalling's after-validator: with RequestOptions
// the arguments are validated and normalised against it (Normalize, with the
// tool's Coerce mode), then the strict check (keys equal RequiredFields) or
// the non-strict check (MinimumAcceptableFields present) runs. It returns the
// arguments to call with (a copy; the input is not changed) and the lax
// conversions made. It refuses nil args with invalid-request, failed checks
// with invalid-arguments and a strict check on a schema without "required"
// with invalid-schema.
func (t *Tool) ValidateArguments(args *Arguments) (*Arguments, []Conversion, error) {
	d := t.fields()
	name := d.function
	if args == nil {
		return nil, nil, Errorf(CodeInvalidRequest, name, "arguments of %s must be an object, got null.", name)
	}
	var out *Arguments
	var conv []Conversion
	if d.typed {
		cs := t.currentSchema(d)
		if cs == nil {
			var err error
			if cs, err = compileParameters(name, t.RequestOptions); err != nil {
				return nil, nil, err
			}
		}
		coerce := t.Coerce
		if coerce == "" {
			coerce = CoerceLax
		}
		var err error
		// Normalize never mutates its input and returns new arguments.
		if out, conv, err = cs.Normalize(name, args, coerce); err != nil {
			return nil, nil, err
		}
	} else {
		out = cloneArguments(args)
	}
	if t.StrictFuncCall {
		if d.requiredErr != nil {
			return nil, nil, d.requiredErr
		}
		if err := checkStrict(name, out, d.required); err != nil {
			return nil, nil, err
		}
	} else if err := checkNonStrict(name, out, d.minimum); err != nil {
		return nil, nil, err
	}
	return out, conv, nil
}

// currentSchema is the compiled schema that validates the arguments: the
// InputSchema when RequestOptions is not given, else RequestOptions as
// compiled at construction, or nil when RequestOptions was reassigned since
// (the caller compiles it then).
func (t *Tool) currentSchema(d *derivedFields) *CompiledSchema {
	if !d.given {
		return t.input
	}
	if t.compiled != nil && bytes.Equal(t.compiledFrom, t.RequestOptions) {
		return t.compiled
	}
	return nil
}

// ToolFromDict is LionAGI's Tool.from_dict: a record cannot recreate a
// callable, so it always refuses with not-restorable.
func ToolFromDict(data json.RawMessage) (*Tool, error) {
	return nil, Errorf(CodeNotRestorable, "", "`Tool.from_dict` is not supported.")
}

// checkProviderSchema checks that schema is a JSON object whose "function"
// is an object with a non-empty string "name", and returns it trimmed and
// copied with that name.
func checkProviderSchema(tool string, schema json.RawMessage) (json.RawMessage, string, error) {
	s := bytes.TrimSpace(schema)
	if len(s) == 0 || s[0] != '{' || !jsontext.Valid(s) {
		return nil, "", Errorf(CodeInvalidTool, tool, "the tool schema must be a JSON object with function.name.")
	}
	fn, ok := jsontext.Lookup(s, "function")
	if !ok || len(fn) == 0 || fn[0] != '{' {
		return nil, "", Errorf(CodeInvalidTool, tool, "the tool schema must have a \"function\" object.")
	}
	raw, ok := jsontext.Lookup(fn, "name")
	var name string
	if !ok || json.Unmarshal(raw, &name) != nil || name == "" {
		return nil, "", Errorf(CodeInvalidTool, tool, "the tool schema's function must have a non-empty string \"name\".")
	}
	return append(json.RawMessage(nil), s...), name, nil
}

// renameFunction sets function.name in schema, keeping every other byte of
// the members' values and the key order.
func renameFunction(schema json.RawMessage, name string) (json.RawMessage, error) {
	fn, _ := jsontext.Lookup(schema, "function")
	fn2, ok := jsontext.Replace(fn, "name", jsontext.AppendString(nil, name))
	if ok {
		schema, ok = jsontext.Replace(schema, "function", fn2)
	}
	if !ok {
		return nil, Errorf(CodeInvalidTool, "", "not a JSON object")
	}
	return schema, nil
}

// schemaParameters returns function.parameters of a provider schema.
func schemaParameters(schema json.RawMessage) (json.RawMessage, bool) {
	fn, ok := jsontext.Lookup(schema, "function")
	if !ok {
		return nil, false
	}
	return jsontext.Lookup(fn, "parameters")
}

// schemaNotGiven reports whether a request-options schema counts as "not
// given": absent, null or an empty object (LionAGI's truthiness test).
func schemaNotGiven(raw json.RawMessage) bool {
	if jsontext.Absent(raw) {
		return true
	}
	// a valid object without members: "{", white space, "}" (as Split
	// would find, without reading a longer text twice)
	s := bytes.TrimSpace(raw)
	return s[0] == '{' && jsontext.SkipSpace(s, 1) == len(s)-1 && s[len(s)-1] == '}'
}

// isNilCallable reports whether c is nil or holds a nil pointer, func, map,
// slice, chan or interface.
func isNilCallable(c Callable) bool {
	if c == nil {
		return true
	}
	v := reflect.ValueOf(c)
	switch v.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// cloneArguments copies the key slice and the top-level value map.
func cloneArguments(a *Arguments) *Arguments {
	out := &Arguments{Keys: append([]string(nil), a.Keys...), Values: make(map[string]any, len(a.Values))}
	for k, v := range a.Values {
		out.Values[k] = v
	}
	if len(out.Keys) == 0 && len(out.Values) > 0 {
		out.Keys = mapKeysSorted(out.Values)
	}
	return out
}

// shallowCopyMap makes a shallow copy, never nil.
func shallowCopyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// uniqueStrings keeps the first occurrence of each string, in order.
func uniqueStrings(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// nameSet is names as a set; nil for none.
func nameSet(names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// dropAbsentNulls returns args without the top-level nulls the tool's
// AbsentNulls name, and the conversions that say so (args itself, nil,
// when there is none).
func (t *Tool) dropAbsentNulls(args *Arguments) (*Arguments, []Conversion) {
	if t.absentNulls == nil || args == nil {
		return args, nil
	}
	var conv []Conversion
	for _, k := range args.OrderedKeys() {
		if args.Values[k] == nil && t.absentNulls[k] {
			conv = append(conv, Conversion{Path: jsontext.Join("", k), From: "null", To: "absent"})
		}
	}
	if conv == nil {
		return args, nil
	}
	out := &Arguments{Keys: make([]string, 0, args.Len()), Values: make(map[string]any, args.Len())}
	for _, k := range args.OrderedKeys() {
		if v := args.Values[k]; v != nil || !t.absentNulls[k] {
			out.Keys = append(out.Keys, k)
			out.Values[k] = v
		}
	}
	return out, conv
}
