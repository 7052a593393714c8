package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// pk is an issue's path and keyword.
type pk struct{ Path, Keyword string }

// issuePKs reduces issues to their paths and keywords.
func issuePKs(issues []Issue) []pk {
	out := make([]pk, len(issues))
	for i, is := range issues {
		out[i] = pk{is.Path, is.Keyword}
	}
	return out
}

// normalizeErr normalises args against schema and returns the *Error.
func normalizeErr(t *testing.T, schema, args string, mode CoerceMode) *Error {
	t.Helper()
	cs, err := CompileSchema("orders", json.RawMessage(schema))
	require.NoError(t, err)
	out, _, err := cs.Normalize("orders", mustDecode(t, args), mode)
	require.Error(t, err, "got %s, want an error", marshalArgs(t, out))
	var e *Error
	require.True(t, errors.As(err, &e), "got %T, want *Error", err)
	return e
}

func TestNormalizeIssues(t *testing.T) {
	order := `{"type":"object","properties":{"items":{"type":"array","minItems":1,"items":{"type":"object","properties":{"qty":{"type":"integer","minimum":1},"sku":{"type":"string","pattern":"^[A-Z]{3}$"}},"required":["qty","sku"]}},"note":{"type":"string","maxLength":5}},"required":["items"],"additionalProperties":false}`
	tests := []struct {
		name   string
		schema string
		args   string
		want   []pk
	}{
		{"type deep in an array", order, `{"items":[{"qty":"x","sku":"ABC"}]}`, []pk{{"/items/0/qty", "type"}}},
		{"every leaf listed, sorted", order, `{"items":[{"qty":0,"sku":"ab"},{"sku":"ABC"}],"note":"toolong","zz":1,"aa":2}`,
			[]pk{{"/aa", "additionalProperties"}, {"/items/0/qty", "minimum"}, {"/items/0/sku", "pattern"}, {"/items/1/qty", "required"}, {"/note", "maxLength"}, {"/zz", "additionalProperties"}}},
		{"required at the root points at the key", order, `{}`, []pk{{"/items", "required"}}},
		{"several missing keys, one issue each", `{"required":["b","a","c"]}`, `{"a":1}`, []pk{{"/b", "required"}, {"/c", "required"}}},
		{"minItems", order, `{"items":[]}`, []pk{{"/items", "minItems"}}},
		{"indexes sort numerically", `{"properties":{"a":{"type":"array","items":{"type":"integer"}}}}`, `{"a":["x",1,1,1,1,1,1,1,1,1,"y"]}`,
			[]pk{{"/a/0", "type"}, {"/a/10", "type"}}},
		{"odd key names escaped in paths", `{"additionalProperties":false}`, `{"a/b":1,"t~":2,"sp ace":3,"%41":4,"q'\"":5}`,
			[]pk{{"/%41", "additionalProperties"}, {"/a~1b", "additionalProperties"}, {"/q'\"", "additionalProperties"}, {"/sp ace", "additionalProperties"}, {"/t~0", "additionalProperties"}}},
		{"odd names in required", `{"required":["a/b","it's"]}`, `{}`, []pk{{"/a~1b", "required"}, {"/it's", "required"}}},
		{"nested odd names in type errors", `{"properties":{"a b":{"properties":{"c/d":{"type":"integer"}}}}}`, `{"a b":{"c/d":"x"}}`, []pk{{"/a b/c~1d", "type"}}},
		{"enum", `{"properties":{"c":{"enum":["red","blue"]}}}`, `{"c":"green"}`, []pk{{"/c", "enum"}}},
		{"empty enum refuses everything", `{"properties":{"c":{"enum":[]}}}`, `{"c":null}`, []pk{{"/c", "enum"}}},
		{"const", `{"properties":{"path":{"const":"/safe"}}}`, `{"path":"/etc"}`, []pk{{"/path", "const"}}},
		{"multipleOf and exclusiveMaximum", `{"properties":{"n":{"multipleOf":5,"exclusiveMaximum":10}}}`, `{"n":12}`, []pk{{"/n", "exclusiveMaximum"}, {"/n", "multipleOf"}}},
		{"uniqueItems", `{"properties":{"t":{"uniqueItems":true}}}`, `{"t":[1,2,1]}`, []pk{{"/t", "uniqueItems"}}},
		{"dependentRequired points at the missing key", `{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, []pk{{"/b", "dependentRequired"}}},
		{"false schema", `{"properties":{"never":false}}`, `{"never":1}`, []pk{{"/never", "false"}}},
		{"false root", `false`, `{}`, []pk{{"", "false"}}},
		{"unevaluatedProperties false", `{"properties":{"a":{}},"unevaluatedProperties":false}`, `{"a":1,"b":2}`, []pk{{"/b", "unevaluatedProperties"}}},
		{"items false after prefixItems", `{"properties":{"t":{"prefixItems":[{}],"items":false}}}`, `{"t":[1,2]}`, []pk{{"/t/1", "items"}}},
		{"anyOf lists each branch's leaf", `{"properties":{"v":{"anyOf":[{"type":"integer"},{"type":"boolean"}]}}}`, `{"v":"x"}`, []pk{{"/v", "type"}, {"/v", "type"}}},
		{"oneOf matching twice", `{"properties":{"v":{"oneOf":[{"type":"integer"},{"minimum":0}]}}}`, `{"v":3}`, []pk{{"/v", "oneOf"}}},
		{"not", `{"properties":{"v":{"not":{"type":"string"}}}}`, `{"v":"s"}`, []pk{{"/v", "not"}}},
		{"through $ref", `{"$defs":{"q":{"type":"integer"}},"properties":{"v":{"$ref":"#/$defs/q"}}}`, `{"v":"s"}`, []pk{{"/v", "type"}}},
		{"if-then", `{"if":{"required":["a"]},"then":{"required":["b"]}}`, `{"a":1}`, []pk{{"/b", "required"}}},
		{"propertyNames", `{"propertyNames":{"maxLength":2}}`, `{"abc":1}`, []pk{{"/abc", "maxLength"}}},
		{"minProperties", `{"minProperties":2}`, `{"a":1}`, []pk{{"", "minProperties"}}},
		{"draft-07 dependencies", `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"]}}`, `{"a":1}`, []pk{{"/b", "dependencies"}}},
		{"draft-07 tuple additionalItems", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"t":{"items":[{}],"additionalItems":false}}}`, `{"t":[1,2]}`, []pk{{"/t", "additionalItems"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := normalizeErr(t, tc.schema, tc.args, CoerceNone)
			assert.Equal(t, CodeInvalidArguments, e.Code, "got %s, want invalid-arguments (%v)", e.Code, e)
			assert.Equal(t, tc.want, issuePKs(e.Issues), "got issues %v, want %v", e.Issues, tc.want)
			assert.Contains(t, e.Message, `tool "orders"`, "got %q, want the tool named", e.Message)
			for _, is := range e.Issues {
				if is.Path != "" {
					assert.Contains(t, is.Message, is.Path, "got message %q, want it to name the field %s", is.Message, is.Path)
				}
			}
		})
	}
}

func TestNormalizeIssueMessages(t *testing.T) {
	e := normalizeErr(t, `{"properties":{"qty":{"type":"integer"}},"required":["sku"],"additionalProperties":false}`, `{"qty":"x","extra":1}`, CoerceNone)
	want := map[string]string{
		"/extra": `field /extra is not allowed: the schema names no such property (additionalProperties is false); the properties are "qty"`,
		"/qty":   `field /qty: expected integer, but got string "x"`,
		"/sku":   "field /sku is required but missing",
	}
	for _, is := range e.Issues {
		assert.Equal(t, want[is.Path], is.Message, "got %q, want %q", is.Message, want[is.Path])
	}
	assert.Equal(t, `arguments do not match the parameters schema of tool "orders": `+
		want["/extra"]+"; "+want["/qty"]+"; "+want["/sku"], e.Message)
	assert.Contains(t, e.Error(), "invalid-arguments (tool orders): ", "got %q", e.Error())

	t.Run("long lists are summarised", func(t *testing.T) {
		e := normalizeErr(t, `{"additionalProperties":false}`, `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}`, CoerceNone)
		assert.Len(t, e.Issues, 7)
		assert.True(t, strings.HasSuffix(e.Message, "; and 2 more"), "got %q, want a summary", e.Message)
	})
	t.Run("no tool name", func(t *testing.T) {
		cs, err := CompileSchema("", json.RawMessage(`{"required":["a"]}`))
		require.NoError(t, err)
		_, _, err = cs.Normalize("", mustDecode(t, `{}`), CoerceNone)
		assert.ErrorContains(t, err, "arguments do not match the parameters schema: ")
	})
}

func TestNormalizeDropsUnknownKeys(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		args   string
		want   string
	}{
		{"exact keys: PATH is unknown and dropped", `{"properties":{"path":{"const":"/safe"}}}`, `{"path":"/safe","PATH":"/etc/passwd"}`, `{"path":"/safe"}`},
		{"Kelvin sign is not k", `{"properties":{"k":{"type":"integer"}}}`, "{\"\u212a\":1,\"k\":2}", `{"k":2}`},
		{"order kept", `{"properties":{"a":{},"b":{},"c":{}}}`, `{"c":1,"x":0,"a":2,"b":3}`, `{"c":1,"a":2,"b":3}`},
		{"additionalProperties true keeps all", `{"properties":{"a":{}},"additionalProperties":true}`, `{"x":1,"a":2}`, `{"x":1,"a":2}`},
		{"additionalProperties schema keeps all", `{"additionalProperties":{"type":"integer"}}`, `{"x":1}`, `{"x":1}`},
		{"unevaluatedProperties keeps all", `{"unevaluatedProperties":{"type":"integer"}}`, `{"x":1}`, `{"x":1}`},
		{"patternProperties match kept", `{"properties":{"a":{}},"patternProperties":{"^x_":{}}}`, `{"x_1":1,"y":2,"a":3}`, `{"x_1":1,"a":3}`},
		{"properties through $ref", `{"$ref":"#/$defs/m","$defs":{"m":{"properties":{"a":{}}}}}`, `{"a":1,"b":2}`, `{"a":1}`},
		{"properties through allOf", `{"allOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}]}`, `{"a":1,"b":2,"c":3}`, `{"a":1,"b":2}`},
		{"properties of every anyOf branch", `{"anyOf":[{"properties":{"a":{}}},{"properties":{"b":{}}}]}`, `{"a":1,"b":2,"c":3}`, `{"a":1,"b":2}`},
		{"properties in if/then/else and dependentSchemas", `{"if":{"properties":{"a":{}}},"then":{"properties":{"b":{}}},"else":{"properties":{"c":{}}},"dependentSchemas":{"a":{"properties":{"d":{}}}}}`,
			`{"a":1,"b":2,"c":3,"d":4,"e":5}`, `{"a":1,"b":2,"c":3,"d":4}`},
		{"a $ref that cannot be followed keeps all", `{"$id":"https://x.example/root","properties":{"a":{"$id":"https://x.example/a","$ref":"#/$defs/q","$defs":{"q":{}}}},"$ref":"#/$defs/m","$defs":{"m":{}}}`, `{"a":1,"b":2}`, `{"a":1,"b":2}`},
		{"nested unknown keys are kept", `{"properties":{"o":{"properties":{"a":{}}}}}`, `{"o":{"a":1,"b":2}}`, `{"o":{"a":1,"b":2}}`},
		{"a schema with no properties drops everything", `{"type":"object"}`, `{"a":1}`, `{}`},
		{"defaults are not added", `{"properties":{"a":{"default":1},"b":{"default":2}}}`, `{"b":3}`, `{"b":3}`},
		{"a required key without properties is kept", `{"required":["id"]}`, `{"id":1,"x":2}`, `{"id":1}`},
		{"keys named by dependentRequired are kept", `{"properties":{"a":{}},"dependentRequired":{"a":["b"],"c":["d"]}}`, `{"a":1,"b":2,"c":3,"d":4,"e":5}`, `{"a":1,"b":2,"c":3,"d":4}`},
		{"keys of dependentSchemas and draft-07 dependencies are kept", `{"dependentSchemas":{"a":{}},"dependencies":{"b":["c"]}}`, `{"a":1,"b":2,"c":3,"e":5}`, `{"a":1,"b":2,"c":3}`},
		{"propertyNames keeps all", `{"properties":{"a":{}},"propertyNames":{"maxLength":3}}`, `{"a":1,"xyz":2}`, `{"a":1,"xyz":2}`},
		{"minProperties keeps all", `{"properties":{"a":{}},"minProperties":2}`, `{"a":1,"x":2}`, `{"a":1,"x":2}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("t", json.RawMessage(tc.schema))
			require.NoError(t, err)
			in := mustDecode(t, tc.args)
			out, _, err := cs.Normalize("t", in, CoerceLax)
			require.NoError(t, err)
			assert.Equal(t, tc.want, marshalArgs(t, out), "got %s, want %s", marshalArgs(t, out), tc.want)
			assert.Equal(t, mustDecode(t, tc.args), in, "got the input changed, want it untouched")
		})
	}
}

// TestNormalizeBigIntegers: integers beyond 2^53 stay exact from decode
// through normalisation to marshalling.
func TestNormalizeBigIntegers(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		args   string
		mode   CoerceMode
		want   string
	}{
		{"integer", `{"properties":{"id":{"type":"integer","minimum":9007199254740992}}}`, `{"id":9007199254740993}`, CoerceNone, `{"id":9007199254740993}`},
		{"integer, lax", `{"properties":{"id":{"type":"integer"}}}`, `{"id":9007199254740993}`, CoerceLax, `{"id":9007199254740993}`},
		{"from a string", `{"properties":{"id":{"type":"integer"}}}`, `{"id":"123456789012345678901234567890"}`, CoerceLax, `{"id":123456789012345678901234567890}`},
		{"to number", `{"properties":{"id":{"type":"number"}}}`, `{"id":-9007199254740993}`, CoerceLax, `{"id":-9007199254740993.0}`},
		{"nested, untyped", `{"properties":{"o":{}}}`, `{"o":{"ids":[18446744073709551617]}}`, CoerceLax, `{"o":{"ids":[18446744073709551617]}}`},
		{"exact comparison with const", `{"properties":{"id":{"const":9007199254740993}}}`, `{"id":9007199254740993}`, CoerceNone, `{"id":9007199254740993}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("t", json.RawMessage(tc.schema))
			require.NoError(t, err)
			out, _, err := cs.Normalize("t", mustDecode(t, tc.args), tc.mode)
			require.NoError(t, err)
			assert.Equal(t, tc.want, marshalArgs(t, out), "got %s, want %s", marshalArgs(t, out), tc.want)
		})
	}
	t.Run("const tells neighbours apart", func(t *testing.T) {
		e := normalizeErr(t, `{"properties":{"id":{"const":9007199254740993}}}`, `{"id":9007199254740992}`, CoerceNone)
		assert.Equal(t, []pk{{"/id", "const"}}, issuePKs(e.Issues), "got %v, want const to fail for 2^53", e.Issues)
	})
}

