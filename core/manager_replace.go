package core

// ReplaceOwned swaps one set of tools for another in a single step, as an
// MCP server's refreshed tool list needs: under one lock, every registered
// tool for which owned reports true is taken out and tools are registered
// in their place. An incoming tool under the name of an owned tool takes
// that tool's position; an owned tool whose name no incoming tool has is
// removed; an incoming tool under a new name is appended, in order. The
// Version grows once.
//
// It refuses, and the registry is unchanged: with unsupported-type, a nil
// tool or a nil owned; with invalid-tool, a tool without a function name;
// with duplicate-tool, a name given twice among tools, or a name
// registered to a tool owned does not claim (a local tool, another
// server's). It returns the tools taken out (replaced or removed), in
// registry order.
func (m *Manager) ReplaceOwned(owned func(*Tool) bool, tools []*Tool) ([]*Tool, error) {
	if owned == nil {
		return nil, Errorf(CodeUnsupportedType, "", "ReplaceOwned needs an owned function")
	}
	names, err := batchNames(tools)
	if err != nil {
		return nil, err
	}
	incoming := make(map[string]*Tool, len(tools))
	for i, t := range tools {
		incoming[names[i]] = t
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, name := range names {
		if old, ok := m.tools[name]; ok && !owned(old) {
			return nil, Errorf(CodeDuplicateTool, name, "Tool %s is already registered and is not one of the tools being replaced.", name)
		}
	}
	var out []*Tool
	kept := make([]string, 0, len(m.names)+len(tools))
	placed := make(map[string]bool, len(tools))
	for _, name := range m.names {
		old := m.tools[name]
		if !owned(old) {
			kept = append(kept, name)
			continue
		}
		out = append(out, old)
		if t, ok := incoming[name]; ok {
			kept = append(kept, name)
			m.tools[name] = t
			placed[name] = true
		} else {
			delete(m.tools, name)
		}
	}
	for i, name := range names {
		if !placed[name] {
			kept = append(kept, name)
			m.tools[name] = tools[i]
		}
	}
	m.names = kept
	m.forgetLocked(out...)
	m.version++
	registryChanges.Add(1)
	return out, nil
}

// batchNames returns the function names of tools, refusing a nil tool
// (unsupported-type), a tool without a name (invalid-tool) and a name given
// twice (duplicate-tool).
func batchNames(tools []*Tool) ([]string, error) {
	names := make([]string, len(tools))
	seen := make(map[string]bool, len(tools))
	for i, t := range tools {
		if t == nil {
			return nil, Errorf(CodeUnsupportedType, "", registrationTypeMessage)
		}
		name := t.Function()
		if name == "" {
			return nil, Errorf(CodeInvalidTool, "", "the tool's schema has no function name.")
		}
		if seen[name] {
			return nil, Errorf(CodeDuplicateTool, name, "Tool %s appears twice in one registration.", name)
		}
		seen[name] = true
		names[i] = name
	}
	return names, nil
}
