package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// checkStrictRules fails unless schema keeps OpenAI's strict rules, read
// from OpenAI's "Supported schemas" guide: the root an object and no union;
// every object closed with every property required; every node typed (or
// a union, a reference, an enum, a const); no keyword strict mode lacks;
// references to the root or its definitions; at most 10 levels of objects.
func checkStrictRules(t *testing.T, schema []byte) {
	t.Helper()
	var root map[string]any
	require.NoError(t, json.Unmarshal(schema, &root), "%s", schema)
	require.Equal(t, "object", root["type"], "root type in %s", schema)
	require.NotContains(t, root, "anyOf")
	defs, _ := root["$defs"].(map[string]any)
	defs2, _ := root["definitions"].(map[string]any)
	c := &strictChecker{t: t, defs: defs, defs2: defs2, doc: string(schema)}
	c.node(root, "", 0)
	for name, d := range defs {
		c.node(d, "/$defs/"+name, 0)
	}
	for name, d := range defs2 {
		c.node(d, "/definitions/"+name, 0)
	}
}

type strictChecker struct {
	t           *testing.T
	defs, defs2 map[string]any
	doc         string
}

var strictForbidden = []string{"allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas",
	"dependencies", "patternProperties", "oneOf", "prefixItems", "additionalItems", "unevaluatedProperties",
	"unevaluatedItems", "propertyNames", "contains", "minContains", "maxContains", "minLength", "maxLength",
	"minProperties", "maxProperties", "uniqueItems"}

func (c *strictChecker) node(v any, path string, nest int) {
	t := c.t
	m, ok := v.(map[string]any)
	require.True(t, ok, "%s is not an object in %s", path, c.doc)
	for _, k := range strictForbidden {
		require.NotContains(t, m, k, "%s in %s", path, c.doc)
	}
	for k, v := range m {
		require.NotNil(t, v, "%s/%s is null in %s", path, k, c.doc)
	}
	_, typed := m["type"]
	_, union := m["anyOf"]
	_, ref := m["$ref"]
	_, enum := m["enum"]
	_, cnst := m["const"]
	require.True(t, typed || union || ref || enum || cnst, "%s has no type in %s", path, c.doc)
	if f, ok := m["format"].(string); ok {
		require.Contains(t, []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}, f)
	}
	if ref {
		r := m["$ref"].(string)
		ok := r == "#" || (strings.HasPrefix(r, "#/$defs/") && c.defs[strings.TrimPrefix(r, "#/$defs/")] != nil) ||
			(strings.HasPrefix(r, "#/definitions/") && c.defs2[strings.TrimPrefix(r, "#/definitions/")] != nil)
		require.True(t, ok, "%s: $ref %s in %s", path, r, c.doc)
	}
	if union {
		for k := range m {
			require.Contains(t, []string{"anyOf", "description", "title", "default"}, k, "%s: beside anyOf in %s", path, c.doc)
		}
		for i, b := range m["anyOf"].([]any) {
			c.node(b, fmt.Sprintf("%s/anyOf/%d", path, i), nest)
		}
	}
	types := fmt.Sprint(m["type"])
	if strings.Contains(types, "object") {
		c.object(m, path, nest+1)
	}
	if strings.Contains(types, "array") {
		c.node(m["items"], path+"/items", nest)
	}
}

func (c *strictChecker) object(m map[string]any, path string, nest int) {
	t := c.t
	require.LessOrEqual(t, nest, 10, "%s nests too deeply in %s", path, c.doc)
	require.Equal(t, false, m["additionalProperties"], "%s not closed in %s", path, c.doc)
	props, _ := m["properties"].(map[string]any)
	var names []string
	for name, p := range props {
		names = append(names, name)
		c.node(p, path+"/properties/"+name, nest)
	}
	req, _ := m["required"].([]any)
	var got []string
	for _, r := range req {
		got = append(got, r.(string))
	}
	require.ElementsMatch(t, names, got, "%s: required in %s", path, c.doc)
}

func TestStrictSchemaUnchanged(t *testing.T) {
	for _, in := range []string{
		`{"type":"object","properties":{},"additionalProperties":false}`,
		`{"type":"object","properties":{"a":{"type":"string","format":"date-time","pattern":"^[0-9]"},"b":{"type":["integer","null"],"minimum":1}},"required":["b","a"],"additionalProperties":false}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"],"additionalProperties":false,"$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}},"v":{"anyOf":[{"type":"string"},{"type":"null"}],"description":"d"}},"required":["kids","v"],"additionalProperties":false}}}`,
	} {
		out, r, ch, err := strictSchema("t", json.RawMessage(in))
		require.NoError(t, err)
		assert.Equal(t, in, string(out))
		assert.Empty(t, ch)
		require.NotNil(t, r)
		checkStrictRules(t, out)
	}
}

