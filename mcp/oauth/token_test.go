package oauth

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The auth/token-endpoint-auth-{basic,post,none} scenarios: the server
// lists one method, dynamic registration returns it (with a secret except
// for none), and the code exchange must use it, RFC 8707 resource included.
func TestExchangeCodeTokenEndpointAuthScenarios(t *testing.T) {
	for _, method := range []string{AuthSecretBasic, AuthSecretPost, AuthNone} {
		t.Run(method, func(t *testing.T) {
			srv := newTokServer(t, func(tokSeen) (int, any) { return 200, tokOK("tok-1") })
			c, _ := tokClient()
			client := &ClientInfo{ClientID: "test-client-1", TokenEndpointAuthMethod: method}
			if method != AuthNone {
				client.ClientSecret = "test-secret-1"
			}
			tok, err := ExchangeCode(context.Background(), c, tokMeta(srv.URL, method), client, "test-auth-code", "verifier-1", "http://127.0.0.1:3000/cb", "http://127.0.0.1:4000/mcp")
			if err != nil {
				t.Fatal(err)
			}
			if tok.AccessToken != "tok-1" || tok.TokenType != "Bearer" || tok.ExpiresIn != 3600 {
				t.Fatalf("tokens %+v", tok)
			}
			r := srv.only(t)
			want := map[string]string{
				"grant_type": "authorization_code", "code": "test-auth-code", "code_verifier": "verifier-1",
				"redirect_uri": "http://127.0.0.1:3000/cb", "resource": "http://127.0.0.1:4000/mcp",
			}
			wantAuth := ""
			switch method {
			case AuthSecretBasic:
				wantAuth = "Basic " + base64.StdEncoding.EncodeToString([]byte("test-client-1:test-secret-1"))
			case AuthSecretPost:
				want["client_id"], want["client_secret"] = "test-client-1", "test-secret-1"
			case AuthNone:
				want["client_id"] = "test-client-1"
			}
			wantForm(t, r.Form, want)
			if got := r.Header.Get("Authorization"); got != wantAuth {
				t.Errorf("Authorization = %q, want %q", got, wantAuth)
			}
			if r.Method != "POST" || r.Path != "/token" || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
				t.Errorf("request %s %s %q", r.Method, r.Path, r.Header.Get("Content-Type"))
			}
		})
	}
}

// The conformance default: the server lists only none and registration
// hands out a secret anyway; the client stays public and sends no secret.
// Pre-registration: the server lists client_secret_basic, Basic it is.
func TestExchangeCodeSecretOnlyWhereListed(t *testing.T) {
	srv := newTokServer(t, func(tokSeen) (int, any) { return 200, tokOK("tok") })
	c, _ := tokClient()
	client := &ClientInfo{ClientID: "test-client-id", ClientSecret: "test-client-secret"}
	if _, err := ExchangeCode(context.Background(), c, tokMeta(srv.URL, AuthNone), client, "code", "ver", "http://127.0.0.1/cb", "r"); err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	if r.Header.Get("Authorization") != "" || r.Form.Has("client_secret") || r.Form.Get("client_id") != "test-client-id" {
		t.Fatalf("public client sent %v %q", r.Form, r.Header.Get("Authorization"))
	}
	srv2 := newTokServer(t, func(tokSeen) (int, any) { return 200, tokOK("tok") })
	if _, err := ExchangeCode(context.Background(), c, tokMeta(srv2.URL, AuthSecretBasic), client, "code", "ver", "http://127.0.0.1/cb", "r"); err != nil {
		t.Fatal(err)
	}
	if r := srv2.only(t); !strings.HasPrefix(r.Header.Get("Authorization"), "Basic ") || r.Form.Has("client_id") {
		t.Fatalf("pre-registered client sent %v %q", r.Form, r.Header.Get("Authorization"))
	}
}

