package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// headerFixture is mcp/testdata/mcpheader/conformance.json: what the
// conformance runner's header scenarios serve and ask for, with what
// toolgate must make of it.
type headerFixture struct {
	Tools []struct {
		Scenario    string          `json:"scenario"`
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Rule        string          `json:"rule"`
		Path        string          `json:"path"`
		Headers     []paramHeader   `json:"headers"`
	} `json:"tools"`
	Calls []struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Headers   [][2]string     `json:"headers"`
	} `json:"calls"`
	PlainNames []string `json:"plainNames"`
}

func loadHeaderFixture(t *testing.T) headerFixture {
	var fx headerFixture
	fixture.Tree("mcp/testdata").Load(t, "mcpheader", "conformance.json", &fx)
	return fx
}

// TestParamHeadersConformanceTools parses every tool definition the runner
// serves: each valid one gives its annotations, each invalid one its rule.
func TestParamHeadersConformanceTools(t *testing.T) {
	fx := loadHeaderFixture(t)
	require.Len(t, fx.Tools, 16, "got %d runner tools, want the 5 valid and 11 invalid ones", len(fx.Tools))
	for _, tc := range fx.Tools {
		t.Run(tc.Scenario+"/"+tc.Name, func(t *testing.T) {
			hs, err := parseParamHeaders(tc.InputSchema)
			if tc.Rule != "" {
				require.NotNil(t, err, "got no error, want rule %s", tc.Rule)
				assert.Equal(t, tc.Rule, err.Rule)
				assert.Equal(t, tc.Path, err.Path)
				assert.Nil(t, hs)
				return
			}
			require.Nil(t, err, "got %v, want no error", err)
			if len(tc.Headers) == 0 {
				assert.Empty(t, hs)
				return
			}
			assert.Equal(t, tc.Headers, hs)
		})
	}
}

// TestParamHeadersConformanceCalls turns each tools/call the runner asks
// for into headers, byte for byte.
func TestParamHeadersConformanceCalls(t *testing.T) {
	fx := loadHeaderFixture(t)
	schemas := map[string]json.RawMessage{}
	for _, tool := range fx.Tools {
		schemas[tool.Name] = tool.InputSchema
	}
	for _, tc := range fx.Calls {
		t.Run(tc.Tool, func(t *testing.T) {
			hs, err := parseParamHeaders(schemas[tc.Tool])
			require.Nil(t, err)
			got := paramHeaderValues(hs, tc.Arguments)
			if len(tc.Headers) == 0 {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tc.Headers, got)
		})
	}
}

// TestMCPHeaderConformanceNames: the tool, prompt and resource names the
// runner serves go into Mcp-Name unchanged.
func TestMCPHeaderConformanceNames(t *testing.T) {
	for _, name := range loadHeaderFixture(t).PlainNames {
		assert.Equal(t, name, encodeHeaderValue(name))
	}
}

// TestEncodeHeaderValue covers every row of the spec's encoding table and
// of the proposal's edge cases, and the sentinel's corners.
func TestEncodeHeaderValue(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain ASCII", "us-west1", "us-west1"},
		{"non-ASCII", "Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{"leading and trailing spaces", " padded ", "=?base64?IHBhZGRlZCA=?="},
		{"newline", "line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"sentinel lookalike", "=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"leading space", " us-west1", "=?base64?IHVzLXdlc3Qx?="},
		{"trailing space", "us-west1 ", "=?base64?dXMtd2VzdDEg?="},
		{"both spaces", " us-west1 ", "=?base64?IHVzLXdlc3QxIA==?="},
		{"internal spaces", "us west 1", "us west 1"},
		{"Japanese", "日本語", "=?base64?5pel5pys6Kqe?="},
		{"CRLF", "line1\r\nline2", "=?base64?bGluZTENCmxpbmUy?="},
		{"leading tab", "\tindented", "=?base64?CWluZGVudGVk?="},
		{"inner tab", "a\tb", "=?base64?YQli?="},
		{"empty", "", ""},
		{"one space", " ", "=?base64?IA==?="},
		{"NUL", "a\x00b", "=?base64?YQBi?="},
		{"DEL", "a\x7fb", "=?base64?YX9i?="},
		{"invalid UTF-8 byte for byte", "\xff", "=?base64?/w==?="},
		{"every visible ASCII", "!\"#$%&'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~", "!\"#$%&'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~"},
		{"sentinel prefix alone", "=?base64?", "=?base64?"},
		{"sentinel suffix alone", "a?=", "a?="},
		{"prefix and suffix overlap", "=?base64?=", "=?base64?PT9iYXNlNjQ/PQ==?="},
		{"upper-case sentinel is plain", "=?BASE64?abc?=", "=?BASE64?abc?="},
		{"resource URI", "https://example.com/resource?id=123", "https://example.com/resource?id=123"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, encodeHeaderValue(tc.in))
		})
	}
}

