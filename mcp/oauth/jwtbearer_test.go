package oauth

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Workload JWTs as the auth/wif-jwt-bearer scenario hands them out (their
// shape only: the test server judges them by value).
const (
	wifValid   = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnLXZhbGlk"
	wifWrongAu = "eyJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJ3cm9uZyJ9.c2lnLXdyb25n"
	wifExpired = "eyJhbGciOiJFUzI1NiJ9.eyJleHAiOjF9.c2lnLWV4cGlyZWQ"
)

// wifServer is an authorization server as the auth/wif-jwt-bearer scenario
// runs it: the JWT bearer grant only, no client authentication; the valid
// assertion gets a token unless the scope asks for a refusal, the others
// invalid_grant.
func wifServer(t *testing.T) *tokServer {
	return newTokServer(t, func(r tokSeen) (int, any) {
		f := r.Form
		if f.Get("grant_type") != GrantJWTBearer {
			return 400, map[string]string{"error": "unsupported_grant_type", "error_description": "Only JWT-bearer grant is supported"}
		}
		switch f.Get("assertion") {
		case wifValid:
		case wifWrongAu:
			return 400, map[string]string{"error": "invalid_grant", "error_description": "JWT assertion audience is invalid"}
		case wifExpired:
			return 400, map[string]string{"error": "invalid_grant", "error_description": "JWT assertion is expired " + wifExpired}
		default:
			return 400, map[string]string{"error": "invalid_grant", "error_description": "JWT assertion verification failed"}
		}
		switch f.Get("scope") {
		case "wif.trigger-unauthorized":
			return 400, map[string]string{"error": "unauthorized_client", "error_description": "Client not authorized for JWT-bearer grant"}
		case "wif.rejected":
			return 400, map[string]string{"error": "invalid_scope", "error_description": "Requested scope is not permitted for this grant"}
		}
		return 200, tokOK("wif-access-token")
	})
}

// The grant: grant_type jwt-bearer, the assertion, client_id, scope and
// resource; nothing else (no client secret, no Authorization header), to
// the token endpoint the policy allowed.
func TestWorkloadIdentityTokenGrant(t *testing.T) {
	srv := wifServer(t)
	c, checked := tokClient()
	meta := tokMeta(srv.URL, AuthNone)
	w := &WorkloadIdentity{ClientID: "conformance-wif-workload", Assertion: wifValid}
	tok, err := WorkloadIdentityToken(context.Background(), c, meta, w, "mcp:tools", "http://127.0.0.1:4000/mcp")
	if err != nil || tok.AccessToken != "wif-access-token" {
		t.Fatalf("%+v %v", tok, err)
	}
	r := srv.only(t)
	wantForm(t, r.Form, map[string]string{
		"grant_type": GrantJWTBearer, "assertion": wifValid, "client_id": "conformance-wif-workload",
		"scope": "mcp:tools", "resource": "http://127.0.0.1:4000/mcp",
	})
	if r.Header.Get("Authorization") != "" {
		t.Error("the grant sent an Authorization header")
	}
	if len(*checked) != 1 || (*checked)[0] != meta.TokenEndpoint {
		t.Fatalf("checked %q, want the token endpoint once", *checked)
	}
	// Without a client id nothing names the client; empty scope and resource are left out.
	w.ClientID = ""
	srv2 := wifServer(t)
	if _, err := WorkloadIdentityToken(context.Background(), c, tokMeta(srv2.URL), w, "", ""); err != nil {
		t.Fatal(err)
	}
	wantForm(t, srv2.only(t).Form, map[string]string{"grant_type": GrantJWTBearer, "assertion": wifValid})
}

// Each refusal is one request and an *Error of StepToken carrying the
// server's error as it sent it; the assertion is quoted nowhere, even when
// the server's description holds it.
func TestWorkloadIdentityTokenRefusalsAreSurfacedOnce(t *testing.T) {
	cases := []struct {
		name, assertion, scope, oauthErr string
	}{
		{"wrong audience", wifWrongAu, "", "invalid_grant"},
		{"expired", wifExpired, "", "invalid_grant"},
		{"scope refused", wifValid, "wif.rejected", "invalid_scope"},
		{"client not allowed", wifValid, "wif.trigger-unauthorized", "unauthorized_client"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := wifServer(t)
			c, _ := tokClient()
			w := &WorkloadIdentity{ClientID: "conformance-wif-workload", Assertion: tc.assertion}
			_, err := WorkloadIdentityToken(context.Background(), c, tokMeta(srv.URL, AuthNone), w, tc.scope, "r")
			e := tokError(t, err, StepToken)
			if e.OAuthError != tc.oauthErr {
				t.Fatalf("OAuthError %q, want %q (%+v)", e.OAuthError, tc.oauthErr, e)
			}
			if got := srv.only(t).Form.Get("grant_type"); got != GrantJWTBearer {
				t.Fatalf("grant_type %q, want the JWT bearer grant", got)
			}
			noSecret(t, err, tc.assertion, "c2lnLX")
		})
	}
}

