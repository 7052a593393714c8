package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MaxToolNameLen is the longest registered name of an MCP tool: the OpenAI
// function name limit, which the other providers share or exceed.
const MaxToolNameLen = 64

// nameHashLen is the number of hex digits of the hash suffix.
const nameHashLen = 8

// registeredName is the name an MCP tool registers under: with qualify,
// "mcp__{server}__{tool}"; without, the wire name alone. A name that
// already matches ^[a-zA-Z0-9_-]{1,64}$ is kept as it is. Otherwise every
// character outside [a-zA-Z0-9_-] becomes "_", the result is cut to 55
// bytes, and "_" plus the first 8 hex digits of the SHA-256 of the unchanged
// name are appended: "mcp__docs__search.v2" becomes
// "mcp__docs__search_v2_<hash>", so it never meets a tool really named
// "search_v2" (and a hyphen is kept, so "search-a" and "search_a" stay two
// names). Names are case-sensitive, as MCP's are: "Search" and "search" are
// two tools. The result always matches ^[a-zA-Z0-9_-]{1,64}$.
func registeredName(server, tool string, qualify bool) string {
	raw := tool
	if qualify {
		raw = "mcp__" + server + "__" + tool
	}
	if validRegisteredName(raw) {
		return raw
	}
	var b strings.Builder
	for _, r := range raw {
		if providerNameChar(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if max := MaxToolNameLen - nameHashLen - 1; len(s) > max {
		s = s[:max]
	}
	sum := sha256.Sum256([]byte(raw))
	return s + "_" + hex.EncodeToString(sum[:])[:nameHashLen]
}

// validRegisteredName reports whether s matches ^[a-zA-Z0-9_-]{1,64}$.
func validRegisteredName(s string) bool {
	if s == "" || len(s) > MaxToolNameLen {
		return false
	}
	for _, r := range s {
		if !providerNameChar(r) {
			return false
		}
	}
	return true
}

// providerNameChar reports whether r may appear in a provider tool name.
func providerNameChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-'
}
