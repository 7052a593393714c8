package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deepSchema nests n schema objects through "not": n levels of nesting.
func deepSchema(n int) []byte {
	return []byte(strings.Repeat(`{"not":`, n-1) + `{}` + strings.Repeat(`}`, n-1))
}

// objectsSchema is a schema of exactly n JSON objects (n >= 2).
func objectsSchema(n int) string {
	var b strings.Builder
	b.WriteString(`{"properties":{`)
	for i := 0; i < n-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{}`, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

// compileErr compiles schema and returns its *Error, failing when it compiles.
func compileErr(t *testing.T, schema string) *Error {
	t.Helper()
	cs, err := CompileSchema("mytool", json.RawMessage(schema))
	require.Error(t, err, "got %v, want a compile error for %.200s", cs, schema)
	var e *Error
	require.True(t, errors.As(err, &e), "got %T, want *Error", err)
	assert.Equal(t, "mytool", e.Tool, "got tool %q, want mytool", e.Tool)
	return e
}

func TestCompileSchemaRefusals(t *testing.T) {
	big := `{"description":"` + strings.Repeat("x", MaxSchemaBytes) + `"}`

	tests := []struct {
		name    string
		schema  string
		keyword string // wanted keyword of the first issue, if any
		path    string // wanted path of the first issue
		msg     string // wanted part of the message
	}{
		{"larger than 1 MiB", big, "maxBytes", "", "more than the limit"},
		{"depth 65", string(deepSchema(65)), "maxDepth", "", "deeper than 64"},
		{"more than 1000 objects", objectsSchema(MaxSchemaObjects + 1), "maxObjects", "", "more than 1000 JSON objects"},
		{"not JSON", `{"type":`, "", "", "not valid"},
		{"empty", ``, "", "", "not valid"},
		{"trailing data", `{"type":"object"} {}`, "", "", "trailing data"},
		{"invalid UTF-8", "{\"description\":\"\xff\"}", "", "", "UTF-8"},
		{"repeated key", `{"type":"object","type":"string"}`, "", "", `repeats the key "type"`},
		{"repeated nested key", `{"properties":{"a":{"type":"string","type":"integer"}}}`, "", "", `/properties/a repeats the key "type"`},
		{"number beyond the exponent cap", `{"minimum":1e1001}`, "", "", "decimal exponent"},
		{"root is an array", `[]`, "", "", "object or boolean, got array"},
		{"root is a string", `"object"`, "", "", "object or boolean, got string"},
		{"root is null", `null`, "", "", "got null"},
		{"root is a number", `1`, "", "", "got number"},
		{"metaschema: type not a type", `{"type":"strin"}`, "", "/type", "does not conform"},
		{"metaschema: required not an array", `{"required":"a"}`, "type", "/required", "does not conform"},
		{"metaschema: minimum not a number", `{"properties":{"a":{"minimum":"1"}}}`, "type", "/properties/a/minimum", "does not conform"},
		{"ECMA look-ahead pattern", `{"properties":{"a":{"pattern":"^(?=a)"}}}`, "pattern", "/properties/a/pattern", "look-ahead"},
		{"ECMA back-reference pattern", `{"pattern":"(a)\\1"}`, "pattern", "/pattern", "RE2"},
		{"ECMA look-behind in patternProperties", `{"patternProperties":{"(?<=x)y":{}}}`, "patternProperties", "/patternProperties/(?<=x)y", "look-ahead"},
		{"$ref to https", `{"$ref":"https://example.com/schema.json"}`, "$ref", "", "https://example.com/schema.json"},
		{"$ref to http with credentials redacted", `{"properties":{"a":{"$ref":"http://user:pw@example.com/s.json?token=abc#/x"}}}`, "$ref", "", "http://[redacted]@example.com/s.json?token=[redacted],"},
		{"relative $ref", `{"$ref":"other.json"}`, "$ref", "", "toolgate.invalid/other.json"},
		{"unknown $schema", `{"$schema":"https://example.com/my-meta"}`, "$schema", "", "example.com/my-meta"},
		{"$ref to a missing local part", `{"$ref":"#/$defs/nope"}`, "", "", "not found"},
		{"$ref to itself loops", `{"$ref":"#"}`, "", "", "infinite loop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := compileErr(t, tc.schema)
			assert.Equal(t, CodeInvalidSchema, e.Code, "got code %s, want invalid-schema (%v)", e.Code, e)
			assert.Contains(t, e.Message, tc.msg, "got message %q, want it to contain %q", e.Message, tc.msg)
			assert.NotContains(t, e.Message, "pw", "got message %q, want credentials redacted", e.Message)
			assert.NotContains(t, e.Message, "token=abc", "got message %q, want the query redacted", e.Message)
			if tc.keyword != "" || tc.path != "" {
				require.NotEmpty(t, e.Issues, "got no issues, want some")
				if tc.keyword != "" {
					assert.Equal(t, tc.keyword, e.Issues[0].Keyword, "got keyword %q, want %q (%v)", e.Issues[0].Keyword, tc.keyword, e.Issues)
				}
				assert.Equal(t, tc.path, e.Issues[0].Path, "got path %q, want %q", e.Issues[0].Path, tc.path)
			}
		})
	}
}

func TestCompileSchemaAccepts(t *testing.T) {
	tests := []struct {
		name   string
		schema string
	}{
		{"depth 64", string(deepSchema(64))},
		{"1000 objects", objectsSchema(MaxSchemaObjects)},
		{"true", `true`},
		{"false", `false`},
		{"empty object", `{}`},
		{"local $ref and $defs", `{"$defs":{"a":{"type":"integer"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`},
		{"RE2 pattern", `{"properties":{"a":{"pattern":"^[a-z]+\\d{2}$"}}}`},
		{"draft-07 $schema", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"type":"string"}}}`},
		{"2020-12 metaschema $ref is built in", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`},
		{"number at the exponent cap", `{"maximum":1e1000}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("t", json.RawMessage(tc.schema))
			require.NoError(t, err, "got %v, want %s to compile", err, tc.schema)
			assert.Equal(t, tc.schema, string(cs.Raw()), "got raw %s, want the schema as given", cs.Raw())
		})
	}
}

// TestCompileSchemaFileRefReadsNothing plants a secret in a real file and
// checks that a $ref to it is refused without reading it. The control case
// shows that the library's default compiler would read and leak it.
func TestCompileSchemaFileRefReadsNothing(t *testing.T) {
	const secret = "s3cr3t-value-4f9a"
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"const":"`+secret+`"}`), 0o600))
	schema := `{"properties":{"a":{"$ref":"file://` + filepath.ToSlash(path) + `"}}}`

	t.Run("control: jsonschema's default loader reads the file", func(t *testing.T) {
		c := jsonschema.NewCompiler()
		require.NoError(t, c.AddResource("mem://s.json", strings.NewReader(schema)))
		s, err := c.Compile("mem://s.json")
		require.NoError(t, err, "got %v, want the default compiler to load the file", err)
		verr := s.Validate(map[string]any{"a": "guess"})
		require.Error(t, verr)
		assert.Contains(t, verr.Error(), secret, "got %v, want the leak this test guards against", verr)
	})
	t.Run("CompileSchema refuses and reads nothing", func(t *testing.T) {
		e := compileErr(t, schema)
		assert.Equal(t, CodeInvalidSchema, e.Code, "got %s, want invalid-schema", e.Code)
		assert.True(t, errors.Is(e, errRefRefused), "got %v, want the refusal as cause", e.Cause)
		assert.Contains(t, e.Message, "file://", "got %q, want the refused URL named", e.Message)
		blob, _ := json.Marshal(e)
		assert.NotContains(t, e.Error()+string(blob), secret, "got the secret in the error, want it never read")
	})
}

// TestCompileSchemaFormat: "format" is an annotation, with and without
// $schema, in 2020-12 and in draft-07 (docs/security.md, "Schemas").
func TestCompileSchemaFormat(t *testing.T) {
	tests := []struct {
		name   string
		schema string
	}{
		{"no $schema", `{"properties":{"e":{"type":"string","format":"email"}}}`},
		{"2020-12 $schema", `{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"e":{"type":"string","format":"email"}}}`},
		{"draft-07 $schema", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"e":{"type":"string","format":"email"}}}`},
		{"date-time without offset", `{"properties":{"e":{"type":"string","format":"date-time"}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("t", json.RawMessage(tc.schema))
			require.NoError(t, err)
			for _, v := range []string{"nope", "2024-01-01T10:00:00"} {
				_, _, err = cs.Normalize("t", mustDecode(t, `{"e":"`+v+`"}`), CoerceNone)
				assert.NoError(t, err, "got %v for %q, want format not asserted", err, v)
			}
			_, _, err = cs.Normalize("t", mustDecode(t, `{"e":5}`), CoerceNone)
			assert.ErrorIs(t, err, ErrInvalidArguments, "got %v, want the type still checked", err)
		})
	}
}

func TestCompileSchemaAccessors(t *testing.T) {
	tests := []struct {
		name       string
		schema     string
		required   []string
		hasReq     bool
		properties []string
		mentionsAP bool
	}{
		{"ordered required and properties", `{"type":"object","properties":{"z":{},"a":{},"m":{}},"required":["m","z"]}`,
			[]string{"m", "z"}, true, []string{"z", "a", "m"}, false},
		{"no required", `{"properties":{"a":{}}}`, nil, false, []string{"a"}, false},
		{"empty required", `{"required":[]}`, []string{}, true, nil, false},
		{"additionalProperties false", `{"properties":{"a":{}},"additionalProperties":false}`, nil, false, []string{"a"}, true},
		{"additionalProperties schema", `{"additionalProperties":{"type":"string"}}`, nil, false, nil, true},
		{"additionalProperties through allOf", `{"allOf":[{"additionalProperties":true}]}`, nil, false, nil, true},
		{"additionalProperties through $ref", `{"$ref":"#/$defs/m","$defs":{"m":{"additionalProperties":false}}}`, nil, false, nil, true},
		{"unevaluatedProperties", `{"unevaluatedProperties":false}`, nil, false, nil, true},
		{"nested additionalProperties does not count", `{"properties":{"o":{"additionalProperties":false}}}`, nil, false, []string{"o"}, false},
		{"boolean schema", `true`, nil, false, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("t", json.RawMessage(tc.schema))
			require.NoError(t, err)
			req, ok := cs.Required()
			assert.Equal(t, tc.hasReq, ok, "got required present %v, want %v", ok, tc.hasReq)
			assert.Equal(t, tc.required, req, "got required %v, want %v", req, tc.required)
			assert.Equal(t, tc.properties, cs.Properties(), "got properties %v, want %v", cs.Properties(), tc.properties)
			assert.Equal(t, tc.mentionsAP, cs.MentionsAdditionalProperties(), "got mentions %v, want %v", cs.MentionsAdditionalProperties(), tc.mentionsAP)
		})
	}
	t.Run("results are copies", func(t *testing.T) {
		cs, err := CompileSchema("t", json.RawMessage(`{"properties":{"a":{}},"required":["a"]}`))
		require.NoError(t, err)
		req, _ := cs.Required()
		req[0] = "x"
		props := cs.Properties()
		props[0] = "x"
		raw := cs.Raw()
		raw[0] = 'x'
		again, _ := cs.Required()
		assert.Equal(t, []string{"a"}, again, "got %v, want the compiled schema unchanged", again)
		assert.Equal(t, []string{"a"}, cs.Properties())
		assert.Equal(t, byte('{'), cs.Raw()[0])
	})
	t.Run("nil schema", func(t *testing.T) {
		var cs *CompiledSchema
		_, ok := cs.Required()
		assert.False(t, ok)
		assert.Nil(t, cs.Properties())
		assert.False(t, cs.MentionsAdditionalProperties())
		assert.Nil(t, cs.Raw())
	})
}

// mustDecode decodes arguments JSON, failing the test on error.
func mustDecode(t testing.TB, s string) *Arguments {
	t.Helper()
	a, err := DecodeArguments("t", []byte(s))
	require.NoError(t, err, "decode %s", s)
	return a
}
