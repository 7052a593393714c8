package core

import (
	"bytes"
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// SchemaMode chooses how the raw path derives a schema from a signature.
type SchemaMode string

const (
	// SchemaLionAGI reproduces LionAGI's shipped derivation: every parameter
	// required (rest and keywords parameters under their own names, so a
	// **kwargs callable advertises one required "kwargs" string property),
	// defaults ignored, int and float → "number", other annotation names used
	// as they are, no annotation → "string", every property
	// {"type", "description"} with a null description when there is none,
	// "description": null and "strict": null present on the function object.
	SchemaLionAGI SchemaMode = "lionagi"
	// SchemaAccurate is toolgate's correction, a valid JSON Schema that says
	// what the callable accepts:
	//   - required lists only parameters without a default (rest and keywords
	//     parameters never); "required" is always present, possibly [];
	//   - annotations map int → "integer", float → "number", str → "string",
	//     bool → "boolean", list and tuple → "array", dict → "object", and
	//     the JSON Schema type names to themselves; any other name omits
	//     "type" (any value);
	//   - an unannotated parameter takes its type from a JSON-literal default
	//     (an integer literal → "integer", any other number → "number",
	//     string, boolean, array, object; null → no type) and otherwise has
	//     no "type"; a JSON-literal default also appears as "default";
	//   - a rest parameter is {"type": "array"}; a keywords parameter is no
	//     property but sets "additionalProperties": true on parameters;
	//   - "description" keys (function and properties) appear only when there
	//     is a description, "strict" only when true.
	SchemaAccurate SchemaMode = "accurate"
)

// SchemaOptions are the knobs of FunctionToSchema (LionAGI's function_to_schema
// keywords). A nil *SchemaOptions means all defaults.
type SchemaOptions struct {
	// Style is the docstring style, "google" (default, also for "") or "rest";
	// matched case-insensitively after trimming. Any other value is an
	// invalid-tool error, but only when the docstring is actually parsed.
	Style string
	// RequestOptions is a JSON Schema object used verbatim (compacted) as
	// "parameters" (the typed path). nil, empty, "null" or "{}" select the raw
	// path; any other value that is not a JSON object is an invalid-schema
	// error.
	RequestOptions json.RawMessage
	// Strict adds "strict": true to the function object.
	Strict bool
	// FuncDescription replaces the docstring's description when non-empty.
	FuncDescription string
	// ParameterDescriptions replaces (never merges with) the docstring's
	// parameter descriptions when non-empty. Parameters it leaves out have no
	// description.
	ParameterDescriptions map[string]string
	// Mode is SchemaLionAGI (default, also for "") or SchemaAccurate; any
	// other value is an invalid-tool error.
	Mode SchemaMode
}

// FunctionToSchema derives the OpenAI-style provider schema
// {"type":"function","function":{name, description, parameters, strict}} of a
// signature, as LionAGI's function_to_schema does, in that key order.
//
// The docstring (sig.Doc) is parsed only when FuncDescription or
// ParameterDescriptions is empty; the overrides then replace the extracted
// values, never merge with them. Without RequestOptions, parameters come from
// sig.Params in declared order under the rules of opts.Mode (see SchemaLionAGI
// and SchemaAccurate); a ParamDestructured parameter contributes its Fields as
// top-level properties instead of itself (a field that is itself destructured
// is an "object" property; a rest field is treated as a keywords parameter),
// and its fields are never required in accurate mode when it has a default. A
// name seen twice keeps its first position and its last definition, and is
// required at most once.
//
// It refuses, with invalid-tool: a signature without a name, a parameter or
// field without a name, an unknown parameter kind, an unknown Mode, and every
// docstring ExtractDocstring refuses; with invalid-schema: RequestOptions that
// is not a JSON object. Errors name sig.Name as the tool.
func FunctionToSchema(sig Signature, opts *SchemaOptions) (json.RawMessage, error) {
	return functionToSchema(sig, opts, false)
}

// functionToSchema is FunctionToSchema; requestValid says that
// opts.RequestOptions is known to be valid JSON (a schema compiled
// already), which need not be read again to be compacted.
func functionToSchema(sig Signature, opts *SchemaOptions, requestValid bool) (json.RawMessage, error) {
	var o SchemaOptions
	if opts != nil {
		o = *opts
	}
	mode := o.Mode
	if mode == "" {
		mode = SchemaLionAGI
	}
	if mode != SchemaLionAGI && mode != SchemaAccurate {
		return nil, Errorf(CodeInvalidTool, sig.Name,
			"schema mode %q is not supported (want %q or %q)", string(mode), SchemaLionAGI, SchemaAccurate)
	}
	if sig.Name == "" {
		return nil, Errorf(CodeInvalidTool, "", "the function has no name; a tool needs one")
	}

	description, paramDescs, err := resolveDescriptions(sig, o)
	if err != nil {
		return nil, err
	}

	parameters, typed, err := requestOptionsSchema(sig.Name, o.RequestOptions, requestValid)
	if err != nil {
		return nil, err
	}
	if !typed {
		props, err := collectProperties(sig)
		if err != nil {
			return nil, err
		}
		parameters = writeParameters(props, paramDescs, mode)
	}

	var b bytes.Buffer
	b.WriteString(`{"type":"function","function":{"name":`)
	b.Write(jsontext.AppendString(b.AvailableBuffer(), sig.Name))
	switch {
	case description != nil:
		b.WriteString(`,"description":`)
		b.Write(jsontext.AppendString(b.AvailableBuffer(), *description))
	case mode == SchemaLionAGI:
		b.WriteString(`,"description":null`)
	}
	b.WriteString(`,"parameters":`)
	b.Write(parameters)
	switch {
	case o.Strict:
		b.WriteString(`,"strict":true`)
	case mode == SchemaLionAGI:
		b.WriteString(`,"strict":null`)
	}
	b.WriteString("}}")
	return json.RawMessage(b.Bytes()), nil
}

// resolveDescriptions is step 2 of LionAGI's algorithm: the docstring is
// parsed only when one of the overrides is empty, and each non-empty override
// wins over what was extracted.
func resolveDescriptions(sig Signature, o SchemaOptions) (*string, map[string]string, error) {
	var description *string
	if o.FuncDescription != "" {
		d := o.FuncDescription
		description = &d
	}
	paramDescs := o.ParameterDescriptions
	if description != nil && len(paramDescs) > 0 {
		return description, paramDescs, nil
	}
	doc, err := ExtractDocstring(sig.Doc, o.Style)
	if err != nil {
		e := AsError(err)
		e.Tool = sig.Name
		return nil, nil, e
	}
	if description == nil {
		description = doc.Description
	}
	if len(paramDescs) == 0 {
		paramDescs = doc.Params
	}
	return description, paramDescs, nil
}

// requestOptionsSchema returns the compacted RequestOptions and true when they
// select the typed path, or false when they are absent, null or {}.
func requestOptionsSchema(tool string, raw json.RawMessage, valid bool) (json.RawMessage, bool, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, false, nil
	}
	if valid && trimmed[0] == '{' && compactAlready(trimmed) {
		if string(trimmed) == "{}" {
			return nil, false, nil
		}
		return trimmed, true, nil
	}
	var compact bytes.Buffer
	if err := compactJSON(&compact, trimmed); err != nil {
		return nil, false, &Error{Code: CodeInvalidSchema, Tool: tool,
			Message: "RequestOptions is not valid JSON: " + err.Error(), Cause: err}
	}
	if compact.Bytes()[0] != '{' {
		return nil, false, Errorf(CodeInvalidSchema, tool,
			"RequestOptions must be a JSON Schema object, got %s", jsontext.Kind(compact.Bytes()))
	}
	if compact.String() == "{}" {
		return nil, false, nil
	}
	return json.RawMessage(compact.Bytes()), true, nil
}