func TestStrictSchemaRewrites(t *testing.T) {
	cases := []struct {
		name, in, want string
		kinds          []ChangeKind
		paths          []string
	}{
		{"closes and requires", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"]}`,
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["integer","null"]}},"required":["a","b"],"additionalProperties":false}`,
			[]ChangeKind{ChangeStrictClosed, ChangeStrictRequired}, []string{"", "/properties/b"}},
		{"no properties at the root", `{"type":"object"}`, `{"type":"object","additionalProperties":false}`,
			[]ChangeKind{ChangeStrictClosed}, []string{""}},
		{"enum with a type", `{"type":"object","properties":{"u":{"type":"string","enum":["C","F"]}},"additionalProperties":false}`,
			`{"type":"object","properties":{"u":{"type":["string","null"],"enum":["C","F",null]}},"additionalProperties":false,"required":["u"]}`,
			[]ChangeKind{ChangeStrictRequired}, []string{"/properties/u"}},
		{"enum without a type, const, $ref", `{"type":"object","properties":{"e":{"enum":[1,2]},"c":{"const":"x"},"r":{"$ref":"#"}},"additionalProperties":false}`,
			`{"type":"object","properties":{"e":{"anyOf":[{"enum":[1,2]},{"type":"null"}]},"c":{"anyOf":[{"const":"x"},{"type":"null"}]},"r":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"additionalProperties":false,"required":["e","c","r"]}`,
			[]ChangeKind{ChangeStrictRequired, ChangeStrictRequired, ChangeStrictRequired}, []string{"/properties/e", "/properties/c", "/properties/r"}},
		{"anyOf gets a null branch", `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"additionalProperties":false}`,
			`{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}},"additionalProperties":false,"required":["v"]}`,
			[]ChangeKind{ChangeStrictRequired}, []string{"/properties/v"}},
		{"already nullable stays", `{"type":"object","properties":{"v":{"type":["string","null"]}},"additionalProperties":false}`,
			`{"type":"object","properties":{"v":{"type":["string","null"]}},"additionalProperties":false,"required":["v"]}`,
			[]ChangeKind{ChangeStrictRequired}, []string{"/properties/v"}},
		{"oneOf to anyOf", `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"],"additionalProperties":false}`,
			`{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"],"additionalProperties":false}`,
			[]ChangeKind{ChangeUnionFlattened}, []string{"/properties/v/oneOf"}},
		{"described keywords", `{"type":"object","properties":{"s":{"type":"string","description":"Name","minLength":2,"format":"uri","pattern":"^(?!x)"}},"required":["s"],"additionalProperties":false}`,
			`{"type":"object","properties":{"s":{"type":"string","description":"Name. At least 2 characters. Format: uri. Must match the pattern \"^(?!x)\"."}},"required":["s"],"additionalProperties":false}`,
			[]ChangeKind{ChangeKeywordDescribed, ChangeKeywordDescribed, ChangeKeywordDescribed}, []string{"/properties/s/minLength", "/properties/s/format", "/properties/s/pattern"}},
		{"dropped and null keywords", `{"type":"object","description":null,"x-internal":true,"properties":{"a":{"type":"string","default":null,"deprecated":true}},"required":["a"],"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			[]ChangeKind{ChangeNullRemoved, ChangeKeywordDropped, ChangeNullRemoved, ChangeKeywordDropped}, []string{"/description", "/x-internal", "/properties/a/default", "/properties/a/deprecated"}},
		{"nested definitions dropped", `{"type":"object","properties":{"a":{"type":"string","$defs":{"X":{"type":"string"}}}},"required":["a"],"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			[]ChangeKind{ChangeKeywordDropped}, []string{"/properties/a/$defs"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, r, ch, err := strictSchema("t", json.RawMessage(tc.in))
			require.NoError(t, err)
			require.NotNil(t, r)
			require.JSONEq(t, tc.want, string(out))
			var kinds []ChangeKind
			var paths []string
			for _, c := range ch {
				kinds, paths = append(kinds, c.Kind), append(paths, c.Path)
				assert.Equal(t, "t", c.Tool)
			}
			assert.Equal(t, tc.kinds, kinds)
			assert.Equal(t, tc.paths, paths)
			checkStrictRules(t, out)
		})
	}
}

