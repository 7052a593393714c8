package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// pinnedAdd is LionAGI's auto-generated schema of add, byte for byte
// (docs/lionagi.md, "The derivation").
const pinnedAdd = `{"type":"function","function":{"name":"add","description":"Add two numbers.","parameters":{"type":"object","properties":{"a":{"type":"number","description":"first number"},"b":{"type":"number","description":"second number"}},"required":["a","b"]},"strict":null}}`

func addSignature() Signature {
	return Signature{
		Name: "add",
		Doc:  "Add two numbers.\n\n    Args:\n        a (int): first number\n        b (int): second number\n    ",
		Params: []Param{
			{Name: "a", Type: "int"},
			{Name: "b", Type: "int"},
		},
	}
}

func TestFunctionToSchemaPinnedForm(t *testing.T) {
	for _, opts := range []*SchemaOptions{nil, {}, {Style: "google", Mode: SchemaLionAGI}} {
		got, err := FunctionToSchema(addSignature(), opts)
		require.NoError(t, err)
		assert.Equal(t, pinnedAdd, string(got), "got %s, want %s", got, pinnedAdd)
	}
}

func TestFunctionToSchemaExact(t *testing.T) {
	tests := []struct {
		name string
		sig  Signature
		opts *SchemaOptions
		want string
	}{
		{
			name: "lionagi: every parameter required, defaults ignored, no annotation is string",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a"}, {Name: "b", HasDefault: true, Default: json.RawMessage("2")}}},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"a":{"type":"string","description":null},"b":{"type":"string","description":null}},"required":["a","b"]},"strict":null}}`,
		},
		{
			name: "lionagi: *args and **kwargs under their own names",
			sig:  Signature{Name: "f", Params: []Param{{Name: "items", Kind: ParamRest}, {Name: "kwargs", Kind: ParamKeywords, Type: "dict"}}},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"items":{"type":"string","description":null},"kwargs":{"type":"object","description":null}},"required":["items","kwargs"]},"strict":null}}`,
		},
		{
			name: "lionagi: type map and raw names",
			sig: Signature{Name: "f", Params: []Param{{Name: "a", Type: "str"}, {Name: "b", Type: "float"}, {Name: "c", Type: "tuple"},
				{Name: "d", Type: "bool"}, {Name: "e", Type: "set"}, {Name: "g", Type: "Optional"}}},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"a":{"type":"string","description":null},"b":{"type":"number","description":null},"c":{"type":"array","description":null},"d":{"type":"boolean","description":null},"e":{"type":"set","description":null},"g":{"type":"Optional","description":null}},"required":["a","b","c","d","e","g"]},"strict":null}}`,
		},
		{
			name: "lionagi: strict true",
			sig:  Signature{Name: "f", Params: []Param{}},
			opts: &SchemaOptions{Strict: true},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{},"required":[]},"strict":true}}`,
		},
		{
			name: "lionagi: nested destructured field is an object property",
			sig: Signature{Name: "f", Params: []Param{{Kind: ParamDestructured, Fields: []Param{
				{Name: "opts", Kind: ParamDestructured, Fields: []Param{{Name: "x"}}}}}}},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"opts":{"type":"object","description":null}},"required":["opts"]},"strict":null}}`,
		},
		{
			name: "lionagi: duplicate names keep the first position and are required once",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a"}, {Name: "b"}, {Name: "a", Type: "int"}}},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"a":{"type":"number","description":null},"b":{"type":"string","description":null}},"required":["a","b"]},"strict":null}}`,
		},
		{
			name: "an extracted empty description stays an empty string",
			sig:  Signature{Name: "f", Doc: "\n\n   \n:param a: x", Params: []Param{{Name: "a"}}},
			opts: &SchemaOptions{Style: "rest"},
			want: `{"type":"function","function":{"name":"f","description":"","parameters":{"type":"object","properties":{"a":{"type":"string","description":"x"}},"required":["a"]},"strict":null}}`,
		},
		{
			name: "an override description of empty string in the map is kept",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a"}}},
			opts: &SchemaOptions{ParameterDescriptions: map[string]string{"a": ""}},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"a":{"type":"string","description":""}},"required":["a"]},"strict":null}}`,
		},
		{
			name: "HTML characters are not escaped",
			sig:  Signature{Name: "<lambda>", Doc: "a < b & c", Params: []Param{}},
			want: `{"type":"function","function":{"name":"<lambda>","description":"a < b & c","parameters":{"type":"object","properties":{},"required":[]},"strict":null}}`,
		},
		{
			name: "request options are compacted but keep their key order",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a"}}},
			opts: &SchemaOptions{RequestOptions: json.RawMessage(" {\"required\": [\"q\"],\n \"type\": \"object\"} ")},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"required":["q"],"type":"object"},"strict":null}}`,
		},
		{
			name: "request options of whitespace and an empty object select the raw path",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a"}}},
			opts: &SchemaOptions{RequestOptions: json.RawMessage(" {  } ")},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"a":{"type":"string","description":null}},"required":["a"]},"strict":null}}`,
		},
		{
			name: "request options of only whitespace select the raw path",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a"}}},
			opts: &SchemaOptions{RequestOptions: json.RawMessage("  \n")},
			want: `{"type":"function","function":{"name":"f","description":null,"parameters":{"type":"object","properties":{"a":{"type":"string","description":null}},"required":["a"]},"strict":null}}`,
		},
		{
			name: "accurate: exponent and fraction are numbers, integers are integers",
			sig: Signature{Name: "f", Params: []Param{
				{Name: "a", HasDefault: true, Default: json.RawMessage("1e3")},
				{Name: "b", HasDefault: true, Default: json.RawMessage("2.0")},
				{Name: "c", HasDefault: true, Default: json.RawMessage("-0")}}},
			opts: &SchemaOptions{Mode: SchemaAccurate},
			want: `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"number","default":1e3},"b":{"type":"number","default":2.0},"c":{"type":"integer","default":-0}},"required":[]}}}`,
		},
		{
			name: "accurate: defaults are compacted; a default that is no JSON literal is ignored",
			sig: Signature{Name: "f", Params: []Param{
				{Name: "a", HasDefault: true, Default: json.RawMessage("[ 1,\n 2 ]")},
				{Name: "b", HasDefault: true, Default: json.RawMessage("Date.now()")}}},
			opts: &SchemaOptions{Mode: SchemaAccurate},
			want: `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"array","default":[1,2]},"b":{}},"required":[]}}}`,
		},
		{
			name: "accurate: a Default without HasDefault is ignored",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a", Default: json.RawMessage("1")}}},
			opts: &SchemaOptions{Mode: SchemaAccurate},
			want: `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{}},"required":["a"]}}}`,
		},
		{
			name: "accurate: an annotated rest parameter is still an array; keywords set additionalProperties",
			sig:  Signature{Name: "f", Params: []Param{{Name: "xs", Kind: ParamRest, Type: "int"}, {Name: "kw", Kind: ParamKeywords, Type: "dict"}}},
			opts: &SchemaOptions{Mode: SchemaAccurate, ParameterDescriptions: map[string]string{"xs": "the xs", "kw": "dropped"}},
			want: `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"xs":{"type":"array","description":"the xs"}},"required":[],"additionalProperties":true}}}`,
		},
		{
			name: "accurate: type, description and default in that order",
			sig:  Signature{Name: "f", Doc: "F.\nArgs:\n  a: the a", Params: []Param{{Name: "a", HasDefault: true, Default: json.RawMessage(`"x"`)}}},
			opts: &SchemaOptions{Mode: SchemaAccurate},
			want: `{"type":"function","function":{"name":"f","description":"F.","parameters":{"type":"object","properties":{"a":{"type":"string","description":"the a","default":"x"}},"required":[]}}}`,
		},
		{
			name: "accurate: nested destructured field is an object and required",
			sig: Signature{Name: "f", Params: []Param{{Kind: ParamDestructured, Fields: []Param{
				{Name: "opts", Kind: ParamDestructured, Fields: []Param{{Name: "x"}}}}}}},
			opts: &SchemaOptions{Mode: SchemaAccurate},
			want: `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"opts":{"type":"object"}},"required":["opts"]}}}`,
		},
		{
			name: "accurate: JSON Schema type names pass through, null annotation included",
			sig:  Signature{Name: "f", Params: []Param{{Name: "a", Type: "number"}, {Name: "b", Type: "null"}, {Name: "c", Type: "Optional"}}},
			opts: &SchemaOptions{Mode: SchemaAccurate},
			want: `{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"null"},"c":{}},"required":["a","b","c"]}}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FunctionToSchema(tc.sig, tc.opts)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got), "got %s, want %s", got, tc.want)
			assert.True(t, json.Valid(got), "got invalid JSON %s", got)
		})
	}
}

