package jsfunc

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/fixture"
)

// TestParseFixtures checks the cases of the shared schema fixtures
// (tests/fixtures/schema/*.json) that carry a JS source: every object with a
// "js" string and a "signature" object anywhere in a file. Finding none is a
// failure: a wrong path must not pass as an empty suite.
func TestParseFixtures(t *testing.T) {
	files := fixture.Files(t, "schema")
	cases := 0
	for _, file := range files {
		var doc any
		fixture.Load(t, "schema", file, &doc)
		for i, c := range fixtureJSCases(doc) {
			cases++
			js := c["js"].(string)
			want := c["signature"].(map[string]any)
			name, _ := want["name"].(string)
			label, _ := c["name"].(string)
			t.Run(fmt.Sprintf("%s/%d %s", file, i, label), func(t *testing.T) {
				got, err := Parse(name, js)
				require.NoError(t, err, "source %s", js)
				gotJSON, err := json.Marshal(got)
				require.NoError(t, err)
				var gotAny any
				require.NoError(t, json.Unmarshal(gotJSON, &gotAny))
				assert.Equal(t, normalizeFixtureSignature(want), normalizeFixtureSignature(gotAny.(map[string]any)),
					"source %s", js)
			})
		}
	}
	require.NotZero(t, cases, "no fixture case in tests/fixtures/schema has a js source")
}

// fixtureJSCases returns every object in v that has a "js" string and a
// "signature" object.
func fixtureJSCases(v any) []map[string]any {
	var out []map[string]any
	switch x := v.(type) {
	case map[string]any:
		_, isJS := x["js"].(string)
		_, hasSig := x["signature"].(map[string]any)
		if isJS && hasSig {
			return append(out, x)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, fixtureJSCases(x[k])...)
		}
	case []any:
		for _, e := range x {
			out = append(out, fixtureJSCases(e)...)
		}
	}
	return out
}

// normalizeFixtureSignature reduces a decoded signature to what the schema
// derivation reads: absent and zero values alike, kinds as names, defaults as
// decoded JSON, the docstring after cleandoc (which core applies), and a
// destructured rest field's kind as keywords whether written rest or keywords
// (core's collectProperties treats both as collecting the remaining keys).
func normalizeFixtureSignature(s map[string]any) map[string]any {
	doc, _ := s["doc"].(string)
	name, _ := s["name"].(string)
	params, _ := s["params"].([]any)
	return map[string]any{"name": name, "doc": core.CleanDoc(doc), "params": normalizeFixtureParams(params, false)}
}

func normalizeFixtureParams(params []any, fields bool) []any {
	out := []any{}
	for _, p := range params {
		m, _ := p.(map[string]any)
		kind := m["kind"]
		if kind == nil {
			kind = core.ParamPlain.String()
		}
		name, _ := m["name"].(string)
		hasDefault, _ := m["hasDefault"].(bool)
		typ, _ := m["type"].(string)
		sub, _ := m["fields"].([]any)
		out = append(out, map[string]any{
			"name": name, "kind": kind, "hasDefault": hasDefault, "default": m["default"],
			"type": typ, "fields": normalizeFixtureParams(sub, true),
		})
	}
	return out
}
