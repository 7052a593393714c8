package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/fixture"
)

// checkGeminiRules fails unless schema is in Gemini's legacy subset, read
// from the Schema type of @google/genai and the Gemini API's refusals: only
// the Schema fields; a type ("must be specified when not using one_of,
// any_of or all_of") or an anyOf, never both (@google/genai throws); types
// upper-case, as the Type enum; enum values strings, format "enum" beside a
// non-STRING enum; STRING formats only "enum" and "date-time"; ARRAY with
// items; required names that are properties; counts as strings of digits;
// the root an OBJECT.
func checkGeminiRules(t *testing.T, schema []byte) {
	t.Helper()
	var root map[string]any
	require.NoError(t, json.Unmarshal(schema, &root), "%s", schema)
	require.Equal(t, "OBJECT", root["type"], "root in %s", schema)
	checkGeminiNode(t, root, "", string(schema))
}

var geminiFields = map[string]bool{"anyOf": true, "default": true, "description": true, "enum": true, "example": true,
	"format": true, "items": true, "maxItems": true, "maxLength": true, "maxProperties": true, "maximum": true,
	"minItems": true, "minLength": true, "minProperties": true, "minimum": true, "nullable": true, "pattern": true,
	"properties": true, "propertyOrdering": true, "required": true, "title": true, "type": true}

var geminiTypes = []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}

func checkGeminiNode(t *testing.T, v any, path, doc string) {
	m, ok := v.(map[string]any)
	require.True(t, ok, "%s is not an object in %s", path, doc)
	for k, val := range m {
		require.True(t, geminiFields[k], "%s/%s is no Schema field in %s", path, k, doc)
		require.NotNil(t, val, "%s/%s is null in %s", path, k, doc)
	}
	typ, typed := m["type"].(string)
	branches, union := m["anyOf"].([]any)
	require.True(t, typed != union, "%s: exactly one of type and anyOf in %s", path, doc)
	if typed {
		require.Contains(t, geminiTypes, typ, "%s in %s", path, doc)
	}
	for i, b := range branches {
		checkGeminiNode(t, b, fmt.Sprintf("%s/anyOf/%d", path, i), doc)
	}
	if e, ok := m["enum"]; ok {
		for _, x := range e.([]any) {
			require.IsType(t, "", x, "%s: enum value in %s", path, doc)
		}
		if typ != "STRING" {
			require.Equal(t, "enum", m["format"], "%s in %s", path, doc)
		}
	}
	if f, ok := m["format"].(string); ok && typ == "STRING" {
		require.Contains(t, []string{"enum", "date-time"}, f, "%s in %s", path, doc)
	}
	for _, k := range []string{"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"} {
		if c, ok := m[k]; ok {
			require.Regexp(t, `^[0-9]+$`, c, "%s/%s in %s", path, k, doc)
		}
	}
	if typ == "ARRAY" {
		checkGeminiNode(t, m["items"], path+"/items", doc)
	}
	props, _ := m["properties"].(map[string]any)
	for name, p := range props {
		checkGeminiNode(t, p, path+"/properties/"+name, doc)
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			require.Contains(t, props, r, "%s: required in %s", path, doc)
		}
	}
}

