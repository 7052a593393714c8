package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLaxProgramExports: the coercion plan as the JS evaluator receives it,
// for the shapes the plan builder follows: nodes by index, shared plans and
// $ref cycles as one node, -1 for a prefix item with no plan.
func TestLaxProgramExports(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"no conversion possible", `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`{"root":-1,"nodes":[]}`},
		{"Optional[Model] as anyOf", `{"type":"object","properties":{"m":{"anyOf":[{"$ref":"#/$defs/M"},{"type":"null"}]}},
			"$defs":{"M":{"type":"object","properties":{"n":{"type":"integer"}}}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["m",1]]},{"types":["null","object"],"props":[["n",2]]},{"types":["integer"]}]}`},
		{"a $ref cycle", `{"$ref":"#/$defs/node","$defs":{"node":{"type":"object",
			"properties":{"v":{"type":"number"},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["kids",1],["v",3]]},{"types":["array"],"items":2},` +
				`{"types":["object"],"props":[["kids",1],["v",3]]},{"types":["number"]}]}`},
		{"prefixItems and items", `{"type":"object","properties":{"t":{"type":"array",
			"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["t",1]]},{"types":["array"],"prefix":[-1,2],"items":3},{"types":["integer"]},{"types":["boolean"]}]}`},
		{"draft-7 items array", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"t":{"type":"array","items":[{"type":"integer"}],"additionalItems":{"type":"number"}}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["t",1]]},{"types":["array"],"prefix":[2],"items":3},{"types":["integer"]},{"types":["number"]}]}`},
		{"additionalProperties schema", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`,
			`{"root":0,"nodes":[{"types":["object"],"other":1},{"types":["integer"]}]}`},
		{"type unions", `{"type":"object","properties":{"u":{"type":["integer","boolean"]},"s":{"type":["string","integer"]},"a":{"type":["number","integer"]}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["a",1],["s",2],["u",3]]},{"types":["integer","number"]},{"types":["integer","string"]},{"types":["boolean","integer"]}]}`},
		{"number and integer in allOf", `{"type":"object","properties":{"n":{"allOf":[{"type":"number"},{"type":"integer"}]}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["n",1]]},{"types":["integer"]}]}`},
		{"a nested $id disables $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/I"},"b":{"type":"integer"}},
			"$defs":{"I":{"$id":"https://example.com/i","type":"integer"}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["b",1]]},{"types":["integer"]}]}`},
		{"keys needing escapes", `{"type":"object","properties":{"a/b":{"type":"integer"},"~0":{"type":"boolean"}}}`,
			`{"root":0,"nodes":[{"types":["object"],"props":[["a/b",1],["~0",2]]},{"types":["integer"]},{"types":["boolean"]}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("t", json.RawMessage(tc.schema))
			require.NoError(t, err)
			got, err := json.Marshal(laxProgram(cs.laxPlan()))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}

// TestToolLaxProgram: the debug hook's export is the tool's plan, in either
// coerce mode, and nothing for an untyped tool.
func TestToolLaxProgram(t *testing.T) {
	for _, mode := range []CoerceMode{CoerceLax, CoerceNone} {
		got := programTool(t, `{"type":"object","properties":{"n":{"type":"integer"}}}`, mode).LaxProgram()
		assert.JSONEq(t, `{"root":0,"nodes":[{"types":["object"],"props":[["n",1]]},{"types":["integer"]}]}`, string(got), mode)
	}
}
