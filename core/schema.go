package core

import "encoding/json"

// SchemaMode chooses how the raw path derives a schema from a signature.
type SchemaMode string

const (
	// SchemaLionAGI reproduces LionAGI's shipped derivation: every parameter
	// required, defaults ignored, int and float → "number", no annotation →
	// "string", "strict": null present.
	SchemaLionAGI SchemaMode = "lionagi"
	// SchemaAccurate lists only parameters without defaults as required and
	// infers types from defaults.
	SchemaAccurate SchemaMode = "accurate"
)

// SchemaOptions are the knobs of FunctionToSchema (LionAGI's function_to_schema
// keywords). A nil *SchemaOptions means all defaults.
type SchemaOptions struct {
	// Style is the docstring style, "google" (default) or "rest"; matched
	// case-insensitively after trimming. Any other value is an invalid-tool
	// error, but only when the docstring is actually parsed.
	Style string
	// RequestOptions is a JSON Schema object used verbatim as "parameters"
	// (the typed path). nil, empty, "null" or "{}" select the raw path.
	RequestOptions json.RawMessage
	// Strict adds "strict": true to the function object.
	Strict bool
	// FuncDescription replaces the docstring's description when non-empty.
	FuncDescription string
	// ParameterDescriptions replaces (never merges with) the docstring's
	// parameter descriptions when non-empty.
	ParameterDescriptions map[string]string
	// Mode is SchemaLionAGI (default) or SchemaAccurate.
	Mode SchemaMode
}

// Docstring is what a docstring parser extracts.
type Docstring struct {
	// Description is the first line, stripped; nil when there is no docstring.
	Description *string
	// Params maps parameter names to their descriptions.
	Params map[string]string
}

// ExtractDocstring parses doc (raw, before cleandoc) in the given style, exactly
// as LionAGI's extract_docstring does, quirks included.
func ExtractDocstring(doc string, style string) (Docstring, error) {
	panic("not implemented")
}

// FunctionToSchema derives the OpenAI-style provider schema
// {"type":"function","function":{name, description, parameters, strict}} of a
// signature, as LionAGI's function_to_schema does.
func FunctionToSchema(sig Signature, opts *SchemaOptions) (json.RawMessage, error) {
	panic("not implemented")
}

// SchemaForStruct returns the JSON Schema (parameters object) of a Go struct
// value or type, via invopop/jsonschema, inlined without $ref/$defs where
// possible: the analogue of Pydantic's model_json_schema().
func SchemaForStruct(v any) (json.RawMessage, error) {
	panic("not implemented")
}
