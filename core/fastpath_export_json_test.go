package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// TestProgramJSON holds the hand-written program JSON to json.Marshal's,
// as JSON.parse reads both, on generated schemas in both coercion modes.
func TestProgramJSON(t *testing.T) {
	exported := 0
	for i := 0; i < 1500; i++ {
		g := &schemaGen{fixture.Choices{Seed: uint64(i)*0x2545f4914f6cdd1d + 7}}
		schema := g.schema()
		for _, mode := range []CoerceMode{CoerceNone, CoerceLax} {
			sig := Signature{Name: "t<&>", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}
			tool, err := NewTool(sigCallable{sig}, &ToolOptions{Parameters: json.RawMessage(schema), Coerce: mode})
			if err != nil {
				continue
			}
			p := tool.program()
			if p == nil {
				continue
			}
			exported++
			got, err := p.appendJSON(nil)
			require.NoError(t, err)
			want, err := json.Marshal(p)
			require.NoError(t, err)
			var g, w any
			require.NoError(t, json.Unmarshal(got, &g), "%s", got)
			require.NoError(t, json.Unmarshal(want, &w))
			require.Equal(t, w, g, "%s", schema)
		}
	}
	require.Greater(t, exported, 500)
}
