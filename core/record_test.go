package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordKeys returns the top-level keys of a JSON object in order.
func recordKeys(t *testing.T, rec json.RawMessage) []string {
	t.Helper()
	ms, ok := splitObject(rec)
	require.True(t, ok, "record %s is an object", rec)
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i] = m.key
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

type namedErr struct{ name string }

func (e namedErr) Error() string     { return "named failure" }
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
		{"errors.New", nil, errors.New("plain"), `null`, `{"error":"errorString","message":"plain"}`},
		{"wrapped", nil, fmt.Errorf("ctx: %w", errors.New("x")), `null`, `{"error":"wrapError","message":"ctx: x"}`},
		{"pointer type", nil, &customErr{}, `null`, `{"error":"customErr","message":"custom"}`},
		{"named", nil, namedErr{name: "TypeError"}, `null`, `{"error":"TypeError","message":"named failure"}`},
		{"named empty falls back", nil, namedErr{}, `null`, `{"error":"namedErr","message":"named failure"}`},
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
			ex, ok := lookupMember(rec, "execution")
			require.True(t, ok)
			resp, _ := lookupMember(ex, "response")
			e, _ := lookupMember(ex, "error")
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
	args, _ := lookupMember(rec, "arguments")
	assert.Equal(t, "{}", string(args), "no arguments are written as {}")
	fn, _ := lookupMember(rec, "function")
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

func TestRedactMCPConfig(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"alias and tool name kept", `{"server":"gh","_original_tool_name":"search"}`, `{"server":"gh","_original_tool_name":"search"}`},
		{"headers values", `{"url":"https://h/rpc","headers":{"Authorization":"Bearer x","X-Api-Key":"k"}}`,
			`{"url":"https://h/rpc","headers":{"Authorization":"[redacted]","X-Api-Key":"[redacted]"}}`},
		{"env values", `{"command":"npx","env":{"GITHUB_TOKEN":"ghp_1","HOME":"/root"}}`,
			`{"command":"npx","env":{"GITHUB_TOKEN":"[redacted]","HOME":"[redacted]"}}`},
		{"headers not an object", `{"Headers":"Authorization: x"}`, `{"Headers":"[redacted]"}`},
		{"null headers kept", `{"headers":null,"env":{"A":null}}`, `{"headers":null,"env":{"A":null}}`},
		{"sensitive keys", `{"token":"t","clientSecret":"s","PASSWORD":"p","api_key":"k","apiKey":"k","Api-Key":"k","cookie":"c","auth":{"Authorization":"a"},"refresh_token":{"x":1}}`,
			`{"token":"[redacted]","clientSecret":"[redacted]","PASSWORD":"[redacted]","api_key":"[redacted]","apiKey":"[redacted]","Api-Key":"[redacted]","cookie":"[redacted]","auth":{"Authorization":"[redacted]"},"refresh_token":"[redacted]"}`},
		{"url userinfo", `{"url":"https://u:p@host:8443/path"}`, `{"url":"https://[redacted]@host:8443/path"}`},
		{"url userinfo with @ in password", `{"url":"wss://u:p@ss@host/"}`, `{"url":"wss://[redacted]@host/"}`},
		{"url query and fragment", `{"url":"https://h/p?key=v&flag&=x#access_token=y"}`, `{"url":"https://h/p?key=[redacted]&[redacted]&=[redacted]#access_token=[redacted]"}`},
		{"url empty query", `{"url":"https://h/p?"}`, `{"url":"https://h/p?"}`},
		{"url without secrets", `{"url":"https://h.example.com/rpc"}`, `{"url":"https://h.example.com/rpc"}`},
		{"not a url", `{"name":"a://"}`, `{"name":"a://"}`},
		{"nested url", `{"servers":[{"endpoint":"https://a:b@h"}]}`, `{"servers":[{"endpoint":"https://[redacted]@h"}]}`},
		{"args flags", `{"args":["--token","abc","--api-key=xyz","-v","SECRET_KEY=1","plain","--password"]}`,
			`{"args":["--token","[redacted]","--api-key=[redacted]","-v","SECRET_KEY=[redacted]","plain","--password"]}`},
		{"flag before non-string", `{"args":["--token",5,"x"]}`, `{"args":["--token",5,"x"]}`},
		{"numbers and bools kept", `{"port":8080,"debug":true,"ratio":1.5}`, `{"port":8080,"debug":true,"ratio":1.5}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.in), &in))
			got, err := RedactMCPConfig(in)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, mustMarshal(t, got))
			again, err := RedactMCPConfig(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "redaction is idempotent")
		})
	}
	got, err := RedactMCPConfig(nil)
	assert.NoError(t, err)
	assert.Nil(t, got)
	_, err = RedactMCPConfig(map[string]any{"x": make(chan int)})
	assert.Error(t, err)
}

// FuzzRedactMCPConfig plants a secret in the places a config carries one and
// checks it never survives, and that redaction is idempotent.
func FuzzRedactMCPConfig(f *testing.F) {
	f.Add("s3cr3t-value", "https://h/rpc")
	f.Add("a b", "wss://x:y@h/?q=1")
	f.Add("[redacted]", "")
	f.Fuzz(func(t *testing.T, secret, url string) {
		cfg := map[string]any{"srv": map[string]any{
			"url":     url,
			"headers": map[string]any{"Authorization": secret},
			"env":     map[string]any{"X": secret},
			"token":   secret,
			"userurl": "https://" + "u:" + strings.ReplaceAll(secret, "/", "") + "@h/?k=" + secret,
		}}
		got, err := RedactMCPConfig(cfg)
		require.NoError(t, err)
		inner := got["srv"].(map[string]any)
		for what, v := range map[string]any{
			"header": inner["headers"].(map[string]any)["Authorization"],
			"env":    inner["env"].(map[string]any)["X"],
			"token":  inner["token"],
		} {
			if v != Redacted {
				t.Fatalf("the %s secret survived: %#v", what, v)
			}
		}
		again, err := RedactMCPConfig(got)
		require.NoError(t, err)
		require.Equal(t, got, again)
	})
}