func TestGeminiLegacySchema(t *testing.T) {
	cases := []struct {
		name, in, want string
		kinds          []ChangeKind
	}{
		{"types upper-case", `{"type":"object","properties":{"a":{"type":"string","description":"d"},"b":{"type":"array","items":{"type":"integer"},"minItems":1}},"required":["a"]}`,
			`{"type":"OBJECT","properties":{"a":{"type":"STRING","description":"d"},"b":{"type":"ARRAY","items":{"type":"INTEGER"},"minItems":"1"}},"required":["a"]}`, nil},
		{"type list with null", `{"type":"object","properties":{"a":{"type":["string","null"]}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"STRING","nullable":true}}}`, []ChangeKind{ChangeUnionFlattened}},
		{"type list of types", `{"type":"object","properties":{"a":{"type":["string","integer"],"minLength":1,"minimum":2,"description":"d"}}}`,
			`{"type":"OBJECT","properties":{"a":{"description":"d","anyOf":[{"type":"STRING","minLength":"1"},{"type":"INTEGER","minimum":2}]}}}`, []ChangeKind{ChangeUnionFlattened}},
		{"null branch", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}],"description":"d"}}}`,
			`{"type":"OBJECT","properties":{"a":{"description":"d","nullable":true,"type":"STRING"}}}`, []ChangeKind{ChangeUnionFlattened}},
		{"anyOf siblings spread", `{"type":"object","properties":{"a":{"type":"object","properties":{"k":{"type":"string"}},"anyOf":[{"required":["k"]},{"properties":{"j":{"type":"integer"}}}]}}}`,
			`{"type":"OBJECT","properties":{"a":{"anyOf":[{"required":["k"],"type":"OBJECT","properties":{"k":{"type":"STRING"}}},{"properties":{"j":{"type":"INTEGER"},"k":{"type":"STRING"}},"type":"OBJECT"}]}}}`, []ChangeKind{ChangeUnionFlattened}},
		{"oneOf", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"boolean"}]}}}`,
			`{"type":"OBJECT","properties":{"a":{"anyOf":[{"type":"STRING"},{"type":"BOOLEAN"}]}}}`, []ChangeKind{ChangeUnionFlattened}},
		{"allOf merged", `{"type":"object","properties":{"a":{"allOf":[{"$ref":"#/$defs/A"},{"properties":{"y":{"type":"string"}},"required":["y"]}]}},"$defs":{"A":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"OBJECT","properties":{"x":{"type":"STRING"},"y":{"type":"STRING"}},"required":["x","y"]}}}`,
			[]ChangeKind{ChangeKeywordDropped, ChangeRefInlined, ChangeUnionFlattened}},
		{"ref inlined with its description", `{"type":"object","properties":{"a":{"$ref":"#/definitions/A","description":"outer"}},"definitions":{"A":{"type":"string","description":"inner"}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"STRING","description":"outer"}}}`, []ChangeKind{ChangeKeywordDropped, ChangeRefInlined}},
		{"numeric enum", `{"type":"object","properties":{"n":{"type":"integer","enum":[1,2,null]}}}`,
			`{"type":"OBJECT","properties":{"n":{"type":"INTEGER","enum":["1","2"],"nullable":true,"format":"enum"}}}`, []ChangeKind{ChangeEnumStringified}},
		{"string enum kept", `{"type":"object","properties":{"s":{"type":"string","enum":["a","b"]}}}`,
			`{"type":"OBJECT","properties":{"s":{"type":"STRING","enum":["a","b"]}}}`, nil},
		{"const", `{"type":"object","properties":{"c":{"const":"x"}}}`,
			`{"type":"OBJECT","properties":{"c":{"type":"STRING","enum":["x"]}}}`, []ChangeKind{ChangeKeywordRewritten, ChangeKeywordRewritten}},
		{"formats", `{"type":"object","properties":{"u":{"type":"string","format":"uri"},"d":{"type":"string","format":"date-time"},"f":{"type":"number","format":"float"}}}`,
			`{"type":"OBJECT","properties":{"u":{"type":"STRING","description":"Format: uri."},"d":{"type":"STRING","format":"date-time"},"f":{"type":"NUMBER","format":"float"}}}`, []ChangeKind{ChangeKeywordDescribed}},
		{"described and dropped", `{"$schema":"x","type":"object","additionalProperties":false,"properties":{"n":{"type":"number","exclusiveMinimum":0,"multipleOf":2},"m":{"type":"object","properties":{"k":{"type":"string"}},"additionalProperties":{"type":"string"}},"x":{"type":"string","not":{"const":""},"examples":["e"]}}}`,
			`{"type":"OBJECT","properties":{"n":{"type":"NUMBER","description":"Greater than 0. A multiple of 2."},"m":{"type":"OBJECT","properties":{"k":{"type":"STRING"}}},"x":{"type":"STRING","example":"e"}}}`,
			[]ChangeKind{ChangeKeywordDropped, ChangeKeywordDropped, ChangeKeywordDescribed, ChangeKeywordDescribed, ChangeKeywordDropped, ChangeKeywordDropped, ChangeKeywordRewritten}},
		{"required filtered", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"]}`,
			`{"type":"OBJECT","properties":{"a":{"type":"STRING"}},"required":["a"]}`, []ChangeKind{ChangeKeywordDropped}},
		{"tuple and missing items", `{"type":"object","properties":{"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]},"u":{"type":"array"}}}`,
			`{"type":"OBJECT","properties":{"t":{"type":"ARRAY","items":{"anyOf":[{"type":"STRING"},{"type":"INTEGER"}]}},"u":{"type":"ARRAY","items":{"anyOf":[{"type":"STRING"},{"type":"NUMBER"},{"type":"BOOLEAN"},{"type":"OBJECT"},{"type":"ARRAY","items":{"type":"STRING"}}]}}}}`,
			[]ChangeKind{ChangeKeywordRewritten, ChangeKeywordRewritten}},
		{"types inferred", `{"properties":{"a":{"properties":{"b":{"enum":["x"]}}},"any":{}}}`,
			`{"properties":{"a":{"properties":{"b":{"enum":["x"],"type":"STRING"}},"type":"OBJECT"},"any":{"anyOf":[{"type":"STRING"},{"type":"NUMBER"},{"type":"BOOLEAN"},{"type":"OBJECT"},{"type":"ARRAY","items":{"type":"STRING"}}]}},"type":"OBJECT"}`,
			[]ChangeKind{ChangeKeywordRewritten, ChangeKeywordRewritten, ChangeKeywordRewritten, ChangeKeywordRewritten}},
		{"null description", `{"type":"object","description":null,"properties":{"a":{"type":"string","description":null}}}`,
			`{"type":"OBJECT","properties":{"a":{"type":"STRING"}}}`, []ChangeKind{ChangeNullRemoved, ChangeNullRemoved}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, ch, err := geminiLegacySchema("t", json.RawMessage(tc.in))
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(out))
			var kinds []ChangeKind
			for _, c := range ch {
				assert.Equal(t, "t", c.Tool)
				assert.True(t, c.Path == "" || strings.HasPrefix(c.Path, "/"), c.Path)
				if c.Kind != ChangeKeywordRespelled { // spellings: TestGeminiLegacyRespellingsReported
					kinds = append(kinds, c.Kind)
				}
			}
			assert.Equal(t, tc.kinds, kinds)
			checkGeminiRules(t, out)
		})
	}
}

