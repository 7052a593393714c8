package oauth

import (
	"net/url"
	"strings"
	"testing"
)

func authURL(t *testing.T, meta *ServerMetadata, scope string) url.Values {
	t.Helper()
	raw, err := AuthorizationURL(meta, &ClientInfo{ClientID: "client-1"}, "http://127.0.0.1:3000/callback", scope, "https://mcp.example/mcp", "st-1", "ch-1")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme+"://"+u.Host+u.Path != "https://as.example/oauth/authorize" {
		t.Fatalf("endpoint %s", raw)
	}
	return u.Query()
}

// The request carries what the conformance auth server checks: PKCE S256,
// state, resource (RFC 8707), redirect_uri, client_id, and scope only when
// there is one.
func TestAuthorizationURLParameters(t *testing.T) {
	meta := &ServerMetadata{AuthorizationEndpoint: "https://as.example/oauth/authorize", CodeChallengeMethodsSupported: []string{"S256"}, ResponseTypesSupported: []string{"code"}}
	q := authURL(t, meta, "mcp:read mcp:write")
	want := map[string]string{
		"response_type": "code", "client_id": "client-1", "redirect_uri": "http://127.0.0.1:3000/callback",
		"code_challenge": "ch-1", "code_challenge_method": "S256", "state": "st-1",
		"resource": "https://mcp.example/mcp", "scope": "mcp:read mcp:write",
	}
	wantForm(t, q, want)
	delete(want, "scope")
	wantForm(t, authURL(t, meta, ""), want)
}

// offline_access asks for consent (OpenID Connect §11).
func TestAuthorizationURLOfflineAccessPromptsConsent(t *testing.T) {
	meta := &ServerMetadata{AuthorizationEndpoint: "https://as.example/oauth/authorize", CodeChallengeMethodsSupported: []string{"S256"}}
	if q := authURL(t, meta, "mcp:basic offline_access"); q.Get("prompt") != "consent" {
		t.Fatalf("prompt = %q", q.Get("prompt"))
	}
}

// An authorization endpoint's own query parameters stay.
func TestAuthorizationURLKeepsEndpointQuery(t *testing.T) {
	meta := &ServerMetadata{AuthorizationEndpoint: "https://as.example/oauth/authorize?tenant=acme&x=1", CodeChallengeMethodsSupported: []string{"S256"}}
	q := authURL(t, meta, "")
	if q.Get("tenant") != "acme" || q.Get("x") != "1" || q.Get("state") != "st-1" {
		t.Fatalf("query %v", q)
	}
}

// Without S256 in code_challenge_methods_supported (absent: no PKCE, spec
// 2025-11-25) the flow does not proceed; the 2025-03-26 default endpoints
// (Fallback) carry no metadata to judge and are used.
func TestAuthorizationURLRequiresS256(t *testing.T) {
	for name, methods := range map[string][]string{"absent": nil, "plain only": {"plain"}} {
		meta := &ServerMetadata{AuthorizationEndpoint: "https://as.example/authorize", CodeChallengeMethodsSupported: methods}
		_, err := AuthorizationURL(meta, &ClientInfo{ClientID: "c"}, "http://127.0.0.1/cb", "", "", "s", "ch")
		if e := tokError(t, err, StepAuthorization); !strings.Contains(e.Message, "S256") {
			t.Errorf("%s: %v", name, err)
		}
	}
	meta := &ServerMetadata{AuthorizationEndpoint: "https://mcp.example/authorize", Fallback: true}
	if _, err := AuthorizationURL(meta, &ClientInfo{ClientID: "c"}, "http://127.0.0.1/cb", "", "", "s", "ch"); err != nil {
		t.Fatalf("fallback endpoints refused: %v", err)
	}
}

// What cannot be a safe authorization request is refused: an endpoint
// that is not http(s) (it is opened in a browser), one with a fragment, a
// server without the code response type, missing parameters.
func TestAuthorizationURLRefusals(t *testing.T) {
	s256 := []string{"S256"}
	client := &ClientInfo{ClientID: "c"}
	cases := map[string]func() (string, error){
		"javascript": func() (string, error) {
			return AuthorizationURL(&ServerMetadata{AuthorizationEndpoint: "javascript:alert(1)", CodeChallengeMethodsSupported: s256}, client, "http://127.0.0.1/cb", "", "", "s", "ch")
		},
		"relative": func() (string, error) {
			return AuthorizationURL(&ServerMetadata{AuthorizationEndpoint: "/authorize", CodeChallengeMethodsSupported: s256}, client, "http://127.0.0.1/cb", "", "", "s", "ch")
		},
		"fragment": func() (string, error) {
			return AuthorizationURL(&ServerMetadata{AuthorizationEndpoint: "https://as.example/authorize#x", CodeChallengeMethodsSupported: s256}, client, "http://127.0.0.1/cb", "", "", "s", "ch")
		},
		"no code response type": func() (string, error) {
			return AuthorizationURL(&ServerMetadata{AuthorizationEndpoint: "https://as.example/authorize", CodeChallengeMethodsSupported: s256, ResponseTypesSupported: []string{"token"}}, client, "http://127.0.0.1/cb", "", "", "s", "ch")
		},
		"no metadata": func() (string, error) { return AuthorizationURL(nil, client, "http://127.0.0.1/cb", "", "", "s", "ch") },
		"no client": func() (string, error) {
			return AuthorizationURL(&ServerMetadata{AuthorizationEndpoint: "https://as.example/authorize", CodeChallengeMethodsSupported: s256}, nil, "http://127.0.0.1/cb", "", "", "s", "ch")
		},
		"no state": func() (string, error) {
			return AuthorizationURL(&ServerMetadata{AuthorizationEndpoint: "https://as.example/authorize", CodeChallengeMethodsSupported: s256}, client, "http://127.0.0.1/cb", "", "", "", "ch")
		},
	}
	for name, f := range cases {
		if got, err := f(); err == nil || got != "" {
			t.Errorf("%s: got %q, %v; want a refusal", name, got, err)
		} else {
			tokError(t, err, StepAuthorization)
		}
	}
}