func TestNormalizeRefusals(t *testing.T) {
	cs, err := CompileSchema("t", json.RawMessage(`{"properties":{"a":{"type":"number"}}}`))
	require.NoError(t, err)
	tests := []struct {
		name string
		cs   *CompiledSchema
		args *Arguments
		mode CoerceMode
		code Code
		want []pk
	}{
		{"nil schema", nil, mustDecode(t, `{}`), CoerceLax, CodeInvalidSchema, nil},
		{"nil arguments", cs, nil, CoerceLax, CodeInvalidRequest, nil},
		{"unknown mode", cs, mustDecode(t, `{}`), "strict", CodeUnsupportedType, nil},
		{"exponent beyond the cap", cs, mustDecode(t, `{"a":1e1001,"b":[1,{"c":1e-2000}]}`), CoerceNone, CodeInvalidArguments,
			[]pk{{"/a", "maxExponent"}, {"/b/1/c", "maxExponent"}}},
		{"fraction digits count toward the exponent", cs, mustDecode(t, `{"a":0.`+strings.Repeat("0", 1001)+`1}`), CoerceNone, CodeInvalidArguments,
			[]pk{{"/a", "maxExponent"}}},
		{"json.Number that is not a number", cs, &Arguments{Keys: []string{"a"}, Values: map[string]any{"a": json.Number("12abc")}}, CoerceNone, CodeInvalidArguments,
			[]pk{{"/a", "type"}}},
		{"NaN", cs, &Arguments{Keys: []string{"a"}, Values: map[string]any{"a": math.NaN()}}, CoerceNone, CodeInvalidArguments, []pk{{"/a", "type"}}},
		{"infinite float32", cs, &Arguments{Keys: []string{"a"}, Values: map[string]any{"a": float32(math.Inf(1))}}, CoerceNone, CodeInvalidArguments, []pk{{"/a", "type"}}},
		{"a Go value that is not JSON", cs, &Arguments{Keys: []string{"a"}, Values: map[string]any{"a": []string{"x"}}}, CoerceNone, CodeInvalidArguments, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, convs, err := tc.cs.Normalize("t", tc.args, tc.mode)
			require.Error(t, err, "got %s, want an error", marshalArgs(t, out))
			assert.Nil(t, out)
			assert.Nil(t, convs)
			var e *Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, tc.code, e.Code, "got %s, want %s (%v)", e.Code, tc.code, err)
			if tc.want != nil {
				assert.Equal(t, tc.want, issuePKs(e.Issues), "got %v, want %v", e.Issues, tc.want)
			}
		})
	}
	t.Run("Go numbers and inconsistent Keys are accepted", func(t *testing.T) {
		a := &Arguments{Keys: []string{"a", "a", "gone"}, Values: map[string]any{"a": 2.5, "b": 1}}
		out, _, err := cs.Normalize("t", a, CoerceNone)
		require.NoError(t, err)
		assert.Equal(t, []string{"a"}, out.Keys, "got %v, want the unknown b dropped and Keys reconciled", out.Keys)
	})
}

