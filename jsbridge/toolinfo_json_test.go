package jsbridge

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/core"
)

// plainToolInfo is toolInfo without its MarshalJSON: what json.Marshal
// wrote before appendJSON.
type plainToolInfo toolInfo

// TestToolInfoJSON holds appendJSON to json.Marshal's reflection, as
// JSON.parse reads both.
func TestToolInfoJSON(t *testing.T) {
	sig := &core.Signature{Name: "f", Doc: "d <b>", Params: []core.Param{
		{Name: "a", Kind: core.ParamPlain, Type: "str"},
		{Name: "b", Kind: core.ParamPlain, HasDefault: true, Default: json.RawMessage(`[1, 2]`)},
		{Name: "c", Kind: core.ParamDestructured, Fields: []core.Param{{Name: "x"}}},
		{Name: "kwargs", Kind: core.ParamKeywords},
	}}
	cases := map[string]*toolInfo{
		"typed": {ID: 3, UUID: "u", CreatedAt: 1764733000.123456, Function: "search", ToolSchema: json.RawMessage(`{"type":"function"}`),
			RequiredFields: []string{"q"}, MinimumAcceptableFields: []string{"q"}, Metadata: map[string]any{},
			Signature:     &core.Signature{Name: "search", Params: []core.Param{{Name: "kwargs", Kind: core.ParamKeywords}}},
			InputExamples: []json.RawMessage{json.RawMessage(`{"q":"wasm"}`), json.RawMessage(`{"q":"go","n":2}`)}},
		"no required": {ID: 4, CreatedAt: 0, Function: "get_env", ToolSchema: json.RawMessage(`{}`),
			RequiredFieldsError:     &core.Error{Code: core.CodeInvalidSchema, Message: "no \"required\"", Tool: "get_env"},
			MinimumAcceptableFields: []string{}, Metadata: map[string]any{"k": []any{1.5, "v"}}, MCP: true,
			MCPTool: json.RawMessage(`{"server":"s","tool":"t"}`)},
		"raw function": {ID: 5, CreatedAt: 1e-7, Function: "f", Signature: sig, StrictFuncCall: true},
		"empty sig":    {ID: 6, CreatedAt: 1e21, Signature: &core.Signature{Name: "g"}, Metadata: map[string]any{}},
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := in.appendJSON(nil)
			require.NoError(t, err)
			want, err := json.Marshal((*plainToolInfo)(in))
			require.NoError(t, err)
			var g, w any
			require.NoError(t, json.Unmarshal(got, &g), "%s", got)
			require.NoError(t, json.Unmarshal(want, &w))
			require.Equal(t, w, g)
			nested, err := json.Marshal(map[string]any{"tools": []*toolInfo{in}})
			require.NoError(t, err)
			require.JSONEq(t, `{"tools":[`+string(want)+`]}`, string(nested))
		})
	}
	// what json.Marshal refuses, appendJSON refuses
	_, err := (&toolInfo{Metadata: map[string]any{"f": func() {}}}).appendJSON(nil)
	require.Error(t, err)
	_, err = (&toolInfo{Signature: &core.Signature{Params: []core.Param{{Kind: 9}}}}).appendJSON(nil)
	require.Error(t, err)
}

// TestAppendMicros: a creation time written as seconds and microseconds
// reads back (as JSON.parse and strconv read a decimal: the nearest
// double) as the same double.
func TestAppendMicros(t *testing.T) {
	seed := uint64(7)
	for n := 0; n < 20000; n++ {
		seed = seed*6364136223846793005 + 1442695040888963407
		us := int64(1_500_000_000_000_000 + seed>>40) // microseconds around now
		if n%5 == 0 {
			us -= us % 1000 // trailing zeros
		}
		f := float64(us) / 1e6
		text, ok := appendMicros(nil, f)
		require.True(t, ok, "%v", f)
		back, err := strconv.ParseFloat(string(text), 64)
		require.NoError(t, err)
		require.Equal(t, f, back, "%s", text)
	}
	for _, f := range []float64{0, 0.5, -3, 1e21, 1.0000001, 1764733000.1234567} {
		if text, ok := appendMicros(nil, f); ok {
			back, _ := strconv.ParseFloat(string(text), 64)
			require.Equal(t, f, back, "%s", text)
		}
	}
}