// property is one entry of the derived "properties" object.
type property struct {
	name string
	// kind is ParamPlain for ordinary properties (destructured fields
	// included), ParamRest or ParamKeywords for collectors, and
	// ParamDestructured for a nested destructured field.
	kind       ParamKind
	typeName   string
	hasDefault bool
	// optionalParent marks a field of a destructured parameter that has a
	// default itself.
	optionalParent bool
	def            json.RawMessage
}

// collectProperties flattens the signature into properties, in order,
// refusing unnamed and unknown parameters.
func collectProperties(sig Signature) ([]property, error) {
	var props []property
	for i, p := range sig.Params {
		switch p.Kind {
		case ParamPlain, ParamRest, ParamKeywords:
			if p.Name == "" {
				return nil, Errorf(CodeInvalidTool, sig.Name, "parameter %d has no name", i+1)
			}
			props = append(props, property{name: p.Name, kind: p.Kind, typeName: p.Type,
				hasDefault: p.HasDefault, def: defaultOf(p)})
		case ParamDestructured:
			for j, f := range p.Fields {
				if f.Name == "" {
					return nil, Errorf(CodeInvalidTool, sig.Name,
						"field %d of destructured parameter %d has no name", j+1, i+1)
				}
				prop := property{name: f.Name, kind: f.Kind, typeName: f.Type,
					hasDefault: f.HasDefault, def: defaultOf(f), optionalParent: p.HasDefault}
				switch f.Kind {
				case ParamPlain, ParamKeywords, ParamDestructured:
				case ParamRest:
					// {a, ...rest} collects the remaining keys, like **kwargs.
					prop.kind = ParamKeywords
				default:
					return nil, Errorf(CodeInvalidTool, sig.Name,
						"field %q of destructured parameter %d has unknown kind %d", f.Name, i+1, int(f.Kind))
				}
				props = append(props, prop)
			}
		default:
			return nil, Errorf(CodeInvalidTool, sig.Name, "parameter %q has unknown kind %d", p.Name, int(p.Kind))
		}
	}
	return props, nil
}

