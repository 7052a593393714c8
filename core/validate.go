package core

import "encoding/json"

// CoerceMode chooses which scalar conversions request-model validation makes.
type CoerceMode string

const (
	// CoerceLax makes Pydantic v2's lax scalar conversions ("5" → 5 for
	// integers, "true" → true, 5 → 5.0 for numbers) and reports each one.
	CoerceLax CoerceMode = "lax"
	// CoerceNone converts nothing.
	CoerceNone CoerceMode = "none"
)

// Limits on the arguments of one call.
const (
	// MaxArgumentDepth is the deepest nesting of arrays and objects accepted.
	MaxArgumentDepth = 64
	// MaxArgumentBytes is the largest arguments JSON accepted.
	MaxArgumentBytes = 16 << 20
)

// Conversion records one lax conversion made while normalising arguments.
type Conversion struct {
	Path string `json:"path"` // JSON pointer
	From string `json:"from"` // JSON type before ("string", "integer", …)
	To   string `json:"to"`   // JSON Schema type after
}

// CompiledSchema is a parameters JSON Schema compiled once, ready to validate.
type CompiledSchema struct {
	raw json.RawMessage
}

// CompileSchema compiles a parameters JSON Schema. It never reads files or
// URLs: a $ref outside the document is an invalid-schema error.
func CompileSchema(tool string, schema json.RawMessage) (*CompiledSchema, error) {
	panic("not implemented")
}

// Normalize validates args against the schema and returns them normalised
// like Pydantic's model_dump(exclude_unset=True).
func (s *CompiledSchema) Normalize(tool string, args *Arguments, coerce CoerceMode) (*Arguments, []Conversion, error) {
	panic("not implemented")
}

// CheckStrict is LionAGI's strict check: the argument keys must equal required.
func CheckStrict(tool string, args *Arguments, required []string) error {
	panic("not implemented")
}

// CheckNonStrict is LionAGI's non-strict check: every name in minimum must be
// an argument key.
func CheckNonStrict(tool string, args *Arguments, minimum []string) error {
	panic("not implemented")
}
