package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conv is a short way to write a Conversion.
func conv(path, from, to string) Conversion { return Conversion{Path: path, From: from, To: to} }

// prop is a schema with one property n of the given schema.
func prop(s string) string { return `{"type":"object","properties":{"n":` + s + `}}` }

func TestNormalizeLaxConversions(t *testing.T) {
	recursive := `{"$defs":{"node":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"}`
	tests := []struct {
		name   string
		schema string
		args   string
		want   string       // normalised arguments; "" means a validation error is wanted
		convs  []Conversion // conversions when want != ""
	}{
		// string → integer (pydantic-core str_as_int)
		{"string to integer", prop(`{"type":"integer"}`), `{"n":"5"}`, `{"n":5}`, []Conversion{conv("/n", "string", "integer")}},
		{"string with zero fraction to integer", prop(`{"type":"integer"}`), `{"n":"42.000"}`, `{"n":42}`, []Conversion{conv("/n", "string", "integer")}},
		{"string ending in a point to integer", prop(`{"type":"integer"}`), `{"n":"42."}`, `{"n":42}`, []Conversion{conv("/n", "string", "integer")}},
		{"underscores to integer", prop(`{"type":"integer"}`), `{"n":"1_000_000"}`, `{"n":1000000}`, []Conversion{conv("/n", "string", "integer")}},
		{"signs and leading zeros", prop(`{"type":"array","items":{"type":"integer"}}`), `{"n":["+7","-007","-0"]}`, `{"n":[7,-7,0]}`,
			[]Conversion{conv("/n/0", "string", "integer"), conv("/n/1", "string", "integer"), conv("/n/2", "string", "integer")}},
		{"big integer string stays exact", prop(`{"type":"integer"}`), `{"n":"9007199254740993"}`, `{"n":9007199254740993}`, []Conversion{conv("/n", "string", "integer")}},
		{"no whitespace trimming", prop(`{"type":"integer"}`), `{"n":" 5"}`, "", nil},
		{"fraction is not an integer", prop(`{"type":"integer"}`), `{"n":"5.5"}`, "", nil},
		{"double underscore refused", prop(`{"type":"integer"}`), `{"n":"1__0"}`, "", nil},
		{"hex refused", prop(`{"type":"integer"}`), `{"n":"0x10"}`, "", nil},
		// number → integer (float_as_int)
		{"float with zero fraction to integer", prop(`{"type":"integer"}`), `{"n":5.0}`, `{"n":5}`, []Conversion{conv("/n", "number", "integer")}},
		{"exponent to integer", prop(`{"type":"integer"}`), `{"n":1e3}`, `{"n":1000}`, []Conversion{conv("/n", "number", "integer")}},
		{"exact big float to integer", prop(`{"type":"integer"}`), `{"n":9007199254740993.0}`, `{"n":9007199254740993}`, []Conversion{conv("/n", "number", "integer")}},
		{"fractional float is not an integer", prop(`{"type":"integer"}`), `{"n":2.5}`, "", nil},
		// string → number (str_as_float)
		{"string to number", prop(`{"type":"number"}`), `{"n":"2.5"}`, `{"n":2.5}`, []Conversion{conv("/n", "string", "number")}},
		{"integer string to number is a float", prop(`{"type":"number"}`), `{"n":"5"}`, `{"n":5.0}`, []Conversion{conv("/n", "string", "number")}},
		{"loose float forms made JSON", prop(`{"type":"array","items":{"type":"number"}}`), `{"n":[".5","-5.","+1E3","1_0.5"]}`, `{"n":[0.5,-5.0,1e3,10.5]}`,
			[]Conversion{conv("/n/0", "string", "number"), conv("/n/1", "string", "number"), conv("/n/2", "string", "number"), conv("/n/3", "string", "number")}},
		{"inf has no JSON form", prop(`{"type":"number"}`), `{"n":"inf"}`, "", nil},
		{"nan has no JSON form", prop(`{"type":"number"}`), `{"n":"NaN"}`, "", nil},
		{"huge exponent string not converted", prop(`{"type":"number"}`), `{"n":"1e5000"}`, "", nil},
		// integer → number
		{"integer to number", prop(`{"type":"number"}`), `{"n":5}`, `{"n":5.0}`, []Conversion{conv("/n", "integer", "number")}},
		{"big integer to number stays exact", prop(`{"type":"number"}`), `{"n":9007199254740993}`, `{"n":9007199254740993.0}`, []Conversion{conv("/n", "integer", "number")}},
		{"float to number unchanged", prop(`{"type":"number"}`), `{"n":5.0}`, `{"n":5.0}`, nil},
		{"integer kept for number or integer", prop(`{"type":["number","integer"]}`), `{"n":5}`, `{"n":5}`, nil},
		{"string to integer for number or integer", prop(`{"type":["number","integer"]}`), `{"n":"5"}`, `{"n":5}`, []Conversion{conv("/n", "string", "integer")}},
		// string → boolean (str_as_bool)
		{"boolean words", prop(`{"type":"array","items":{"type":"boolean"}}`), `{"n":["yes","OFF","t","N","1","0","True","on","f","y","no","false"]}`,
			`{"n":[true,false,true,false,true,false,true,true,false,true,false,false]}`,
			[]Conversion{conv("/n/0", "string", "boolean"), conv("/n/1", "string", "boolean"), conv("/n/2", "string", "boolean"),
				conv("/n/3", "string", "boolean"), conv("/n/4", "string", "boolean"), conv("/n/5", "string", "boolean"),
				conv("/n/6", "string", "boolean"), conv("/n/7", "string", "boolean"), conv("/n/8", "string", "boolean"),
				conv("/n/9", "string", "boolean"), conv("/n/10", "string", "boolean"), conv("/n/11", "string", "boolean")}},
		{"other words are not booleans", prop(`{"type":"boolean"}`), `{"n":"maybe"}`, "", nil},
		{"Kelvin sign does not fold", prop(`{"type":"boolean"}`), "{\"n\":\"\u212a\"}", "", nil},
		// number → boolean
		{"0 and 1 to boolean", prop(`{"type":"array","items":{"type":"boolean"}}`), `{"n":[0,1,1.0]}`, `{"n":[false,true,true]}`,
			[]Conversion{conv("/n/0", "integer", "boolean"), conv("/n/1", "integer", "boolean"), conv("/n/2", "number", "boolean")}},
		{"2 is not a boolean", prop(`{"type":"boolean"}`), `{"n":2}`, "", nil},
		// never number → string, never boolean → number
		{"number never becomes a string", prop(`{"type":"string"}`), `{"n":5}`, "", nil},
		{"boolean never becomes an integer", prop(`{"type":"integer"}`), `{"n":true}`, "", nil},
		// unions
		{"anyOf integer or null", prop(`{"anyOf":[{"type":"integer"},{"type":"null"}]}`), `{"n":"12"}`, `{"n":12}`, []Conversion{conv("/n", "string", "integer")}},
		{"oneOf of types", prop(`{"oneOf":[{"type":"integer"},{"type":"array"}]}`), `{"n":"3"}`, `{"n":3}`, []Conversion{conv("/n", "string", "integer")}},
		{"ambiguous integer or boolean", prop(`{"type":["integer","boolean"]}`), `{"n":"1"}`, "", nil},
		{"unambiguous boolean word", prop(`{"type":["integer","boolean"]}`), `{"n":"yes"}`, `{"n":true}`, []Conversion{conv("/n", "string", "boolean")}},
		{"string kept when a string is accepted", prop(`{"type":["string","integer"]}`), `{"n":"5"}`, `{"n":"5"}`, nil},
		{"string kept when any branch accepts strings", prop(`{"anyOf":[{"type":"integer"},{"type":"string","maxLength":1}]}`), `{"n":"55"}`, "", nil},
		{"no type means no conversion", prop(`{"enum":[1,2]}`), `{"n":"1"}`, "", nil},
		// the places the walk reaches
		{"nested object in array", `{"properties":{"items":{"type":"array","items":{"type":"object","properties":{"qty":{"type":"integer"}}}}}}`,
			`{"items":[{"qty":"1"},{"qty":2},{"qty":"3"}]}`, `{"items":[{"qty":1},{"qty":2},{"qty":3}]}`,
			[]Conversion{conv("/items/0/qty", "string", "integer"), conv("/items/2/qty", "string", "integer")}},
		{"prefixItems then items", prop(`{"type":"array","prefixItems":[{"type":"integer"},{"type":"boolean"}],"items":{"type":"number"}}`),
			`{"n":["1","yes","2"]}`, `{"n":[1,true,2.0]}`,
			[]Conversion{conv("/n/0", "string", "integer"), conv("/n/1", "string", "boolean"), conv("/n/2", "string", "number")}},
		{"draft-07 tuple items", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"n":{"type":"array","items":[{"type":"integer"}],"additionalItems":{"type":"boolean"}}}}`,
			`{"n":["1","on"]}`, `{"n":[1,true]}`, []Conversion{conv("/n/0", "string", "integer"), conv("/n/1", "string", "boolean")}},
		{"additionalProperties schema (dict values)", prop(`{"type":"object","additionalProperties":{"type":"integer"}}`),
			`{"n":{"b":"2","a":"1"}}`, `{"n":{"a":1,"b":2}}`, []Conversion{conv("/n/a", "string", "integer"), conv("/n/b", "string", "integer")}},
		{"patternProperties leaves other keys alone", prop(`{"type":"object","patternProperties":{"^x":{"type":"string"}},"additionalProperties":{"type":"integer"}}`),
			`{"n":{"a":"1"}}`, "", nil},
		{"local $ref and $defs", `{"$defs":{"q":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/q"}}}`, `{"n":"7"}`, `{"n":7}`, []Conversion{conv("/n", "string", "integer")}},
		{"percent-encoded $ref", `{"$defs":{"a b":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/a%20b"}}}`, `{"n":"7"}`, `{"n":7}`, []Conversion{conv("/n", "string", "integer")}},
		{"allOf narrows number to integer", prop(`{"allOf":[{"type":"number"},{"type":"integer"}]}`), `{"n":"7"}`, `{"n":7}`, []Conversion{conv("/n", "string", "integer")}},
		{"allOf merges properties", `{"allOf":[{"properties":{"a":{"type":"integer"}}},{"properties":{"b":{"type":"boolean"}}}]}`,
			`{"a":"1","b":"no"}`, `{"a":1,"b":false}`, []Conversion{conv("/a", "string", "integer"), conv("/b", "string", "boolean")}},
		{"Optional[Model] descends into the model", `{"$defs":{"M":{"type":"object","properties":{"v":{"type":"integer"}}}},"properties":{"m":{"anyOf":[{"$ref":"#/$defs/M"},{"type":"null"}]}}}`,
			`{"m":{"v":"3"}}`, `{"m":{"v":3}}`, []Conversion{conv("/m/v", "string", "integer")}},
		{"two object branches: no descent", `{"properties":{"m":{"anyOf":[{"type":"object","properties":{"v":{"type":"integer"}}},{"type":"object","properties":{"w":{"type":"string"}}}]}}}`,
			`{"m":{"v":"3"}}`, `{"m":{"v":"3"}}`, nil},
		{"recursive schema", recursive, `{"v":"1","kids":[{"v":"2","kids":[{"v":"3"}]}]}`, `{"v":1,"kids":[{"kids":[{"v":3}],"v":2}]}`,
			[]Conversion{conv("/v", "string", "integer"), conv("/kids/0/kids/0/v", "string", "integer"), conv("/kids/0/v", "string", "integer")}},
		{"$ref not followed under a nested $id", `{"properties":{"n":{"$id":"https://x.example/n","$ref":"#/$defs/q","$defs":{"q":{"type":"integer"}}}}}`,
			`{"n":"7"}`, "", nil},
		{"escaped property names in paths", `{"properties":{"a/b~c":{"type":"integer"}}}`, `{"a/b~c":"1"}`, `{"a/b~c":1}`, []Conversion{conv("/a~1b~0c", "string", "integer")}},
		{"order follows the output text", `{"properties":{"z":{"type":"integer"},"a":{"type":"object","properties":{"y":{"type":"integer"},"b":{"type":"integer"}}}}}`,
			`{"z":"1","a":{"y":"2","b":"3"}}`, `{"z":1,"a":{"b":3,"y":2}}`,
			[]Conversion{conv("/z", "string", "integer"), conv("/a/b", "string", "integer"), conv("/a/y", "string", "integer")}},
		{"false schema converts nothing", `{"properties":{"n":false}}`, `{"n":"1"}`, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("t", json.RawMessage(tc.schema))
			require.NoError(t, err)
			in := mustDecode(t, tc.args)
			out, convs, err := cs.Normalize("t", in, CoerceLax)
			if tc.want == "" {
				assert.ErrorIs(t, err, ErrInvalidArguments, "got %v (%s), want invalid-arguments", err, marshalArgs(t, out))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, marshalArgs(t, out), "got %s, want %s", marshalArgs(t, out), tc.want)
			assert.Equal(t, tc.convs, convs, "got conversions %v, want %v", convs, tc.convs)
			again := mustDecode(t, tc.args)
			assert.Equal(t, again, in, "got input changed to %v, want it untouched", in)
		})
	}
}