// headerRuleCase is one inputSchema and the rule it breaks ("" for none)
// at path, or the annotations it holds.
type headerRuleCase struct {
	name   string
	schema string
	rule   string
	path   string
	want   []paramHeader
}

// TestParamHeadersReachability: an annotation counts only on a property
// reached through properties keys alone; anywhere else the tool is invalid.
func TestParamHeadersReachability(t *testing.T) {
	ann := `{"type":"string","x-mcp-header":"H"}`
	under := func(name, wrap, path string) headerRuleCase {
		return headerRuleCase{name, `{"type":"object",` + strings.ReplaceAll(wrap, "@", ann) + `}`,
			ruleHeaderUnreachable, path + "/x-mcp-header", nil}
	}
	runHeaderRuleCases(t, []headerRuleCase{
		{"nested properties", `{"properties":{"a":{"type":"object","properties":{"b":` + ann + `}}}}`, "", "",
			[]paramHeader{{Name: "H", Path: []string{"a", "b"}, Kind: "string"}}},
		{"on the root", `{"type":"string","x-mcp-header":"H"}`, ruleHeaderUnreachable, "/x-mcp-header", nil},
		under("items", `"properties":{"a":{"type":"array","items":@}}`, "/properties/a/items"),
		under("items array form", `"properties":{"a":{"type":"array","items":[@]}}`, "/properties/a/items/0"),
		under("prefixItems", `"properties":{"a":{"prefixItems":[@]}}`, "/properties/a/prefixItems/0"),
		under("contains", `"properties":{"a":{"contains":@}}`, "/properties/a/contains"),
		under("anyOf", `"anyOf":[{"properties":{"a":@}}]`, "/anyOf/0/properties/a"),
		under("oneOf", `"oneOf":[{"properties":{"a":@}}]`, "/oneOf/0/properties/a"),
		under("allOf", `"allOf":[{"properties":{"a":@}}]`, "/allOf/0/properties/a"),
		under("not", `"not":{"properties":{"a":@}}`, "/not/properties/a"),
		under("if", `"if":{"properties":{"a":@}}`, "/if/properties/a"),
		under("then", `"then":{"properties":{"a":@}}`, "/then/properties/a"),
		under("else", `"else":{"properties":{"a":@}}`, "/else/properties/a"),
		under("$defs (a $ref target)", `"properties":{"a":{"$ref":"#/$defs/r"}},"$defs":{"r":@}`, "/$defs/r"),
		under("definitions", `"definitions":{"r":@}`, "/definitions/r"),
		under("additionalProperties", `"additionalProperties":@`, "/additionalProperties"),
		under("patternProperties", `"patternProperties":{"^a":@}`, "/patternProperties/^a"),
		under("dependentSchemas", `"dependentSchemas":{"a":{"properties":{"b":@}}}`, "/dependentSchemas/a/properties/b"),
		under("propertyNames", `"propertyNames":@`, "/propertyNames"),
		under("unevaluatedProperties", `"unevaluatedProperties":@`, "/unevaluatedProperties"),
		under("an extension keyword", `"x-components":{"r":@}`, "/x-components/r"),
		under("properties that is an array", `"properties":[@]`, "/properties/0"),
		under("~ and / escaped in the pointer", `"$defs":{"a/b~c":@}`, "/$defs/a~1b~0c"),
		{"data keywords hold no annotation", `{"properties":{"a":{"type":"string","default":{"x-mcp-header":"D"},` +
			`"const":{"x-mcp-header":"C"},"enum":[{"x-mcp-header":"E"}],"examples":[{"x-mcp-header":"X"}]}}}`, "", "", nil},
		{"a property named x-mcp-header", `{"properties":{"x-mcp-header":{"type":"string"}}}`, "", "", nil},
		{"a property named x-mcp-header, annotated", `{"properties":{"x-mcp-header":{"type":"string","x-mcp-header":"X"}}}`, "", "",
			[]paramHeader{{Name: "X", Path: []string{"x-mcp-header"}, Kind: "string"}}},
		{"a property named items", `{"properties":{"items":` + ann + `}}`, "", "",
			[]paramHeader{{Name: "H", Path: []string{"items"}, Kind: "string"}}},
		{"$ref beside the annotation has no type of its own", `{"properties":{"a":{"$ref":"#/$defs/r","x-mcp-header":"H"}},"$defs":{"r":{"type":"string"}}}`,
			ruleHeaderNoType, "/properties/a/x-mcp-header", nil},
	})
}

