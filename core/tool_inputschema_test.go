package core

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tool with an InputSchema (an MCP proxy's discovered inputSchema)
// validates as a typed tool does, on the full and the fast path, while its
// record and minimum fields stay those of its **kwargs signature.
func TestToolInputSchemaValidatesAsTyped(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	cs, err := CompileSchema("sum", params)
	require.NoError(t, err)
	h := HandlerFunc("sum", func(_ context.Context, a *Arguments) (any, error) { return "ok", nil })
	tool, err := NewTool(h, &ToolOptions{Schema: json.RawMessage(`{"type":"function","function":{"name":"sum","description":null,"parameters":` + string(params) + `}}`), InputSchema: cs})
	require.NoError(t, err)
	assert.Nil(t, tool.RequestOptions)
	assert.Equal(t, []string{}, tool.MinimumAcceptableFields())
	rec, err := tool.ToDict("python")
	require.NoError(t, err)
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(rec, &fields))
	assert.Equal(t, "null", string(fields["request_options"]))

	m := NewManager(nil)
	require.NoError(t, m.Register(tool, false))
	req := []byte(`{"function":"sum","arguments":{"a":"2","b":3,"c":1}}`)
	want := []Conversion{{Path: "/a", From: "string", To: "number"}, {Path: "/b", From: "integer", To: "number"}}
	fc, err := m.MatchJSON(req)
	require.NoError(t, err)
	assert.Equal(t, want, fc.Conversions)
	got, _ := fc.Arguments.MarshalJSON()
	assert.JSONEq(t, `{"a":2,"b":3}`, string(got), "coerced, and the key the schema does not name dropped")

	fm, handled, err := m.MatchFast(req, false, func(*Tool) bool { return true })
	require.True(t, handled)
	require.NoError(t, err)
	assert.Equal(t, want, fm.Conversions)
	assert.JSONEq(t, `{"a":2,"b":3}`, string(fm.Arguments))
	fm.Release()

	_, err = m.MatchJSON([]byte(`{"function":"sum","arguments":{"a":1}}`))
	assert.ErrorIs(t, err, ErrInvalidArguments)
	_, handled, err = m.MatchFast([]byte(`{"function":"sum","arguments":{"a":1}}`), false, func(*Tool) bool { return true })
	if handled {
		assert.ErrorIs(t, err, ErrInvalidArguments)
	}

	// RequestOptions, when given, take precedence over the InputSchema.
	tool2, err := NewTool(HandlerFunc("s2", func(context.Context, *Arguments) (any, error) { return nil, nil }),
		&ToolOptions{Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`), InputSchema: cs})
	require.NoError(t, err)
	_, _, err = tool2.ValidateArguments(mustArgs(t, `{"q":"x"}`))
	assert.NoError(t, err)
}

func mustArgs(t *testing.T, text string) *Arguments {
	t.Helper()
	a := NewArguments()
	require.NoError(t, json.Unmarshal([]byte(text), a))
	return a
}
