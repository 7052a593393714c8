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
// character outside [a-zA-Z0-9_-] becomes "_", and "_" plus the first 8 hex
// digits of the SHA-256 of the unchanged name are appended: "mcp__docs__search.v2"
// becomes "mcp__docs__search_v2_<hash>", so it never meets a tool really
// named "search_v2" (and a hyphen is kept, so "search-a" and "search_a" stay
// two names). When the result is too long, a qualified name gives up its
// server part first (down to minServerPart bytes), so the model still reads
// the tool's own name: "mcp__<a long server>__browser_navigate" becomes
// "mcp__<its start>__browser_navigate_<hash>"; only a tool name too long on
// its own is cut too. Names are case-sensitive, as MCP's are: "Search" and
// "search" are two tools. The result always matches ^[a-zA-Z0-9_-]{1,64}$.
func registeredName(server, tool string, qualify bool) string {
	raw := tool
	if qualify {
		raw = "mcp__" + server + "__" + tool
	}
	if validRegisteredName(raw) {
		return raw
	}
	sum := sha256.Sum256([]byte(raw))
	suffix := "_" + hex.EncodeToString(sum[:])[:nameHashLen]
	if !qualify {
		return cutName(sanitizeName(tool), MaxToolNameLen-len(suffix)) + suffix
	}
	s, t := sanitizeName(server), sanitizeName(tool)
	room := MaxToolNameLen - len("mcp__") - len("__") - len(suffix) // for the server and tool parts
	if len(s)+len(t) > room {
		s = cutName(s, max(room-len(t), min(len(s), minServerPart)))
		t = cutName(t, room-len(s))
	}
	return "mcp__" + s + "__" + t + suffix
}

// minServerPart is the fewest bytes of the server part a shortened
// qualified name keeps.
const minServerPart = 8

// sanitizeName replaces every character outside [a-zA-Z0-9_-] with "_".
func sanitizeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if providerNameChar(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// cutName keeps at most n bytes of an ASCII name.
func cutName(name string, n int) string {
	if len(name) > n {
		return name[:n]
	}
	return name
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