// TestParamHeadersTypes: only string, integer and boolean properties,
// alone or beside null, are mirrored.
func TestParamHeadersTypes(t *testing.T) {
	prop := func(typ string) string {
		return `{"properties":{"p":{` + typ + `"x-mcp-header":"P"}}}`
	}
	ok := func(kind string) []paramHeader { return []paramHeader{{Name: "P", Path: []string{"p"}, Kind: kind}} }
	const at = "/properties/p/x-mcp-header"
	runHeaderRuleCases(t, []headerRuleCase{
		{"string", prop(`"type":"string",`), "", "", ok("string")},
		{"integer", prop(`"type":"integer",`), "", "", ok("integer")},
		{"boolean", prop(`"type":"boolean",`), "", "", ok("boolean")},
		{"nullable string", prop(`"type":["string","null"],`), "", "", ok("string")},
		{"null first", prop(`"type":["null","integer"],`), "", "", ok("integer")},
		{"repeated name", prop(`"type":["boolean","boolean"],`), "", "", ok("boolean")},
		{"number", prop(`"type":"number",`), ruleHeaderNumber, at, nil},
		{"nullable number", prop(`"type":["number","null"],`), ruleHeaderNumber, at, nil},
		{"object", prop(`"type":"object",`), ruleHeaderNotPrimitive, at, nil},
		{"array", prop(`"type":"array",`), ruleHeaderNotPrimitive, at, nil},
		{"null", prop(`"type":"null",`), ruleHeaderNotPrimitive, at, nil},
		{"only null in an array", prop(`"type":["null"],`), ruleHeaderNotPrimitive, at, nil},
		{"empty type array", prop(`"type":[],`), ruleHeaderNotPrimitive, at, nil},
		{"unknown type name", prop(`"type":"float",`), ruleHeaderNotPrimitive, at, nil},
		{"type not a string", prop(`"type":1,`), ruleHeaderNotPrimitive, at, nil},
		{"type array with a non-string", prop(`"type":["string",1],`), ruleHeaderNotPrimitive, at, nil},
		{"string or integer", prop(`"type":["string","integer"],`), ruleHeaderTypeUnion, at, nil},
		{"integer or number", prop(`"type":["integer","number"],`), ruleHeaderTypeUnion, at, nil},
		{"no type", prop(``), ruleHeaderNoType, at, nil},
		{"no type, anyOf of string and null", prop(`"anyOf":[{"type":"string"},{"type":"null"}],`), ruleHeaderNoType, at, nil},
		{"no type, enum only", prop(`"enum":["a","b"],`), ruleHeaderNoType, at, nil},
	})
}

// TestParamHeadersNames: the annotation is a non-empty HTTP token, unique
// whatever its case.
func TestParamHeadersNames(t *testing.T) {
	named := func(v string) string { return `{"properties":{"p":{"type":"string","x-mcp-header":` + v + `}}}` }
	const at = "/properties/p/x-mcp-header"
	cases := []headerRuleCase{
		{"every tchar", named("\"az-AZ_09!#$%&'*+.^`|~\""), "", "",
			[]paramHeader{{Name: "az-AZ_09!#$%&'*+.^`|~", Path: []string{"p"}, Kind: "string"}}},
		{"Method is a parameter name like any", named(`"Method"`), "", "",
			[]paramHeader{{Name: "Method", Path: []string{"p"}, Kind: "string"}}},
		{"empty", named(`""`), ruleHeaderEmpty, at, nil},
		{"a number", named(`1`), ruleHeaderNotString, at, nil},
		{"null", named(`null`), ruleHeaderNotString, at, nil},
		{"a boolean", named(`true`), ruleHeaderNotString, at, nil},
		{"an object", named(`{"x-mcp-header":"A"}`), ruleHeaderNotString, at, nil},
		{"an array", named(`["A"]`), ruleHeaderNotString, at, nil},
		{"CR LF", named(`"A\r\nB"`), ruleHeaderNotToken, at, nil},
		{"NUL", named(`"A\u0000"`), ruleHeaderNotToken, at, nil},
		{"DEL", named(`"A\u007f"`), ruleHeaderNotToken, at, nil},
		{"Kelvin sign", named(`"\u212a"`), ruleHeaderNotToken, at, nil},
		{"duplicate across levels", `{"properties":{"a":{"type":"string","x-mcp-header":"REGION"},` +
			`"b":{"type":"object","properties":{"c":{"type":"string","x-mcp-header":"region"}}}}}`,
			ruleHeaderDuplicate, "/properties/b/properties/c/x-mcp-header", nil},
	}
	for _, c := range "\"(),/:;<=>?@[\\]{} \t" {
		s, _ := json.Marshal("A" + string(c) + "B")
		cases = append(cases, headerRuleCase{"separator " + string(s), named(string(s)), ruleHeaderNotToken, at, nil})
	}
	runHeaderRuleCases(t, cases)
}