// A refusal is an *Error of the step with the server's OAuth error, and no
// code, verifier or secret in it even when the server echoes them.
func TestExchangeCodeRefusalIsRedacted(t *testing.T) {
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		echo := r.Header.Get("Authorization")
		for k, v := range r.Form {
			echo += " " + k + "=" + v[0]
		}
		return 400, map[string]string{"error": "invalid_grant", "error_description": "bad request:" + echo}
	})
	c, _ := tokClient()
	client := &ClientInfo{ClientID: "cid", ClientSecret: "s3cr3t-value-1", TokenEndpointAuthMethod: AuthSecretPost}
	_, err := ExchangeCode(context.Background(), c, tokMeta(srv.URL, AuthSecretPost), client, "c0de-value-1", "ver1f1er-value-1", "http://127.0.0.1/cb", "r")
	e := tokError(t, err, StepToken)
	if e.OAuthError != "invalid_grant" || !strings.HasPrefix(e.ErrorDescription, "bad request:") || !strings.Contains(e.Message, "invalid_grant") {
		t.Fatalf("error %+v", e)
	}
	noSecret(t, err, "c0de-value-1", "ver1f1er-value-1", "s3cr3t-value-1")

	client.TokenEndpointAuthMethod = AuthSecretBasic
	_, err = ExchangeCode(context.Background(), c, tokMeta(srv.URL, AuthSecretBasic), client, "c0de-value-2", "ver1f1er-value-2", "http://127.0.0.1/cb", "r")
	noSecret(t, err, "c0de-value-2", "ver1f1er-value-2", "s3cr3t-value-1", basicCredentials("cid", "s3cr3t-value-1")[6:])
}

// Statuses and bodies that are no tokens.
func TestTokenAnswerRefusals(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		body     any
		oauthErr string
	}{
		{"401 invalid_client", 401, map[string]string{"error": "invalid_client", "error_description": "who are you"}, "invalid_client"},
		{"500 text", 500, "oops", ""},
		{"400 not JSON", 400, "<html>", ""},
		{"200 with error", 200, map[string]string{"error": "slow_down"}, "slow_down"},
		{"200 not JSON", 200, "tok-secret-xyz", ""},
		{"no access_token", 200, map[string]any{"token_type": "Bearer"}, ""},
		{"not Bearer", 200, map[string]any{"access_token": "tok-secret-xyz", "token_type": "DPoP"}, ""},
		{"no token_type", 200, map[string]any{"access_token": "tok-secret-xyz"}, ""},
		{"bad expires_in", 200, map[string]any{"access_token": "tok-secret-xyz", "token_type": "Bearer", "expires_in": "soon"}, ""},
	}
	for _, tc := range cases {
		srv := newTokServer(t, func(tokSeen) (int, any) { return tc.status, tc.body })
		c, _ := tokClient()
		_, err := ExchangeCode(context.Background(), c, tokMeta(srv.URL), &ClientInfo{ClientID: "c"}, "code", "ver", "http://127.0.0.1/cb", "")
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if e := tokError(t, err, StepToken); e.OAuthError != tc.oauthErr {
			t.Errorf("%s: OAuthError %q, want %q (%v)", tc.name, e.OAuthError, tc.oauthErr, e)
		}
		noSecret(t, err, "tok-secret-xyz")
	}
}

// token_type is matched without regard to case; expires_in may come
// quoted; ObtainedAt is the time of the answer.
func TestTokenAnswerAccepted(t *testing.T) {
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return time.Unix(1700000000, 0) }
	srv := newTokServer(t, func(tokSeen) (int, any) {
		return 200, map[string]any{"access_token": "a", "token_type": "bearer", "expires_in": "120", "refresh_token": "r", "scope": "mcp"}
	})
	c, _ := tokClient()
	tok, err := ExchangeCode(context.Background(), c, tokMeta(srv.URL), &ClientInfo{ClientID: "c"}, "the-code", "the-verifier", "http://127.0.0.1/cb", "")
	if err != nil {
		t.Fatal(err)
	}
	want := Tokens{AccessToken: "a", TokenType: "Bearer", ExpiresIn: 120, RefreshToken: "r", Scope: "mcp", ObtainedAt: 1700000000}
	if *tok != want {
		t.Fatalf("tokens %+v, want %+v", *tok, want)
	}
	if got := c.Secrets.Scrub("the-code the-verifier"); strings.Contains(got, "the-") {
		t.Fatalf("the code and verifier are not secrets: %q", got)
	}
}

