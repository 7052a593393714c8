package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dropKey is an ArgumentRestore the tests tell apart by its value; it
// changes nothing.
type dropKey string

func (dropKey) Apply(args *Arguments) *Arguments { return args }

// restoreOf returns the restore m remembers for t, if any.
func restoreOf(m *Manager, t *Tool) ArgumentRestore {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.exports == nil {
		return nil
	}
	return m.exports.restores[t]
}

func TestRememberExportKeepsRestoresAcrossExports(t *testing.T) {
	m := NewManager(nil)
	a, b := batchTool(t, "a", false), batchTool(t, "b", false)
	require.NoError(t, m.RegisterBatch([]*Tool{a, b}, false, nil))
	m.RememberExport(nil, map[*Tool]ArgumentRestore{a: dropKey("x")})
	m.RememberExport(map[string]string{"b_": "b"}, nil) // a later export without a restore for a
	assert.Equal(t, dropKey("x"), restoreOf(m, a), "an export without a restore keeps the earlier one")
	assert.False(t, m.ResolvesDirectly("a"))
	m.RememberExport(nil, map[*Tool]ArgumentRestore{a: dropKey("y"), b: nil})
	assert.Equal(t, dropKey("y"), restoreOf(m, a), "a later restore replaces the earlier one")
	assert.Nil(t, restoreOf(m, b), "a nil restore is left out")
	assert.False(t, m.ResolvesDirectly("a"))
	assert.False(t, m.ResolvesDirectly("b"), "an alias stands for b")
}

func TestRememberExportForgetsToolsThatLeft(t *testing.T) {
	m := NewManager(nil)
	a, b, c := batchTool(t, "a", true), batchTool(t, "b", true), batchTool(t, "c", false)
	require.NoError(t, m.RegisterBatch([]*Tool{a, b, c}, false, nil))
	m.RememberExport(nil, map[*Tool]ArgumentRestore{a: dropKey("x"), b: dropKey("x"), c: dropKey("x")})
	require.False(t, m.ResolvesDirectly("c"))

	c2 := batchTool(t, "c", false)
	require.NoError(t, m.Register(c2, true)) // replaced by Register
	assert.Nil(t, restoreOf(m, c), "the replaced tool's restore is forgotten")
	assert.Nil(t, restoreOf(m, c2), "the new tool has none until an export gives it one")
	assert.True(t, m.ResolvesDirectly("c"))

	b2 := batchTool(t, "b", true)
	_, err := m.ReplaceOwned(ownedBy(a, b), []*Tool{b2}) // a removed, b replaced
	require.NoError(t, err)
	assert.Nil(t, restoreOf(m, a))
	assert.Nil(t, restoreOf(m, b))
	m.mu.RLock()
	assert.Empty(t, m.exports.restores, "no restore is kept for a tool no longer registered")
	m.mu.RUnlock()

	m.RememberExport(nil, map[*Tool]ArgumentRestore{a: dropKey("x"), b2: dropKey("x")}) // a is stale
	assert.Nil(t, restoreOf(m, a), "a restore for a tool not registered is not kept")
	assert.Equal(t, dropKey("x"), restoreOf(m, b2))

	b3 := batchTool(t, "b", true)
	require.NoError(t, m.RegisterBatch([]*Tool{b3}, true, nil)) // replaced by RegisterBatch
	assert.Nil(t, restoreOf(m, b2))
	require.NoError(t, m.Register(b3, true)) // the same tool again keeps what it has
	m.RememberExport(nil, map[*Tool]ArgumentRestore{b3: dropKey("x")})
	require.NoError(t, m.Register(b3, true))
	assert.Equal(t, dropKey("x"), restoreOf(m, b3), "re-registering the same tool keeps its restore")
}