// TestParamHeadersSchemaEdges: what is not an annotated object schema.
func TestParamHeadersSchemaEdges(t *testing.T) {
	deep := strings.Repeat(`{"properties":{"a":`, 70) + `{"type":"string","x-mcp-header":"A"}` + strings.Repeat(`}}`, 70)
	deepPlain := strings.Repeat(`{"properties":{"a":`, 3000) + `{}` + strings.Repeat(`}}`, 3000)
	var wide strings.Builder // 2 + 2000×11 objects and arrays
	wide.WriteString(`{"properties":{`)
	for i := range 2000 {
		fmt.Fprintf(&wide, `"a%04d":[[],[],[],[],[],[],[],[],[],[]],`, i)
	}
	wide.WriteString(`"z":{"type":"string","x-mcp-header":"Z"}}}`)
	runHeaderRuleCases(t, []headerRuleCase{
		{"empty", ``, "", "", nil},
		{"null", `null`, "", "", nil},
		{"true", `true`, "", "", nil},
		{"no properties", `{"type":"object"}`, "", "", nil},
		{"not JSON", `{"properties":`, ruleHeaderNotJSON, "", nil},
		{"a huge number elsewhere", `{"maximum":1e999,"properties":{"p":{"type":"integer","x-mcp-header":"P"}}}`, "", "",
			[]paramHeader{{Name: "P", Path: []string{"p"}, Kind: "integer"}}},
		{"an escaped key is the same key", `{"properties":{"p":{"type":"string","x\u002dmcp-header":"P"}}}`, "", "",
			[]paramHeader{{Name: "P", Path: []string{"p"}, Kind: "string"}}},
		{"repeated key: the last wins", `{"properties":{"p":{"type":"string","x-mcp-header":"","x-mcp-header":"P"}}}`, "", "",
			[]paramHeader{{Name: "P", Path: []string{"p"}, Kind: "string"}}},
		{"70 levels of properties", deep, ruleHeaderTooComplex, strings.Repeat("/properties/a", 64), nil},
		{"deep without any annotation", deepPlain, "", "", nil},
		{"more than 20000 objects and arrays", wide.String(), ruleHeaderTooComplex, "/properties/a1818", nil},
	})
}

// TestParamHeadersOrder: annotations come sorted by path, whatever the
// order of the schema's members, and the first broken rule in that order
// is the one reported.
func TestParamHeadersOrder(t *testing.T) {
	a := `{"properties":{"b":{"type":"string","x-mcp-header":"B"},"a":{"type":"object","properties":{"z":{"type":"boolean","x-mcp-header":"Z"}}},"c":{"type":"integer","x-mcp-header":"C"}}}`
	b := `{"properties":{"c":{"x-mcp-header":"C","type":"integer"},"b":{"x-mcp-header":"B","type":"string"},"a":{"properties":{"z":{"x-mcp-header":"Z","type":"boolean"}},"type":"object"}}}`
	want := []paramHeader{{"Z", []string{"a", "z"}, "boolean"}, {"B", []string{"b"}, "string"}, {"C", []string{"c"}, "integer"}}
	for _, s := range []string{a, b} {
		got, err := parseParamHeaders(json.RawMessage(s))
		require.Nil(t, err)
		assert.Equal(t, want, got)
	}
	_, err := parseParamHeaders(json.RawMessage(`{"properties":{"b":{"type":"number","x-mcp-header":"B"},"a":{"type":"string","x-mcp-header":""}}}`))
	require.NotNil(t, err)
	assert.Equal(t, ruleHeaderEmpty, err.Rule, "got %s, want the rule of /properties/a, first in order", err.Rule)
}

func runHeaderRuleCases(t *testing.T, cases []headerRuleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseParamHeaders(json.RawMessage(tc.schema))
			if tc.rule == "" {
				require.Nil(t, err, "got %v, want no error", err)
				assert.Equal(t, tc.want, got)
				return
			}
			require.NotNil(t, err, "got %v, want rule %s", got, tc.rule)
			assert.Equal(t, tc.rule, err.Rule)
			assert.Equal(t, tc.path, err.Path)
			assert.Contains(t, err.Message, tc.rule, "got %q, want the message to name its rule", err.Message)
			assert.Nil(t, got)
		})
	}
}

