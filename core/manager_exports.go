package core

import "maps"

// The registry's memory of an export: what a call coming back from a
// provider needs to find its tool and its arguments. The export itself
// (package provider) tells the registry what to remember.

// ArgumentRestore gives a call's arguments back in the form the registered
// schema expects, undoing what an export's transform made a model send
// (provider.StrictRestore removes the nulls OpenAI's strict mode
// introduced). Apply treats args as read-only and returns nil args as it
// is; it must be safe for concurrent use.
type ArgumentRestore interface {
	Apply(args *Arguments) *Arguments
}

// exportMemory is what a Manager remembers of its exports: the exported
// names that differ from the registered ones, and each registered tool's
// argument restore from the latest export that gave it one.
type exportMemory struct {
	aliases  map[string]string // exported name → registered name
	targets  map[string]bool   // the registered names some alias stands for
	restores map[*Tool]ArgumentRestore
}

func (e *exportMemory) clone() *exportMemory {
	if e == nil {
		return nil
	}
	return &exportMemory{aliases: maps.Clone(e.aliases), targets: maps.Clone(e.targets), restores: maps.Clone(e.restores)}
}

// RememberExport records in the Manager what a call coming back from an
// export needs: aliases maps each exported name that differs from the
// registered one to the registered name (kept across exports, so calls in
// every exported format resolve; a registered name always wins over an
// alias), and restores holds each tool's argument restore from this export
// (a nil one is left out). Restores are kept across exports too, as every
// export a model was given stays live: a later export without a restore for
// a tool keeps the earlier one (a model told by a strict export to send
// null still does), and a later restore for the same tool replaces it. A
// restore is forgotten when its tool leaves the registry (replaced or
// removed), and one given for a tool not registered here is not kept.
// Match then resolves an exported name and applies the tool's restore
// before validation. Only a restore that may change arguments should be
// given: a tool with one leaves the fast paths.
func (m *Manager) RememberExport(aliases map[string]string, restores map[*Tool]ArgumentRestore) {
	m.mu.Lock()
	defer m.mu.Unlock()
	mem := m.exports.clone()
	if mem == nil {
		mem = &exportMemory{aliases: map[string]string{}, restores: map[*Tool]ArgumentRestore{}}
	}
	for exported, reg := range aliases {
		if exported != reg {
			mem.aliases[exported] = reg
		}
	}
	mem.targets = make(map[string]bool, len(mem.aliases)) // an alias may have been given another tool
	for _, reg := range mem.aliases {
		mem.targets[reg] = true
	}
	for t, r := range restores {
		if r != nil && t != nil && m.tools[t.Function()] == t {
			mem.restores[t] = r
		}
	}
	m.exports = mem
	registryChanges.Add(1) // what a name resolves to may have changed: JS caches of it are stale
}

// forgetLocked drops the argument restores of tools that left the registry
// (replaced under their name, or removed), so that the memory holds no
// stale *Tool; m.mu is held for writing. A restore is the registered
// tool's only: a new tool under the same name has none until an export
// gives it one.
func (m *Manager) forgetLocked(gone ...*Tool) {
	if m.exports == nil || len(m.exports.restores) == 0 {
		return
	}
	for _, t := range gone {
		if t != nil && m.tools[t.Function()] != t {
			delete(m.exports.restores, t)
		}
	}
}

// ResolvesDirectly reports whether a call naming name reaches the tool
// registered under that name with nothing an export remembered in
// between: the name is registered (not only an exported alias), no exported
// alias stands for it, and its tool has no argument restore. A cache kept
// outside the registry of which tool a name stands for may hold only such
// names, and only while RegistryChanges is unchanged: the bridge's JS
// evaluator (docs/architecture.md, "The evaluator in JavaScript") learns
// a name only when Go's match answer or refusal says so. It is false for a name that
// is not registered.
func (m *Manager) ResolvesDirectly(name string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	t, ok := m.tools[name]
	if !ok {
		return false
	}
	return m.exports == nil || !m.exports.targets[name] && m.exports.restores[t] == nil
}

// resolve returns the tool a call's name stands for (the registered name,
// else an exported alias) and its argument restore, if any.
func (m *Manager) resolve(name string) (*Tool, ArgumentRestore, bool) {
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
	var r ArgumentRestore
	if m.exports != nil {
		r = m.exports.restores[t]
	}
	return t, r, true
}

// restoredLocked reports whether t has an argument restore; m.mu is held.
func (m *Manager) restoredLocked(t *Tool) bool {
	return m.exports != nil && m.exports.restores[t] != nil
}
