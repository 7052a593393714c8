package core

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ownedBy reports the tools in set.
func ownedBy(set ...*Tool) func(*Tool) bool {
	return func(t *Tool) bool {
		for _, s := range set {
			if s == t {
				return true
			}
		}
		return false
	}
}

func TestReplaceOwnedSwapsInOneStep(t *testing.T) {
	m := NewManager(nil)
	a, b, local := batchTool(t, "a", true), batchTool(t, "b", true), batchTool(t, "local", false)
	require.NoError(t, m.RegisterBatch([]*Tool{a, local, b}, false, nil))
	v := m.Version()
	b2, c := batchTool(t, "b", true), batchTool(t, "c", true)
	out, err := m.ReplaceOwned(ownedBy(a, b), []*Tool{c, b2})
	require.NoError(t, err)
	assert.Equal(t, []*Tool{a, b}, out, "the tools taken out, in registry order")
	assert.Equal(t, []string{"local", "b", "c"}, m.Names(), "a removed, b replaced in place, c appended")
	got, _ := m.Get("b")
	assert.Same(t, b2, got)
	assert.Equal(t, v+1, m.Version())
}

func TestReplaceOwnedRefusesACollisionAndChangesNothing(t *testing.T) {
	m := NewManager(nil)
	a, local, other := batchTool(t, "a", true), batchTool(t, "local", false), batchTool(t, "other", true)
	require.NoError(t, m.RegisterBatch([]*Tool{a, local, other}, false, nil))
	v := m.Version()
	for name, batch := range map[string][]*Tool{
		"a local tool":     {batchTool(t, "z", true), batchTool(t, "local", true)},
		"a tool not owned": {batchTool(t, "other", true)},
		"a name twice":     {batchTool(t, "z", true), batchTool(t, "z", true)},
		"a nil tool":       {nil},
	} {
		_, err := m.ReplaceOwned(ownedBy(a), batch)
		require.Error(t, err, name)
		assert.Equal(t, []string{"a", "local", "other"}, m.Names(), name)
	}
	_, err := m.ReplaceOwned(ownedBy(a), []*Tool{batchTool(t, "local", true)})
	assert.True(t, errors.Is(err, ErrDuplicateTool))
	assert.Equal(t, "local", AsError(err).Tool)
	_, err = m.ReplaceOwned(nil, nil)
	assert.True(t, errors.Is(err, ErrUnsupportedType))
	assert.Equal(t, v, m.Version(), "a refusal changes no version")
}

func TestReplaceOwnedWithNothingRemovesTheOwnedTools(t *testing.T) {
	m := NewManager(nil)
	a, local := batchTool(t, "a", true), batchTool(t, "local", false)
	require.NoError(t, m.RegisterBatch([]*Tool{a, local}, false, nil))
	out, err := m.ReplaceOwned(ownedBy(a), nil)
	require.NoError(t, err)
	assert.Equal(t, []*Tool{a}, out)
	assert.Equal(t, []string{"local"}, m.Names())
	assert.False(t, m.Has("a"))
}
