package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// recordKeys returns the top-level keys of a JSON object in order.
func recordKeys(t *testing.T, rec json.RawMessage) []string {
	t.Helper()
	ms, ok := jsontext.Split(rec)
	require.True(t, ok, "record %s is an object", rec)
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i] = m.Key
	}
	return keys
}

func TestToolToDict(t *testing.T) {
	schema := `{"type":"function","function":{"name":"f","description":"a < b","parameters":{"type":"object","properties":{}}}}`
	tool := mustTool(t, &fakeCallable{sig: Signature{Name: "f"}}, &ToolOptions{
		Schema:             json.RawMessage(schema),
		Metadata:           map[string]any{"z": 1, "a": "x", "lion_class": "overwritten"},
		Preprocessor:       func(context.Context, any, map[string]any) (any, error) { return nil, nil },
		PreprocessorKwargs: map[string]any{"secret": "never"},
		StrictFuncCall:     true,
	})
	tool.ID = "00000000-0000-4000-8000-000000000000"
	tool.CreatedAt = 1732921234.123456
	tests := []struct {
		mode    string
		metaKey string
	}{
		{"", "metadata"}, {"python", "metadata"}, {"json", "metadata"}, {"db", "node_metadata"},
	}
	for _, tc := range tests {
		t.Run("mode "+tc.mode, func(t *testing.T) {
			rec, err := tool.ToDict(tc.mode)
			require.NoError(t, err)
			assert.Equal(t, []string{"id", "created_at", tc.metaKey, "mcp_config", "tool_schema", "request_options", "strict_func_call", "function"},
				recordKeys(t, rec))
			want := `{"id":"00000000-0000-4000-8000-000000000000","created_at":1732921234.123456,"` + tc.metaKey +
				`":{"a":"x","z":1,"lion_class":"lionagi.protocols.action.tool.Tool"},"mcp_config":null,"tool_schema":` + schema +
				`,"request_options":null,"strict_func_call":true,"function":"f"}`
			assert.Equal(t, want, string(rec))
		})
	}
	assert.Equal(t, "overwritten", tool.Metadata["lion_class"], "the tool's own metadata is not changed")

	_, err := tool.ToDict("yaml")
	assert.ErrorIs(t, err, ErrInvalidRequest)
}

func TestToolToDictTypedAndMCP(t *testing.T) {
	params := `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`
	tool := mustTool(t, &fakeCallable{sig: Signature{Name: "f"}}, &ToolOptions{Schema: schemaFor("f", ""), Parameters: json.RawMessage(params)})
	tool.MCP = true
	tool.MCPConfig = map[string]any{"f": map[string]any{
		"server":              "srv",
		"url":                 "https://user:pw@mcp.example.com/x?token=abc&x=1#frag",
		"headers":             map[string]any{"Authorization": "Bearer sk-123", "X-Trace": "t"},
		"_original_tool_name": "search",
	}}
	rec, err := tool.ToDict("json")
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(rec, &got))
	assert.JSONEq(t, params, mustMarshal(t, got["request_options"]))
	assert.Equal(t, map[string]any{"f": map[string]any{
		"server":              "srv",
		"url":                 "https://[redacted]@mcp.example.com/x?token=[redacted]&x=[redacted]#[redacted]",
		"headers":             map[string]any{"Authorization": "[redacted]", "X-Trace": "[redacted]"},
		"_original_tool_name": "search",
	}}, got["mcp_config"])
	assert.NotContains(t, string(rec), "sk-123")
	assert.NotContains(t, string(rec), "pw@")
	assert.Equal(t, "Bearer sk-123", tool.MCPConfig["f"].(map[string]any)["headers"].(map[string]any)["Authorization"],
		"redaction works on a copy")
}

func TestToolToDictUnserialisable(t *testing.T) {
	tool := mustTool(t, &fakeCallable{sig: Signature{Name: "f"}}, &ToolOptions{Schema: schemaFor("f", ""),
		Metadata: map[string]any{"ch": make(chan int)}})
	_, err := tool.ToDict("python")
	assert.ErrorIs(t, err, ErrUnsupportedType)

	tool.Metadata = nil
	tool.MCPConfig = map[string]any{"f": func() {}}
	_, err = tool.ToDict("python")
	assert.ErrorIs(t, err, ErrUnsupportedType)
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// namedErr is an error that names itself for records, as a wrapped JS error
// does: its class (TypeError) or, for a thrown non-Error value, its typeof.
type namedErr struct{ name, message string }

func (e namedErr) Error() string     { return e.message }
func (e namedErr) ErrorName() string { return e.name }

type customErr struct{}

func (*customErr) Error() string { return "custom" }

func TestFunctionCallingToDict(t *testing.T) {
	fc := pendingCall(t, func(context.Context, *Arguments) (any, error) { return map[string]any{"ok": true}, nil }, nil)
	fc.ID = "id-1"
	fc.CreatedAt = 12.5
	fc.Arguments = argsOf(t, `{"b":1,"a":[1,2]}`)

	rec, err := fc.ToDict("python")
	require.NoError(t, err)
	assert.Equal(t, []string{"id", "created_at", "metadata", "execution", "function", "arguments"}, recordKeys(t, rec))
	assert.Equal(t, `{"id":"id-1","created_at":12.5,"metadata":{"lion_class":"lionagi.protocols.action.function_calling.FunctionCalling"},`+
		`"execution":{"status":"pending","duration":null,"response":null,"error":null,"retryable":null},"function":"f","arguments":{"b":1,"a":[1,2]}}`,
		string(rec))

	fc.Invoke(context.Background())
	rec, err = fc.ToDict("db")
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(rec, &got))
	assert.Contains(t, got, "node_metadata")
	ex := got["execution"].(map[string]any)
	assert.Equal(t, "completed", ex["status"])
	assert.Equal(t, map[string]any{"ok": true}, ex["response"])
	assert.IsType(t, float64(0), ex["duration"])
	assert.Nil(t, ex["error"])
	assert.Nil(t, ex["retryable"])

	_, err = fc.ToDict("xml")
	assert.ErrorIs(t, err, ErrInvalidRequest)
}

