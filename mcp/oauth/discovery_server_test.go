package oauth

import (
	"context"
	"errors"
	"strings"
	"testing"
)

const (
	asPath   = "/.well-known/oauth-authorization-server"
	oidcPath = "/.well-known/openid-configuration"
)

// asDoc is authorization server metadata as the conformance helper
// createAuthServer writes it, issuer {base}+prefix.
func asDoc(prefix string) string {
	return `{"issuer":"{base}` + prefix + `","authorization_endpoint":"{base}` + prefix + `/authorize",` +
		`"token_endpoint":"{base}` + prefix + `/token","registration_endpoint":"{base}` + prefix + `/register",` +
		`"response_types_supported":["code"],"code_challenge_methods_supported":["S256"],` +
		`"token_endpoint_auth_methods_supported":["none"],"scopes_supported":["mcp:basic","offline_access"]}`
}

// TestDiscoverServerOrder: the spec's order of metadata locations, for
// issuers with and without a path (auth/metadata-default, metadata-var1:
// the root; metadata-var2: RFC 8414 path insertion; metadata-var3: OpenID
// path appending, the root never asked for).
func TestDiscoverServerOrder(t *testing.T) {
	tests := []struct {
		name     string
		prefix   string // the issuer's path
		at       string // where the document is
		wantReqs []string
	}{
		{"root issuer, RFC 8414", "", asPath, []string{asPath}},
		{"root issuer, OpenID", "", oidcPath, []string{asPath, oidcPath}},
		{"path issuer, RFC 8414 inserted", "/tenant1", asPath + "/tenant1", []string{asPath + "/tenant1"}},
		{"path issuer, OpenID inserted", "/tenant1", oidcPath + "/tenant1", []string{asPath + "/tenant1", oidcPath + "/tenant1"}},
		{"path issuer, OpenID appended", "/tenant1", "/tenant1" + oidcPath,
			[]string{asPath + "/tenant1", oidcPath + "/tenant1", "/tenant1" + oidcPath}},
		{"deep path issuer", "/a/b", "/a/b" + oidcPath, []string{asPath + "/a/b", oidcPath + "/a/b", "/a/b" + oidcPath}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			srv := h.server(map[string]route{tt.at: templRoute(asDoc(tt.prefix))})
			meta, err := DiscoverServer(context.Background(), h.client(), srv.URL+tt.prefix)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range tt.wantReqs {
				want = append(want, srv.URL+p)
			}
			h.wantReqs(want...)
			if meta.Issuer != srv.URL+tt.prefix || meta.TokenEndpoint != srv.URL+tt.prefix+"/token" || meta.Fallback {
				t.Errorf("got %+v", meta)
			}
			for _, ep := range []string{meta.AuthorizationEndpoint, meta.TokenEndpoint} {
				if !contains(h.checked, ep) {
					t.Errorf("endpoint %s did not pass Check", ep)
				}
			}
		})
	}
}

// TestDiscoverServerRefusals: what DiscoverServer refuses, each an *Error
// of StepDiscovery (or the policy's error, unchanged).
func TestDiscoverServerRefusals(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string // in the message
	}{
		{"another issuer", strings.Replace(asDoc(""), `"issuer":"{base}"`, `"issuer":"https://evil.example"`, 1), "names the issuer https://evil.example"},
		{"no issuer", strings.Replace(asDoc(""), `"issuer":"{base}",`, ``, 1), "names the issuer"},
		{"an issuer with a longer path", strings.Replace(asDoc(""), `"issuer":"{base}"`, `"issuer":"{base}/x"`, 1), "names the issuer"},
		{"no token endpoint", strings.Replace(asDoc(""), `"token_endpoint":"{base}/token",`, ``, 1), "no token endpoint"},
		{"a javascript: authorization endpoint", strings.Replace(asDoc(""), `"{base}/authorize"`, `"javascript:alert(1)"`, 1), "not an http(s) URL"},
		{"a relative token endpoint", strings.Replace(asDoc(""), `"{base}/token"`, `"/token"`, 1), "not an http(s) URL"},
		{"an endpoint with a fragment", strings.Replace(asDoc(""), `"{base}/register"`, `"{base}/register#x"`, 1), "not an http(s) URL"},
		{"not an object", `["x"]`, "not the JSON metadata object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			srv := h.server(map[string]route{asPath: templRoute(tt.doc)})
			meta, err := DiscoverServer(context.Background(), h.client(), srv.URL)
			if meta != nil {
				t.Fatalf("got %+v", meta)
			}
			if e := asError(t, err, StepDiscovery); !strings.Contains(e.Message, tt.want) {
				t.Errorf("message %q, want %q in it", e.Message, tt.want)
			}
		})
	}
}

// TestDiscoverServerTolerance: one trailing "/" of difference between the
// issuer asked for and the one published is accepted.
func TestDiscoverServerTolerance(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{asPath: templRoute(asDoc(""))})
	if _, err := DiscoverServer(context.Background(), h.client(), srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	h.wantReqs(srv.URL + asPath)
}

