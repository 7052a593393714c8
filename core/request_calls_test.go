package core

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// The fixtures under tests/fixtures/providers/responses are shared with
// tests/node/provider-calls.test.mjs: both replay them and must agree.
const responseFixtures = "providers/responses"

// responseCase is one case of a responses fixture file.
type responseCase struct {
	Name     string            `json:"name"`
	Response json.RawMessage   `json:"response"`
	Text     *string           `json:"responseText"`
	Calls    []json.RawMessage `json:"calls"`
	Error    Code              `json:"error"`
	Keyword  string            `json:"keyword"`
}

// bigintRecord matches the record spelling {"$bigint": "digits"}.
var bigintRecord = regexp.MustCompile(`\{\s*"\$bigint"\s*:\s*"(-?\d+)"\s*\}`)

// callJSON writes a parsed call as parseToolCalls returns it to JS: id null
// when there is none, the arguments as JSON or their text.
func callJSON(t *testing.T, r *Request) []byte {
	t.Helper()
	out := map[string]any{"id": nil, "function": r.Function, "provider": r.Provider}
	if r.ID != "" {
		out["id"] = r.ID
	}
	if r.Arguments == nil {
		out["arguments"] = r.RawArguments
	} else {
		out["arguments"] = r.Arguments.Values
	}
	data, err := json.Marshal(out)
	require.NoError(t, err)
	return data
}

// sameJSON compares two JSON texts as values, numbers by their digits.
func sameJSON(t *testing.T, want, got []byte, msg string) {
	t.Helper()
	decode := func(b []byte) any {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		require.NoError(t, dec.Decode(&v), "%s", b)
		return v
	}
	w, g := decode(want), decode(got)
	assert.True(t, reflect.DeepEqual(w, g), "%s:\ngot  %s\nwant %s", msg, got, want)
}

func TestParseToolCallsFixtures(t *testing.T) {
	for _, file := range fixture.Files(t, responseFixtures) {
		var fx struct {
			Cases []responseCase `json:"cases"`
		}
		fixture.Load(t, responseFixtures, file, &fx)
		for _, tc := range fx.Cases {
			t.Run(file+"/"+tc.Name, func(t *testing.T) {
				calls, err := ParseToolCalls(tc.Response)
				if tc.Error != "" {
					require.Error(t, err)
					assert.Equal(t, tc.Error, AsError(err).Code, "got %v, want %s", err, tc.Error)
					if tc.Keyword != "" {
						require.NotEmpty(t, AsError(err).Issues, "%v", err)
						assert.Equal(t, tc.Keyword, AsError(err).Issues[0].Keyword, "got %v", err)
					}
					return
				}
				require.NoError(t, err)
				if tc.Text != nil {
					fromText, err := ParseToolCalls([]byte(*tc.Text))
					require.NoError(t, err)
					assert.Equal(t, calls, fromText, "responseText reads as response")
				}
				require.Len(t, calls, len(tc.Calls), "got %d calls, want %d", len(calls), len(tc.Calls))
				for i, c := range calls {
					want := bigintRecord.ReplaceAll(tc.Calls[i], []byte("$1"))
					sameJSON(t, want, callJSON(t, c), "call "+tc.Name)
				}
			})
		}
	}
}

// TestParseToolCallsMatch: every parsed call matches a registered tool; one
// whose arguments are malformed is refused with invalid-arguments carrying
// its call id and tool.
func TestParseToolCallsMatch(t *testing.T) {
	m := NewManager(nil)
	for _, name := range []string{"add", "search"} {
		require.NoError(t, m.Register(noopHandler(name), false))
	}
	calls, err := ParseToolCalls([]byte(`{"role":"assistant","content":null,"tool_calls":[
		{"id":"call_ok","type":"function","function":{"name":"add","arguments":"{\"a\":1}"}},
		{"id":"call_cut","type":"function","function":{"name":"add","arguments":"{\"a\":1,"}},
		{"id":"call_missing","type":"function","function":{"name":"nope","arguments":"{}"}}]}`))
	require.NoError(t, err)
	require.Len(t, calls, 3)
	fc, err := m.Invoke(context.Background(), calls[0])
	require.NoError(t, err)
	assert.Equal(t, "call_ok", fc.CallID)
	assert.Equal(t, StatusCompleted, fc.Status)

	_, err = m.Match(calls[1])
	e := AsError(err)
	assert.Equal(t, CodeInvalidArguments, e.Code, "got %v", err)
	assert.Equal(t, "call_cut", e.CallID)
	assert.Equal(t, "add", e.Tool)
	require.Len(t, e.Issues, 1)
	assert.Equal(t, "json", e.Issues[0].Keyword)

	_, err = m.Validate(calls[2])
	e = AsError(err)
	assert.Equal(t, CodeToolNotFound, e.Code)
	assert.Equal(t, "call_missing", e.CallID)
	assert.Equal(t, "nope", e.Tool)
}

