package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// tg.tool's inputExamples reach core on both paths; anything but an array
// is refused with invalid-tool naming the option, in our words.
func TestToolCreateInputExamples(t *testing.T) {
	b := New("")
	ok := []string{
		`{"kind":"typed","name":"search","source":"","options":{"name":"search","parameters":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},"inputExamples":[{"q":"wasm"}]}}`,
		`{"kind":"function","name":"add","source":"function add(a, b) { return a + b }","options":{"inputExamples":[{"a":1,"b":2}],"description":"Adds."}}`,
		`{"kind":"function","name":"add","source":"function add(a, b) { return a + b }","options":{"inputExamples":null}}`,
	}
	for _, p := range ok {
		_, err := opToolCreate(b, 0, []byte(p))
		require.NoError(t, err, p)
	}
	refused := []struct{ payload, path, keyword string }{
		{`{"kind":"typed","name":"search","source":"","options":{"name":"search","parameters":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},"inputExamples":[{"q":1}]}}`, "/inputExamples/0/q", "type"},
		{`{"kind":"function","name":"add","source":"function add(a, b) { return a + b }","options":{"inputExamples":{"a":1,"b":2}}}`, "/inputExamples", "type"},
		{`{"kind":"function","name":"add","source":"function add(a, b) { return a + b }","options":{"inputExamples":"{}"}}`, "/inputExamples", "type"},
	}
	for _, tc := range refused {
		_, err := opToolCreate(b, 0, []byte(tc.payload))
		require.Error(t, err, tc.payload)
		e := core.AsError(err)
		assert.Equal(t, core.CodeInvalidTool, e.Code, tc.payload)
		require.NotEmpty(t, e.Issues, tc.payload)
		assert.Equal(t, tc.path, e.Issues[0].Path, tc.payload)
		assert.Equal(t, tc.keyword, e.Issues[0].Keyword, tc.payload)
		assert.NotContains(t, e.Message, "json:", "our words, not encoding/json's")
	}
}
