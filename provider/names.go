package provider

import (
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/sha256"
)

// NameRule is one provider's rule for tool names: the characters allowed,
// the first character allowed, and the longest name. Rewrite makes any
// name fit it.
type NameRule struct {
	// Max is the longest name, in bytes (every allowed character is ASCII).
	Max int
	// Dots allows "." in a name (Gemini, MCP).
	Dots bool
	// Colons allows ":" in a name (Gemini).
	Colons bool
	// LetterFirst requires a letter or "_" first (Gemini).
	LetterFirst bool
}

// The name rules of the export targets (docs/providers.md says where each
// comes from).
var (
	// OpenAINames is OpenAI's ^[a-zA-Z0-9_-]{1,64}$ (Chat and Responses).
	OpenAINames = NameRule{Max: 64}
	// AnthropicNames is Anthropic's ^[a-zA-Z0-9_-]{1,64}$.
	AnthropicNames = NameRule{Max: 64}
	// GeminiNames is Gemini's: a letter or "_" first, then
	// [a-zA-Z0-9_.:-], at most 128 characters.
	GeminiNames = NameRule{Max: 128, Dots: true, Colons: true, LetterFirst: true}
	// MCPNames is MCP 2025-11-25's tool name: 1 to 128 of [A-Za-z0-9_.-].
	MCPNames = NameRule{Max: 128, Dots: true}
)

// NameRuleOf returns the name rule of an export target, false for an
// unknown target.
func NameRuleOf(target string) (NameRule, bool) {
	switch target {
	case core.ProviderOpenAIChat, core.ProviderOpenAIResponses:
		return OpenAINames, true
	case core.ProviderAnthropic:
		return AnthropicNames, true
	case core.ProviderGemini:
		return GeminiNames, true
	case MCP:
		return MCPNames, true
	}
	return NameRule{}, false
}

// nameHashLen is the number of hex digits of a rewritten name's hash suffix.
const nameHashLen = 8

// minServerPart is the fewest bytes of the server part a shortened
// qualified name keeps.
const minServerPart = 8

// Allowed reports whether r may appear in a name under the rule.
func (r NameRule) Allowed(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' ||
		r.Dots && c == '.' || r.Colons && c == ':'
}

// Valid reports whether name fits the rule as it is.
func (r NameRule) Valid(name string) bool {
	if name == "" || len(name) > r.Max {
		return false
	}
	if r.LetterFirst && !letterOrUnderscore(name[0]) {
		return false
	}
	for _, c := range name {
		if !r.Allowed(c) {
			return false
		}
	}
	return true
}

func letterOrUnderscore(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// sanitize replaces every character the rule does not allow with "_".
func (r NameRule) sanitize(name string) string {
	var b strings.Builder
	for _, c := range name {
		if r.Allowed(c) {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Rewrite returns name when it fits the rule; otherwise a name that does,
// deterministically: every character the rule does not allow becomes "_",
// "_" and the first 8 hex digits of the SHA-256 of the unchanged name are
// appended (so "search.v2" never meets a tool really named "search_v2"),
// and the readable part is cut to leave room for them. A name of the MCP
// qualified form "mcp__{server}__{tool}" gives up its server part first
// (down to 8 bytes), so the model still reads the tool's own name. Under a
// rule that wants a letter first, "_" is put before a name that starts
// otherwise. It never refuses: the result always fits.
func (r NameRule) Rewrite(name string) string {
	if r.Valid(name) {
		return name
	}
	if server, tool, ok := splitQualified(name); ok {
		return r.qualified(name, server, tool)
	}
	return r.plain(name, hashSuffix(name))
}

// RewritePlain is Rewrite without the qualified form: name is one part,
// whatever it holds.
func (r NameRule) RewritePlain(name string) string {
	if r.Valid(name) {
		return name
	}
	return r.plain(name, hashSuffix(name))
}

// RewriteQualified is Rewrite of "mcp__{server}__{tool}", with the server
// and tool parts given apart (a server name may itself hold "__").
func (r NameRule) RewriteQualified(server, tool string) string {
	raw := "mcp__" + server + "__" + tool
	if r.Valid(raw) {
		return raw
	}
	return r.qualified(raw, server, tool)
}

// splitQualified splits "mcp__{server}__{tool}" at the first "__" after the
// prefix.
func splitQualified(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	return server, tool, ok && server != "" && tool != ""
}

// hashSuffix is "_" and the first nameHashLen hex digits of raw's SHA-256.
func hashSuffix(raw string) string {
	const digits = "0123456789abcdef"
	sum := sha256.Sum256([]byte(raw))
	out := make([]byte, 1, 1+nameHashLen)
	out[0] = '_'
	for _, c := range sum[:nameHashLen/2] {
		out = append(out, digits[c>>4], digits[c&0x0f])
	}
	return string(out)
}

// plain is the rewrite of an unqualified name with a given suffix.
func (r NameRule) plain(name, suffix string) string {
	s := r.sanitize(name)
	if r.LetterFirst && (s == "" || !letterOrUnderscore(s[0])) {
		s = "_" + s
	}
	return cutName(s, r.Max-len(suffix)) + suffix
}

// qualified is the rewrite of a qualified name, raw its unchanged text.
func (r NameRule) qualified(raw, server, tool string) string {
	suffix := hashSuffix(raw)
	s, t := r.sanitize(server), r.sanitize(tool)
	room := r.Max - len("mcp__") - len("__") - len(suffix) // for the server and tool parts
	if len(s)+len(t) > room {
		s = cutName(s, max(room-len(t), min(len(s), minServerPart)))
		t = cutName(t, room-len(s))
	}
	return "mcp__" + s + "__" + t + suffix
}

// cutName keeps at most n bytes of an ASCII name.
func cutName(name string, n int) string {
	if len(name) > n {
		return name[:n]
	}
	return name
}
