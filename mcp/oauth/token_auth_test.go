package oauth

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// The choice of the token endpoint's client authentication.
func TestTokenAuthMethod(t *testing.T) {
	secret := &ClientInfo{ClientID: "c", ClientSecret: "s"}
	public := &ClientInfo{ClientID: "c"}
	with := func(ci *ClientInfo, m string) *ClientInfo { c := *ci; c.TokenEndpointAuthMethod = m; return &c }
	md := func(methods ...string) *ServerMetadata {
		return &ServerMetadata{TokenEndpointAuthMethodsSupported: methods}
	}
	cases := []struct {
		name   string
		meta   *ServerMetadata
		client *ClientInfo
		want   string
	}{
		{"registration's method, listed", md(AuthSecretBasic, AuthSecretPost), with(secret, AuthSecretPost), AuthSecretPost},
		{"registration's method, no list", md(), with(secret, AuthSecretPost), AuthSecretPost},
		{"registration's method not listed", md(AuthSecretBasic), with(secret, AuthSecretPost), AuthSecretBasic},
		{"registration says basic, no secret", md(AuthSecretBasic, AuthNone), with(public, AuthSecretBasic), AuthNone},
		{"unknown registration method", md(AuthSecretPost), with(secret, "private_key_jwt"), AuthSecretPost},
		{"no list, secret: RFC 8414 default", md(), secret, AuthSecretBasic},
		{"no list, no secret", nil, public, AuthNone},
		{"basic preferred", md(AuthSecretPost, AuthSecretBasic), secret, AuthSecretBasic},
		{"post only", md(AuthSecretPost), secret, AuthSecretPost},
		{"only none, secret unused", md(AuthNone), secret, AuthNone},
		{"public client at a secret-only server", md(AuthSecretBasic), public, AuthNone},
		{"nothing usable, secret", md("private_key_jwt"), secret, AuthSecretPost},
		{"nothing usable, public", md("tls_client_auth"), public, AuthNone},
	}
	for _, tc := range cases {
		if got := TokenAuthMethod(tc.meta, tc.client); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// client_secret_basic form-urlencodes the id and the secret before joining
// them (RFC 6749 §2.3.1), so a ":" in either survives.
func TestBasicCredentialsFormEncoded(t *testing.T) {
	id, secret := "app:1 é", "p+q/=%:x"
	v := basicCredentials(id, secret)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(v, "Basic "))
	if err != nil || !strings.HasPrefix(v, "Basic ") {
		t.Fatalf("%q: %v", v, err)
	}
	pair := strings.SplitN(string(raw), ":", 2)
	if len(pair) != 2 {
		t.Fatalf("no separator in %q", raw)
	}
	gotID, _ := url.QueryUnescape(pair[0])
	gotSecret, _ := url.QueryUnescape(pair[1])
	if gotID != id || gotSecret != secret {
		t.Fatalf("decoded %q:%q", gotID, gotSecret)
	}
	if got := basicCredentials("conformance-test-client", "conformance-test-secret"); got != "Basic "+base64.StdEncoding.EncodeToString([]byte("conformance-test-client:conformance-test-secret")) {
		t.Fatalf("plain credentials encoded as %q", got)
	}
}
