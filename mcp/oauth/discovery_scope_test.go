package oauth

import "testing"

// TestChooseScope: the spec's scope selection strategy
// (auth/scope-from-www-authenticate, scope-from-scopes-supported,
// scope-omitted-when-undefined) and SEP-2207's offline_access rules
// (auth/offline-access-scope, offline-access-not-supported).
func TestChooseScope(t *testing.T) {
	prm := func(s ...string) *ResourceMetadata { return &ResourceMetadata{ScopesSupported: s} }
	as := func(s ...string) *ServerMetadata { return &ServerMetadata{ScopesSupported: s} }
	tests := []struct {
		name       string
		ch         Challenge
		prm        *ResourceMetadata
		meta       *ServerMetadata
		configured string
		want       string
	}{
		{"the challenge's scope first", Challenge{Scope: "mcp:basic"}, prm("mcp:basic", "mcp:read"), nil, "cfg", "mcp:basic"},
		{"else all of scopes_supported", Challenge{}, prm("mcp:basic", "mcp:read", "mcp:write"), nil, "cfg", "mcp:basic mcp:read mcp:write"},
		{"else the configured scope", Challenge{}, prm(), nil, "cfg:a  cfg:b", "cfg:a cfg:b"},
		{"else omitted", Challenge{}, prm(), as("mcp:basic"), "", ""},
		{"no resource metadata (2025-03-26)", Challenge{}, nil, nil, "", ""},
		{"a blank challenge scope counts as none", Challenge{Scope: "  "}, prm("a"), nil, "", "a"},
		{"a step-up challenge's scopes as given", Challenge{Scope: "mcp:basic mcp:write", Error: "insufficient_scope"}, prm("mcp:basic"), nil, "", "mcp:basic mcp:write"},
		{"repeats sent once", Challenge{Scope: "a b a"}, nil, nil, "", "a b"},
		{"offline_access added when the AS lists it", Challenge{}, prm("mcp:basic"), as("mcp:basic", "offline_access"), "", "mcp:basic offline_access"},
		{"offline_access added to the challenge's scope", Challenge{Scope: "x"}, nil, as("offline_access"), "", "x offline_access"},
		{"offline_access not added to an omitted scope", Challenge{}, prm(), as("offline_access"), "", ""},
		{"offline_access not added when the AS does not list it", Challenge{}, prm("mcp:basic", "mcp:read"), as("mcp:basic", "mcp:read"), "", "mcp:basic mcp:read"},
		{"offline_access dropped when the AS lists scopes without it", Challenge{}, prm("a", "offline_access"), as("a"), "", "a"},
		{"offline_access kept when the AS lists no scopes", Challenge{Scope: "a offline_access"}, nil, as(), "", "a offline_access"},
		{"offline_access not repeated", Challenge{Scope: "offline_access a"}, nil, as("offline_access"), "", "offline_access a"},
	}
	for _, tt := range tests {
		if got := ChooseScope(tt.ch, tt.prm, tt.meta, tt.configured); got != tt.want {
			t.Errorf("%s: ChooseScope = %q, want %q", tt.name, got, tt.want)
		}
	}
}
