package jsbridge

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// TestToolCreateRefusesAnOversizedSchemaBeforeDecoding: a 28 MiB
// parameters schema is refused on its length, before the payload is
// decoded (which would copy the schema): the refusal allocates a small
// fraction of it.
func TestToolCreateRefusesAnOversizedSchemaBeforeDecoding(t *testing.T) {
	b := New("")
	pad := strings.Repeat("d", 28<<20)
	payload := []byte(`{"kind":"typed","name":"big","source":"","options":{"parameters":{"type":"object","description":"` + pad + `"}}}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := opToolCreate(b, 0, payload)
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	e, ok := err.(*core.Error)
	require.True(t, ok, "got %T %v, want *core.Error", err, err)
	assert.Equal(t, core.CodeInvalidSchema, e.Code)
	require.NotEmpty(t, e.Issues)
	assert.Equal(t, "maxBytes", e.Issues[0].Keyword)
	assert.Equal(t, "big", e.Tool)
	alloc := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, alloc, uint64(1<<20), "refusing %d bytes allocated %d: the payload was decoded", len(payload), alloc)
}

// TestToolCreateRefusesControlCharactersInNames: the name rules reach
// tg.tool through the bridge, on both paths.
func TestToolCreateRefusesControlCharactersInNames(t *testing.T) {
	b := New("")
	for _, name := range []string{`a\u0000b`, `a\nb`, `a\u007fb`} {
		e := mustErr(t, b, "tool.create", 0, `{"kind":"typed","name":"`+name+`","source":"","options":{}}`, core.CodeInvalidTool)
		require.NotEmpty(t, e.Issues)
		assert.Equal(t, "controlCharacter", e.Issues[0].Keyword)
		e = mustErr(t, b, "tool.create", 0, `{"kind":"function","name":"f","source":"function f(a) { return a }","options":{"name":"`+name+`"}}`, core.CodeInvalidTool)
		require.NotEmpty(t, e.Issues)
		assert.Equal(t, "controlCharacter", e.Issues[0].Keyword)
	}
}
