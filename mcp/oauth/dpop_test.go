//go:build !js

package oauth

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"testing"

	"github.com/toolgate/toolgate/internal/wire"
)

// A proof carries the claims RFC 9449 §4.2 asks for, signed by the key
// its header's public JWK names: htu without query and fragment, the
// nonce and ath when given, a fresh jti each time.
func TestDPoPProofClaims(t *testing.T) {
	ctx := context.Background()
	d := NewDPoP(nil)
	key, err := d.Signer.NewKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, method, url, nonce, token, wantHTU string
	}{
		{"token request", "POST", "https://as.example/token", "", "", "https://as.example/token"},
		{"query and fragment dropped", "GET", "https://mcp.example/mcp?session=1#frag", "", "tok-1", "https://mcp.example/mcp"},
		{"nonce and ath", "POST", "https://mcp.example/mcp", "n-42", "tok-2", "https://mcp.example/mcp"},
	}
	jtis := map[any]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			proof, err := d.proof(ctx, key, tc.method, tc.url, tc.nonce, tc.token)
			if err != nil {
				t.Fatal(err)
			}
			p := checkProof(t, proof, tc.method, tc.wantHTU)
			if p.jkt != key {
				t.Errorf("the proof's key thumbprint %s, want the key's %s", p.jkt, key)
			}
			if got, want := p.claims["nonce"], tc.nonce; (want == "" && got != nil) || (want != "" && got != want) {
				t.Errorf("nonce %v, want %q", got, want)
			}
			if got := p.claims["ath"]; (tc.token == "" && got != nil) || (tc.token != "" && got != athOf(tc.token)) {
				t.Errorf("ath %v, want the token's hash", got)
			}
			if jtis[p.claims["jti"]] {
				t.Errorf("jti %v used twice", p.claims["jti"])
			}
			jtis[p.claims["jti"]] = true
		})
	}
	if _, err := d.proof(ctx, "no-such-key", "GET", "https://mcp.example/mcp", "", ""); err == nil {
		t.Fatal("a proof of a key the signer does not hold was made")
	}
}

// Every token request to an authorization server that takes ES256 proofs
// carries one (htm POST, htu the token endpoint); a DPoP token_type binds
// the tokens to the proof's key, a Bearer one is kept as Bearer, and the
// modes choose whether DPoP is used at all.
func TestDPoPTokenRequest(t *testing.T) {
	cases := []struct {
		name, mode, tokenType string
		listed, wantProof     bool
	}{
		{"auto, listed, bound", DPoPAuto, "DPoP", true, true},
		{"auto, listed, the server issues Bearer", DPoPAuto, "Bearer", true, true},
		{"auto, not listed", DPoPAuto, "Bearer", false, false},
		{"off, listed", DPoPOff, "Bearer", true, false},
		{"require, listed", DPoPRequire, "DPoP", true, true},
		{"require, the server issues Bearer", DPoPRequire, "Bearer", true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newTokServer(t, func(tokSeen) (int, any) {
				a := dpopOK("at-1")
				a["token_type"] = tc.tokenType
				return 200, a
			})
			meta := tokMeta(srv.URL, AuthNone)
			if tc.listed {
				meta = dpopMeta(srv.URL)
			}
			tok, err := ExchangeCode(context.Background(), dpopClient(tc.mode), meta, &ClientInfo{ClientID: "c"}, "code", "verifier", "http://localhost/cb", "")
			if tc.mode == DPoPRequire && tc.tokenType == "Bearer" {
				if e := tokError(t, err, StepToken); e.Rule != RuleDPoPUnsupported {
					t.Fatalf("a Bearer token where DPoP is required: %v, want rule %s", e, RuleDPoPUnsupported)
				}
				noSecret(t, err, "at-1")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			proof := srv.only(t).Header.Get("DPoP")
			if (proof != "") != tc.wantProof {
				t.Fatalf("DPoP header %q, want a proof: %v", proof, tc.wantProof)
			}
			if tok.TokenType != tc.tokenType {
				t.Fatalf("token type %q, want %q", tok.TokenType, tc.tokenType)
			}
			if !tc.wantProof {
				return
			}
			p := checkProof(t, proof, "POST", srv.URL+"/token")
			if want := map[bool]string{true: p.jkt}[tc.tokenType == "DPoP"]; tok.DPoPKey != want {
				t.Fatalf("DPoPKey %q, want %q", tok.DPoPKey, want)
			}
		})
	}
}

