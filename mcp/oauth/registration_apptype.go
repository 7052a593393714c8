package oauth

import (
	"net/netip"
	"net/url"
	"strings"
)

// The application types of OpenID Connect Dynamic Client Registration,
// which MCP 2026-07-28 asks every dynamic registration to name
// (docs/oauth-discovery.md, "Registration").
const (
	AppTypeNative = "native"
	AppTypeWeb    = "web"
)

// ApplicationType is the application_type dynamic registration sends for a
// client whose redirect URIs are redirectURIs: AppTypeNative when there is
// at least one and every one is a loopback URL (http or https on
// localhost, a *.localhost name, 127.0.0.0/8 or [::1]) or uses a
// private-use scheme (anything but http and https, RFC 8252 §7.1);
// AppTypeWeb otherwise, including for a redirect URI that does not parse
// and for no redirect URI at all (OpenID Connect's default). A mixed list
// is web: the authorization server then refuses the loopback URIs rather
// than the remote ones, and the application that wants otherwise names its
// application_type in its client metadata, which is sent as written.
func ApplicationType(redirectURIs []string) string {
	if len(redirectURIs) == 0 {
		return AppTypeWeb
	}
	for _, raw := range redirectURIs {
		if !nativeRedirect(raw) {
			return AppTypeWeb
		}
	}
	return AppTypeNative
}

// nativeRedirect reports whether raw is a redirect URI only a native
// application can receive: a loopback http(s) URL or a private-use scheme.
func nativeRedirect(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return loopbackHost(u.Hostname())
	}
	return true
}

// loopbackHost reports whether host (no port, no brackets) names this
// machine: localhost, a name under .localhost (RFC 6761 §6.3), or a
// loopback address.
func loopbackHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	addr, err := netip.ParseAddr(h)
	return err == nil && addr.Unmap().IsLoopback()
}
