package core

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompileIsLazy: compiling a schema the metaschema check is sure of
// builds neither the fast path, the coercion plan nor the validator's
// compile; the first validation builds what it needs, once.
func TestCompileIsLazy(t *testing.T) {
	cs, err := CompileSchema("t", []byte(typicalSchema))
	require.NoError(t, err)
	assert.Nil(t, cs.lazy.ready.Load(), "the fast path and the plan wait for a validation")
	assert.Nil(t, cs.full.ready.Load(), "the validator's compile waits for a validation")
	r := runFast(cs, []byte(`{"query":"q","limit":3}`), CoerceNone)
	require.True(t, r.handled)
	require.NoError(t, r.err)
	built := cs.lazy.ready.Load()
	require.NotNil(t, built, "the fast path is built on first need")
	assert.Nil(t, cs.lazy.plan.Load(), "coerce none reads no coercion plan")
	assert.Nil(t, cs.full.ready.Load(), "the fast path answered: the validator is still not compiled")
	r = runFast(cs, []byte(`{"query":"q","limit":"3"}`), CoerceLax)
	require.True(t, r.handled)
	require.NoError(t, r.err)
	require.Len(t, r.convs, 1)
	assert.NotNil(t, cs.lazy.plan.Load(), "lax coercion builds the plan")
	_, _, err = cs.Normalize("t", &Arguments{Values: map[string]any{"query": "q", "limit": 3.0}}, CoerceLax)
	require.NoError(t, err)
	assert.Same(t, built, cs.lazy.ready.Load(), "built once")
	assert.NotNil(t, cs.full.ready.Load(), "the full path compiled the validator")
}

// TestCompileStillRefusesAtOnce: what a compile refuses is refused by the
// compile, not by the first validation: a schema the metaschema check is
// unsure of is compiled by the validator at once.
func TestCompileStillRefusesAtOnce(t *testing.T) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"strin"}}}`,
		`{"type":"object","properties":{"a":{"pattern":"(?=x)"}}}`,
		`{"type":"object","required":"a"}`,
		`{"$ref":"#/$defs/missing"}`,
	} {
		_, err := CompileSchema("t", []byte(s))
		require.Error(t, err, "%s", s)
		assert.Equal(t, CodeInvalidSchema, AsError(err).Code, "%s", s)
	}
}

// TestCompileLazyConcurrent: goroutines validating against a schema no one
// has used yet build its parts once and agree (run with -race).
func TestCompileLazyConcurrent(t *testing.T) {
	cs, err := CompileSchema("t", []byte(typicalSchema))
	require.NoError(t, err)
	args := &Arguments{Keys: []string{"query", "limit", "extra"}, Values: map[string]any{"query": "q", "limit": "3", "extra": 1.0}}
	var wg sync.WaitGroup
	got := make([]*Arguments, 8)
	parts := make([]*schemaParts, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, _, err := cs.Normalize("t", args, CoerceLax)
			assert.NoError(t, err)
			got[i], parts[i] = out, cs.parts()
		}()
	}
	wg.Wait()
	for i := range got {
		assert.Equal(t, got[0], got[i])
		assert.Same(t, parts[0], parts[i])
	}
	assert.Equal(t, []string{"query", "limit"}, got[0].Keys, "the unknown key dropped")
}