// A token answer of type DPoP to a request without a proof is refused, as
// before: the client cannot use it.
func TestDPoPTokenTypeWithoutProofRefused(t *testing.T) {
	srv := newTokServer(t, func(tokSeen) (int, any) { return 200, dpopOK("at-x") })
	_, err := ExchangeCode(context.Background(), dpopClient(DPoPOff), dpopMeta(srv.URL), &ClientInfo{ClientID: "c"}, "code", "verifier", "", "")
	tokError(t, err, StepToken)
	noSecret(t, err, "at-x")
}

// An authorization server's 400 use_dpop_nonce with a DPoP-Nonce header
// is answered by one retry with that nonce; the nonce is kept for the
// next token request, which carries it from the start.
func TestDPoPAuthorizationServerNonce(t *testing.T) {
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		p, _ := splitJWT(r.Header.Get("DPoP"))
		if p.claims["nonce"] != "as-nonce-1" {
			return 400, map[string]any{"error": "use_dpop_nonce", "error_description": "nonce please"}
		}
		return 200, dpopOK("at-n")
	})
	srv.Config.Handler = withHeader(srv.Config.Handler, "DPoP-Nonce", "as-nonce-1")
	c := dpopClient(DPoPAuto)
	tok, err := ExchangeCode(context.Background(), c, dpopMeta(srv.URL), &ClientInfo{ClientID: "c"}, "code", "verifier", "", "")
	if err != nil {
		t.Fatal(err)
	}
	seen := srv.requests()
	if len(seen) != 2 {
		t.Fatalf("%d token requests, want 2 (one retry with the nonce)", len(seen))
	}
	first := checkProof(t, seen[0].Header.Get("DPoP"), "POST", srv.URL+"/token")
	second := checkProof(t, seen[1].Header.Get("DPoP"), "POST", srv.URL+"/token")
	if first.claims["jti"] == second.claims["jti"] || first.jkt != second.jkt || second.jkt != tok.DPoPKey {
		t.Fatalf("the retry must be a fresh proof of the same key: %v %v", first, second)
	}
	if _, err := Refresh(withDPoPKey(context.Background(), tok.DPoPKey), c, dpopMeta(srv.URL), &ClientInfo{ClientID: "c"}, tok.RefreshToken, "", ""); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.requests()); n != 3 {
		t.Fatalf("%d token requests after the refresh, want 3: the nonce kept is sent at once", n)
	}
}

// The nonce retry is bounded: an authorization server that keeps asking
// for a new nonce gets two requests, then the refusal is reported (step
// token, its OAuth error) without quoting the proof.
func TestDPoPAuthorizationServerNonceRetryBounded(t *testing.T) {
	var proofs []string
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		proofs = append(proofs, r.Header.Get("DPoP"))
		return 400, map[string]any{"error": "use_dpop_nonce"}
	})
	srv.Config.Handler = withHeader(srv.Config.Handler, "DPoP-Nonce", "always-new")
	_, err := ExchangeCode(context.Background(), dpopClient(DPoPAuto), dpopMeta(srv.URL), &ClientInfo{ClientID: "c"}, "code", "verifier", "", "")
	e := tokError(t, err, StepToken)
	if e.OAuthError != "use_dpop_nonce" || len(srv.requests()) != 2 {
		t.Fatalf("got %v after %d requests, want use_dpop_nonce after 2", e, len(srv.requests()))
	}
	noSecret(t, err, proofs...)
}