func TestNormalizeCoerceNone(t *testing.T) {
	cs, err := CompileSchema("t", json.RawMessage(prop(`{"type":"integer"}`)))
	require.NoError(t, err)
	_, convs, err := cs.Normalize("t", mustDecode(t, `{"n":"5"}`), CoerceNone)
	assert.ErrorIs(t, err, ErrInvalidArguments, "got %v, want the string refused without coercion", err)
	assert.Nil(t, convs)
	out, convs, err := cs.Normalize("t", mustDecode(t, `{"n":5.0}`), CoerceNone)
	require.NoError(t, err, "got %v, want 5.0 valid as an integer (JSON Schema)", err)
	assert.Equal(t, `{"n":5.0}`, marshalArgs(t, out), "got %s, want 5.0 kept", marshalArgs(t, out))
	assert.Empty(t, convs)
	out, convs, err = cs.Normalize("t", mustDecode(t, `{"n":"5"}`), "")
	require.NoError(t, err, "got %v, want the empty mode to mean lax", err)
	assert.Equal(t, `{"n":5}`, marshalArgs(t, out))
	assert.Len(t, convs, 1)
}

func TestNormalizeLaxScalarRules(t *testing.T) {
	t.Run("strAsInt", func(t *testing.T) {
		tests := []struct {
			in   string
			want string
			ok   bool
		}{
			{"0", "0", true}, {"-0", "0", true}, {"+5", "5", true}, {"0005", "5", true}, {"-12", "-12", true},
			{"12.0", "12", true}, {"12.", "12", true}, {"1_2", "12", true}, {"-1_000", "-1000", true},
			{"", "", false}, {"-", "", false}, {"+", "", false}, {".0", "", false}, {"1.5", "", false}, {"1e3", "", false},
			{"_1", "", false}, {"1_", "", false}, {"1__2", "", false}, {"1_2.0", "", false}, {" 1", "", false},
			{"١", "", false}, {"12a", "", false},
		}
		for _, tc := range tests {
			got, ok := strAsInt(tc.in)
			assert.Equal(t, tc.ok, ok, "strAsInt(%q): got ok %v, want %v", tc.in, ok, tc.ok)
			assert.Equal(t, tc.want, got, "strAsInt(%q): got %q, want %q", tc.in, got, tc.want)
		}
		long := make([]byte, maxIntDigits+1)
		for i := range long {
			long[i] = '1'
		}
		_, ok := strAsInt(string(long))
		assert.False(t, ok, "got a %d-digit string converted, want Python's 4300-digit limit", len(long))
		_, ok = strAsInt(string(long[:maxIntDigits]))
		assert.True(t, ok, "got the 4300-digit string refused, want it converted")
	})
	t.Run("strAsFloat", func(t *testing.T) {
		tests := []struct {
			in   string
			want string
			ok   bool
		}{
			{"1.5", "1.5", true}, {"-0.0", "-0.0", true}, {".5", "0.5", true}, {"5.", "5", true}, {"+2", "2", true},
			{"1e5", "1e5", true}, {"1E-5", "1e-5", true}, {"007.10", "7.10", true}, {"1_5.2_5", "15.25", true},
			{"", "", false}, {".", "", false}, {"e5", "", false}, {"1e", "", false}, {"1e+", "", false}, {"inf", "", false},
			{"-Infinity", "", false}, {"nan", "", false}, {"0x1p3", "", false}, {"1.5x", "", false}, {"1e1001", "", false},
		}
		for _, tc := range tests {
			got, ok := strAsFloat(tc.in)
			assert.Equal(t, tc.ok, ok, "strAsFloat(%q): got ok %v, want %v", tc.in, ok, tc.ok)
			assert.Equal(t, tc.want, got, "strAsFloat(%q): got %q, want %q", tc.in, got, tc.want)
		}
	})
	t.Run("numberAsInt", func(t *testing.T) {
		tests := []struct {
			in   string
			want string
			ok   bool
		}{
			{"5.0", "5", true}, {"-5.000", "-5", true}, {"1e3", "1000", true}, {"1.5e1", "15", true}, {"150e-1", "15", true},
			{"0.0", "0", true}, {"0e999", "0", true}, {"-0.0", "0", true}, {"1.25e2", "125", true},
			{"1.5", "", false}, {"1e-1", "", false}, {"15e-1", "", false}, {"1e5000", "", false}, {"1eX", "", false}, {"e1", "", false},
		}
		for _, tc := range tests {
			got, ok := numberAsInt(tc.in)
			assert.Equal(t, tc.ok, ok, "numberAsInt(%q): got ok %v, want %v", tc.in, ok, tc.ok)
			assert.Equal(t, tc.want, got, "numberAsInt(%q): got %q, want %q", tc.in, got, tc.want)
		}
	})
	t.Run("strAsBool", func(t *testing.T) {
		for _, s := range []string{"1", "t", "T", "y", "Y", "on", "ON", "yes", "Yes", "true", "TRUE"} {
			v, ok := strAsBool(s)
			assert.True(t, ok && v, "strAsBool(%q): got %v %v, want true", s, v, ok)
		}
		for _, s := range []string{"0", "f", "F", "n", "N", "off", "Off", "no", "NO", "false", "False"} {
			v, ok := strAsBool(s)
			assert.True(t, ok && !v, "strAsBool(%q): got %v %v, want false", s, v, ok)
		}
		for _, s := range []string{"", "2", "01", "truee", " true", "ye", "oui", "\u212a"} {
			_, ok := strAsBool(s)
			assert.False(t, ok, "strAsBool(%q): got a boolean, want none", s)
		}
	})
	t.Run("intersectKinds", func(t *testing.T) {
		tests := []struct{ a, b, want jsonKinds }{
			{kindNumber, kindInteger, kindInteger},
			{kindAll, kindNumber, kindNumber},
			{kindAll, kindInteger, kindInteger},
			{kindNumber | kindInteger, kindNumber, kindNumber},
			{kindNumber | kindInteger, kindInteger, kindInteger},
			{kindString, kindNumber, 0},
			{kindAll, kindAll, kindAll},
		}
		for _, tc := range tests {
			assert.Equal(t, tc.want, intersectKinds(tc.a, tc.b), "intersect(%b, %b): got %b, want %b", tc.a, tc.b, intersectKinds(tc.a, tc.b), tc.want)
			assert.Equal(t, tc.want, intersectKinds(tc.b, tc.a), "intersect is symmetric")
		}
	})
}

// marshalArgs renders arguments with MarshalJSON ("" for nil).
func marshalArgs(t testing.TB, a *Arguments) string {
	t.Helper()
	if a == nil {
		return ""
	}
	b, err := a.MarshalJSON()
	require.NoError(t, err)
	return string(b)
}
