package core

import "encoding/json"

// ParamKind says how a parameter binds, in the terms both Python and JS share.
type ParamKind int

const (
	// ParamPlain is an ordinary named parameter.
	ParamPlain ParamKind = iota
	// ParamRest collects the remaining positional values (Python *args, JS ...rest).
	ParamRest
	// ParamKeywords collects the remaining keyword values (Python **kwargs).
	ParamKeywords
	// ParamDestructured is a JS destructured object parameter ({a, b}); its
	// Fields are the keys it takes.
	ParamDestructured
)

// ParamKinds lists every ParamKind; the TypeScript ParamKind union is
// generated from their names.
var ParamKinds = []ParamKind{ParamPlain, ParamRest, ParamKeywords, ParamDestructured}

// paramKindNames are the kinds' names, as JSON and JS spell them.
var paramKindNames = [...]string{ParamPlain: "plain", ParamRest: "rest", ParamKeywords: "keywords", ParamDestructured: "destructured"}

// String returns the kind's name ("plain", "rest", "keywords",
// "destructured"), or "unknown".
func (k ParamKind) String() string {
	if k >= 0 && int(k) < len(paramKindNames) {
		return paramKindNames[k]
	}
	return "unknown"
}

// MarshalJSON writes the kind as its name: the JS side reads strings, never
// bare numbers. An unknown kind is refused.
func (k ParamKind) MarshalJSON() ([]byte, error) {
	if k < 0 || int(k) >= len(paramKindNames) {
		return nil, Errorf(CodeInternal, "", "unknown parameter kind %d", int(k))
	}
	return []byte(`"` + paramKindNames[k] + `"`), nil
}

// UnmarshalJSON reads a kind's name; anything else is refused with
// unsupported-type.
func (k *ParamKind) UnmarshalJSON(data []byte) error {
	var name string
	if err := json.Unmarshal(data, &name); err == nil {
		for i, n := range paramKindNames {
			if n == name {
				*k = ParamKind(i)
				return nil
			}
		}
	}
	return Errorf(CodeUnsupportedType, "", "a parameter kind must be one of plain, rest, keywords, destructured; got %s", data)
}

// Param describes one parameter of a callable, as far as it can be known
// without running it.
type Param struct {
	// Name is the parameter's name as written.
	Name string `json:"name"`
	// Kind is how the parameter binds.
	Kind ParamKind `json:"kind"`
	// HasDefault is true when the parameter declares a default value.
	HasDefault bool `json:"hasDefault,omitempty"`
	// Default is the default's value as a JSON literal when it is one
	// (numbers, strings, booleans, null, arrays, objects); nil otherwise.
	// Only the accurate schema mode reads it, to infer a type.
	Default json.RawMessage `json:"default,omitempty"`
	// Type is the annotation's type name ("str", "int", "float", "list",
	// "tuple", "bool", "dict" map to JSON types; any other name is used
	// as is); "" means unannotated.
	Type string `json:"type,omitempty"`
	// Fields are the keys of a destructured parameter, in order.
	Fields []Param `json:"fields,omitempty"`
}

// Signature is what the raw schema path knows of a callable: its name, its
// docstring and its parameters in declared order.
type Signature struct {
	Name   string  `json:"name"`
	Doc    string  `json:"doc,omitempty"`
	Params []Param `json:"params"`
}