func TestFunctionToSchemaOverrides(t *testing.T) {
	sig := Signature{Name: "add", Doc: "Add.\n    Args:\n        a: first\n        b: second\n", Params: []Param{{Name: "a"}, {Name: "b"}}}
	tests := []struct {
		name      string
		opts      SchemaOptions
		wantDesc  any
		wantProps map[string]any
	}{
		{"extracted", SchemaOptions{}, "Add.", map[string]any{"a": "first", "b": "second"}},
		{"description replaced, params extracted", SchemaOptions{FuncDescription: "Custom."}, "Custom.", map[string]any{"a": "first", "b": "second"}},
		{"params replaced, not merged", SchemaOptions{ParameterDescriptions: map[string]string{"b": "B"}}, "Add.", map[string]any{"a": nil, "b": "B"}},
		{"both replaced", SchemaOptions{FuncDescription: "D.", ParameterDescriptions: map[string]string{"a": "A"}}, "D.", map[string]any{"a": "A", "b": nil}},
		{"empty overrides count as not given", SchemaOptions{FuncDescription: "", ParameterDescriptions: map[string]string{}}, "Add.", map[string]any{"a": "first", "b": "second"}},
		{"both overrides hide a bad style", SchemaOptions{Style: "numpy", FuncDescription: "D.", ParameterDescriptions: map[string]string{"a": "A"}}, "D.", map[string]any{"a": "A", "b": nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := FunctionToSchema(sig, &tc.opts)
			require.NoError(t, err)
			var got struct {
				Function struct {
					Description any `json:"description"`
					Parameters  struct {
						Properties map[string]struct {
							Description any `json:"description"`
						} `json:"properties"`
					} `json:"parameters"`
				} `json:"function"`
			}
			require.NoError(t, json.Unmarshal(raw, &got))
			assert.Equal(t, tc.wantDesc, got.Function.Description, "description: got %v, want %v", got.Function.Description, tc.wantDesc)
			props := map[string]any{}
			for k, v := range got.Function.Parameters.Properties {
				props[k] = v.Description
			}
			assert.Equal(t, tc.wantProps, props, "property descriptions: got %v, want %v", props, tc.wantProps)
		})
	}
}

