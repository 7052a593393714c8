package oauth

import (
	"context"
	"errors"
	"net/url"
	"strings"
)

// DiscoverServer reads the authorization server metadata of issuer (an
// http(s) URL without query or fragment, as the resource metadata lists
// it) from the locations the spec (2025-11-25, "Authorization Server
// Metadata Discovery") orders, stopping at the first document found. For
// an issuer with a path, https://as.example/tenant1:
//
//	https://as.example/.well-known/oauth-authorization-server/tenant1
//	https://as.example/.well-known/openid-configuration/tenant1
//	https://as.example/tenant1/.well-known/openid-configuration
//
// and for one without: https://as.example/.well-known/oauth-authorization-server,
// then https://as.example/.well-known/openid-configuration. Locations are
// tried as DiscoverResource tries them (every URL through c.Check, a
// refusal stops; 3xx, 4xx, 502 or a failed request move on).
//
// It refuses (StepDiscovery) a document whose issuer is not the one asked
// for (RFC 8414 §3.3; one trailing "/" of difference is tolerated), that
// has no token endpoint, or whose endpoints are not http(s) URLs without
// a fragment; the authorization and token endpoints must pass c.Check (that
// error, unchanged). It fails when no location has a document. PKCE
// support is not judged here: AuthorizationURL refuses a server without
// S256, so the grants without a browser need not care.
func DiscoverServer(ctx context.Context, c *Client, issuer string) (*ServerMetadata, error) {
	u, err := httpURL(issuer)
	if err == nil && (u.RawQuery != "" || u.Fragment != "" || u.ForceQuery) {
		err = errIssuerQuery
	}
	if err != nil {
		return nil, c.Secrets.errorf(StepDiscovery, "", "", "the authorization server %s is refused: %v", redactURL(issuer), err)
	}
	locs := serverLocations(u)
	meta, err := readServer(ctx, c, locs)
	if err != nil {
		return nil, err
	}
	if meta == nil {
		return nil, c.Secrets.errorf(StepDiscovery, "", "", "the authorization server %s publishes no metadata (tried %s)",
			redactURL(issuer), redactURLs(locs))
	}
	if !issuersMatch(meta.Issuer, issuer) {
		return nil, c.Secrets.errorf(StepDiscovery, "", "", "the authorization server metadata names the issuer %s, not %s",
			redactURL(meta.Issuer), redactURL(issuer))
	}
	if err := checkServer(c, meta); err != nil {
		return nil, err
	}
	return meta, nil
}

// redactURLs is urls, redacted, comma-separated.
func redactURLs(urls []string) string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = redactURL(u)
	}
	return strings.Join(out, ", ")
}

// errIssuerQuery refuses an issuer with a query or fragment (RFC 8414 §2).
var errIssuerQuery = errors.New("an issuer has no query or fragment")

// serverLocations are the URLs DiscoverServer tries, in order.
func serverLocations(u *url.URL) []string {
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{wellKnown(u, "oauth-authorization-server", ""), wellKnown(u, "openid-configuration", "")}
	}
	return []string{
		wellKnown(u, "oauth-authorization-server", p),
		wellKnown(u, "openid-configuration", p),
		origin(u) + p + "/.well-known/openid-configuration",
	}
}

// readServer reads the first metadata document of locs: nil, nil when
// there is none and every request was answered.
func readServer(ctx context.Context, c *Client, locs []string) (*ServerMetadata, error) {
	l := &lookup{c: c, step: StepDiscovery}
	for _, loc := range locs {
		var meta ServerMetadata
		found, err := l.get(ctx, loc, &meta)
		if err != nil {
			return nil, err
		}
		if found {
			return &meta, nil
		}
	}
	return nil, l.soft
}

// issuersMatch compares issuer identifiers exactly, but for one trailing
// "/" on either side.
func issuersMatch(got, want string) bool {
	return got != "" && (got == want || trimSlash(got) == trimSlash(want))
}

// checkServer refuses metadata without a token endpoint, with an endpoint
// that is not an http(s) URL, or with an authorization or token endpoint
// the policy refuses.
func checkServer(c *Client, meta *ServerMetadata) error {
	if meta.TokenEndpoint == "" {
		return c.Secrets.errorf(StepDiscovery, "", "", "the authorization server %s names no token endpoint", redactURL(meta.Issuer))
	}
	for _, ep := range []string{meta.AuthorizationEndpoint, meta.TokenEndpoint, meta.RegistrationEndpoint} {
		if ep == "" {
			continue
		}
		if u, err := httpURL(ep); err != nil || u.Fragment != "" {
			return c.Secrets.errorf(StepDiscovery, "", "", "the authorization server %s names the endpoint %s, which is not an http(s) URL",
				redactURL(meta.Issuer), redactURL(ep))
		}
	}
	if c.Check == nil {
		return nil
	}
	for _, ep := range []string{meta.AuthorizationEndpoint, meta.TokenEndpoint} {
		if ep == "" {
			continue
		}
		if err := c.Check(ep); err != nil {
			return err
		}
	}
	return nil
}

// LegacyServer is the 2025-03-26 way, for a server that publishes no
// resource metadata: the authorization server's base URL is the MCP
// server's origin (its path dropped), whose metadata is read from
// /.well-known/oauth-authorization-server there (through c.Check, as
// DiscoverServer reads). A document found must name an issuer of that
// origin and pass DiscoverServer's endpoint checks. Without one, the
// defaults /authorize, /token and /register at the origin are used
// (Fallback set; CodeChallengeMethodsSupported is S256, which 2025-03-26
// requires of every server). A request that could not be sent fails
// rather than falling back.
func LegacyServer(ctx context.Context, c *Client, serverURL string) (*ServerMetadata, error) {
	u, err := httpURL(serverURL)
	if err != nil {
		return nil, c.Secrets.errorf(StepDiscovery, "", "", "the MCP server URL %s is refused: %v", redactURL(serverURL), err)
	}
	base := origin(u)
	meta, err := readServer(ctx, c, []string{wellKnown(u, "oauth-authorization-server", "")})
	if err != nil {
		return nil, err
	}
	if meta == nil {
		meta = &ServerMetadata{
			Issuer:                        base,
			AuthorizationEndpoint:         base + "/authorize",
			TokenEndpoint:                 base + "/token",
			RegistrationEndpoint:          base + "/register",
			ResponseTypesSupported:        []string{"code"},
			CodeChallengeMethodsSupported: []string{"S256"},
			Fallback:                      true,
		}
	} else if iu, err := httpURL(meta.Issuer); err != nil || origin(iu) != base {
		return nil, c.Secrets.errorf(StepDiscovery, "", "", "the authorization server metadata at %s names the issuer %s, not of that origin",
			redactURL(base), redactURL(meta.Issuer))
	}
	if err := checkServer(c, meta); err != nil {
		return nil, err
	}
	return meta, nil
}
