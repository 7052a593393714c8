package core

// deferral is what a Manager holds about deferred tools: the names
// deferred, the MCP servers all of whose tools are deferred (a refreshed
// tool list stays deferred), the names a search or Reveal made visible, the
// name of the search tool, and the search index of the last catalog.
type deferral struct {
	names      map[string]bool
	servers    map[string]bool
	revealed   map[string]bool
	searchTool string
	gen        uint64 // grows with every change of which tools are deferred (not with reveals)
	index      *searchIndex
}

// clone copies d (nil stays nil); the index is rebuilt when needed.
func (d *deferral) clone() *deferral {
	if d == nil {
		return nil
	}
	c := &deferral{names: copySet(d.names), servers: copySet(d.servers), revealed: copySet(d.revealed), searchTool: d.searchTool, gen: d.gen}
	return c
}

func copySet(s map[string]bool) map[string]bool {
	out := make(map[string]bool, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

// DeferOptions say which tools of a Manager to defer (Manager.Defer).
type DeferOptions struct {
	// Names are tool names to defer, registered or not yet.
	Names []string `json:"names,omitempty"`
	// Servers are MCP server names: every tool of such a server is
	// deferred, including tools a refreshed list adds later.
	Servers []string `json:"servers,omitempty"`
	// Reveal are tool names a search (or the caller) made visible again.
	Reveal []string `json:"reveal,omitempty"`
	// SearchTool names the tool that searches the deferred tools; it is
	// never deferred itself, and a provider's native search leaves it out.
	SearchTool string `json:"searchTool,omitempty"`
}

// Defer records deferred tools: a deferred tool is left out of the
// provider exports (provider.ExportManager) until it is revealed, and is
// what SearchTools searches. Reveal entries make tools visible; deferring a
// name again hides it again. It refuses nothing: names not registered are
// kept for a later registration.
func (m *Manager) Defer(o DeferOptions) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.defers
	if d == nil {
		d = &deferral{names: map[string]bool{}, servers: map[string]bool{}, revealed: map[string]bool{}}
		m.defers = d
	}
	for _, n := range o.Names {
		d.names[n] = true
		delete(d.revealed, n)
	}
	for _, s := range o.Servers {
		d.servers[s] = true
	}
	for _, n := range o.Reveal {
		d.revealed[n] = true
	}
	if o.SearchTool != "" {
		d.searchTool = o.SearchTool
	}
	if len(o.Names)+len(o.Servers) > 0 || o.SearchTool != "" {
		d.gen++ // the search index is built again
	}
}

// SearchToolName returns the name given as DeferOptions.SearchTool, or "".
func (m *Manager) SearchToolName() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.defers == nil {
		return ""
	}
	return m.defers.searchTool
}

// IsDeferred reports whether t is deferred in this registry (by its name or
// its MCP server), revealed or not; the search tool never is.
func (m *Manager) IsDeferred(t *Tool) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.defers.deferred(t)
}

// IsHidden reports whether t is deferred and not revealed: exports leave it
// out.
func (m *Manager) IsHidden(t *Tool) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.defers.deferred(t) && !m.defers.revealed[t.Function()]
}

func (d *deferral) deferred(t *Tool) bool {
	if d == nil || t == nil {
		return false
	}
	name := t.Function()
	if name == d.searchTool {
		return false
	}
	if d.names[name] {
		return true
	}
	return len(d.servers) > 0 && t.MCP && d.servers[mcpServerOf(t)]
}

// mcpServerOf returns the server name an MCP proxy's config records.
func mcpServerOf(t *Tool) string {
	for _, v := range t.MCPConfig {
		if c, ok := v.(map[string]any); ok {
			if s, ok := c["name"].(string); ok {
				return s
			}
		}
	}
	return ""
}
