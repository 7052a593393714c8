package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStringList holds stringList to json.Unmarshal into []string where it
// answers, and checks it answers a plain list.
func TestStringList(t *testing.T) {
	for _, raw := range []string{`["a","b"]`, `[]`, `[ "x" , "é\n" ]`, `["\ud800"]`, `[1]`, `["a",null]`, `null`, `"a"`, `{}`} {
		got, ok := stringList(json.RawMessage(raw))
		var want []string
		err := json.Unmarshal([]byte(raw), &want)
		if ok { // where it declines, json.Unmarshal decides
			require.NoError(t, err, raw)
			require.Equal(t, want, got, raw)
		}
	}
	_, ok := stringList(json.RawMessage(`["a","b"]`))
	require.True(t, ok)
}

// TestSchemaFieldsOnePass holds readSchemaFields to functionUncached and
// requiredFieldsUncached (Lookup on the text) on provider schemas of every
// shape, and compiledMinimum to minimumAcceptableFieldsUncached.
func TestSchemaFieldsOnePass(t *testing.T) {
	schemas := []string{
		`{"type":"function","function":{"name":"f","parameters":{"type":"object","required":["a","b","a"]}}}`,
		`{"type":"function","function":{"name":"f","parameters":{"required":[]}}}`,
		`{"type":"function","function":{"name":"f","parameters":{"required":null}}}`,
		`{"type":"function","function":{"name":"f","parameters":{"required":["a",1]}}}`,
		`{"type":"function","function":{"name":"f","parameters":{"required":"a"}}}`,
		`{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}`,
		`{"type":"function","function":{"name":"f","parameters":null}}`,
		`{"type":"function","function":{"name":"f","parameters":[1]}}`,
		`{"type":"function","function":{"name":"f"}}`,
		`{"type":"function","function":{"name":7,"parameters":{"required":["x"]}}}`,
		`{"type":"function","function":"f"}`,
		`{"type":"function"}`,
		`[1]`, `{}`, `{"function":{"name":"a\nb\u00e9\"","parameters":{"required":["\u00e9\t", "x"]}}}`,
		` {"function" : {"name" : "sp" , "parameters" : { "required" : [ "a" ] } } } `,
		`{"function":{"name":"dup","name":"again","parameters":{"required":["a"]}}}`,
		`{"function":{"n\u0061me":"esc","parameters":{"required":["a"]}}}`,
		`{"function":{"name":"f","parameters":{"required":["\ud800"]}}}`,
		`{"function":{"name":"f"}} trailing`, `{"function":`,
	}
	answered := 0
	for _, s := range schemas {
		tool := &Tool{Schema: json.RawMessage(s)}
		var got derivedFields
		if !readSchemaFields(tool.Schema, &got) {
			continue
		}
		answered++
		want := tool.functionUncached()
		req, err := tool.requiredFieldsUncached(want)
		require.Equal(t, want, got.function, s)
		require.Equal(t, req, got.required, s)
		require.Equal(t, err, got.requiredErr, s)
	}
	require.Equal(t, len(schemas)-5, answered, "declined: a repeated or escaped key, a lone surrogate, trailing data, the end")
	for _, params := range []string{
		`{"type":"object","required":["a","b"]}`, `{"type":"object"}`, `{"required":[]}`,
		`{"properties":{"required":{"type":"string"}}}`, `{"type":"object","required":["a","\u00e9"]}`,
	} {
		tool, err := NewTool(&fakeCallable{sig: Signature{Name: "t", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}}, &ToolOptions{Parameters: json.RawMessage(params)})
		require.NoError(t, err, params)
		got, ok := tool.compiledMinimum()
		require.True(t, ok, params)
		require.Equal(t, tool.minimumAcceptableFieldsUncached(), got, params)
		tool.RequestOptions = append(json.RawMessage(nil), tool.RequestOptions...)
		_, ok = tool.compiledMinimum()
		require.False(t, ok, "reassigned RequestOptions are read again")
	}
}
