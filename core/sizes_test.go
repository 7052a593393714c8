package core

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocatedBy is how many bytes the heap allocated while f ran. Refusing
// an input on its length must allocate a small fraction of it: nothing of
// it was copied, unquoted or parsed.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// chatCall is an OpenAI Chat tool call of f whose arguments string is args.
func chatCall(args string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"id":"call_1","type":"function","function":{"name":"f","arguments":"`)
	b.WriteString(args)
	b.WriteString(`"}}`)
	return b.Bytes()
}

// oversizedArgs is argument text of n bytes (a JSON object with one long
// string), as it appears escaped inside a JSON string.
func oversizedArgs(n int) string {
	return `{\"pad\":\"` + strings.Repeat("x", n-10) + `\"}`
}

// noParseBudget is the most a refusal on length may allocate: far below
// the inputs of these tests (tens of MiB), which a decode would copy.
const noParseBudget = 1 << 20

func requireLimit(t *testing.T, err error, code Code, keyword string) *Error {
	t.Helper()
	var e *Error
	require.True(t, errors.As(err, &e), "got %v, want a *core.Error", err)
	require.Equal(t, code, e.Code, "got code %s (%s), want %s", e.Code, e.Message, code)
	require.NotEmpty(t, e.Issues)
	assert.Equal(t, keyword, e.Issues[0].Keyword, "got keyword %q, want %q", e.Issues[0].Keyword, keyword)
	return e
}

func TestOversizedArgumentStringRefusedBeforeDecoding(t *testing.T) {
	cases := []struct {
		name string
		req  []byte
	}{
		{"OpenAI Chat", chatCall(oversizedArgs(MaxArgumentBytes + 1024))},
		{"OpenAI Chat, blank", chatCall(strings.Repeat(" ", MaxArgumentBytes+1))},
		{"LionAGI text", []byte(`{"function":"f","arguments":"` + oversizedArgs(MaxArgumentBytes+1024) + `"}`)},
		{"Responses", []byte(`{"type":"function_call","call_id":"c1","name":"f","arguments":"` + oversizedArgs(MaxArgumentBytes+1024) + `"}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := allocatedBy(func() { _, err = ParseRequest(tc.req) })
			e := requireLimit(t, err, CodeInvalidArguments, "maxBytes")
			assert.Equal(t, "f", e.Tool, "got tool %q, want the call's", e.Tool)
			assert.Less(t, alloc, uint64(noParseBudget), "refusing %d bytes allocated %d: the arguments were decoded", len(tc.req), alloc)
		})
	}
}

func TestArgumentStringAtTheLimitAccepted(t *testing.T) {
	req, err := ParseRequest(chatCall(oversizedArgs(MaxArgumentBytes)))
	require.NoError(t, err, "got %v, want MaxArgumentBytes of argument text accepted", err)
	assert.Len(t, req.Arguments.Values["pad"], MaxArgumentBytes-10)
	// Escapes count as the bytes they decode to: 8 MiB of \" is 8 MiB of text.
	quotes := `{\"pad\":\"` + strings.Repeat(`\\\"`, MaxArgumentBytes/2-10) + `\"}`
	_, err = ParseRequest(chatCall(quotes))
	require.NoError(t, err, "got %v, want escaped argument text within the limit accepted", err)
}

func TestOversizedRequestRefusedOnItsLength(t *testing.T) {
	big := chatCall(oversizedArgs(MaxRequestBytes))
	var err error
	alloc := allocatedBy(func() { _, err = ParseRequest(big) })
	requireLimit(t, err, CodeInvalidRequest, "maxBytes")
	assert.Less(t, alloc, uint64(noParseBudget), "refusing %d bytes allocated %d", len(big), alloc)

	response := append(append([]byte(`{"choices":[{"message":{"role":"assistant","tool_calls":[`), big...), "]}}]}"...)
	alloc = allocatedBy(func() { _, err = ParseToolCalls(response) })
	requireLimit(t, err, CodeInvalidRequest, "maxBytes")
	assert.Less(t, alloc, uint64(noParseBudget), "refusing %d bytes allocated %d", len(response), alloc)
}

func TestResponseCallOverTheArgumentLimitRefusedByMatch(t *testing.T) {
	response := append(append([]byte(`{"choices":[{"message":{"role":"assistant","tool_calls":[`), chatCall(oversizedArgs(MaxArgumentBytes+1024))...), "]}}]}"...)
	calls, err := ParseToolCalls(response)
	require.NoError(t, err)
	require.Len(t, calls, 1)
	m := NewManager(nil)
	fn, _ := Func("f", func(pad string) string { return pad }, "pad")
	tool, err := NewTool(fn, nil)
	require.NoError(t, err)
	require.NoError(t, m.Register(tool, false))
	_, err = m.Match(calls[0])
	e := requireLimit(t, err, CodeInvalidArguments, "maxBytes")
	assert.Equal(t, "call_1", e.CallID, "got call id %q, want the call's", e.CallID)
}