// Each fresh grant makes a new key; a refresh proves the key of the tokens
// it refreshes (the flow passes it), so the refreshed tokens stay bound to
// it.
func TestDPoPKeyPerAuthorization(t *testing.T) {
	srv := newTokServer(t, func(r tokSeen) (int, any) { return 200, dpopOK("at-" + r.Form.Get("grant_type")) })
	c, meta, client := dpopClient(DPoPAuto), dpopMeta(srv.URL), &ClientInfo{ClientID: "c"}
	ctx := context.Background()
	first, err := ExchangeCode(ctx, c, meta, client, "code-1", "verifier", "", "")
	if err != nil {
		t.Fatal(err)
	}
	refreshed, err := Refresh(withDPoPKey(ctx, first.DPoPKey), c, meta, client, first.RefreshToken, "", "")
	if err != nil || refreshed.DPoPKey != first.DPoPKey {
		t.Fatalf("the refresh bound %q (%v), want the refreshed tokens' key %q", refreshed.DPoPKey, err, first.DPoPKey)
	}
	second, err := ExchangeCode(ctx, c, meta, client, "code-2", "verifier", "", "")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := ClientCredentialsToken(ctx, c, meta, &ClientCredentials{ClientID: "c", ClientSecret: "s"}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{first.DPoPKey: true, second.DPoPKey: true, cc.DPoPKey: true}
	if len(keys) != 3 || keys[""] {
		t.Fatalf("keys %q %q %q: each grant needs its own", first.DPoPKey, second.DPoPKey, cc.DPoPKey)
	}
	seen := srv.requests()
	if p := checkProof(t, seen[1].Header.Get("DPoP"), "POST", srv.URL+"/token"); p.jkt != first.DPoPKey {
		t.Fatalf("the refresh proved %s, want %s", p.jkt, first.DPoPKey)
	}
}

// The flow hands a refresh the key of the stored tokens (tryRefresh), and
// a required DPoP that the authorization server does not list is refused
// before any registration or token request.
func TestAuthorizeDPoPKeyAndRequire(t *testing.T) {
	log := fakeFlow(t)
	var refreshKey string
	runRefreshTokens = func(ctx context.Context, _ *Client, _ *ServerMetadata, _ *ClientInfo, _, _, _ string) (*Tokens, error) {
		refreshKey, _ = ctx.Value(dpopKeyContext{}).(string)
		return &Tokens{AccessToken: "at-refreshed"}, nil
	}
	p := &memProvider{tokens: &Tokens{AccessToken: "old", TokenType: "DPoP", RefreshToken: "rt", DPoPKey: "jkt-old"}}
	s := &Settings{RedirectURL: "http://localhost/cb"}
	if _, err := Authorize(context.Background(), &Client{DPoP: NewDPoP(s)}, "https://mcp.example/mcp", Challenge{}, s, p); err != nil {
		t.Fatal(err)
	}
	if refreshKey != "jkt-old" {
		t.Fatalf("the refresh proved %q, want the stored tokens' key", refreshKey)
	}
	*log = nil
	s.DPoP = DPoPRequire
	_, err := Authorize(context.Background(), &Client{DPoP: NewDPoP(s)}, "https://mcp.example/mcp", Challenge{}, s, &memProvider{})
	var e *Error
	if !errors.As(err, &e) || e.Rule != RuleDPoPUnsupported || len(*log) != 0 {
		t.Fatalf("got %v after %v, want %s before any request", err, *log, RuleDPoPUnsupported)
	}
	srv := newTokServer(t, func(tokSeen) (int, any) { return 200, tokOK("at-1") })
	if _, err := ExchangeCode(context.Background(), dpopClient(DPoPRequire), tokMeta(srv.URL, AuthNone), &ClientInfo{ClientID: "c"}, "code", "v", "", ""); err == nil || len(srv.requests()) != 0 {
		t.Fatalf("a token request without DPoP was sent where it is required (%v)", err)
	}
	s.DPoP = "sometimes"
	if _, err := Authorize(context.Background(), &Client{DPoP: NewDPoP(s)}, "https://mcp.example/mcp", Challenge{}, s, &memProvider{}); err == nil {
		t.Fatal("an unknown dpop mode was accepted")
	}
}

// SetAuthorization sends a bearer token as Bearer, a DPoP-bound one as
// DPoP with a proof of its key for the request (ath, the resource
// server's nonce), and nothing when the key is gone.
func TestDPoPSetAuthorization(t *testing.T) {
	ctx := context.Background()
	d := NewDPoP(nil)
	key, _ := d.Signer.NewKey(ctx)
	req, _ := wire.NewRequest(ctx, "GET", "https://mcp.example/mcp?x=1", nil)
	if !d.SetAuthorization(ctx, req, &Tokens{AccessToken: "b-1", TokenType: "Bearer"}) ||
		req.Header.Get("Authorization") != "Bearer b-1" || req.Header.Get("DPoP") != "" {
		t.Fatalf("bearer: %v", req.Header)
	}
	bound := &Tokens{AccessToken: "d-1", TokenType: "DPoP", DPoPKey: key}
	if !d.SetAuthorization(ctx, req, bound) || req.Header.Get("Authorization") != "DPoP d-1" {
		t.Fatalf("DPoP: %v", req.Header)
	}
	p := checkProof(t, req.Header.Get("DPoP"), "GET", "https://mcp.example/mcp")
	if p.claims["ath"] != athOf("d-1") || p.jkt != key || p.claims["nonce"] != nil {
		t.Fatalf("proof claims %v", p.claims)
	}
	if d.SetAuthorization(ctx, req, &Tokens{AccessToken: "d-2", TokenType: "DPoP", DPoPKey: "gone"}) ||
		req.Header.Get("Authorization") != "" || req.Header.Get("DPoP") != "" {
		t.Fatalf("a token whose key is gone was sent: %v", req.Header)
	}
}

// ResourceAnswer keeps the resource server's nonce from any answer, and
// says to retry only a proof's 401 DPoP use_dpop_nonce challenge with a
// nonce; the next proof to that origin carries the nonce.
func TestDPoPResourceAnswer(t *testing.T) {
	ctx := context.Background()
	d := NewDPoP(nil)
	key, _ := d.Signer.NewKey(ctx)
	bound := &Tokens{AccessToken: "d-1", TokenType: "DPoP", DPoPKey: key}
	req, _ := wire.NewRequest(ctx, "POST", "https://mcp.example/mcp", nil)
	d.SetAuthorization(ctx, req, bound)
	challenge := wire.Header{"Www-Authenticate": {`DPoP error="use_dpop_nonce", resource_metadata="https://mcp.example/prm"`}}
	cases := []struct {
		name   string
		status int
		header wire.Header
		want   bool
	}{
		{"no nonce header", 401, challenge, false},
		{"a 200 with a nonce", 200, wire.Header{"Dpop-Nonce": {"rs-1"}}, false},
		{"a Bearer invalid_token with a nonce", 401, wire.Header{"Dpop-Nonce": {"rs-2"}, "Www-Authenticate": {`Bearer error="invalid_token"`}}, false},
		{"a nonce with a space is not kept", 401, wire.Header{"Dpop-Nonce": {"a b"}, "Www-Authenticate": challenge["Www-Authenticate"]}, false},
		{"the challenge", 401, wire.Header{"Dpop-Nonce": {"rs-3"}, "Www-Authenticate": challenge["Www-Authenticate"]}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := d.ResourceAnswer(req, tc.status, tc.header); got != tc.want {
				t.Fatalf("ResourceAnswer = %v, want %v", got, tc.want)
			}
		})
	}
	d.SetAuthorization(ctx, req, bound)
	if p := checkProof(t, req.Header.Get("DPoP"), "POST", "https://mcp.example/mcp"); p.claims["nonce"] != "rs-3" {
		t.Fatalf("the next proof's nonce %v, want rs-3", p.claims["nonce"])
	}
	if d.nonce("as", "https://mcp.example/token") != "" {
		t.Fatal("a resource server's nonce was kept for the authorization server")
	}
}

