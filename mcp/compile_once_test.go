package mcp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// TestDiscoveredSchemaKeepsInputSchemaBytes: the provider schema of a
// discovered tool carries the inputSchema discovery compiled byte for
// byte, which is what lets core.NewTool take that compile instead of
// compiling the schema a second time (core's TestInputSchemaCompiledOnce).
func TestDiscoveredSchemaKeepsInputSchemaBytes(t *testing.T) {
	d := descriptor{wire: "echo", description: json.RawMessage(`"Echo"`),
		inputSchema: compactJSON(json.RawMessage(`{ "type": "object", "properties": {"m": {"type": "string"}} }`))}
	fn, ok := jsontext.Lookup(discoveredSchema("echo", d), "function")
	require.True(t, ok)
	params, ok := jsontext.Lookup(fn, "parameters")
	require.True(t, ok)
	require.True(t, bytes.Equal(params, d.inputSchema), "got %s, want %s", params, d.inputSchema)
}