func TestStrictSchemaRefusals(t *testing.T) {
	obj := func(prop string) string {
		return `{"type":"object","properties":{"p":` + prop + `},"required":["p"]}`
	}
	deep := `{"type":"string"}`
	for i := 0; i < 10; i++ {
		deep = obj(deep)
	}
	var many []string
	for i := 0; i < 5001; i++ {
		many = append(many, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
	}
	var values []string
	for i := 0; i < 300; i++ {
		values = append(values, `"`+strings.Repeat("v", 60)+fmt.Sprint(i)+`"`)
	}
	cases := []struct{ name, in, keyword, path string }{
		{"allOf", obj(`{"allOf":[{"type":"string"}]}`), "allOf", "/properties/p/allOf"},
		{"not", obj(`{"type":"string","not":{"const":"x"}}`), "not", "/properties/p/not"},
		{"if", obj(`{"type":"string","if":{"const":"x"},"then":{}}`), "if", "/properties/p/if"},
		{"dependentRequired", `{"type":"object","properties":{"a":{"type":"string"}},"dependentRequired":{"a":["b"]}}`, "dependentRequired", "/dependentRequired"},
		{"dependentSchemas", `{"type":"object","properties":{"a":{"type":"string"}},"dependentSchemas":{"a":{}}}`, "dependentSchemas", "/dependentSchemas"},
		{"patternProperties", obj(`{"type":"object","patternProperties":{"^x":{"type":"string"}}}`), "patternProperties", "/properties/p/patternProperties"},
		{"open object", obj(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`), "additionalProperties", "/properties/p/additionalProperties"},
		{"map", obj(`{"type":"object","additionalProperties":{"type":"string"}}`), "additionalProperties", "/properties/p/additionalProperties"},
		{"free-form object", obj(`{"type":"object"}`), "additionalProperties", "/properties/p"},
		{"tuple", obj(`{"type":"array","prefixItems":[{"type":"string"}]}`), "prefixItems", "/properties/p/prefixItems"},
		{"array without items", obj(`{"type":"array"}`), "items", "/properties/p/items"},
		{"untyped", obj(`{"description":"anything"}`), "type", "/properties/p"},
		{"boolean schema", obj(`true`), "type", "/properties/p"},
		{"external ref", obj(`{"$ref":"https://example.com/s.json"}`), "$ref", "/properties/p/$ref"},
		{"ref into properties", `{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}},"required":["a","b"]}`, "$ref", "/properties/b/$ref"},
		{"ref with siblings", `{"type":"object","properties":{"a":{"$ref":"#/$defs/S","minimum":1}},"required":["a"],"$defs":{"S":{"type":"integer"}}}`, "minimum", "/properties/a/minimum"},
		{"anyOf with siblings", obj(`{"type":"string","anyOf":[{"minimum":1}]}`), "type", "/properties/p/type"},
		{"anyOf and oneOf", obj(`{"anyOf":[{"type":"string"}],"oneOf":[{"type":"string"}]}`), "oneOf", "/properties/p/oneOf"},
		{"root union", `{"type":"object","anyOf":[{"type":"object"}]}`, "anyOf", ""},
		{"root not an object", `{"type":"string"}`, "type", ""},
		{"required not a property", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}`, "required", "/required"},
		{"nesting", obj(deep), "maxNesting", strings.Repeat("/properties/p", 10)},
		{"properties", `{"type":"object","properties":{` + strings.Join(many, ",") + `}}`, "maxTotalProperties", "/properties/p5000"},
		{"large enum", obj(`{"type":"string","enum":[` + strings.Join(values, ",") + `]}`), "maxEnumSize", "/properties/p/enum"},
		{"enum values", obj(`{"type":"object","properties":{` + strings.Repeat(`"a":{"enum":[1]},`, 0) + enumProps(1001) + `},"required":[]}`), "maxEnumValues", "/properties/p/properties/e1000/enum"},
		{"ambiguous union", obj(`{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}]}`), "anyOf", "/properties/p/anyOf"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, r, ch, err := strictSchema("t", json.RawMessage(tc.in))
			require.NoError(t, err)
			assert.Nil(t, out)
			assert.Nil(t, r)
			require.Len(t, ch, 1)
			assert.Equal(t, ChangeStrictRefused, ch[0].Kind)
			assert.Equal(t, tc.keyword, ch[0].Keyword)
			assert.Equal(t, tc.path, ch[0].Path)
			assert.NotEmpty(t, ch[0].Message)
		})
	}
}

func enumProps(n int) string {
	var ps []string
	for i := 0; i < n; i++ {
		ps = append(ps, fmt.Sprintf(`"e%d":{"enum":[1]}`, i))
	}
	return strings.Join(ps, ",")
}

func TestStrictSchemaStringSize(t *testing.T) {
	long := strings.Repeat("n", 60001)
	in := `{"type":"object","properties":{"a":{"const":"` + long + `"},"b":{"const":"` + long + `"}},"required":["a","b"]}`
	out, _, ch, err := strictSchema("t", json.RawMessage(in))
	require.NoError(t, err)
	assert.Nil(t, out)
	require.Len(t, ch, 1)
	assert.Equal(t, "maxStringSize", ch[0].Keyword)
}