// A server that takes DPoP only challenges with the DPoP scheme: its
// resource_metadata and error are read as a Bearer challenge's are.
func TestParseChallengeDPoP(t *testing.T) {
	ch := ParseChallenge([]string{`DPoP algs="ES256", resource_metadata="https://mcp.example/prm"`})
	if ch.Scheme != "DPoP" || ch.ResourceMetadata != "https://mcp.example/prm" {
		t.Fatalf("got %+v", ch)
	}
	ch = ParseChallenge([]string{`DPoP resource_metadata="https://a/dpop"`, `Bearer resource_metadata="https://a/bearer"`})
	if ch.Scheme != "Bearer" || ch.ResourceMetadata != "https://a/bearer" {
		t.Fatalf("a Bearer challenge must win: %+v", ch)
	}
}

// withHeader is h answering with the header name: value too.
func withHeader(h http.Handler, name, value string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(name, value)
		h.ServeHTTP(w, r)
	})
}

// A token request retried with the authorization server's nonce carries a
// fresh client assertion (a new jti), not the one already sent: a server
// may refuse an assertion it has seen.
func TestDPoPNonceRetrySignsANewClientAssertion(t *testing.T) {
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		p, _ := splitJWT(r.Header.Get("DPoP"))
		if p.claims["nonce"] != "as-nonce-2" {
			return 400, map[string]any{"error": "use_dpop_nonce"}
		}
		return 200, dpopOK("at-cc")
	})
	srv.Config.Handler = withHeader(srv.Config.Handler, "DPoP-Nonce", "as-nonce-2")
	signed := 0
	sign := func(_ context.Context, _, _ string, claims []byte) (string, error) {
		signed++
		return "eyJhbGciOiJFUzI1NiJ9." + base64.RawURLEncoding.EncodeToString(claims) + ".sig", nil
	}
	cc := &ClientCredentials{ClientID: "cid", Algorithm: "ES256", Sign: sign}
	if _, err := ClientCredentialsToken(context.Background(), dpopClient(DPoPAuto), dpopMeta(srv.URL), cc, "", ""); err != nil {
		t.Fatal(err)
	}
	seen := srv.requests()
	if len(seen) != 2 || signed != 2 {
		t.Fatalf("%d token requests and %d assertions signed, want 2 and 2", len(seen), signed)
	}
	first, second := seen[0].Form.Get("client_assertion"), seen[1].Form.Get("client_assertion")
	if first == "" || first == second {
		t.Fatalf("the retry sent the same client assertion again")
	}
}