// defaultOf is p.Default when p declares a default, else nil: a Default
// without HasDefault is ignored.
func defaultOf(p Param) json.RawMessage {
	if !p.HasDefault {
		return nil
	}
	return p.Default
}

// writeParameters renders the raw-path parameters object.
func writeParameters(props []property, descs map[string]string, mode SchemaMode) json.RawMessage {
	var order []string
	bodies := map[string][]byte{}
	var required []string
	isRequired := map[string]bool{}
	additional := false
	for _, p := range props {
		if mode == SchemaAccurate && p.kind == ParamKeywords {
			additional = true
			continue
		}
		var body []byte
		if mode == SchemaLionAGI {
			body = lionagiProperty(p, descs)
		} else {
			body = accurateProperty(p, descs)
		}
		if _, seen := bodies[p.name]; !seen {
			order = append(order, p.name)
		}
		bodies[p.name] = body
		req := mode == SchemaLionAGI ||
			(p.kind != ParamRest && !p.hasDefault && !p.optionalParent)
		if req && !isRequired[p.name] {
			isRequired[p.name] = true
			required = append(required, p.name)
		}
	}

	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for i, name := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsontext.AppendString(b.AvailableBuffer(), name))
		b.WriteByte(':')
		b.Write(bodies[name])
	}
	b.WriteString(`},"required":[`)
	for i, name := range required {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsontext.AppendString(b.AvailableBuffer(), name))
	}
	b.WriteByte(']')
	if additional {
		b.WriteString(`,"additionalProperties":true`)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// lionagiTypes is LionAGI's py_json_msp.
var lionagiTypes = map[string]string{
	"str": "string", "int": "number", "float": "number", "list": "array",
	"tuple": "array", "bool": "boolean", "dict": "object",
}

// accurateTypes maps annotation names to JSON Schema types in accurate mode.
var accurateTypes = map[string]string{
	"str": "string", "int": "integer", "float": "number", "list": "array",
	"tuple": "array", "bool": "boolean", "dict": "object",
	"string": "string", "integer": "integer", "number": "number", "array": "array",
	"boolean": "boolean", "object": "object", "null": "null",
}

// lionagiProperty renders {"type": ..., "description": ...} as LionAGI does.
func lionagiProperty(p property, descs map[string]string) []byte {
	typ := "string"
	switch {
	case p.kind == ParamDestructured && p.typeName == "":
		typ = "object"
	case p.typeName != "":
		typ = p.typeName
		if mapped, ok := lionagiTypes[typ]; ok {
			typ = mapped
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	b.Write(jsontext.AppendString(b.AvailableBuffer(), typ))
	b.WriteString(`,"description":`)
	if d, ok := descs[p.name]; ok {
		b.Write(jsontext.AppendString(b.AvailableBuffer(), d))
	} else {
		b.WriteString("null")
	}
	b.WriteByte('}')
	return b.Bytes()
}

// accurateProperty renders a property under SchemaAccurate's rules.
func accurateProperty(p property, descs map[string]string) []byte {
	def := jsonLiteral(p.def)
	typ := ""
	switch {
	case p.kind == ParamRest:
		typ = "array"
	case p.typeName != "":
		typ = accurateTypes[p.typeName]
	case p.kind == ParamDestructured:
		typ = "object"
	case def != nil:
		typ = literalType(def)
	}
	var fields [][]byte
	if typ != "" {
		var f bytes.Buffer
		f.WriteString(`"type":`)
		f.Write(jsontext.AppendString(f.AvailableBuffer(), typ))
		fields = append(fields, f.Bytes())
	}
	if d, ok := descs[p.name]; ok {
		var f bytes.Buffer
		f.WriteString(`"description":`)
		f.Write(jsontext.AppendString(f.AvailableBuffer(), d))
		fields = append(fields, f.Bytes())
	}
	if def != nil && p.kind != ParamRest {
		fields = append(fields, append([]byte(`"default":`), def...))
	}
	var b bytes.Buffer
	b.WriteByte('{')
	b.Write(bytes.Join(fields, []byte(",")))
	b.WriteByte('}')
	return b.Bytes()
}

// jsonLiteral returns raw compacted when it is one valid JSON value, else nil
// (a default that is no JSON literal, e.g. a JS expression, is ignored).
func jsonLiteral(raw json.RawMessage) []byte {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return nil
	}
	var b bytes.Buffer
	if err := compactJSON(&b, trimmed); err != nil {
		return nil
	}
	return b.Bytes()
}

// literalType is the JSON Schema type of a compacted JSON literal: "integer"
// for a number written without fraction or exponent, "" for null.
func literalType(lit []byte) string {
	switch k := jsontext.Kind(lit); k {
	case "null":
		return ""
	case "number":
		if bytes.ContainsAny(lit, ".eE") {
			return "number"
		}
		return "integer"
	default:
		return k
	}
}
