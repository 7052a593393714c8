package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInputSchemaCompiledOnce: a tool given a schema compiled already
// (ToolOptions.InputSchema, as MCP discovery hands over) and a provider
// schema whose parameters are those bytes compiles nothing again, at
// creation or at its first validation.
func TestInputSchemaCompiledOnce(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
	cs, err := CompileSchema("search", params)
	require.NoError(t, err)
	schema := json.RawMessage(`{"type":"function","function":{"name":"search","description":"d","parameters":` + string(params) + `}}`)
	before := schemaCompiles.Load()
	tool, err := NewTool(&fakeCallable{sig: Signature{Name: "search", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}}, &ToolOptions{Schema: schema, InputSchema: cs})
	require.NoError(t, err)
	m := NewManager(nil)
	require.NoError(t, m.Register(tool, false))
	_, err = m.MatchJSON([]byte(`{"function":"search","arguments":{"q":"x"}}`))
	require.NoError(t, err)
	require.Equal(t, before, schemaCompiles.Load(), "compiles after the discovery's own")
}