// FetchAssertion is asked before each token request, so each grant sends
// the JWT the platform holds now; its failure sends nothing and quotes
// nothing of its text.
func TestWorkloadIdentityTokenFetchesEachTime(t *testing.T) {
	srv := wifServer(t)
	c, _ := tokClient()
	meta := tokMeta(srv.URL, AuthNone)
	answers := []string{wifExpired, wifValid}
	calls := 0
	w := &WorkloadIdentity{Assertion: "ignored.when.fetched", FetchAssertion: func(context.Context) (string, error) {
		calls++
		return answers[calls-1], nil
	}}
	if _, err := WorkloadIdentityToken(context.Background(), c, meta, w, "", ""); tokError(t, err, StepToken).OAuthError != "invalid_grant" {
		t.Fatalf("first grant: %v", err)
	}
	if tok, err := WorkloadIdentityToken(context.Background(), c, meta, w, "", ""); err != nil || tok.AccessToken != "wif-access-token" {
		t.Fatalf("second grant: %+v %v", tok, err)
	}
	got := srv.requests()
	if calls != 2 || len(got) != 2 || got[0].Form.Get("assertion") != wifExpired || got[1].Form.Get("assertion") != wifValid {
		t.Fatalf("%d calls, requests %v", calls, got)
	}
	w.FetchAssertion = func(context.Context) (string, error) {
		return "", errors.New("platform said: token " + wifValid + " revoked")
	}
	_, err := WorkloadIdentityToken(context.Background(), c, meta, w, "", "")
	if e := tokError(t, err, StepToken); e.OAuthError != "" {
		t.Fatalf("%+v", e)
	}
	noSecret(t, err, wifValid, "revoked")
	own := &Error{Step: StepToken, Message: "assertion() answered a number, not a string"}
	w.FetchAssertion = func(context.Context) (string, error) { return "", own }
	if _, err := WorkloadIdentityToken(context.Background(), c, meta, w, "", ""); err != own {
		t.Fatalf("error %v, want the function's own *Error as it is", err)
	}
	if len(srv.requests()) != 2 {
		t.Fatal("a request was sent after the assertion function failed")
	}
}

// What is not a usable assertion is refused before anything is sent, and
// never quoted.
func TestWorkloadIdentityTokenRefusesBadAssertions(t *testing.T) {
	srv := wifServer(t)
	c, _ := tokClient()
	meta := tokMeta(srv.URL)
	cases := map[string]*WorkloadIdentity{
		"nil":             nil,
		"none":            {ClientID: "c"},
		"not a JWT":       {Assertion: "secret-opaque-token-value"},
		"white space":     {Assertion: "eyJh.eyJz .c2ln"},
		"four parts":      {Assertion: "eyJh.eyJz.c2ln.ZXh0"},
		"empty payload":   {Assertion: "eyJh..c2ln"},
		"too large":       {Assertion: "eyJh." + strings.Repeat("A", maxAssertionBytes) + ".c2ln"},
		"empty from func": {FetchAssertion: func(context.Context) (string, error) { return "", nil }},
	}
	for name, w := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := WorkloadIdentityToken(context.Background(), c, meta, w, "", "")
			tokError(t, err, StepToken)
			if w != nil && w.Assertion != "" {
				noSecret(t, err, w.Assertion, "secret-opaque")
			}
		})
	}
	if n := len(srv.requests()); n != 0 {
		t.Fatalf("%d requests sent for refused assertions", n)
	}
	// A JWE (five parts, its encrypted key empty under "dir") and an unsecured JWS are JWTs.
	for _, a := range []string{"eyJh..aXY.Y3Q.dGFn", "eyJh.eyJz."} {
		if !compactJWT(a) {
			t.Errorf("compactJWT(%q) = false", a)
		}
	}
}

// The flow selects the grant with Settings.WorkloadIdentity: no
// registration, no user, the challenge's scope and the resource sent, the
// tokens stored; a refusal ends the flow with the server's error and no
// other grant is tried.
func TestAuthorizeWorkloadIdentity(t *testing.T) {
	fakeFlow(t)
	saved := runWorkloadIdentityToken
	t.Cleanup(func() { runWorkloadIdentityToken = saved })
	var seen []string
	runWorkloadIdentityToken = func(_ context.Context, _ *Client, _ *ServerMetadata, w *WorkloadIdentity, scope, res string) (*Tokens, error) {
		seen = append(seen, w.ClientID+" "+scope+" "+res)
		if w.Assertion == wifExpired {
			return nil, &Error{Step: StepToken, OAuthError: "invalid_grant"}
		}
		return &Tokens{AccessToken: "at-wif"}, nil
	}
	p := &memProvider{}
	s := &Settings{WorkloadIdentity: &WorkloadIdentity{ClientID: "wl", Assertion: wifValid}}
	tok, err := Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{Scope: "mcp:read"}, s, p)
	if err != nil || tok.AccessToken != "at-wif" || p.tokens != tok || p.authorized != 0 || len(p.clients) != 0 {
		t.Fatalf("%+v %v (authorized %d, clients %v)", tok, err, p.authorized, p.clients)
	}
	s.WorkloadIdentity.Assertion = wifExpired
	_, err = Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{Scope: "mcp:read"}, s, p)
	if e := tokError(t, err, StepToken); e.OAuthError != "invalid_grant" {
		t.Fatalf("%+v", e)
	}
	want := "wl mcp:read https://mcp.example/mcp,wl mcp:read https://mcp.example/mcp"
	if got := strings.Join(seen, ","); got != want || p.authorized != 0 {
		t.Fatalf("grants %s, want %s (authorized %d)", got, want, p.authorized)
	}
}
