package mcp

import "github.com/toolgate/toolgate/provider"

// MaxToolNameLen is the longest registered name of an MCP tool: the OpenAI
// function name limit, which the other providers share or exceed.
const MaxToolNameLen = 64

// registeredName is the name an MCP tool registers under: with qualify,
// "mcp__{server}__{tool}"; without, the wire name alone, made to fit
// OpenAI's ^[a-zA-Z0-9_-]{1,64}$ by provider.OpenAINames (the rule the export
// uses too). A name that already fits is kept as it is. Otherwise every
// character outside [a-zA-Z0-9_-] becomes "_", and "_" plus the first 8 hex
// digits of the SHA-256 of the unchanged name are appended: "mcp__docs__search.v2"
// becomes "mcp__docs__search_v2_<hash>", so it never meets a tool really
// named "search_v2" (and a hyphen is kept, so "search-a" and "search_a" stay
// two names). When the result is too long, a qualified name gives up its
// server part first (down to 8 bytes), so the model still reads the tool's
// own name: "mcp__<a long server>__browser_navigate" becomes
// "mcp__<its start>__browser_navigate_<hash>"; only a tool name too long on
// its own is cut too. Names are case-sensitive, as MCP's are: "Search" and
// "search" are two tools.
func registeredName(server, tool string, qualify bool) string {
	if qualify {
		return provider.OpenAINames.RewriteQualified(server, tool)
	}
	return provider.OpenAINames.RewritePlain(tool)
}

// validRegisteredName reports whether s matches ^[a-zA-Z0-9_-]{1,64}$.
func validRegisteredName(s string) bool { return provider.OpenAINames.Valid(s) }