// TestDiscoverServerPolicy: a metadata URL or an endpoint the policy
// refuses stops discovery with the policy's error; nothing refused is sent.
func TestDiscoverServerPolicy(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{asPath: templRoute(asDoc(""))})
	h.deny = func(u string) bool { return strings.HasSuffix(u, "/authorize") }
	if _, err := DiscoverServer(context.Background(), h.client(), srv.URL); !errors.Is(err, errDenied) {
		t.Fatalf("err = %v, want the policy's error", err)
	}

	h2 := newHarness(t)
	srv2 := h2.server(map[string]route{oidcPath: templRoute(asDoc(""))})
	h2.deny = func(string) bool { return true }
	if _, err := DiscoverServer(context.Background(), h2.client(), srv2.URL); !errors.Is(err, errDenied) {
		t.Fatalf("err = %v, want the policy's error", err)
	}
	h2.wantReqs()
	if len(h2.checked) != 1 {
		t.Errorf("checked %q: discovery goes on after a refusal", h2.checked)
	}
}

// TestDiscoverServerMissing: no document anywhere, a bad issuer, a 500 and
// an unreachable server are *Errors of StepDiscovery.
func TestDiscoverServerMissing(t *testing.T) {
	h := newHarness(t)
	srv := h.server(nil)
	_, err := DiscoverServer(context.Background(), h.client(), srv.URL+"/t")
	if e := asError(t, err, StepDiscovery); !strings.Contains(e.Message, "publishes no metadata") || !strings.Contains(e.Message, "/t/.well-known/openid-configuration") {
		t.Errorf("message %q", e.Message)
	}
	h.wantReqs(srv.URL+asPath+"/t", srv.URL+oidcPath+"/t", srv.URL+"/t"+oidcPath)

	for _, issuer := range []string{"https://as.example/?x=1", "https://as.example/#f", "ftp://as.example", "as.example", ""} {
		h := newHarness(t)
		_, err := DiscoverServer(context.Background(), h.client(), issuer)
		asError(t, err, StepDiscovery)
		if len(h.checked) != 0 {
			t.Errorf("issuer %q: checked %q", issuer, h.checked)
		}
	}

	h3 := newHarness(t)
	srv3 := h3.server(map[string]route{asPath: jsonRoute(503, `{}`), oidcPath: templRoute(asDoc(""))})
	_, err = DiscoverServer(context.Background(), h3.client(), srv3.URL)
	if e := asError(t, err, StepDiscovery); !strings.Contains(e.Message, "HTTP 503") {
		t.Errorf("message %q", e.Message)
	}

	h4 := newHarness(t)
	_, err = DiscoverServer(context.Background(), h4.client(), closedURL(t))
	if e := asError(t, err, StepDiscovery); !strings.Contains(e.Message, "request failed") {
		t.Errorf("message %q", e.Message)
	}
}

// TestLegacyServer: the 2025-03-26 ways (auth/2025-03-26-oauth-metadata-
// backcompat: metadata at the MCP server's origin, its issuer under a
// path there; auth/2025-03-26-oauth-endpoint-fallback: none, the default
// endpoints).
func TestLegacyServer(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{asPath: templRoute(asDoc("/oauth"))})
	meta, err := LegacyServer(context.Background(), h.client(), srv.URL+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if meta.Fallback || meta.Issuer != srv.URL+"/oauth" || meta.TokenEndpoint != srv.URL+"/oauth/token" {
		t.Errorf("got %+v", meta)
	}
	h.wantReqs(srv.URL + asPath)

	h2 := newHarness(t)
	srv2 := h2.server(nil)
	meta, err = LegacyServer(context.Background(), h2.client(), srv2.URL+"/some/mcp")
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Fallback || meta.Issuer != srv2.URL || meta.AuthorizationEndpoint != srv2.URL+"/authorize" ||
		meta.TokenEndpoint != srv2.URL+"/token" || meta.RegistrationEndpoint != srv2.URL+"/register" ||
		!contains(meta.CodeChallengeMethodsSupported, "S256") {
		t.Errorf("got %+v", meta)
	}
	h2.wantReqs(srv2.URL + asPath)
}

// TestLegacyServerRefusals: an issuer of another origin, an unreachable
// server (no fallback then) and a refused URL.
func TestLegacyServerRefusals(t *testing.T) {
	h := newHarness(t)
	srv := h.server(map[string]route{asPath: jsonRoute(200, strings.ReplaceAll(asDoc(""), "{base}", "https://evil.example"))})
	_, err := LegacyServer(context.Background(), h.client(), srv.URL+"/mcp")
	if e := asError(t, err, StepDiscovery); !strings.Contains(e.Message, "not of that origin") {
		t.Errorf("message %q", e.Message)
	}

	h2 := newHarness(t)
	meta, err := LegacyServer(context.Background(), h2.client(), closedURL(t)+"/mcp")
	if meta != nil {
		t.Fatalf("fell back to %+v on a failed request", meta)
	}
	asError(t, err, StepDiscovery)

	h3 := newHarness(t)
	h3.deny = func(string) bool { return true }
	if _, err := LegacyServer(context.Background(), h3.client(), "https://mcp.example/mcp"); !errors.Is(err, errDenied) {
		t.Fatalf("err = %v", err)
	}

	h4 := newHarness(t)
	if _, err := LegacyServer(context.Background(), h4.client(), "mailto:x@example.com"); err == nil {
		t.Fatal("no error")
	}
}
