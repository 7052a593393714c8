package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// sdkFixture is one file of tests/fixtures/providers/sdk: a provider's
// first response and what each of its tool calls must become.
type sdkFixture struct {
	First json.RawMessage `json:"first"`
	Calls []struct {
		ID       *string `json:"id"`
		Function string  `json:"function"`
		Error    Code    `json:"error"`
	} `json:"calls"`
}

// sdkCalls digs the tool calls out of a first response by the path each
// SDK hands them to the user: message.tool_calls, output[] function_call
// items, content[] tool_use blocks, candidates[0].content.parts[].
func sdkCalls(t *testing.T, provider string, first json.RawMessage) []json.RawMessage {
	t.Helper()
	var r struct {
		Choices []struct {
			Message struct {
				ToolCalls []json.RawMessage `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
		Output     []json.RawMessage `json:"output"`
		Content    []json.RawMessage `json:"content"`
		Candidates []struct {
			Content struct {
				Parts []json.RawMessage `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	require.NoError(t, json.Unmarshal(first, &r))
	typed := func(items []json.RawMessage, typ string) (out []json.RawMessage) {
		for _, it := range items {
			var h struct{ Type string }
			require.NoError(t, json.Unmarshal(it, &h))
			if h.Type == typ {
				out = append(out, it)
			}
		}
		return out
	}
	switch provider {
	case ProviderOpenAIChat:
		return r.Choices[0].Message.ToolCalls
	case ProviderOpenAIResponses:
		return typed(r.Output, "function_call")
	case ProviderAnthropic:
		return typed(r.Content, "tool_use")
	}
	return r.Candidates[0].Content.Parts
}

// TestParseRequestSDKShapes: every tool call of the recorded provider
// responses, as each SDK delivers it, parses to its function and call id
// (Gemini both as the Part, thoughtSignature and all, and as the bare
// FunctionCall of response.functionCalls, which omits args for a function
// without parameters); a call whose argument JSON the model cut off is
// invalid-arguments carrying the call id, never a crash.
func TestParseRequestSDKShapes(t *testing.T) {
	for _, provider := range []string{ProviderOpenAIChat, ProviderOpenAIResponses, ProviderAnthropic, ProviderGemini} {
		t.Run(provider, func(t *testing.T) {
			var fx sdkFixture
			fixture.Load(t, "providers/sdk", provider+".json", &fx)
			calls := sdkCalls(t, provider, fx.First)
			require.Len(t, calls, len(fx.Calls))
			for i, raw := range calls {
				forms := []json.RawMessage{raw}
				if provider == ProviderGemini {
					var part struct{ FunctionCall json.RawMessage }
					require.NoError(t, json.Unmarshal(raw, &part))
					forms = append(forms, part.FunctionCall)
				}
				want := fx.Calls[i]
				for _, in := range forms {
					req, err := ParseRequest(in)
					if want.Error != "" && want.Function == "get_weather" {
						require.Error(t, err, "%s", in)
						assert.Equal(t, CodeInvalidArguments, AsError(err).Code)
						assert.Equal(t, *want.ID, AsError(err).CallID, "the error carries the call id")
						continue
					}
					require.NoError(t, err, "%s", in)
					assert.Equal(t, want.Function, req.Function)
					assert.Equal(t, provider, req.Provider)
					if want.ID != nil {
						assert.Equal(t, *want.ID, req.ID)
					} else {
						assert.Empty(t, req.ID)
					}
				}
			}
		})
	}
}

// TestParseRequestCustomToolCalls: an OpenAI custom tool call (free text,
// not JSON) is read as ParseToolCalls reads it, with the arguments
// {"input": text}, so a call passed as the SDK gives it and one taken from
// the whole response agree.
func TestParseRequestCustomToolCalls(t *testing.T) {
	for _, tc := range []struct{ name, in, provider, id string }{
		{"chat custom tool call", `{"id":"call_c1","type":"custom","custom":{"name":"sql","input":"SELECT 1"}}`, ProviderOpenAIChat, "call_c1"},
		{"responses custom_tool_call", `{"type":"custom_tool_call","id":"ctc_1","call_id":"call_c2","name":"sql","input":"SELECT 1"}`, ProviderOpenAIResponses, "call_c2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := ParseRequest([]byte(tc.in))
			require.NoError(t, err)
			assert.Equal(t, "sql", req.Function)
			assert.Equal(t, tc.provider, req.Provider)
			assert.Equal(t, tc.id, req.ID)
			assert.Equal(t, []string{"input"}, req.Arguments.Keys)
			assert.Equal(t, "SELECT 1", req.Arguments.Values["input"])
			calls, err := ParseToolCalls([]byte(`[` + tc.in + `]`))
			require.NoError(t, err)
			require.Len(t, calls, 1)
			assert.Equal(t, req.Function, calls[0].Function)
			assert.Equal(t, req.ID, calls[0].ID)
			assert.Equal(t, req.Arguments.Values, calls[0].Arguments.Values, "both paths agree")
		})
	}
}

// TestParseRequestNotFunctionCalls: the tool calls the SDKs type beside
// function calls that toolgate cannot run (Anthropic's server tools) are
// refused with invalid-request naming the tool and carrying the call id, so
// the model can still be answered; an object that only
// looks like Gemini's FunctionCall is not taken for one.
func TestParseRequestNotFunctionCalls(t *testing.T) {
	for _, tc := range []struct{ name, in, tool, id string }{
		{"anthropic server_tool_use", `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"x"}}`, "web_search", "srvtoolu_1"},
		{"name with arguments", `{"name":"add","arguments":{"a":1}}`, "", ""},
		{"name with another member", `{"name":"add","input":{"a":1}}`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := ParseRequest([]byte(tc.in))
			assert.Nil(t, req)
			require.ErrorIs(t, err, ErrInvalidRequest)
			assert.Equal(t, tc.tool, AsError(err).Tool)
			assert.Equal(t, tc.id, AsError(err).CallID, "the refusal can be answered with the call id")
		})
	}
	req, err := ParseRequest([]byte(`{"name":"now","id":"fc_9"}`))
	require.NoError(t, err, "Gemini's FunctionCall without args")
	assert.Equal(t, ProviderGemini, req.Provider)
	assert.Equal(t, "fc_9", req.ID)
	assert.Empty(t, req.Arguments.Keys)
}
