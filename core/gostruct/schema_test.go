package gostruct

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

type structPoint struct {
	X int `json:"x"`
	Y int `json:"y,omitempty"`
}

type structSearch struct {
	Query  string            `json:"query" jsonschema:"description=What to look for,minLength=1"`
	Limit  int               `json:"limit,omitempty"`
	Ratio  float64           `json:"ratio"`
	Exact  bool              `json:"exact"`
	Tags   []string          `json:"tags"`
	Where  structPoint       `json:"where"`
	Maybe  *structPoint      `json:"maybe,omitempty"`
	Extra  map[string]string `json:"extra,omitempty"`
	hidden int               //lint:ignore U1000 an unexported field, which the schema must leave out
	Skip   string            `json:"-"`
}

type structAllOptional struct {
	A string `json:"a,omitempty"`
}

type structEmpty struct{}

type structNode struct {
	Value    int           `json:"value"`
	Children []*structNode `json:"children,omitempty"`
}

type structTree struct {
	Root structNode `json:"root"`
}

type structWithChan struct {
	C chan int `json:"c"`
}

type structWithIgnoredFunc struct {
	A  string `json:"a"`
	Fn func() `json:"-"`
}

type structCustomString struct{}

func (structCustomString) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "string"} }

type structAliasRecursive struct{}

func (structAliasRecursive) JSONSchemaAlias() any { return structNode{} }

type structHoldsAlias struct {
	A structAliasRecursive `json:"a"`
}

type structPanickingAlias struct{}

func (structPanickingAlias) JSONSchemaAlias() any { panic("boom") }

func TestSchemaShape(t *testing.T) {
	const search = `{"type":"object","properties":{"query":{"type":"string","minLength":1,"description":"What to look for"},"limit":{"type":"integer"},"ratio":{"type":"number"},"exact":{"type":"boolean"},"tags":{"items":{"type":"string"},"type":"array"},"where":{"properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["x"]},"maybe":{"properties":{"x":{"type":"integer"},"y":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["x"]},"extra":{"additionalProperties":{"type":"string"},"type":"object"}},"required":["query","ratio","exact","tags","where"],"additionalProperties":false}`
	ptr := &structSearch{}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"value", structSearch{}, search},
		{"pointer", ptr, search},
		{"pointer to pointer", &ptr, search},
		{"reflect.Type", reflect.TypeOf(structSearch{}), search},
		{"reflect.Type of a pointer", reflect.TypeOf(ptr), search},
		{"no required field omits required", structAllOptional{}, `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`},
		{"empty struct", structEmpty{}, `{"type":"object","properties":{},"additionalProperties":false}`},
		{"ignored func field", structWithIgnoredFunc{}, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`},
		{"anonymous struct", struct {
			N int `json:"n"`
		}{}, `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Schema(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got), "got %s, want %s", got, tc.want)
			assert.NotContains(t, string(got), `"$ref"`, "got a $ref in %s", got)
			assert.NotContains(t, string(got), `"$schema"`, "got $schema in %s", got)
			assert.NotContains(t, string(got), `"$id"`, "got $id in %s", got)
			compileSchema(t, got)
		})
	}
}

func TestSchemaRecursive(t *testing.T) {
	tests := []struct {
		name  string
		in    any
		valid string
		bad   string
	}{
		{"self-recursive", structNode{}, `{"value":1,"children":[{"value":2}]}`, `{"value":1,"children":[{"value":"x"}]}`},
		{"recursive inside", structTree{}, `{"root":{"value":1,"children":[{"value":2}]}}`, `{"root":{"value":1,"children":[{}]}}`},
		{"recursive behind JSONSchemaAlias", structHoldsAlias{}, `{"a":{"value":1}}`, `{"a":{"value":1,"children":[{"value":false}]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Schema(tc.in)
			require.NoError(t, err)
			keys, vals, err := objectMembers(got)
			require.NoError(t, err)
			assert.Equal(t, "type", keys[0], "first key: got %q, want type", keys[0])
			assert.Equal(t, "$defs", keys[len(keys)-1], "last key: got %q, want $defs", keys[len(keys)-1])
			assert.Equal(t, `"object"`, string(vals["type"]))
			s := compileSchema(t, got)
			assert.NoError(t, s.Validate(decodeJSON(t, tc.valid)), "got invalid for %s, want valid", tc.valid)
			assert.Error(t, s.Validate(decodeJSON(t, tc.bad)), "got valid for %s, want invalid", tc.bad)
		})
	}
}

func TestSchemaRefusals(t *testing.T) {
	var nilPtr *structSearch
	tests := []struct {
		name     string
		in       any
		fragment string
	}{
		{"nil", nil, "got nil"},
		{"int", 3, "got int (kind int)"},
		{"map", map[string]any{}, "kind map"},
		{"slice of structs", []structPoint{}, "kind slice"},
		{"pointer to int", new(int), "got int (kind int)"},
		{"reflect.Type of a string", reflect.TypeOf(""), "kind string"},
		{"channel field", structWithChan{}, "unsupported type chan int"},
		{"time.Time is a string schema", time.Time{}, "not an object schema"},
		{"custom JSONSchema of a string", structCustomString{}, "not an object schema"},
		{"panicking JSONSchemaAlias", structPanickingAlias{}, "boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Schema(tc.in)
			require.Error(t, err, "got %s, want an error", got)
			assert.Nil(t, got)
			var e *core.Error
			require.True(t, errors.As(err, &e), "got %T, want *core.Error", err)
			assert.Equal(t, core.CodeInvalidTool, e.Code, "code: got %s, want %s", e.Code, core.CodeInvalidTool)
			assert.Contains(t, e.Message, tc.fragment, "message: got %q, want it to contain %q", e.Message, tc.fragment)
		})
	}
	t.Run("typed nil pointer works", func(t *testing.T) {
		got, err := Schema(nilPtr)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(got), `{"type":"object"`), "got %s", got)
	})
}

func TestReorderTopLevelRefusesNonObjects(t *testing.T) {
	for _, raw := range []string{`[]`, `true`, `{"type":"string"}`, `{`} {
		_, err := reorderTopLevel(reflect.TypeOf(0), []byte(raw))
		assert.ErrorIs(t, err, core.ErrInvalidTool, "got %v for %s, want invalid-tool", err, raw)
	}
}

// compileSchema compiles a schema with a draft 2020-12 validator, failing the
// test when it is not a valid schema or has a dangling $ref.
func compileSchema(t *testing.T, schema []byte) *santhosh.Schema {
	t.Helper()
	c := santhosh.NewCompiler()
	c.Draft = santhosh.Draft2020
	require.NoError(t, c.AddResource("mem://schema.json", strings.NewReader(string(schema))))
	s, err := c.Compile("mem://schema.json")
	require.NoError(t, err, "schema %s does not compile", schema)
	return s
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}
