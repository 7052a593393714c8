package oauth

import (
	"context"
	"testing"
)

// The auth/client-credentials-basic scenario: grant_type
// client_credentials, the id and secret in HTTP Basic.
func TestClientCredentialsBasicScenario(t *testing.T) {
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		if r.Header.Get("Authorization") != basicCredentials("conformance-test-client", "conformance-test-secret") {
			return 401, map[string]string{"error": "invalid_client", "error_description": "Invalid client credentials"}
		}
		return 200, tokOK("cc-token-1")
	})
	c, checked := tokClient()
	meta := tokMeta(srv.URL, AuthSecretBasic)
	cc := &ClientCredentials{ClientID: "conformance-test-client", ClientSecret: "conformance-test-secret"}
	tok, err := ClientCredentialsToken(context.Background(), c, meta, cc, "mcp:tools", "http://127.0.0.1:4000/mcp")
	if err != nil || tok.AccessToken != "cc-token-1" {
		t.Fatalf("%+v %v", tok, err)
	}
	wantForm(t, srv.only(t).Form, map[string]string{"grant_type": "client_credentials", "scope": "mcp:tools", "resource": "http://127.0.0.1:4000/mcp"})
	if len(*checked) != 1 || (*checked)[0] != meta.TokenEndpoint {
		t.Fatalf("checked %q", *checked)
	}
	cc.ClientSecret = "wrong-secret-value"
	_, err = ClientCredentialsToken(context.Background(), c, meta, cc, "", "")
	if e := tokError(t, err, StepToken); e.OAuthError != "invalid_client" || e.ErrorDescription != "Invalid client credentials" {
		t.Fatalf("%+v", e)
	}
	noSecret(t, err, "wrong-secret-value")
}
