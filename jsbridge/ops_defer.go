package jsbridge

import (
	"github.com/toolgate/toolgate/core"
)

// registerDeferred registers p's items as register does and defers the
// tools they registered; the answer is their names, in order, which JS
// keeps to defer them again in a rebuilt branch.
func (b *Bridge) registerDeferred(m *core.Manager, p registerPayload) (any, error) {
	before := map[string]bool{}
	for _, n := range m.Names() {
		before[n] = true
	}
	names := []string{}
	for _, it := range p.Items {
		v, err := b.convertRef(it, func(t *core.Tool) (any, error) { return t, nil })
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		if err := m.Register(v, p.Update); err != nil {
			return nil, err
		}
		if t, ok := v.(*core.Tool); ok {
			names = append(names, t.Function())
			continue
		}
		for _, n := range m.Names() { // an MCP config: the names it added
			if !before[n] {
				names = append(names, n)
			}
		}
		for _, n := range names {
			before[n] = true
		}
	}
	m.Defer(core.DeferOptions{Names: names})
	return names, nil
}

// opBranchDefer is b.deferTools (and the replay of a rebuilt branch's
// deferrals): payload core.DeferOptions {names?, servers?, reveal?,
// searchTool?}.
func opBranchDefer(b *Bridge, handle int64, payload []byte) (any, error) {
	m, p, err := branchPayload[core.DeferOptions](b, handle, payload, "deferTools options")
	if err != nil {
		return nil, err
	}
	m.Defer(*p)
	return true, nil
}

// searchPayload is what b.searchTools sends.
type searchPayload struct {
	Query  string `json:"query"`
	Limit  int    `json:"limit"`
	Reveal bool   `json:"reveal"`
}

// opBranchSearchTools is b.searchTools: core.Manager.SearchTools, the
// hits as [{name, description, parameters}].
func opBranchSearchTools(b *Bridge, handle int64, payload []byte) (any, error) {
	m, p, err := branchPayload[searchPayload](b, handle, payload, "searchTools options")
	if err != nil {
		return nil, err
	}
	return m.SearchTools(p.Query, p.Limit, p.Reveal)
}
