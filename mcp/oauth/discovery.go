package oauth

import "context"

// DiscoverResource finds the protected resource metadata of the MCP server
// at serverURL (RFC 9728): at ch.ResourceMetadata when the challenge names
// it, else at the well-known locations in the spec's order (the path-aware
// /.well-known/oauth-protected-resource/<path>, then the root). It returns
// nil, nil when the server publishes none (the 2025-03-26 fallback), and
// an *Error of StepDiscovery for a document that is malformed or lists no
// authorization server.
func DiscoverResource(ctx context.Context, c *Client, serverURL string, ch Challenge) (*ResourceMetadata, error) {
	return nil, errNotBuilt(StepDiscovery)
}

// CheckResource refuses (StepDiscovery) resource metadata whose resource
// is not the MCP server at serverURL (RFC 9728 §3.3: same origin, and a
// path that is the server's or a parent of it), so a token is never asked
// for another resource.
func CheckResource(prm *ResourceMetadata, serverURL string) error {
	return errNotBuilt(StepDiscovery)
}

// DiscoverServer reads the authorization server metadata of issuer in the
// spec's order (RFC 8414 path-inserted, OpenID path-inserted, OpenID
// path-appended; for an issuer without a path the two root documents) and
// checks it: an issuer equal to the one asked for, https endpoints (as the
// policy allows), PKCE S256 among code_challenge_methods_supported.
func DiscoverServer(ctx context.Context, c *Client, issuer string) (*ServerMetadata, error) {
	return nil, errNotBuilt(StepDiscovery)
}

// LegacyServer is the 2025-03-26 way, for a server that publishes no
// resource metadata: the authorization server metadata at the MCP server's
// origin (/.well-known/oauth-authorization-server), else the default
// endpoints /authorize, /token and /register there (Fallback set).
func LegacyServer(ctx context.Context, c *Client, serverURL string) (*ServerMetadata, error) {
	return nil, errNotBuilt(StepDiscovery)
}

// ChooseScope is the scope to ask for: the challenge's, else the resource
// metadata's scopes_supported (space-joined), else configured, else ""
// (omitted); offline_access is added when the authorization server lists
// it in scopes_supported and the client may use refresh tokens (SEP-2207),
// and never otherwise.
func ChooseScope(ch Challenge, prm *ResourceMetadata, meta *ServerMetadata, configured string) string {
	return ""
}
