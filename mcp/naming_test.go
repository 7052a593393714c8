package mcp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRegisteredName(t *testing.T) {
	long := strings.Repeat("a", 60)
	cases := []struct {
		name    string
		server  string
		tool    string
		qualify bool
		want    string // "" means: sanitised with a hash suffix, checked below
		prefix  string
	}{
		{"qualified", "docs", "search", true, "mcp__docs__search", ""},
		{"bare", "docs", "search", false, "search", ""},
		{"hyphen kept", "docs", "search-a", true, "mcp__docs__search-a", ""},
		{"underscore kept", "docs", "search_a", true, "mcp__docs__search_a", ""},
		{"case kept", "docs", "Search", true, "mcp__docs__Search", ""},
		{"dot sanitised", "docs", "v1.search", true, "", "mcp__docs__v1_search_"},
		{"bare dot sanitised", "docs", "v1.search", false, "", "v1_search_"},
		{"server sanitised", "my docs", "search", true, "", "mcp__my_docs__search_"},
		{"non-ASCII server", "café", "x", true, "", "mcp__caf___x_"},
		{"too long", "docs", long, true, "", "mcp__docs__aaaa"},
		{"long server gives way to the tool", strings.Repeat("s", 60), "browser_navigate", true, "", "mcp__" + strings.Repeat("s", 48-len("browser_navigate")) + "__browser_navigate_"},
		{"both long: the server keeps its start", strings.Repeat("s", 60), long, true, "", "mcp__ssssssss__" + strings.Repeat("a", 40) + "_"},
		{"bare too long", "docs", strings.Repeat("b", 70), false, "", strings.Repeat("b", 55) + "_"},
		{"exactly 64", "d", strings.Repeat("b", 64-len("mcp__d__")), true, "mcp__d__" + strings.Repeat("b", 56), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := registeredName(tc.server, tc.tool, tc.qualify)
			assert.True(t, validRegisteredName(got), "got %q, want a name matching ^[a-zA-Z0-9_-]{1,64}$", got)
			if tc.want != "" {
				assert.Equal(t, tc.want, got)
				return
			}
			assert.True(t, strings.HasPrefix(got, tc.prefix), "got %q, want the prefix %q", got, tc.prefix)
			assert.Regexp(t, `_[0-9a-f]{8}$`, got)
			assert.Equal(t, got, registeredName(tc.server, tc.tool, tc.qualify), "got a different name on a second call")
		})
	}
}

func TestRegisteredNameSeparatesSanitisedNames(t *testing.T) {
	pairs := [][2]string{{"v1.search", "v1_search"}, {"a.b", "a-b"}, {strings.Repeat("x", 70) + "1", strings.Repeat("x", 70) + "2"}}
	for _, pr := range pairs {
		a, b := registeredName("s", pr[0], true), registeredName("s", pr[1], true)
		assert.NotEqual(t, a, b, "got the same name %q for %q and %q", a, pr[0], pr[1])
	}
	assert.NotEqual(t, registeredName("a.b", "c", true), registeredName("a_b", "c", true))
}

func TestValidRegisteredName(t *testing.T) {
	assert.False(t, validRegisteredName(""))
	assert.False(t, validRegisteredName(strings.Repeat("a", 65)))
	assert.False(t, validRegisteredName("a.b"))
	assert.True(t, validRegisteredName("A-z_09"))
}