func TestFunctionToSchemaRefusals(t *testing.T) {
	tests := []struct {
		name     string
		sig      Signature
		opts     *SchemaOptions
		code     Code
		tool     string
		fragment string
	}{
		{"unknown style with a docstring", Signature{Name: "f", Doc: "F."}, &SchemaOptions{Style: "numpy"}, CodeInvalidTool, "f", `numpy is not supported. Please choose either "google" or "reST".`},
		{"unknown style with one override", Signature{Name: "f"}, &SchemaOptions{Style: "numpy", FuncDescription: "D."}, CodeInvalidTool, "f", "numpy is not supported"},
		{"google continuation before a parameter", Signature{Name: "f", Doc: "F.\nArgs:\n    orphan\n"}, nil, CodeInvalidTool, "f", "continues a parameter description"},
		{"docstring refused even with request options", Signature{Name: "f", Doc: "F.\n:param x"}, &SchemaOptions{Style: "rest", RequestOptions: json.RawMessage(`{"type":"object"}`)}, CodeInvalidTool, "f", "rest style"},
		{"rest :param without second colon", Signature{Name: "f", Doc: "F.\n:param x"}, &SchemaOptions{Style: "rest"}, CodeInvalidTool, "f", `no ":" after the parameter name`},
		{"no name", Signature{Params: []Param{{Name: "a"}}}, nil, CodeInvalidTool, "", "no name"},
		{"unnamed parameter", Signature{Name: "f", Params: []Param{{Name: "a"}, {Name: ""}}}, nil, CodeInvalidTool, "f", "parameter 2 has no name"},
		{"unnamed destructured field", Signature{Name: "f", Params: []Param{{Kind: ParamDestructured, Fields: []Param{{Name: ""}}}}}, nil, CodeInvalidTool, "f", "field 1 of destructured parameter 1 has no name"},
		{"unknown parameter kind", Signature{Name: "f", Params: []Param{{Name: "a", Kind: ParamKind(9)}}}, nil, CodeInvalidTool, "f", `parameter "a" has unknown kind 9`},
		{"unknown field kind", Signature{Name: "f", Params: []Param{{Kind: ParamDestructured, Fields: []Param{{Name: "x", Kind: ParamKind(-1)}}}}}, nil, CodeInvalidTool, "f", `field "x" of destructured parameter 1 has unknown kind -1`},
		{"unknown mode", Signature{Name: "f"}, &SchemaOptions{Mode: "loose"}, CodeInvalidTool, "f", `schema mode "loose" is not supported`},
		{"request options not JSON", Signature{Name: "f"}, &SchemaOptions{RequestOptions: json.RawMessage(`{"type":`)}, CodeInvalidSchema, "f", "RequestOptions is not valid JSON"},
		{"request options an array", Signature{Name: "f"}, &SchemaOptions{RequestOptions: json.RawMessage(`[]`)}, CodeInvalidSchema, "f", "must be a JSON Schema object, got array"},
		{"request options a boolean schema", Signature{Name: "f"}, &SchemaOptions{RequestOptions: json.RawMessage(`true`)}, CodeInvalidSchema, "f", "got boolean"},
		{"request options a string", Signature{Name: "f"}, &SchemaOptions{RequestOptions: json.RawMessage(`"x"`)}, CodeInvalidSchema, "f", "got string"},
		{"request options a number", Signature{Name: "f"}, &SchemaOptions{RequestOptions: json.RawMessage(`0`)}, CodeInvalidSchema, "f", "got number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FunctionToSchema(tc.sig, tc.opts)
			require.Error(t, err, "got %s, want an error", got)
			assert.Nil(t, got)
			var e *Error
			require.True(t, errors.As(err, &e), "got %T, want *Error", err)
			assert.True(t, errors.Is(err, &Error{Code: tc.code}), "code: got %s, want %s", e.Code, tc.code)
			assert.Equal(t, tc.tool, e.Tool, "tool: got %q, want %q", e.Tool, tc.tool)
			assert.Contains(t, e.Message, tc.fragment, "message: got %q, want it to contain %q", e.Message, tc.fragment)
		})
	}
}

