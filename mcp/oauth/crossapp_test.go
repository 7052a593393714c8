package oauth

import (
	"context"
	"strings"
	"testing"
)

// crossAppServers are an identity provider and an authorization server as
// the auth/cross-app-access-complete-flow scenario runs them: the IdP
// exchanges the ID token for an ID-JAG when every parameter is there, the
// AS takes the ID-JAG as a JWT bearer grant from a client that
// authenticates with client_secret_basic.
func crossAppServers(t *testing.T) (idp, as *tokServer, x *CrossApp) {
	const jag = "eyJ.id-jag-assertion.sig"
	idp = newTokServer(t, func(r tokSeen) (int, any) {
		f := r.Form
		if f.Get("grant_type") != GrantTokenExchange || f.Get("subject_token_type") != TokenTypeIDToken ||
			f.Get("requested_token_type") != TokenTypeIDJAG || f.Get("audience") == "" || f.Get("resource") == "" {
			return 400, map[string]string{"error": "invalid_request", "error_description": "missing parameters"}
		}
		if f.Get("subject_token") != "idp-id-token-value" {
			return 400, map[string]string{"error": "invalid_grant", "error_description": "Invalid ID token " + f.Get("subject_token")}
		}
		return 200, map[string]string{"access_token": jag, "issued_token_type": TokenTypeIDJAG, "token_type": "N_A"}
	})
	as = newTokServer(t, func(r tokSeen) (int, any) {
		if r.Header.Get("Authorization") != basicCredentials("conformance-test-xaa-client", "conformance-test-xaa-secret") {
			return 401, map[string]string{"error": "invalid_client", "error_description": "Client authentication required"}
		}
		if r.Form.Get("grant_type") != GrantJWTBearer || r.Form.Get("assertion") != jag {
			return 400, map[string]string{"error": "invalid_grant", "error_description": "Invalid authorization grant"}
		}
		return 200, tokOK("xaa-access-token")
	})
	x = &CrossApp{
		IDPTokenEndpoint: idp.URL + "/token", IDToken: "idp-id-token-value", IDPClientID: "conformance-test-idp-client",
		ClientID: "conformance-test-xaa-client", ClientSecret: "conformance-test-xaa-secret",
	}
	return idp, as, x
}

// The complete flow: the exact token exchange at the IdP, then the JWT
// bearer grant at the AS; both URLs pass the policy.
func TestCrossAppTokenCompleteFlow(t *testing.T) {
	idp, as, x := crossAppServers(t)
	c, checked := tokClient()
	meta := tokMeta(as.URL, AuthSecretBasic)
	tok, err := CrossAppToken(context.Background(), c, meta, x, "", "http://127.0.0.1:4000/mcp")
	if err != nil || tok.AccessToken != "xaa-access-token" {
		t.Fatalf("%+v %v", tok, err)
	}
	ex := idp.only(t)
	wantForm(t, ex.Form, map[string]string{
		"grant_type": GrantTokenExchange, "requested_token_type": TokenTypeIDJAG, "audience": as.URL,
		"resource": "http://127.0.0.1:4000/mcp", "subject_token": "idp-id-token-value",
		"subject_token_type": TokenTypeIDToken, "client_id": "conformance-test-idp-client",
	})
	if ex.Header.Get("Authorization") != "" {
		t.Error("the IdP client without a secret sent an Authorization header")
	}
	wantForm(t, as.only(t).Form, map[string]string{"grant_type": GrantJWTBearer, "assertion": "eyJ.id-jag-assertion.sig"})
	if len(*checked) != 2 || (*checked)[0] != x.IDPTokenEndpoint || (*checked)[1] != meta.TokenEndpoint {
		t.Fatalf("checked %q", *checked)
	}
}

