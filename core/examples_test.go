package core

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const examplesParams = `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1},"unit":{"enum":["c","f"]}},"required":["city"]}`

func examples(list ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(list))
	for i, s := range list {
		out[i] = json.RawMessage(s)
	}
	return out
}

func typedExampleTool(ex []json.RawMessage) (*Tool, error) {
	h := HandlerFunc("forecast", func(_ context.Context, a *Arguments) (any, error) { return "ok", nil })
	return NewTool(h, &ToolOptions{Parameters: json.RawMessage(examplesParams), InputExamples: ex})
}

// Examples the tool accepts as written are kept, compact and in their key
// order; the provider schema does not hold them.
func TestInputExamplesKept(t *testing.T) {
	tool, err := typedExampleTool(examples(`{ "unit": "f", "city": "Paris" }`, `{"city":"Oslo","days":3}`, `{"city":"Rome","days":2.0}`))
	require.NoError(t, err)
	got := make([]string, len(tool.InputExamples))
	for i, ex := range tool.InputExamples {
		got[i] = string(ex)
	}
	assert.Equal(t, []string{`{"unit":"f","city":"Paris"}`, `{"city":"Oslo","days":3}`, `{"city":"Rome","days":2.0}`}, got)
	assert.NotContains(t, string(tool.Schema), "Paris")

	none, err := typedExampleTool(nil)
	require.NoError(t, err)
	assert.Nil(t, none.InputExamples)
}

// An example the tool would not accept as written is refused at creation
// with invalid-tool, its issues pointing into the example by index.
func TestInputExamplesRefused(t *testing.T) {
	cases := []struct {
		name     string
		examples []json.RawMessage
		path     string
		keyword  string
	}{
		{"a missing required argument", examples(`{"city":"Oslo"}`, `{"days":2}`), "/inputExamples/1/city", "required"},
		{"a value outside the enum", examples(`{"city":"Oslo","unit":"k"}`), "/inputExamples/0/unit", "enum"},
		{"below the minimum", examples(`{"city":"Oslo","days":0}`), "/inputExamples/0/days", "minimum"},
		{"a string the tool converts to an integer", examples(`{"city":"Oslo","days":"3"}`), "/inputExamples/0/days", "type"},
		{"a key the tool drops", examples(`{"city":"Oslo","country":"NO"}`), "/inputExamples/0/country", "additionalProperties"},
		{"not an object", examples(`["Oslo"]`), "/inputExamples/0", "type"},
		{"not JSON", examples(`{"city":`), "/inputExamples/0", "json"},
		{"a repeated key", examples(`{"city":"a","city":"b"}`), "/inputExamples/0", "json"},
		{"too many", examples(strings.Split(strings.Repeat(`{"city":"a"},`, MaxInputExamples+1), ",")[:MaxInputExamples+1]...), "/inputExamples", "maxItems"},
		{"too many bytes together", examples(`{"city":"`+strings.Repeat("a", MaxInputExamplesBytes/2)+`"}`, `{"city":"`+strings.Repeat("b", MaxInputExamplesBytes/2)+`"}`), "/inputExamples", "maxBytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := typedExampleTool(tc.examples)
			require.Error(t, err)
			e := AsError(err)
			assert.Equal(t, CodeInvalidTool, e.Code)
			assert.Equal(t, "forecast", e.Tool)
			require.NotEmpty(t, e.Issues)
			assert.Equal(t, tc.path, e.Issues[0].Path)
			assert.Equal(t, tc.keyword, e.Issues[0].Keyword)
		})
	}
}

// On the raw path an example is checked as Manager.Validate checks a call:
// the arguments without a default present, and no key the callable does
// not take.
func TestInputExamplesRawSignature(t *testing.T) {
	add, err := Func("add", func(a, b int) int { return a + b }, "a", "b")
	require.NoError(t, err)
	_, err = NewTool(add, &ToolOptions{InputExamples: examples(`{"a":1,"b":2}`)})
	require.NoError(t, err)

	for _, tc := range []struct{ example, path, keyword string }{
		{`{"a":1}`, "/inputExamples/0/b", "required"},
		{`{"a":1,"b":2,"c":3}`, "/inputExamples/0/c", "signature"},
	} {
		_, err = NewTool(add, &ToolOptions{InputExamples: examples(tc.example)})
		require.Error(t, err, tc.example)
		e := AsError(err)
		assert.Equal(t, CodeInvalidTool, e.Code)
		require.NotEmpty(t, e.Issues)
		assert.Equal(t, tc.path, e.Issues[0].Path, tc.example)
		assert.Equal(t, tc.keyword, e.Issues[0].Keyword, tc.example)
	}
}