// TestParamHeaderValues: what one call's arguments give, past the runner's
// cases: absent and null values, values of the wrong type, integer forms.
func TestParamHeaderValues(t *testing.T) {
	hs := []paramHeader{
		{Name: "S", Path: []string{"s"}, Kind: "string"},
		{Name: "I", Path: []string{"i"}, Kind: "integer"},
		{Name: "B", Path: []string{"b"}, Kind: "boolean"},
		{Name: "N", Path: []string{"o", "n"}, Kind: "string"},
	}
	cases := []struct {
		name string
		args string
		want [][2]string
	}{
		{"all present, in the order of hs", `{"b":true,"o":{"n":"x"},"i":7,"s":"v"}`,
			[][2]string{{"Mcp-Param-S", "v"}, {"Mcp-Param-I", "7"}, {"Mcp-Param-B", "true"}, {"Mcp-Param-N", "x"}}},
		{"absent", `{}`, nil},
		{"null", `{"s":null,"i":null,"b":null,"o":{"n":null}}`, nil},
		{"parent null", `{"o":null}`, nil},
		{"parent not an object", `{"o":"n"}`, nil},
		{"parent an array", `{"o":[{"n":"x"}]}`, nil},
		{"wrong types", `{"s":42,"i":"42","b":"true","o":{"n":false}}`, nil},
		{"objects and arrays", `{"s":{},"i":[],"b":[true]}`, nil},
		{"repeated key: the last wins", `{"s":"a","s":"b"}`, [][2]string{{"Mcp-Param-S", "b"}}},
		{"escaped string", `{"s":"\u00e9\n"}`, [][2]string{{"Mcp-Param-S", "=?base64?w6kK?="}}},
		{"arguments null", `null`, nil},
		{"arguments an array", `[{"s":"v"}]`, nil},
		{"arguments not JSON", `{"s":"v"`, nil},
		{"arguments empty", ``, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, paramHeaderValues(hs, json.RawMessage(tc.args)))
		})
	}
	t.Run("a name that is not a token is skipped", func(t *testing.T) {
		bad := []paramHeader{{Name: "A\r\nX-Evil: 1", Path: []string{"s"}, Kind: "string"}, {Name: "", Path: []string{"s"}, Kind: "string"}}
		assert.Empty(t, paramHeaderValues(bad, json.RawMessage(`{"s":"v"}`)))
	})
	t.Run("an unknown kind is skipped", func(t *testing.T) {
		odd := []paramHeader{{Name: "X", Path: []string{"s"}, Kind: "number"}}
		assert.Empty(t, paramHeaderValues(odd, json.RawMessage(`{"s":1.5}`)))
	})
	t.Run("no annotations", func(t *testing.T) {
		assert.Nil(t, paramHeaderValues(nil, json.RawMessage(`{"s":"v"}`)))
	})
}

// TestParamHeaderValuesIntegers: an integer is sent as its shortest
// decimal when it lies within ±(2^53−1), and left out otherwise.
func TestParamHeaderValuesIntegers(t *testing.T) {
	hs := []paramHeader{{Name: "I", Path: []string{"i"}, Kind: "integer"}}
	cases := []struct{ in, want string }{
		{"42", "42"}, {"-7", "-7"}, {"0", "0"}, {"-0", "0"}, {"42.0", "42"}, {"4.2e1", "42"},
		{"1E2", "100"}, {"-1.00e+2", "-100"}, {"4200e-2", "42"},
		{"9007199254740991", "9007199254740991"}, {"-9007199254740991", "-9007199254740991"},
		{"9.007199254740991e15", "9007199254740991"},
		{"42.5", ""}, {"1e-1", ""}, {"9007199254740992", ""}, {"-9007199254740992", ""},
		{"12345678901234567890", ""}, {"1e400", ""}, {"1e-400", ""}, {"1e999999999999999999999", ""},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got := paramHeaderValues(hs, json.RawMessage(`{"i":`+tc.in+`}`))
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, [][2]string{{"Mcp-Param-I", tc.want}}, got)
		})
	}
}

// TestMCPHeaderRulesDocumented: docs/mcp-headers.md names every rule id,
// so the page and the code cannot drift apart.
func TestMCPHeaderRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(fixture.Root(t), "docs", "mcp-headers.md"))
	require.NoError(t, err)
	for _, rule := range headerRules {
		assert.Contains(t, string(doc), "`"+rule+"`", "got no `%s` in docs/mcp-headers.md, want every rule listed", rule)
	}
}
