package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/core"
)

// An op's options are refused in a JS caller's words: the path, the kind
// wanted and the kind given, never Go's struct and type names.
func TestDecodeStrictSpeaksJSON(t *testing.T) {
	b := New("v")
	for _, tc := range []struct{ payload, want string }{
		{`{"kind":"typed","options":{"name":"t","description":1}}`, `tool options: "options.description" must be a string, got a number`},
		{`{"kind":"typed","options":{"name":"t","strict":"yes"}}`, `tool options: "options.strict" must be a boolean, got a string`},
		{`{"kind":"typed","options":{"name":"t"},"bogus":1}`, `tool options: unknown option "bogus"`},
		{`{"kind":"typed","options":{"name":"t"}} {}`, `tool options: trailing data after the JSON value`},
		{`{"kind":`, `tool options: not valid JSON: the text ends early`},
	} {
		e := mustErr(t, b, "tool.create", 0, tc.payload, core.CodeUnsupportedType)
		assert.Equal(t, tc.want, e.Message, tc.payload)
		assert.NotContains(t, e.Message, "Go struct")
	}
}