// TestNormalizeDoesNotMutate: coercion copies what it changes.
func TestNormalizeDoesNotMutate(t *testing.T) {
	cs, err := CompileSchema("t", json.RawMessage(`{"properties":{"o":{"properties":{"n":{"type":"integer"}}},"l":{"items":{"type":"integer"}},"x":{"type":"boolean"}}}`))
	require.NoError(t, err)
	in := mustDecode(t, `{"o":{"n":"1","keep":"2"},"l":["1",2],"x":"yes","drop":1}`)
	out, convs, err := cs.Normalize("t", in, CoerceLax)
	require.NoError(t, err)
	assert.Len(t, convs, 3)
	assert.Equal(t, mustDecode(t, `{"o":{"n":"1","keep":"2"},"l":["1",2],"x":"yes","drop":1}`), in, "got %v, want the input untouched", in)
	out.Values["o"].(map[string]any)["n"] = "changed"
	out.Keys[0] = "changed"
	assert.Equal(t, "1", in.Values["o"].(map[string]any)["n"], "got the input sharing a converted object, want a copy")
	assert.Equal(t, "o", in.Keys[0], "got the input sharing Keys, want a copy")
}

// FuzzValidate: compiling and validating any schema and instance never
// panics, gives the same verdict twice, and fails closed (every refusal is a
// *Error with a code; a refusal of the instance lists at least one issue).
func FuzzValidate(f *testing.F) {
	seeds := [][2]string{
		{`{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`, `{"a":"x"}`},
		{`{"$ref":"file:///etc/passwd"}`, `{}`},
		{`{"$ref":"https://169.254.169.254/x"}`, `{}`},
		{`{"$ref":"#"}`, `{}`},
		{`{"pattern":"(?=x)"}`, `"x"`},
		{`{"uniqueItems":true}`, `[1,1.0,{"a":1},{"a":1}]`},
		{`{"type":"integer"}`, `1e999999`},
		{`{"minimum":1e1000}`, `1e-1000`},
		{`{"multipleOf":0.0001}`, `1e308`},
		{`{"$defs":{"n":{"properties":{"c":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`, `{"c":{"c":{"c":{}}}}`},
		{`{"format":"email"}`, `"nope"`},
		{`{"anyOf":[{"type":"string"},{"type":"number"}],"not":{"const":1}}`, `1`},
		{`{"$dynamicRef":"#meta","$dynamicAnchor":"meta"}`, `{}`},
		{`{"unevaluatedProperties":false,"allOf":[{"properties":{"a":true}}]}`, `{"a":1,"b":2}`},
		{`true`, `null`},
		{`false`, `0`},
		{`{"contentMediaType":"application/json","contentSchema":{"type":"integer"}}`, `"{}"`},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, schema, instance []byte) {
		cs, err := compileSchemaDoc("fuzz", schema)
		if err != nil {
			if AsError(err).Code != CodeInvalidSchema {
				t.Fatalf("got %v, want invalid-schema for a bad schema", err)
			}
			return
		}
		if len(instance) > MaxArgumentBytes || !json.Valid(instance) {
			return
		}
		if jsontext.Scan(instance, MaxArgumentDepth, false).TooDeep {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(instance))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		first := cs.validateValue("fuzz", v)
		second := cs.validateValue("fuzz", v)
		if (first == nil) != (second == nil) {
			t.Fatalf("got verdicts %v then %v, want the same twice", first, second)
		}
		if first == nil {
			return
		}
		if !first.Code.Valid() || first.Code != second.Code {
			t.Fatalf("got codes %q and %q, want one valid code", first.Code, second.Code)
		}
		if first.Code == CodeInvalidArguments && len(first.Issues) == 0 && first.Cause == nil {
			t.Fatalf("got a refusal with no issue and no cause: %v", first)
		}
	})
}