// What the legacy subset spells its own way is said, each at its path:
// a type upper-case, a count as a string of digits; and additionalProperties
// false, which it cannot say, is reported left out (the model is no longer
// told the object is closed).
func TestGeminiLegacyRespellingsReported(t *testing.T) {
	in := `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","minLength":1},"b":{"type":"ARRAY","items":{"type":"integer"}}}}`
	out, ch, err := geminiLegacySchema("t", json.RawMessage(in))
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"OBJECT","properties":{"a":{"type":"STRING","minLength":"1"},"b":{"type":"ARRAY","items":{"type":"INTEGER"}}}}`, string(out))
	var got []string
	for _, c := range ch {
		got = append(got, fmt.Sprintf("%s %s %s", c.Kind, c.Path, c.Keyword))
	}
	assert.ElementsMatch(t, []string{
		"keyword-respelled /type type",
		"keyword-dropped /additionalProperties additionalProperties",
		"keyword-respelled /properties/a/type type",
		"keyword-respelled /properties/a/minLength minLength",
		"keyword-respelled /properties/b/items/type type",
	}, got, "an upper-case type as sent is kept, not reported")
}

func TestGeminiLegacySchemaRefs(t *testing.T) {
	t.Run("cycle cut", func(t *testing.T) {
		in := `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","description":"a node","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`
		out, ch, err := geminiLegacySchema("t", json.RawMessage(in))
		require.NoError(t, err)
		require.JSONEq(t, `{"type":"OBJECT","properties":{"root":{"type":"OBJECT","description":"a node","properties":{"kids":{"type":"ARRAY","items":{"type":"OBJECT","description":"a node"}}}}}}`, string(out))
		refused := 0
		for _, c := range ch {
			if c.Kind == ChangeSchemaRefused {
				refused++
				assert.Equal(t, "/$defs/Node/properties/kids/items/$ref", c.Path)
				assert.Equal(t, "$ref", c.Keyword)
			}
		}
		assert.Equal(t, 1, refused)
		checkGeminiRules(t, out)
	})
	t.Run("self reference", func(t *testing.T) {
		out, ch, err := geminiLegacySchema("t", json.RawMessage(`{"type":"object","properties":{"me":{"$ref":"#"}}}`))
		require.NoError(t, err)
		require.JSONEq(t, `{"type":"OBJECT","properties":{"me":{"type":"OBJECT","properties":{"me":{"type":"OBJECT"}}}}}`, string(out))
		assert.Equal(t, ChangeSchemaRefused, ch[len(ch)-1].Kind)
	})
	t.Run("unresolved", func(t *testing.T) {
		out, ch, err := geminiLegacySchema("t", json.RawMessage(`{"type":"OBJECT","properties":{"x":{"$ref":"#/$defs/Missing"},"y":{"$ref":"other.json"}}}`))
		require.NoError(t, err)
		checkGeminiRules(t, out)
		require.Len(t, ch, 2, "%+v", ch)
		assert.Equal(t, ChangeSchemaRefused, ch[0].Kind)
		assert.Equal(t, "/properties/x/$ref", ch[0].Path)
	})
	t.Run("blow-up bounded", func(t *testing.T) {
		defs := []string{`"d0":{"type":"string"}`}
		for i := 1; i < 30; i++ {
			defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","properties":{"l":{"$ref":"#/$defs/d%d"},"r":{"$ref":"#/$defs/d%d"}}}`, i, i-1, i-1))
		}
		in := `{"type":"object","properties":{"top":{"$ref":"#/$defs/d29"}},"$defs":{` + strings.Join(defs, ",") + `}}`
		out, ch, err := geminiLegacySchema("t", json.RawMessage(in))
		require.NoError(t, err)
		checkGeminiRules(t, out)
		assert.Less(t, len(out), 4*core.MaxSchemaBytes)
		found := false
		for _, c := range ch {
			found = found || c.Kind == ChangeSchemaRefused
		}
		assert.True(t, found)
	})
}

