package provider

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// zodParams is what zod 4's toJSONSchema writes for
// z.object({n: z.int(), m: z.int().min(0), s: z.int32(), u: z.int().nullable(), x: z.number().max(9007199254740991), p: z.int().min(9007199254740991)}).
const zodParams = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{` +
	`"n":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},` +
	`"m":{"type":"integer","minimum":0,"maximum":9007199254740991},` +
	`"s":{"type":"integer","minimum":-2147483648,"maximum":2147483647},` +
	`"u":{"anyOf":[{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},{"type":"null"}]},` +
	`"x":{"type":"number","maximum":9007199254740991},` +
	`"p":{"type":"integer","minimum":9007199254740991}},` +
	`"required":["n","m","s","u","x","p"],"additionalProperties":false}`

// paramsOf returns the parameters schema of the first exported tool.
func paramsOf(t *testing.T, target string, tools json.RawMessage) map[string]any {
	t.Helper()
	decoded, err := decodeTools(tools)
	require.NoError(t, err)
	var bad []string
	d := declarationsOf(target, decoded, func(f string, a ...any) { bad = append(bad, f) })
	require.Empty(t, bad)
	require.NotEmpty(t, d)
	p, _ := d[0].fields[d[0].paramsKey].(map[string]any)
	require.NotNil(t, p, "no parameters in %s", tools)
	return p
}

// bounds returns the minimum and maximum of the schema at props[name]
// (inside anyOf's first variant for u), "" for one left out.
func bounds(props map[string]any, name string) (lo, hi any) {
	n, _ := props[name].(map[string]any)
	if variants, ok := n["anyOf"].([]any); ok {
		n, _ = variants[0].(map[string]any)
	}
	return n["minimum"], n["maximum"]
}

func TestExportLeavesOutWhatGeneratorsAdd(t *testing.T) {
	tool := typedTool(t, "count", zodParams)
	for _, variant := range exportVariants {
		t.Run(variant, func(t *testing.T) {
			target, opts := variantTarget(variant)
			ex, err := ExportTools([]*core.Tool{tool}, target, opts)
			require.NoError(t, err)
			params := paramsOf(t, target, ex.Tools)
			dropped := map[string]int{}
			for _, c := range ex.Report.Changes {
				if c.Kind == ChangeKeywordDropped && (c.Keyword == "$schema" || c.Keyword == "minimum" || c.Keyword == "maximum") {
					dropped[c.Path]++
					assert.Equal(t, "count", c.Tool)
				}
			}
			props, _ := params["properties"].(map[string]any)
			require.NotNil(t, props)
			if target == MCP {
				assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", params["$schema"], "MCP's inputSchema keeps its dialect")
				lo, hi := bounds(props, "n")
				assert.Equal(t, []any{-9007199254740991.0, 9007199254740991.0}, []any{lo, hi}, "MCP's inputSchema is the tool's own")
				assert.Empty(t, dropped)
				return
			}
			assert.NotContains(t, params, "$schema")
			legacy := opts != nil && opts.GeminiLegacy
			for _, name := range []string{"n", "u"} {
				lo, hi := bounds(props, name)
				assert.Nil(t, lo, "%s: zod's safe-integer minimum", name)
				assert.Nil(t, hi, "%s: zod's safe-integer maximum", name)
			}
			lo, hi := bounds(props, "m")
			assert.NotNil(t, lo, "m: the user's minimum 0 stays")
			assert.Nil(t, hi)
			lo, hi = bounds(props, "s")
			assert.NotNil(t, lo, "s: int32 bounds stay")
			assert.NotNil(t, hi, "s: int32 bounds stay")
			if !legacy { // the legacy subset writes its own bounds; these are not zod's on an integer
				_, hi = bounds(props, "x")
				assert.NotNil(t, hi, "x: a number's bound stays")
				lo, _ = bounds(props, "p")
				assert.NotNil(t, lo, "p: a positive minimum is the user's")
			}
			assert.Equal(t, map[string]int{
				"/$schema":              1,
				"/properties/n/minimum": 1, "/properties/n/maximum": 1,
				"/properties/m/maximum":         1,
				"/properties/u/anyOf/0/minimum": 1, "/properties/u/anyOf/0/maximum": 1,
			}, dropped, "one report entry per keyword left out, naming it")
		})
	}
}
