package provider

import "github.com/toolgate/toolgate/core"

// ExportManager is ExportTools of a registry's tools, in insertion order,
// and it tells the registry what a call coming back needs
// (Manager.RememberExport): each exported name that differs from the
// registered one and each tool's strict restore that has nulls to remove
// (the registry keeps both across exports, so an export without strict
// leaves an earlier strict export's restores in place). Match then resolves an exported name and removes the nulls the strict
// transform introduced before validation. It refuses what ExportTools
// refuses, and then the registry remembers nothing new.
//
// A deferred tool not yet revealed (core.Manager.Defer) is left out, with a
// ChangeToolDeferred entry; with opts.ToolSearch native every deferred
// tool is written with defer_loading instead (export_defer.go).
func ExportManager(m *core.Manager, target string, opts *ExportOptions) (*Export, error) {
	var o ExportOptions
	if opts != nil {
		o = *opts
	}
	tools, deferred := deferredTools(m, &o)
	ex, items, err := exportTools(tools, target, &o)
	if err != nil {
		return nil, err
	}
	if len(deferred) > 0 {
		ex.Report.Changes = append(deferred, ex.Report.Changes...)
	}
	aliases := map[string]string{}
	restores := map[*core.Tool]core.ArgumentRestore{}
	for _, it := range items {
		if reg := it.tool.Function(); it.name != reg {
			aliases[it.name] = reg
		}
		if !it.restore.removesNothing() {
			restores[it.tool] = it.restore
		}
	}
	m.RememberExport(aliases, restores)
	return ex, nil
}

// removesNothing reports whether a strict restore has no null to remove
// anywhere (every property was required already): a tool with such a
// restore keeps the fast paths.
func (r *StrictRestore) removesNothing() bool {
	return r == nil || len(r.nodes) == 0 || !r.nodes[0].needs
}