func TestGeminiLegacySchemaRoot(t *testing.T) {
	out, ch, err := geminiLegacySchema("t", json.RawMessage(`{"type":"string","description":"d"}`))
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"OBJECT","description":"d"}`, string(out))
	assert.Equal(t, ChangeSchemaRefused, ch[len(ch)-1].Kind)
	for _, in := range []string{``, `[]`, `1`, `{"a":`} {
		_, _, err := geminiLegacySchema("t", json.RawMessage(in))
		assert.Error(t, err, "%q", in)
	}
}

// FuzzGeminiLegacySchema: the Gemini transform never panics or loops, and
// whatever it writes is in the subset.
func FuzzGeminiLegacySchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#"}}}`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":["string","null","integer"],"enum":[1,"a",null]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &fzGen{schemaGen: schemaGen{fixture.Choices{Src: data, Seed: uint64(len(data))}}}
		for _, in := range [][]byte{data, []byte(g.render(g.root()))} {
			out, _, err := geminiLegacySchema("t", in)
			if err == nil {
				checkGeminiRules(t, out)
			}
		}
	})
}

// TestGeminiLegacySchemaGenerated checks the subset over generated schemas.
func TestGeminiLegacySchemaGenerated(t *testing.T) {
	for i := 0; i < 300; i++ {
		g := &fzGen{schemaGen: schemaGen{fixture.Choices{Seed: uint64(i)*0x9e3779b97f4a7c15 + 1}}}
		out, _, err := geminiLegacySchema("t", []byte(g.render(g.root())))
		require.NoError(t, err)
		checkGeminiRules(t, out)
	}
}

// TestProviderTransformsPydantic runs a Pydantic v2 model's schema ($defs,
// Optional with null defaults, an enum class, titles) through both
// transforms.
func TestProviderTransformsPydantic(t *testing.T) {
	in := `{"$defs":{"Color":{"enum":["red","green"],"title":"Color","type":"string"},"Item":{"properties":{"name":{"title":"Name","type":"string"},"qty":{"default":1,"title":"Qty","type":"integer","minimum":0},"color":{"anyOf":[{"$ref":"#/$defs/Color"},{"type":"null"}],"default":null}},"required":["name"],"title":"Item","type":"object"}},"properties":{"items":{"items":{"$ref":"#/$defs/Item"},"title":"Items","type":"array","maxItems":5},"note":{"anyOf":[{"type":"string","maxLength":100},{"type":"null"}],"default":null,"title":"Note"}},"required":["items"],"title":"Order","type":"object"}`
	out, r, _, err := strictSchema("order", json.RawMessage(in))
	require.NoError(t, err)
	checkStrictRules(t, out)
	args, err := core.DecodeArguments("order", []byte(`{"items":[{"name":"a","qty":null,"color":null}],"note":null}`))
	require.NoError(t, err)
	back, _ := r.Apply(args).MarshalJSON()
	assert.JSONEq(t, `{"items":[{"name":"a","color":null}],"note":null}`, string(back))

	legacy, _, err := geminiLegacySchema("order", json.RawMessage(in))
	require.NoError(t, err)
	checkGeminiRules(t, legacy)
	require.JSONEq(t, `{"properties":{"items":{"items":{"properties":{"name":{"title":"Name","type":"STRING"},"qty":{"default":1,"title":"Qty","type":"INTEGER","minimum":0},"color":{"nullable":true,"enum":["red","green"],"title":"Color","type":"STRING"}},"required":["name"],"title":"Item","type":"OBJECT"},"title":"Items","type":"ARRAY","maxItems":"5"},"note":{"title":"Note","nullable":true,"type":"STRING","maxLength":"100"}},"required":["items"],"title":"Order","type":"OBJECT"}`, string(legacy))
}