// FuzzFunctionToSchema checks that for any signature (as JSON), docstring
// style and mode the derivation never panics, refuses only with
// invalid-tool / invalid-schema, and otherwise returns valid JSON of the
// provider shape: {"type":"function","function":{name, [description],
// parameters, [strict]}} in that key order, parameters an object schema whose
// "required" is a duplicate-free subset of its property names (equal to them,
// in order, in lionagi mode), strict true or null exactly as asked.
func FuzzFunctionToSchema(f *testing.F) {
	f.Add([]byte(`{"name":"add","doc":"Add.\nArgs:\n  a (int): first","params":[{"name":"a","kind":0,"type":"int"},{"name":"b","kind":0,"hasDefault":true,"default":2}]}`), "google", false, false)
	f.Add([]byte(`{"name":"f","params":[{"name":"items","kind":1},{"name":"kw","kind":2}]}`), "rest", true, true)
	f.Add([]byte(`{"name":"g","params":[{"name":"","kind":3,"hasDefault":true,"default":{},"fields":[{"name":"a","kind":0},{"name":"r","kind":1}]}]}`), "", true, false)
	f.Fuzz(func(t *testing.T, sigJSON []byte, style string, accurate, strict bool) {
		var sig Signature
		if json.Unmarshal(sigJSON, &sig) != nil {
			return
		}
		opts := &SchemaOptions{Style: style, Strict: strict, Mode: SchemaLionAGI}
		if accurate {
			opts.Mode = SchemaAccurate
		}
		raw, err := FunctionToSchema(sig, opts)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (e.Code != CodeInvalidTool && e.Code != CodeInvalidSchema) {
				t.Fatalf("error: got %v, want invalid-tool or invalid-schema *Error", err)
			}
			return
		}
		if err := checkProviderShape(raw, sig.Name, !accurate, strict); err != nil {
			t.Fatalf("%v in %s", err, raw)
		}
	})
}

