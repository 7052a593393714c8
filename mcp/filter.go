package mcp

import (
	"path"
	"strconv"

	"github.com/toolgate/toolgate/core"
)

// Filter chooses which of a server's tools are registered (JS option
// "filter"). A tool is kept when it matches Allow (nil: every tool), does
// not match Block, and each annotation hint that is set equals the tool's
// effective hint (Annotations.Effective: spec defaults when absent). A nil
// *Filter keeps every tool.
type Filter struct {
	// Allow lists wire tool names or glob patterns ("*" any run of
	// characters, "?" one); nil allows every tool, an empty list none.
	Allow []string
	// Block lists names or patterns as Allow does; Block wins over Allow.
	Block []string
	// ReadOnlyHint, when set, keeps only tools whose effective readOnlyHint
	// equals it.
	ReadOnlyHint *bool
	// DestructiveHint, when set, keeps only tools whose effective
	// destructiveHint equals it (a read-only tool is not destructive).
	DestructiveHint *bool
	// IdempotentHint, when set, keeps only tools whose effective
	// idempotentHint equals it (a read-only tool is idempotent).
	IdempotentHint *bool
	// OpenWorldHint, when set, keeps only tools whose effective
	// openWorldHint equals it.
	OpenWorldHint *bool
}

// maxPatternBytes is the longest allow or block entry: a wire name is at
// most 128 bytes, and a pattern longer than that with no '*' matches none.
const maxPatternBytes = 256

// Validate refuses with invalid-request, naming the option ("filter.allow[2]"),
// an entry that is empty, longer than 256 bytes, or holds a character that
// is neither a wire-name character (A-Z a-z 0-9 . _ -) nor '*' or '?'.
// call prefixes the message. A nil f is valid.
func (f *Filter) Validate(call string) error {
	if f == nil {
		return nil
	}
	for _, list := range []struct {
		key     string
		entries []string
	}{{"allow", f.Allow}, {"block", f.Block}} {
		for i, p := range list.entries {
			if !validPattern(p) {
				return core.Errorf(core.CodeInvalidRequest, "",
					"%s: option filter.%s[%d] is %s; want a tool name or a glob of A-Z a-z 0-9 . _ - with * and ?",
					call, list.key, i, strconv.QuoteToASCII(truncate(p, 60)))
			}
		}
	}
	return nil
}

// validPattern reports whether p is a non-empty pattern of wire-name
// characters, '*' and '?'.
func validPattern(p string) bool {
	if p == "" || len(p) > maxPatternBytes {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '*' && c != '?' && !wireNamePattern.MatchString(string(c)) {
			return false
		}
	}
	return true
}

// hasHints reports whether f filters on any annotation.
func (f *Filter) hasHints() bool {
	return f != nil && (f.ReadOnlyHint != nil || f.DestructiveHint != nil || f.IdempotentHint != nil || f.OpenWorldHint != nil)
}

// keepsName applies Allow and Block to a wire name.
func (f *Filter) keepsName(wire string) bool {
	if f == nil {
		return true
	}
	if f.Allow != nil && !matchesAny(f.Allow, wire) {
		return false
	}
	return !matchesAny(f.Block, wire)
}

// keeps applies the whole filter to a tool: its wire name and annotations
// (nil: none, so the spec's defaults).
func (f *Filter) keeps(wire string, a *Annotations) bool {
	if !f.keepsName(wire) {
		return false
	}
	if !f.hasHints() {
		return true
	}
	h := a.Effective()
	return hintIs(f.ReadOnlyHint, h.ReadOnly) && hintIs(f.DestructiveHint, h.Destructive) &&
		hintIs(f.IdempotentHint, h.Idempotent) && hintIs(f.OpenWorldHint, h.OpenWorld)
}

// hintIs reports whether want is unset or equals got.
func hintIs(want *bool, got bool) bool {
	return want == nil || *want == got
}

// matchesAny reports whether name matches one of the patterns (validated:
// no '/', '[' or '\\', so path.Match is a plain glob here).
func matchesAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, err := path.Match(p, name); ok && err == nil {
			return true
		}
	}
	return false
}

// checkDeclaredFilter refuses, with invalid-request naming the option, an
// annotation filter beside declared tool names: without tools/list there
// are no annotations to filter on.
func checkDeclaredFilter(cfg *ServerConfig, f *Filter) error {
	if !f.hasHints() {
		return nil
	}
	return serverError(core.CodeInvalidRequest, cfg.Name, cfg,
		"option filter filters on annotations, which declared toolNames do not have (no tools/list is made): "+
			"use filter.allow / filter.block, or discover the tools")
}
