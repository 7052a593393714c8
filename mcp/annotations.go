package mcp

import (
	"encoding/json"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// Annotations are the hints of one MCP tool's "annotations" (tools/list,
// spec 2025-06-18 ToolAnnotations). A hint the server did not send, or sent
// as something other than a boolean, is nil: the effective value is then
// the spec's default (Effective). Title is kept for display only.
type Annotations struct {
	// Title is the human-readable title ("" when absent or not a string).
	Title string
	// ReadOnlyHint: the tool does not modify its environment (default false).
	ReadOnlyHint *bool
	// DestructiveHint: the tool may perform destructive updates (default
	// true; meaningful only when not read-only).
	DestructiveHint *bool
	// IdempotentHint: calling it again with the same arguments has no
	// additional effect (default false; meaningful only when not read-only).
	IdempotentHint *bool
	// OpenWorldHint: the tool may interact with an open world of external
	// entities (default true).
	OpenWorldHint *bool
}

// EffectiveHints are the four hints of a tool after the spec's defaults:
// what filters and approval rules read.
type EffectiveHints struct {
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// Effective applies the spec's defaults to a's hints (a nil a is a tool
// without annotations): readOnly false, destructive true, idempotent false,
// openWorld true. A read-only tool counts as non-destructive and idempotent
// whatever its other hints say (the spec gives them meaning only when the
// tool is not read-only; reading again changes nothing).
func (a *Annotations) Effective() EffectiveHints {
	if a == nil {
		a = &Annotations{}
	}
	h := EffectiveHints{
		ReadOnly:    hint(a.ReadOnlyHint, false),
		Destructive: hint(a.DestructiveHint, true),
		Idempotent:  hint(a.IdempotentHint, false),
		OpenWorld:   hint(a.OpenWorldHint, true),
	}
	if h.ReadOnly {
		h.Destructive, h.Idempotent = false, true
	}
	return h
}

// hint is *p, or def when p is nil.
func hint(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// parseAnnotations reads a tool's "annotations" member: the object as the
// server sent it (compacted; nil when absent, null or not an object, which
// counts as no annotations) and its hints. It never fails: annotations are
// hints, and a malformed one falls back to the spec's default, which is
// the cautious value for every hint but idempotent.
func parseAnnotations(raw json.RawMessage) (json.RawMessage, *Annotations) {
	if jsontext.Kind(raw) != jsontext.Object {
		return nil, nil
	}
	fields, ok := jsontext.Members(raw)
	if !ok {
		return nil, nil
	}
	a := &Annotations{
		ReadOnlyHint:    boolHint(fields["readOnlyHint"]),
		DestructiveHint: boolHint(fields["destructiveHint"]),
		IdempotentHint:  boolHint(fields["idempotentHint"]),
		OpenWorldHint:   boolHint(fields["openWorldHint"]),
	}
	if v := fields["title"]; jsontext.Kind(v) == jsontext.String {
		_ = json.Unmarshal(v, &a.Title)
	}
	return compactJSON(raw), a
}

// boolHint is a JSON boolean as a *bool; anything else is nil.
func boolHint(v json.RawMessage) *bool {
	if jsontext.Kind(v) != jsontext.Boolean {
		return nil
	}
	b := string(compactJSON(v)) == "true"
	return &b
}