// checkProviderShape verifies the invariants FuzzFunctionToSchema states.
func checkProviderShape(raw []byte, name string, lionagi, strict bool) error {
	if !json.Valid(raw) {
		return fmt.Errorf("invalid JSON")
	}
	keys, vals, err := objectMembers(raw)
	if err != nil || fmt.Sprint(keys) != "[type function]" || string(vals["type"]) != `"function"` {
		return fmt.Errorf("top level: got keys %v, want [type function]", keys)
	}
	fkeys, fvals, err := objectMembers(vals["function"])
	if err != nil {
		return fmt.Errorf("function: %v", err)
	}
	want := []string{"name"}
	if lionagi || fvals["description"] != nil {
		want = append(want, "description")
	}
	want = append(want, "parameters")
	if lionagi || strict {
		want = append(want, "strict")
	}
	if fmt.Sprint(fkeys) != fmt.Sprint(want) {
		return fmt.Errorf("function keys: got %v, want %v", fkeys, want)
	}
	var gotName string
	if json.Unmarshal(fvals["name"], &gotName) != nil || gotName != name {
		return fmt.Errorf("name: got %s, want %q", fvals["name"], name)
	}
	wantStrict := "null"
	if strict {
		wantStrict = "true"
	}
	if fvals["strict"] != nil && string(fvals["strict"]) != wantStrict {
		return fmt.Errorf("strict: got %s, want %s", fvals["strict"], wantStrict)
	}
	pkeys, pvals, err := objectMembers(fvals["parameters"])
	if err != nil || len(pkeys) < 3 || fmt.Sprint(pkeys[:3]) != "[type properties required]" || string(pvals["type"]) != `"object"` {
		return fmt.Errorf("parameters keys: got %v, want type, properties, required first", pkeys)
	}
	propNames, _, err := objectMembers(pvals["properties"])
	if err != nil {
		return fmt.Errorf("properties: %v", err)
	}
	var required []string
	if err := json.Unmarshal(pvals["required"], &required); err != nil {
		return fmt.Errorf("required: %v", err)
	}
	seen := map[string]bool{}
	isProp := map[string]bool{}
	for _, p := range propNames {
		isProp[p] = true
	}
	for _, r := range required {
		if seen[r] || !isProp[r] {
			return fmt.Errorf("required %q: duplicate or not a property", r)
		}
		seen[r] = true
	}
	if lionagi && fmt.Sprint(required) != fmt.Sprint(propNames) {
		return fmt.Errorf("lionagi required: got %v, want every property %v", required, propNames)
	}
	if !lionagi {
		for k, v := range pvals {
			if k == "additionalProperties" && !bytes.Equal(v, []byte("true")) {
				return fmt.Errorf("additionalProperties: got %s, want true", v)
			}
		}
	}
	return nil
}

func ExampleFunctionToSchema() {
	sig := Signature{
		Name: "add",
		Doc:  "Add two numbers.\n\nArgs:\n    a: first number\n    b: second number",
		Params: []Param{
			{Name: "a"},
			{Name: "b", HasDefault: true, Default: json.RawMessage("2")},
		},
	}
	lionagi, _ := FunctionToSchema(sig, nil)
	accurate, _ := FunctionToSchema(sig, &SchemaOptions{Mode: SchemaAccurate})
	fmt.Println(string(lionagi))
	fmt.Println(string(accurate))
	// Output:
	// {"type":"function","function":{"name":"add","description":"Add two numbers.","parameters":{"type":"object","properties":{"a":{"type":"string","description":"first number"},"b":{"type":"string","description":"second number"}},"required":["a","b"]},"strict":null}}
	// {"type":"function","function":{"name":"add","description":"Add two numbers.","parameters":{"type":"object","properties":{"a":{"description":"first number"},"b":{"type":"integer","description":"second number","default":2}},"required":["a"]}}}
}

// objectMembers splits a JSON object into its keys in order and their raw
// values, for the key-order assertions above.
func objectMembers(raw []byte) ([]string, map[string]json.RawMessage, error) {
	ms, ok := jsontext.Split(raw)
	if !ok {
		return nil, nil, errors.New("not a JSON object")
	}
	keys := make([]string, len(ms))
	vals := make(map[string]json.RawMessage, len(ms))
	for i, m := range ms {
		keys[i] = m.Key
		vals[m.Key] = m.Value
	}
	return keys, vals, nil
}
