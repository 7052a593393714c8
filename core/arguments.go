package core

// Arguments is a JSON object of call arguments that keeps its top-level key
// order. Values are as encoding/json decodes them with UseNumber: nil, bool,
// json.Number, string, []any, map[string]any.
type Arguments struct {
	Keys   []string
	Values map[string]any
}

// DecodeArguments decodes one JSON object of arguments. It refuses (with
// invalid-arguments) nesting deeper than MaxArgumentDepth and input larger than
// MaxArgumentBytes, and (with invalid-request) anything that is not one JSON
// object, trailing data included.
func DecodeArguments(tool string, data []byte) (*Arguments, error) {
	panic("not implemented")
}
