package mcp

import (
	"crypto/sha256"
	"encoding/json"

	"github.com/toolgate/toolgate/core"
)

// Reuse on a refresh (docs/security.md, "Budgets"): a refresh lists the
// server's tools again, and most of them are usually what they were. Each
// tool of a registration remembers the SHA-256 of its descriptor as the
// tools/list page carried it (descriptor.sum, proxy.sum); a refresh that
// finds the same sum, for the same protocol version, keeps the registered
// *core.Tool as it is: the descriptor is not decoded, its schemas not
// compiled, its tool not built again. Its name is still checked against
// the others (a name advertised twice is refused as at registration). A
// storm of list changes over an unchanged list costs one tools/list and a
// hash per tool.

// descriptorSum is the SHA-256 of one descriptor as the page carried it.
type descriptorSum = [sha256.Size]byte

// reusable are the tools a refresh may keep, by the sum of their
// descriptor, with the protocol version they were discovered with.
type reusable map[descriptorSum]*core.Tool

// reusableOf is the tools of server in m that a refresh may keep: those a
// discovery registered (not declared ones), by descriptor sum.
func reusableOf(m *core.Manager, server string) reusable {
	out := reusable{}
	for _, t := range m.Tools() {
		if px, ok := t.Callable.(*proxy); ok && px.cfg.Name == server && px.raw != nil && px.sum != (descriptorSum{}) {
			out[px.sum] = t
		}
	}
	return out
}

// take returns the tool whose descriptor had sum, discovered with version,
// or nil.
func (r reusable) take(sum descriptorSum, version string) *core.Tool {
	t := r[sum]
	if t == nil {
		return nil
	}
	if px := t.Callable.(*proxy); px.version != version {
		return nil
	}
	return t
}

// sumOf is the sum of a descriptor as the page carried it.
func sumOf(raw json.RawMessage) descriptorSum {
	return sha256.Sum256(raw)
}