// Refresh sends the refresh grant with resource and scope; a new refresh
// token replaces the old, none keeps it; a refusal is of StepRefresh.
func TestRefresh(t *testing.T) {
	var rotate atomic.Bool
	rotate.Store(true)
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		if r.Form.Get("refresh_token") == "dead" {
			return 400, map[string]string{"error": "invalid_grant", "error_description": "refresh token dead revoked"}
		}
		ans := tokOK("new-access")
		if rotate.Load() {
			ans["refresh_token"] = "new-refresh"
		}
		return 200, ans
	})
	c, _ := tokClient()
	client := &ClientInfo{ClientID: "cid"}
	tok, err := Refresh(context.Background(), c, tokMeta(srv.URL, AuthNone), client, "old-refresh", "https://mcp.example/mcp", "mcp:read")
	if err != nil || tok.AccessToken != "new-access" || tok.RefreshToken != "new-refresh" {
		t.Fatalf("%+v %v", tok, err)
	}
	wantForm(t, srv.only(t).Form, map[string]string{"grant_type": "refresh_token", "refresh_token": "old-refresh", "resource": "https://mcp.example/mcp", "scope": "mcp:read", "client_id": "cid"})
	rotate.Store(false)
	if tok, err = Refresh(context.Background(), c, tokMeta(srv.URL), client, "old-refresh", "", ""); err != nil || tok.RefreshToken != "old-refresh" {
		t.Fatalf("%+v %v", tok, err)
	}
	_, err = Refresh(context.Background(), c, tokMeta(srv.URL), client, "dead", "", "")
	if e := tokError(t, err, StepRefresh); e.OAuthError != "invalid_grant" || strings.Contains(e.ErrorDescription, "dead") {
		t.Fatalf("error %+v", e)
	}
	n := len(srv.requests())
	if _, err := Refresh(context.Background(), c, tokMeta(srv.URL), client, "", "", ""); err == nil || len(srv.requests()) != n {
		t.Fatal("an empty refresh token was sent")
	}
}

// Every token request passes the policy first; a refused token endpoint
// is never requested and the policy's error comes back unchanged.
func TestTokenRequestsGoThroughCheck(t *testing.T) {
	srv := newTokServer(t, func(tokSeen) (int, any) { return 200, tokOK("t") })
	meta := tokMeta(srv.URL)
	c, checked := tokClient(srv.URL)
	_, err := ExchangeCode(context.Background(), c, meta, &ClientInfo{ClientID: "c"}, "code", "ver", "http://127.0.0.1/cb", "")
	if !errors.Is(err, errTokRefused) {
		t.Fatalf("error %v, want the policy's", err)
	}
	_, err = Refresh(context.Background(), c, meta, &ClientInfo{ClientID: "c"}, "rt", "", "")
	if !errors.Is(err, errTokRefused) {
		t.Fatalf("error %v, want the policy's", err)
	}
	if len(srv.requests()) != 0 {
		t.Fatal("a refused URL was requested")
	}
	if len(*checked) != 2 || (*checked)[0] != meta.TokenEndpoint {
		t.Fatalf("checked %q", *checked)
	}
	c2, checked2 := tokClient()
	if _, err := ExchangeCode(context.Background(), c2, meta, &ClientInfo{ClientID: "c"}, "code", "ver", "http://127.0.0.1/cb", ""); err != nil {
		t.Fatal(err)
	}
	if len(*checked2) != 1 || (*checked2)[0] != meta.TokenEndpoint {
		t.Fatalf("checked %q", *checked2)
	}
}

// What cannot be a token request is refused before anything is sent.
func TestTokenRequestPreconditions(t *testing.T) {
	c, checked := tokClient()
	meta := tokMeta("https://as.example")
	bg := context.Background()
	for name, err := range map[string]error{
		"no code": func() error {
			_, e := ExchangeCode(bg, c, meta, &ClientInfo{ClientID: "c"}, "", "v", "r", "")
			return e
		}(),
		"no verifier": func() error {
			_, e := ExchangeCode(bg, c, meta, &ClientInfo{ClientID: "c"}, "x", "", "r", "")
			return e
		}(),
		"no client": func() error { _, e := ExchangeCode(bg, c, meta, nil, "x", "v", "r", ""); return e }(),
		"no endpoint": func() error {
			_, e := ExchangeCode(bg, c, &ServerMetadata{}, &ClientInfo{ClientID: "c"}, "x", "v", "r", "")
			return e
		}(),
		"no transport": func() error {
			_, e := ExchangeCode(bg, &Client{}, meta, &ClientInfo{ClientID: "c"}, "x", "v", "r", "")
			return e
		}(),
		"nil client": func() error {
			_, e := ExchangeCode(bg, nil, meta, &ClientInfo{ClientID: "c"}, "x", "v", "r", "")
			return e
		}(),
		"refresh nil md": func() error { _, e := Refresh(bg, c, nil, &ClientInfo{ClientID: "c"}, "rt", "", ""); return e }(),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %T", name, err)
		}
	}
	if len(*checked) != 0 {
		t.Fatalf("requests were attempted: %q", *checked)
	}
}