// With a secret at the IdP, the exchange authenticates with HTTP Basic;
// a scope goes to both requests.
func TestCrossAppTokenIDPSecretAndScope(t *testing.T) {
	idp, as, x := crossAppServers(t)
	x.IDPClientSecret = "idp-secret-value"
	c, _ := tokClient()
	if _, err := CrossAppToken(context.Background(), c, tokMeta(as.URL, AuthSecretBasic), x, "mcp:tools", "http://127.0.0.1:4000/mcp"); err != nil {
		t.Fatal(err)
	}
	ex := idp.only(t)
	if ex.Header.Get("Authorization") != basicCredentials("conformance-test-idp-client", "idp-secret-value") || ex.Form.Has("client_id") {
		t.Fatalf("IdP auth %q %v", ex.Header.Get("Authorization"), ex.Form)
	}
	if ex.Form.Get("scope") != "mcp:tools" || as.only(t).Form.Get("scope") != "mcp:tools" {
		t.Fatal("scope not sent")
	}
}

// Refusals at either server are *Errors with the server's OAuth error and
// no secret; a refused IdP URL is never requested, nor the AS after it.
func TestCrossAppTokenRefusals(t *testing.T) {
	idp, as, x := crossAppServers(t)
	meta := tokMeta(as.URL, AuthSecretBasic)
	c, _ := tokClient()
	x.IDToken = "wrong-id-token-value"
	_, err := CrossAppToken(context.Background(), c, meta, x, "", "http://127.0.0.1:4000/mcp")
	if e := tokError(t, err, StepToken); e.OAuthError != "invalid_grant" || !strings.Contains(e.Message, "identity provider") {
		t.Fatalf("%+v", e)
	}
	noSecret(t, err, "wrong-id-token-value")
	x.IDToken, x.ClientSecret = "idp-id-token-value", "bad-client-secret"
	_, err = CrossAppToken(context.Background(), c, meta, x, "", "http://127.0.0.1:4000/mcp")
	if e := tokError(t, err, StepToken); e.OAuthError != "invalid_client" {
		t.Fatalf("%+v", e)
	}
	noSecret(t, err, "bad-client-secret", "id-jag-assertion")
	_, err = CrossAppToken(context.Background(), c, meta, x, "", "")
	if e := tokError(t, err, StepToken); e.OAuthError != "invalid_request" {
		t.Fatalf("no resource: %+v", e)
	}
	nIDP, nAS := len(idp.requests()), len(as.requests())
	refusing, _ := tokClient(idp.URL)
	if _, err := CrossAppToken(context.Background(), refusing, meta, x, "", "r"); err != errTokRefused {
		t.Fatalf("error %v, want the policy's", err)
	}
	if len(idp.requests()) != nIDP || len(as.requests()) != nAS {
		t.Fatal("a request was sent past a refused URL")
	}
}

// An IdP answer that is not an ID-JAG is not passed on.
func TestCrossAppTokenWantsIDJAG(t *testing.T) {
	idp := newTokServer(t, func(tokSeen) (int, any) {
		return 200, map[string]string{"access_token": "some-access-token", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token", "token_type": "Bearer"}
	})
	_, as, x := crossAppServers(t)
	x.IDPTokenEndpoint = idp.URL + "/token"
	c, _ := tokClient()
	_, err := CrossAppToken(context.Background(), c, tokMeta(as.URL, AuthSecretBasic), x, "", "r")
	if e := tokError(t, err, StepToken); !strings.Contains(e.Message, "ID-JAG") {
		t.Fatalf("%+v", e)
	}
	noSecret(t, err, "some-access-token")
	if len(as.requests()) != 0 {
		t.Fatal("the AS was asked")
	}
	for name, xx := range map[string]*CrossApp{"nil": nil, "no ID token": {IDPTokenEndpoint: "https://idp/token", ClientID: "c"}} {
		if _, err := CrossAppToken(context.Background(), c, tokMeta(as.URL), xx, "", "r"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := CrossAppToken(context.Background(), c, &ServerMetadata{TokenEndpoint: as.URL}, x, "", "r"); err == nil {
		t.Error("no issuer: accepted")
	}
}