// TestParseRequestCallMembers: the LionAGI shape reads id and provider; the
// provider's rules apply to its arguments, and its errors carry the id.
func TestParseRequestCallMembers(t *testing.T) {
	tests := []struct {
		name, in, id, provider string
		code                   Code
		keyword                string
	}{
		{"id and provider", `{"function":"f","arguments":{"a":1},"id":"c1","provider":"anthropic"}`, "c1", ProviderAnthropic, "", ""},
		{"null id and provider", `{"function":"f","arguments":{},"id":null,"provider":null}`, "", ProviderLionAGI, "", ""},
		{"openai empty arguments", `{"function":"f","arguments":"","id":"c2","provider":"openai-chat"}`, "c2", ProviderOpenAIChat, "", ""},
		{"lionagi empty arguments refused", `{"function":"f","arguments":"","id":"c3"}`, "c3", "", CodeInvalidRequest, ""},
		{"lionagi malformed keeps invalid-request", `{"function":"f","arguments":"{\"a\":","id":"c4"}`, "c4", "", CodeInvalidRequest, ""},
		{"provider malformed is invalid-arguments", `{"function":"f","arguments":"{\"a\":","id":"c5","provider":"gemini"}`, "c5", "", CodeInvalidArguments, "json"},
		{"provider empty anthropic", `{"function":"f","arguments":"","id":"c6","provider":"anthropic"}`, "c6", "", CodeInvalidArguments, "json"},
		{"unknown provider", `{"function":"f","arguments":{},"provider":"mistral"}`, "", "", CodeInvalidRequest, ""},
		{"id not a string", `{"function":"f","arguments":{},"id":7}`, "", "", CodeInvalidRequest, ""},
		{"chat shape malformed", `{"id":"c7","type":"function","function":{"name":"f","arguments":"{x"}}`, "c7", "", CodeInvalidArguments, "json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := ParseRequest([]byte(tc.in))
			if tc.code == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.id, req.ID)
				assert.Equal(t, tc.provider, req.Provider)
				return
			}
			e := AsError(err)
			require.NotNil(t, e)
			assert.Equal(t, tc.code, e.Code, "got %v", err)
			assert.Equal(t, tc.id, e.CallID)
			if tc.keyword != "" {
				require.NotEmpty(t, e.Issues)
				assert.Equal(t, tc.keyword, e.Issues[0].Keyword)
			}
		})
	}
}

// TestMatchFastCallMembers: the fast path reads the id of the LionAGI shape
// and leaves what it cannot judge to the full path.
func TestMatchFastCallMembers(t *testing.T) {
	m := NewManager(nil)
	require.NoError(t, m.Register(noopHandler("f"), false))
	all := func(*Tool) bool { return true }
	fm, handled, err := m.MatchFast([]byte(`{"function":"f","arguments":{"a":1},"id":"c1","provider":"openai-chat"}`), false, all)
	require.NoError(t, err)
	if handled {
		assert.Equal(t, "c1", fm.ID)
		fm.Release()
	}
	for _, in := range []string{
		`{"function":"f","arguments":{},"provider":"mistral"}`,
		`{"function":"f","arguments":{},"id":7}`,
	} {
		_, handled, _ := m.MatchFast([]byte(in), false, all)
		assert.False(t, handled, in)
	}
}

// TestMalformedArgumentsPosition: the byte named is where the JSON goes
// wrong.
func TestMalformedArgumentsPosition(t *testing.T) {
	for _, tc := range []struct {
		text string
		pos  string
	}{
		{`{"a":}`, "at byte 5:"},
		{`{"a":1,`, "at byte 7:"},
		{`{"a":1} x`, "at byte 8:"},
		{``, "at byte 0:"},
	} {
		err := malformedArguments("f", "arguments", jsontext.AppendString(nil, tc.text))
		require.Error(t, err, tc.text)
		assert.Contains(t, AsError(err).Message, tc.pos, tc.text)
	}
	assert.NoError(t, malformedArguments("f", "arguments", []byte(`"{}"`)))
	assert.NoError(t, malformedArguments("f", "arguments", []byte(`{"a":1}`)))
}

// FuzzParseToolCalls: no input panics; every refusal is an *Error.
func FuzzParseToolCalls(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"a","arguments":"{"}}]}}]}`,
		`{"output":[{"type":"function_call","call_id":"c","name":"a","arguments":""}]}`,
		`{"type":"message","content":[{"type":"tool_use","id":"t","name":"a","input":{}}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"x"}}]}}]}`,
		`[{"function":"a","arguments":"x","provider":"gemini"}]`, `"[]"`, `[1]`,
		`{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessageChunk"],"kwargs":{"tool_call_chunks":[{"name":"a","args":"{","index":0}]}}`,
		`{"object":"chat.completion.chunk","choices":[{"delta":{"tool_calls":[]}}]}`, `[{"type":"content_block_delta"}]`, `{"tool_calls":[{"name":"a","args":{},"type":"tool_call"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, err := ParseToolCalls(data)
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			return
		}
		for _, c := range calls {
			require.NotEmpty(t, c.Function)
			require.True(t, c.Arguments != nil || c.argsErr != nil)
		}
	})
}