func TestStrictSchemaBroken(t *testing.T) {
	for _, in := range []string{``, `nul`, `[]`, `"object"`, `{"type":"object"} {}`, `{"a":`, strings.Repeat("[", 100) + strings.Repeat("]", 100)} {
		out, r, ch, err := strictSchema("t", json.RawMessage(in))
		assert.Error(t, err, "%q", in)
		assert.Nil(t, out)
		assert.Nil(t, r)
		assert.Nil(t, ch)
	}
}

func TestStrictRestoreApply(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string"},
		"note":{"type":"string"},
		"keep":{"type":["string","null"]},
		"opts":{"type":"object","properties":{"depth":{"type":"integer"},"tags":{"type":"array","items":{"$ref":"#/$defs/Tag"}}}},
		"pick":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"},"x":{"type":"integer"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"string"},"y":{"type":"integer"}},"required":["b"]},{"type":"string"}]},
		"tree":{"$ref":"#/$defs/Node"}},
		"required":["name"],
		"$defs":{"Tag":{"type":"object","properties":{"k":{"type":"string"},"v":{"type":"string"}},"required":["k"]},
		"Node":{"type":"object","properties":{"val":{"type":"integer"},"next":{"$ref":"#/$defs/Node"}},"required":["val"]}}}`
	_, r, _, err := strictSchema("t", json.RawMessage(schema))
	require.NoError(t, err)
	require.NotNil(t, r)
	cases := []struct{ name, in, want string }{
		{"top level", `{"name":"n","note":null,"keep":null,"opts":null,"pick":null,"tree":null}`, `{"name":"n","keep":null}`},
		{"values kept", `{"name":"n","note":"x","keep":"k"}`, `{"name":"n","note":"x","keep":"k"}`},
		{"nested and arrays", `{"name":"n","opts":{"depth":null,"tags":[{"k":"a","v":null},{"k":"b","v":"c"}]}}`, `{"name":"n","opts":{"tags":[{"k":"a"},{"k":"b","v":"c"}]}}`},
		{"union branch by keys", `{"name":"n","pick":{"a":"1","x":null}}`, `{"name":"n","pick":{"a":"1"}}`},
		{"other branch", `{"name":"n","pick":{"b":"1","y":null}}`, `{"name":"n","pick":{"b":"1"}}`},
		{"scalar branch", `{"name":"n","pick":"s"}`, `{"name":"n","pick":"s"}`},
		{"recursion", `{"name":"n","tree":{"val":1,"next":{"val":2,"next":{"val":3,"next":null}}}}`, `{"name":"n","tree":{"val":1,"next":{"val":2,"next":{"val":3}}}}`},
		{"required null kept for validation to refuse", `{"name":null}`, `{"name":null}`},
		{"unknown keys kept", `{"name":"n","zz":null}`, `{"name":"n","zz":null}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args, err := core.DecodeArguments("t", []byte(tc.in))
			require.NoError(t, err)
			got, err := r.Apply(args).MarshalJSON()
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(got))
			again, _ := args.MarshalJSON()
			require.JSONEq(t, tc.in, string(again), "Apply must not change its input")
		})
	}
	var nilRestore *StrictRestore
	args := core.NewArguments()
	assert.Same(t, args, nilRestore.Apply(args))
	assert.Nil(t, r.Apply(nil))
}

func TestStrictRestoreKeyOrder(t *testing.T) {
	_, r, _, err := strictSchema("t", json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}}}`))
	require.NoError(t, err)
	args, err := core.DecodeArguments("t", []byte(`{"c":"1","b":null,"a":"2"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"c", "a"}, r.Apply(args).Keys)
}

// TestStrictSchemaPathological: schemas whose references branch at every
// level cost one visit per node, in the transform and in Apply.
func TestStrictSchemaPathological(t *testing.T) {
	var defs []string
	for i := 0; i < 60; i++ {
		defs = append(defs, fmt.Sprintf(`"D%d":{"anyOf":[{"$ref":"#/$defs/D%d"},{"$ref":"#/$defs/D%d"},{"type":"object","properties":{"v":{"type":"integer"}}}]}`, i, i+1, i+1))
	}
	defs = append(defs, `"D60":{"anyOf":[{"$ref":"#/$defs/D0"},{"type":"string"}]}`)
	in := `{"type":"object","properties":{"p":{"$ref":"#/$defs/D0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
	start := time.Now()
	_, r, ch, err := strictSchema("t", json.RawMessage(in))
	require.NoError(t, err)
	if r != nil {
		args, err := core.DecodeArguments("t", []byte(`{"p":{"v":null}}`))
		require.NoError(t, err)
		r.Apply(args)
	} else {
		require.Len(t, ch, 1)
	}
	assert.Less(t, time.Since(start), 2*time.Second)
}
