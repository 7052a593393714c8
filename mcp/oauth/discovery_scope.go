package oauth

import "strings"

// offlineAccess is the scope that asks for a refresh token (OpenID
// Connect; SEP-2207).
const offlineAccess = "offline_access"

// ChooseScope is the scope to ask for in the authorization code grant (the
// spec's scope selection strategy): the challenge's scope, else the
// resource metadata's scopes_supported (space-joined), else configured,
// else "" (the scope parameter omitted). offline_access follows the
// authorization server (SEP-2207): it is appended to a non-empty scope
// when meta lists it in scopes_supported (the grant's client registers
// the refresh_token grant type, see Register), and dropped when meta lists
// scopes_supported without it, so an unsupported scope is never asked
// for. Repeated scopes are sent once, in first-seen order.
func ChooseScope(ch Challenge, prm *ResourceMetadata, meta *ServerMetadata, configured string) string {
	scope := strings.Fields(ch.Scope)
	if len(scope) == 0 && prm != nil {
		scope = strings.Fields(strings.Join(prm.ScopesSupported, " "))
	}
	if len(scope) == 0 {
		scope = strings.Fields(configured)
	}
	var listed []string
	if meta != nil {
		listed = meta.ScopesSupported
	}
	refused := len(listed) > 0 && !contains(listed, offlineAccess)
	out := make([]string, 0, len(scope)+1)
	for _, s := range scope {
		if !contains(out, s) && !(s == offlineAccess && refused) {
			out = append(out, s)
		}
	}
	if len(out) > 0 && contains(listed, offlineAccess) && !contains(out, offlineAccess) {
		out = append(out, offlineAccess)
	}
	return strings.Join(out, " ")
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// StepUpChallenge is the 403 insufficient_scope challenge ch with the scope
// the current tokens were granted put before its own (MCP 2026-07-28,
// "Step-Up Authorization Flow": the union of what was granted and what is
// challenged, so a step-up never loses a permission another operation
// needs). ChooseScope then sends each scope once.
func StepUpChallenge(ch Challenge, granted string) Challenge {
	if strings.TrimSpace(granted) != "" && strings.TrimSpace(ch.Scope) != "" {
		ch.Scope = granted + " " + ch.Scope
	}
	return ch
}
