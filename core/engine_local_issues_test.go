//go:build !toolgate_remote_validator

package core

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// localValidator compiles schema with the validator, as validation uses it.
func localValidator(t *testing.T, schema string) *localSchema {
	t.Helper()
	cs, err := CompileSchema("t", json.RawMessage(schema))
	require.NoError(t, err, "got %v compiling %s, want it compiled", err, schema)
	ls, verr := cs.validator("t")
	require.Nil(t, verr, "got %v, want the validator's compile", verr)
	return ls
}

// validationLeaves validates the JSON text data against ls and returns the
// decoded value and the validator's error tree, which must be one.
func validationLeaves(t *testing.T, ls *localSchema, data string) (any, *jsonschema.ValidationError) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	var ve *jsonschema.ValidationError
	require.True(t, errors.As(ls.root.Validate(v), &ve), "got %s valid, want a validation error", data)
	return v, ve
}

// TestValidatorKeywords asserts the issue (path, keyword) the validator's
// failure of each keyword gives, through every draft's way of holding a
// subschema: false schemas at a name, through $ref, or held by a keyword;
// names listed by required, additionalProperties and dependentRequired,
// including names that quote, comma or "not allowed" would garble in text.
func TestValidatorKeywords(t *testing.T) {
	cases := []struct {
		name, schema, data string
		want               []pk
	}{
		{"false at a property", `{"properties":{"a":false}}`, `{"a":1}`, []pk{{"/a", "false"}}},
		{"false through $ref", `{"$defs":{"no":false},"properties":{"a":{"$ref":"#/$defs/no"}}}`, `{"a":1}`, []pk{{"/a", "false"}}},
		{"false root", `false`, `1`, []pk{{"", "false"}}},
		{"false root through $ref", `{"$ref":"#/$defs/no","$defs":{"no":false}}`, `1`, []pk{{"", "false"}}},
		{"false patternProperties", `{"patternProperties":{"^p":false}}`, `{"p1":1}`, []pk{{"/p1", "false"}}},
		{"false prefixItems", `{"prefixItems":[false]}`, `[1]`, []pk{{"/0", "false"}}},
		{"items false after prefixItems", `{"prefixItems":[{}],"items":false}`, `[1,2]`, []pk{{"/1", "items"}}},
		{"draft 2019 items array and additionalItems false", `{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"string"},false],"additionalItems":false}`, `[1,2,3]`,
			[]pk{{"", "additionalItems"}, {"/0", "type"}, {"/1", "false"}}},
		{"unevaluatedProperties false", `{"properties":{"a":true},"unevaluatedProperties":false}`, `{"a":1,"b":2}`, []pk{{"/b", "unevaluatedProperties"}}},
		{"propertyNames false", `{"propertyNames":false}`, `{"a":1}`, []pk{{"/a", "propertyNames"}}},
		{"not", `{"properties":{"a":{"not":{}}}}`, `{"a":1}`, []pk{{"/a", "not"}}},
		{"required names quote and comma", `{"required":["it's","a, b","x' not allowed"]}`, `{}`,
			[]pk{{"/a, b", "required"}, {"/it's", "required"}, {"/x' not allowed", "required"}}},
		{"required through $ref in allOf", `{"allOf":[{"$ref":"#/$defs/r"}],"$defs":{"r":{"required":["a~b/c"]}}}`, `{}`, []pk{{"/a~0b~1c", "required"}}},
		{"additionalProperties false names", `{"properties":{"a":{}},"patternProperties":{"^p":{}},"additionalProperties":false}`,
			`{"a":1,"p1":2,"y' not allowed":3,"q, r":4}`, []pk{{"/q, r", "additionalProperties"}, {"/y' not allowed", "additionalProperties"}}},
		{"additionalProperties in a subresource with $id", `{"$id":"http://example.com/root.json","properties":{"s":{"$id":"sub.json","additionalProperties":false}}}`,
			`{"s":{"w":1}}`, []pk{{"/s/w", "additionalProperties"}}},
		{"dependentRequired", `{"dependentRequired":{"a/b":["c'd","e"]}}`, `{"a/b":1,"e":2}`, []pk{{"/c'd", "dependentRequired"}}},
		{"draft 7 dependencies array and schema", `{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"],"s":{"required":["t"]},"f":false}}`,
			`{"a":1,"s":2,"f":3}`, []pk{{"", "false"}, {"/b", "dependencies"}, {"/t", "required"}}},
		{"required in a $dynamicAnchor schema reached dynamically", `{"$dynamicAnchor":"m","$defs":{"d":{"$dynamicAnchor":"x","required":["k"]}},"properties":{"p":{"$dynamicRef":"#x"}}}`,
			`{"p":{}}`, []pk{{"/p/k", "required"}}},
		{"draft 4 regexProperties through the metaschema", `{"properties":{"x":{"$ref":"http://json-schema.org/draft-04/schema#"}}}`,
			`{"x":{"patternProperties":{"(":{}}}}`, []pk{{"/x/patternProperties", "schema"}}},
		{"empty enum", `{"properties":{"a":{"enum":[]}}}`, `{"a":1}`, []pk{{"/a", "enum"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ls := localValidator(t, tc.schema)
			v, _ := validationLeaves(t, ls, tc.data)
			err := validateWith(ls, "t", v)
			require.NotNil(t, err)
			assert.Equal(t, tc.want, issuePKs(err.Issues), "got %v, want %v", issuePKs(err.Issues), tc.want)
		})
	}
}

// TestValidatorKeywordsIgnoreMessages rewrites the validator's messages to
// say something else and asserts that the issues' paths and keywords do not
// move: they are read from the keyword location, the schema and the
// instance, never from the message.
func TestValidatorKeywordsIgnoreMessages(t *testing.T) {
	cases := []struct {
		name, schema, data, message string
		want                        []pk
	}{
		{"a false schema whose message is not the usual one", `{"properties":{"a":false}}`, `{"a":1}`, "expected string, but got number", []pk{{"/a", "false"}}},
		{"a type failure saying not allowed", `{"properties":{"a":{"type":"string"}}}`, `{"a":1}`, "not allowed", []pk{{"/a", "type"}}},
		{"a false schema held by items saying not allowed in other words", `{"items":false}`, `[1]`, "additionalProperties 'x' not allowed", []pk{{"/0", "items"}}},
		{"required names from the schema", `{"required":["real"]}`, `{}`, "missing properties: 'ghost'", []pk{{"/real", "required"}}},
		{"extra names from the instance", `{"additionalProperties":false}`, `{"extra":1}`, "additionalProperties 'ghost' not allowed", []pk{{"/extra", "additionalProperties"}}},
		{"dependent name from the schema", `{"dependentRequired":{"a":["c"]}}`, `{"a":1}`, "property 'ghost' is required, if 'a' property exists", []pk{{"/c", "dependentRequired"}}},
		{"a failure on a schema that is not false saying not allowed", `{"properties":{"x":{"$ref":"http://json-schema.org/draft-04/schema#"}}}`,
			`{"x":{"patternProperties":{"(":{}}}}`, "not allowed", []pk{{"/x/patternProperties", "schema"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ls := localValidator(t, tc.schema)
			v, ve := validationLeaves(t, ls, tc.data)
			for _, leaf := range leafErrors(ve) {
				leaf.Message = tc.message
			}
			got := issuePKs(argumentIssues(v, ve, ls.at, nil))
			assert.Equal(t, tc.want, got, "got %v, want %v", got, tc.want)
		})
	}
}

// TestSchemaIssueRegexFromFormat asserts that a metaschema's format "regex"
// failure is explained as a regular expression whatever its message says:
// the format is read from the metaschema.
func TestSchemaIssueRegexFromFormat(t *testing.T) {
	for _, draft := range []string{"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"} {
		t.Run(draft, func(t *testing.T) {
			schema := `{"$schema":"` + draft + `","patternProperties":{"(":{}}}`
			_, err := CompileSchema("t", json.RawMessage(schema))
			e := AsError(err)
			require.NotNil(t, e, "got %s compiled, want it refused", schema)
			assert.Equal(t, []pk{{"/patternProperties/(", "patternProperties"}}, issuePKs(e.Issues), "got %v", e.Issues)
		})
	}
}
