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
// names that differ from the registered ones, and each tool's argument
// restore from the last export.
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
// (the last export decides: the restores of earlier exports are dropped; a
// nil one is left out). Match then resolves an exported name and applies
// the tool's restore before validation. Only a restore that may change
// arguments should be given: a tool with one leaves the fast paths.
func (m *Manager) RememberExport(aliases map[string]string, restores map[*Tool]ArgumentRestore) {
	m.mu.Lock()
	defer m.mu.Unlock()
	mem := m.exports.clone()
	if mem == nil {
		mem = &exportMemory{aliases: map[string]string{}}
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
	mem.restores = map[*Tool]ArgumentRestore{}
	for t, r := range restores {
		if r != nil {
			mem.restores[t] = r
		}
	}
	m.exports = mem
	registryChanges.Add(1) // what a name resolves to may have changed: JS caches of it are stale
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
