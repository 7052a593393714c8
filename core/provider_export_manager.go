package core

import "maps"

// exportMemory is what a Manager remembers of its exports: the exported
// names that differ from the registered ones, and each tool's strict
// restore from the last export.
type exportMemory struct {
	aliases  map[string]string // exported name → registered name
	restores map[*Tool]*StrictRestore
}

func (e *exportMemory) clone() *exportMemory {
	if e == nil {
		return nil
	}
	return &exportMemory{aliases: maps.Clone(e.aliases), restores: maps.Clone(e.restores)}
}

// Export is ExportTools of the registered tools, in insertion order, and it
// remembers in the Manager what a call coming back needs: each exported name
// that differs from the registered one (kept across exports, so calls in
// every exported format resolve; a registered name always wins over an
// alias) and each tool's strict restore (from this export: the last export
// decides). Match then resolves an exported name and removes the nulls the
// strict transform introduced before validation. It refuses what
// ExportTools refuses, and then remembers nothing new.
func (m *Manager) Export(target string, opts *ExportOptions) (*Export, error) {
	ex, items, err := exportTools(m.Tools(), target, opts)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	mem := m.exports.clone()
	if mem == nil {
		mem = &exportMemory{aliases: map[string]string{}}
	}
	mem.restores = map[*Tool]*StrictRestore{}
	for _, it := range items {
		if reg := it.tool.Function(); it.name != reg {
			mem.aliases[it.name] = reg
		}
		if !it.restore.removesNothing() {
			mem.restores[it.tool] = it.restore
		}
	}
	m.exports = mem
	registryChanges.Add(1) // what a name resolves to may have changed: JS caches of it are stale
	return ex, nil
}

// Exported reports whether a call to the registered name goes through
// what an export remembered: the name has an alias, or its tool a strict
// restore. The bridge's JS pre-check steps aside for such tools.
func (m *Manager) Exported(name string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.exports == nil {
		return false
	}
	for _, reg := range m.exports.aliases {
		if reg == name {
			return true
		}
	}
	t, ok := m.tools[name]
	return ok && m.exports.restores[t] != nil
}

// resolve returns the tool a call's name stands for (the registered name,
// else an exported alias) and its strict restore, if any.
func (m *Manager) resolve(name string) (*Tool, *StrictRestore, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	t, ok := m.tools[name]
	if !ok && m.exports != nil {
		if reg, has := m.exports.aliases[name]; has {
			t, ok = m.tools[reg]
		}
	}
	if !ok {
		return nil, nil, false
	}
	var r *StrictRestore
	if m.exports != nil {
		r = m.exports.restores[t]
	}
	return t, r, true
}

// restoredLocked reports whether t has a strict restore; m.mu is held.
func (m *Manager) restoredLocked(t *Tool) bool {
	return m.exports != nil && m.exports.restores[t] != nil
}

// removesNothing reports whether a strict restore has no null to remove
// anywhere (every property was required already): a tool with such a
// restore keeps the fast paths.
func (r *StrictRestore) removesNothing() bool {
	return r == nil || len(r.nodes) == 0 || !r.nodes[0].needs
}
