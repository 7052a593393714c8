package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseRequest(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		function string
		args     string
		id       string
		provider string
	}{
		{"lionagi object", `{"function":"add","arguments":{"b":2,"a":1}}`, "add", `{"b":2,"a":1}`, "", ProviderLionAGI},
		{"lionagi string arguments", `{"function":"add","arguments":"{\"a\":1}"}`, "add", `{"a":1}`, "", ProviderLionAGI},
		{"lionagi extra keys ignored", `{"function":"add","arguments":{},"action_response_id":null}`, "add", `{}`, "", ProviderLionAGI},
		{"legacy action_request", `{"action_request":{"function":"add","arguments":{"a":1}}}`, "add", `{"a":1}`, "", ProviderLionAGI},
		{"openai chat", `{"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}`, "add", `{"a":1,"b":2}`, "call_1", ProviderOpenAIChat},
		{"openai chat without type", `{"id":"call_1","function":{"name":"add","arguments":{"a":1}}}`, "add", `{"a":1}`, "call_1", ProviderOpenAIChat},
		{"openai responses", `{"type":"function_call","id":"fc_1","call_id":"call_9","name":"add","arguments":"{\"a\":1}"}`, "add", `{"a":1}`, "call_9", ProviderOpenAIResponses},
		{"openai responses id fallback", `{"type":"function_call","id":"fc_1","name":"add","arguments":"{}"}`, "add", `{}`, "fc_1", ProviderOpenAIResponses},
		{"anthropic", `{"type":"tool_use","id":"toolu_1","name":"add","input":{"a":1}}`, "add", `{"a":1}`, "toolu_1", ProviderAnthropic},
		{"gemini", `{"functionCall":{"name":"add","args":{"a":1},"id":"g1"}}`, "add", `{"a":1}`, "g1", ProviderGemini},
		{"gemini without args", `{"functionCall":{"name":"now"}}`, "now", `{}`, "", ProviderGemini},
		{"gemini bare", `{"name":"add","args":{"a":1}}`, "add", `{"a":1}`, "", ProviderGemini},
		{"json string of lionagi", `"{\"function\":\"add\",\"arguments\":{\"a\":1}}"`, "add", `{"a":1}`, "", ProviderLionAGI},
		{"json string of anthropic", `"{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"add\",\"input\":{}}"`, "add", `{}`, "t", ProviderAnthropic},
		{"whitespace", " \n{\"function\":\"add\",\"arguments\":{}}\n ", "add", `{}`, "", ProviderLionAGI},
		{"big integer exact", `{"function":"f","arguments":{"n":123456789012345678901234567890}}`, "f", `{"n":123456789012345678901234567890}`, "", ProviderLionAGI},
		{"proto keys are data", `{"function":"f","arguments":{"__proto__":1,"constructor":2}}`, "f", `{"__proto__":1,"constructor":2}`, "", ProviderLionAGI},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := ParseRequest([]byte(tc.in))
			require.NoError(t, err)
			assert.Equal(t, tc.function, req.Function)
			assert.Equal(t, tc.id, req.ID)
			assert.Equal(t, tc.provider, req.Provider)
			b, err := json.Marshal(req.Arguments)
			require.NoError(t, err)
			assert.Equal(t, tc.args, string(b), "got %s, want %s", b, tc.args)
		})
	}
}