// Each issue names what would have been accepted: a missing field what it
// takes, a key not declared the nearest declared name, a type mismatch the
// string sent and the values or bounds beyond the type, a bound as the
// schema spells it (1000000, not the validator's 1e+06). Normalize (the
// validator's path) says it; the fast path says it alike.
func TestIssuesNameWhatIsAccepted(t *testing.T) {
	schema := `{"type":"object","properties":{"city":{"type":"string"},"units":{"type":"string","enum":["metric","imperial"]},` +
		`"days":{"type":"integer","minimum":1,"maximum":14},"tags":{"type":"array","maxItems":3},` +
		`"n":{"type":"integer","exclusiveMaximum":1000000,"multipleOf":1000000}},"required":["city","units","days","tags"],"additionalProperties":false}`
	want := map[string]string{
		"/cty":   `field /cty is not allowed: the schema names no such property (additionalProperties is false); did you mean "city"? (the properties are "city", "days", "n", "tags", "units")`,
		"/city":  `field /city is required but missing: it takes a string`,
		"/units": `field /units: expected string, but got number 5; it takes one of "metric", "imperial"`,
		"/days":  `field /days is required but missing: it takes an integer >= 1 and <= 14`,
		"/tags":  `field /tags is required but missing: it takes an array of at most 3 items`,
		"/n":     `field /n: must be < 1000000 but found 1500000`,
	}
	args := `{"cty":"Oslo","units":5,"n":1500000}`
	e := normalizeErr(t, schema, args, CoerceNone)
	for path, w := range want {
		found := false
		for _, is := range e.Issues {
			found = found || is.Path == path && is.Message == w
		}
		assert.True(t, found, "no issue %q at %s in %v", w, path, e.Issues)
	}
	e = normalizeErr(t, `{"properties":{"n":{"type":"integer"}}}`, `{"n":"many"}`, CoerceNone)
	assert.Equal(t, `field /n: expected integer, but got string "many"`, e.Issues[0].Message)
	e = normalizeErr(t, `{"properties":{"n":{"type":"integer"}}}`, `{"n":2.50}`, CoerceNone)
	assert.Equal(t, `field /n: expected integer, but got number 2.50`, e.Issues[0].Message)

	cs, err := CompileSchema("orders", json.RawMessage(schema))
	require.NoError(t, err)
	for _, a := range []string{args, `{"city":"x","units":"Metric","days":0,"tags":[1,2,3,4],"n":2000000,"nn":1}`, `{"citty":1,"n":"many"}`, `{"city":1.0e1,"units":-0,"days":1.5}`} {
		assert.True(t, compareFast(t, cs, []byte(a), CoerceNone), "the fast path declined %s", a)
	}
}