func TestFunctionCallingToDictErrorsAndResponses(t *testing.T) {
	tests := []struct {
		name     string
		resp     any
		err      error
		wantResp string
		wantErr  string
	}{
		{"toolgate error", nil, &Error{Code: CodeTimeout, Tool: "f", Message: "too slow"}, `null`,
			`{"error":"ToolgateError","message":"too slow","code":"timeout"}`},
		{"toolgate error with issues", nil, &Error{Code: CodeInvalidArguments, Message: "bad", Issues: []Issue{{Path: "/a", Keyword: "type", Message: "m"}}}, `null`,
			`{"error":"ToolgateError","message":"bad","code":"invalid-arguments","issues":[{"path":"/a","keyword":"type","message":"m"}]}`},
		{"tool-error keeps the tool's result", nil, &Error{Code: CodeToolError, Message: "failed", Result: json.RawMessage(`{"content":[{"type":"text","text":"no"}],"isError":true}`)}, `null`,
			`{"error":"ToolgateError","message":"failed","code":"tool-error","result":{"content":[{"type":"text","text":"no"}],"isError":true}}`},
		{"only a tool-error writes a result", nil, &Error{Code: CodeTransport, Message: "down", Result: json.RawMessage(`{"x":1}`)}, `null`,
			`{"error":"ToolgateError","message":"down","code":"transport"}`},
		{"errors.New", nil, errors.New("plain"), `null`, `{"error":"errorString","message":"plain"}`},
		{"wrapped", nil, fmt.Errorf("ctx: %w", errors.New("x")), `null`, `{"error":"wrapError","message":"ctx: x"}`},
		{"pointer type", nil, &customErr{}, `null`, `{"error":"customErr","message":"custom"}`},
		{"named", nil, namedErr{name: "TypeError", message: "named failure"}, `null`, `{"error":"TypeError","message":"named failure"}`},
		{"named empty falls back", nil, namedErr{message: "named failure"}, `null`, `{"error":"namedErr","message":"named failure"}`},
		{"unserialisable response", make(chan int), nil, `"<unserializable>"`, `null`},
		{"panicking marshaller", panicMarshaler{}, nil, `"<unserializable>"`, `null`},
		{"raw JSON response", json.RawMessage(`{"a": 1}`), nil, `{"a":1}`, `null`},
		{"html not escaped", "<b>&</b>", nil, `"<b>&</b>"`, `null`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fc := &FunctionCalling{ID: "i", Tool: &Tool{Schema: schemaFor("f", "")}, Status: StatusFailed, Response: tc.resp, Err: tc.err}
			rec, err := fc.ToDict("json")
			require.NoError(t, err)
			ex, ok := jsontext.Lookup(rec, "execution")
			require.True(t, ok)
			resp, _ := jsontext.Lookup(ex, "response")
			e, _ := jsontext.Lookup(ex, "error")
			assert.Equal(t, tc.wantResp, string(resp))
			assert.Equal(t, tc.wantErr, string(e))
		})
	}
}

type panicMarshaler struct{}

func (panicMarshaler) MarshalJSON() ([]byte, error) { panic("marshal") }

func TestFunctionCallingToDictArguments(t *testing.T) {
	fc := &FunctionCalling{}
	rec, err := fc.ToDict("")
	require.NoError(t, err)
	args, _ := jsontext.Lookup(rec, "arguments")
	assert.Equal(t, "{}", string(args), "no arguments are written as {}")
	fn, _ := jsontext.Lookup(rec, "function")
	assert.Equal(t, `""`, string(fn))

	fc.Metadata = map[string]any{"bad": make(chan int)}
	_, err = fc.ToDict("")
	assert.ErrorIs(t, err, ErrUnsupportedType)
}

func TestExactFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{1732921234.123456, "1732921234.123456"}, {0.5, "0.5"}, {3, "3"}, {1e21, "1000000000000000000000"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, string(exactFloatJSON(tc.f)))
		})
	}
	assert.Equal(t, "null", string(exactFloatJSON(nan())))
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}

func TestFunctionCallingRecordCallID(t *testing.T) {
	m := NewManager(nil)
	tool := mustTool(t, &fakeCallable{sig: Signature{Name: "now"}}, &ToolOptions{Parameters: json.RawMessage(`{"type":"object","properties":{}}`)})
	require.NoError(t, m.Register(tool, false))
	for _, id := range []string{"toolu_1", ""} {
		fc, err := m.Match(&Request{ID: id, Function: "now", Arguments: argsOf(t, `{}`)})
		require.NoError(t, err)
		rec, err := fc.ToDict("")
		require.NoError(t, err)
		var got map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(rec, &got))
		if id == "" {
			assert.NotContains(t, got, "call_id", "a call without a provider id keeps LionAGI's record")
			assert.True(t, bytes.HasSuffix(rec, []byte(`"arguments":{}}`)), string(rec))
			continue
		}
		assert.JSONEq(t, `"toolu_1"`, string(got["call_id"]))
		assert.True(t, bytes.HasSuffix(rec, []byte(`"call_id":"toolu_1"}`)), "call_id is the last key: %s", rec)
	}
}