func TestParseRequestRefuses(t *testing.T) {
	deep := `{"function":"f","arguments":` + strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat(`}`, 70) + `}`
	veryDeep := `{"function":"f","arguments":` + strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000) + `}`
	tests := []struct {
		name string
		in   string
		want error
	}{
		{"empty", ``, ErrInvalidRequest},
		{"not json", `function add`, ErrInvalidRequest},
		{"trailing data", `{"function":"add","arguments":{}} {}`, ErrInvalidRequest},
		{"array", `[{"function":"add","arguments":{}}]`, ErrInvalidRequest},
		{"number", `5`, ErrInvalidRequest},
		{"null", `null`, ErrInvalidRequest},
		{"string not json", `"add(1, 2)"`, ErrInvalidRequest},
		{"string of string", `"\"{\\\"function\\\":\\\"a\\\",\\\"arguments\\\":{}}\""`, ErrInvalidRequest},
		{"missing function", `{"arguments":{}}`, ErrInvalidRequest},
		{"missing arguments", `{"function":"add"}`, ErrInvalidRequest},
		{"empty function", `{"function":"","arguments":{}}`, ErrInvalidRequest},
		{"function not string", `{"function":5,"arguments":{}}`, ErrInvalidRequest},
		{"arguments null", `{"function":"add","arguments":null}`, ErrInvalidRequest},
		{"arguments array", `{"function":"add","arguments":[{"a":1}]}`, ErrInvalidRequest},
		{"arguments number", `{"function":"add","arguments":1}`, ErrInvalidRequest},
		{"arguments string not json", `{"function":"add","arguments":"a=1"}`, ErrInvalidRequest},
		{"arguments string empty", `{"function":"add","arguments":""}`, ErrInvalidRequest},
		{"arguments string array", `{"function":"add","arguments":"[1]"}`, ErrInvalidRequest},
		{"arguments string trailing", `{"function":"add","arguments":"{} x"}`, ErrInvalidRequest},
		{"arguments duplicate key", `{"function":"add","arguments":{"a":1,"a":2}}`, nil},
		{"chat wrong type", `{"type":"custom","function":{"name":"a","arguments":"{}"}}`, ErrInvalidRequest},
		{"chat no name", `{"type":"function","function":{"arguments":"{}"}}`, ErrInvalidRequest},
		{"responses no arguments", `{"type":"function_call","call_id":"c","name":"a"}`, ErrInvalidRequest},
		{"anthropic no input", `{"type":"tool_use","id":"t","name":"a"}`, ErrInvalidRequest},
		{"anthropic input array", `{"type":"tool_use","id":"t","name":"a","input":[]}`, ErrInvalidRequest},
		{"gemini not object", `{"functionCall":"add"}`, ErrInvalidRequest},
		{"gemini no name", `{"functionCall":{"args":{}}}`, ErrInvalidRequest},
		{"action_request not object", `{"action_request":"x"}`, ErrInvalidRequest},
		{"name and arguments", `{"name":"add","arguments":{}}`, ErrInvalidRequest},
		{"keys are exact", `{"Function":"add","Arguments":{}}`, ErrInvalidRequest},
		{"arguments too deep", deep, ErrInvalidArguments},
		{"envelope far too deep", veryDeep, ErrInvalidArguments},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := ParseRequest([]byte(tc.in))
			if tc.want == nil {
				// Duplicate keys are DecodeArguments' call; whatever it
				// decides, it is an *Error or a request.
				if err != nil {
					var e *Error
					assert.ErrorAs(t, err, &e)
				}
				return
			}
			assert.Nil(t, req)
			assert.ErrorIs(t, err, tc.want, "got %v, want %v", err, tc.want.(*Error).Code)
		})
	}
}

func TestParseRequestTooLarge(t *testing.T) {
	big := `{"function":"f","arguments":{"s":"` + strings.Repeat("x", MaxArgumentBytes) + `"}}`
	_, err := ParseRequest([]byte(big))
	assert.ErrorIs(t, err, ErrInvalidArguments, "got %v, want invalid-arguments", err)
}

// FuzzParseRequest checks that no input panics and every refusal is an
// *Error with invalid-request or invalid-arguments.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"function":"add","arguments":{"a":1}}`,
		`{"type":"tool_use","id":"t","name":"a","input":{}}`,
		`{"functionCall":{"name":"x"}}`,
		`"{\"function\":\"f\",\"arguments\":\"{}\"}"`,
		`[`, `{"action_request":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := ParseRequest(data)
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Contains(t, []Code{CodeInvalidRequest, CodeInvalidArguments}, e.Code)
			return
		}
		require.NotEmpty(t, req.Function)
		require.NotNil(t, req.Arguments)
	})
}

// TestParseRequestOpenAIEmptyArguments: OpenAI's "" arguments (a tool
// without parameters) are {} in both OpenAI shapes, on the full and the
// fast path alike; the LionAGI shape still refuses them.
func TestParseRequestOpenAIEmptyArguments(t *testing.T) {
	m := NewManager(nil)
	tool, err := NewTool(sigTool{Signature{Name: "now", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}}, &ToolOptions{Name: "now", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)})
	require.NoError(t, err)
	require.NoError(t, m.Register(tool, false))
	for _, req := range []string{
		`{"id":"call_1","type":"function","function":{"name":"now","arguments":""}}`,
		`{"id":"call_1","type":"function","function":{"name":"now","arguments":" \n"}}`,
		`{"type":"function_call","call_id":"c1","name":"now","arguments":""}`,
	} {
		r, err := ParseRequest([]byte(req))
		require.NoError(t, err, req)
		assert.Empty(t, r.Arguments.Keys, req)
		fc, err := m.Validate(r)
		require.NoError(t, err, req)
		assert.Empty(t, fc.Arguments.Keys, req)
		fm, handled, err := m.MatchFast([]byte(req), true, func(*Tool) bool { return true })
		if handled {
			require.NoError(t, err, req)
			assert.Equal(t, "{}", string(fm.Arguments), req)
			fm.Release()
		}
	}
	_, err = ParseRequest([]byte(`{"function":"now","arguments":""}`))
	assert.ErrorIs(t, err, ErrInvalidRequest, "LionAGI's shape keeps its refusal")
	_, err = ParseRequest([]byte(`{"id":"c","type":"function","function":{"name":"now","arguments":"x"}}`))
	assert.ErrorIs(t, err, ErrInvalidArguments, "text that is not JSON is still refused, as invalid-arguments in a provider shape")
}
