package oauth

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestAuthorizeIssuerParameter replays the conformance suite's RFC 9207
// scenarios (auth/iss-*, MCP 2026-07-28 "Authorization Response
// Validation") and the cases around them against a real authorization
// server: the iss of the authorization response is compared with the
// metadata's issuer, byte for byte, before the code goes to the token
// endpoint; a refused response sends nothing there.
func TestAuthorizeIssuerParameter(t *testing.T) {
	same := func(iss string) (string, bool) { return iss, true }
	none := func(string) (string, bool) { return "", false }
	evil := func(string) (string, bool) { return "https://evil.example.com", true }
	tests := []struct {
		name      string
		supported *bool
		iss       func(issuer string) (string, bool)
		slash     bool   // the metadata's issuer ends with "/" (the resource metadata's does not)
		wantRule  string // "": the code is redeemed
	}{
		{"iss-supported", ptr(true), same, false, ""},
		{"iss-not-advertised", nil, none, false, ""},
		{"iss-supported-missing", ptr(true), none, false, RuleIssuerMissing},
		{"iss-wrong-issuer", ptr(true), evil, false, RuleIssuerMismatch},
		{"iss-unexpected", nil, evil, false, RuleIssuerMismatch},
		{"iss-normalized", ptr(true), func(iss string) (string, bool) { return iss + "/", true }, false, RuleIssuerMismatch},
		{"advertised false, no iss", ptr(false), none, false, ""},
		{"not advertised, the right iss", nil, same, false, ""},
		{"not advertised, a trailing slash", nil, func(iss string) (string, bool) { return iss + "/", true }, false, RuleIssuerMismatch},
		{"an empty iss", ptr(true), func(string) (string, bool) { return "", true }, false, RuleIssuerMismatch},
		{"the scheme and host in capitals", ptr(true), func(iss string) (string, bool) {
			return strings.ToUpper(iss[:len("http://127.0.0.1")]) + iss[len("http://127.0.0.1"):], true
		}, false, RuleIssuerMismatch},
		{"the metadata's issuer with its slash", ptr(true), same, true, ""},
		{"the resource metadata's form of that issuer", ptr(true), func(iss string) (string, bool) { return strings.TrimSuffix(iss, "/"), true }, true, RuleIssuerMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			as := newAuthServer(h, "as")
			as.issSupported, as.redirectIss = tt.supported, tt.iss
			if tt.slash {
				as.metaIssuer = func(base string) string { return base + "/" }
			}
			mcp := newMCPServer(h, as.URL)
			p := &browser{h: h}
			c := h.client()
			tok, err := Authorize(context.Background(), c, mcp.URL+"/mcp", mcp.challenge(), codeSettings(), p)
			if tt.wantRule == "" {
				if err != nil || tok == nil || as.tokenRequests() != 1 || p.tokens != tok {
					t.Fatalf("Authorize = %+v, %v; %d token requests, want 1", tok, err, as.tokenRequests())
				}
				return
			}
			e := asError(t, err, StepAuthorization)
			if e.Rule != tt.wantRule {
				t.Errorf("rule %q, want %q (%s)", e.Rule, tt.wantRule, e.Message)
			}
			if as.tokenRequests() != 0 || p.tokens != nil {
				t.Errorf("the code went to the token endpoint (%d requests) after a refused iss", as.tokenRequests())
			}
			var pe *PendingError
			if errors.As(err, &pe) {
				t.Error("a refused authorization response left the flow waiting for another")
			}
			noSecretIn(t, e, "code-"+planted)
		})
	}
}

// TestAuthorizeIssuerBeforeError: an error response is checked like a
// code (MCP 2026-07-28): with the wrong iss neither its error nor its
// description is acted on or shown; with the right one the authorization
// server's refusal is reported with them.
func TestAuthorizeIssuerBeforeError(t *testing.T) {
	for _, wrong := range []bool{true, false} {
		h := newHarness(t)
		as := newAuthServer(h, "as")
		as.issSupported, as.refuse = ptr(true), true
		if wrong {
			as.redirectIss = func(string) (string, bool) { return "https://evil.example.com", true }
		}
		mcp := newMCPServer(h, as.URL)
		_, err := Authorize(context.Background(), h.client(), mcp.URL+"/mcp", mcp.challenge(), codeSettings(), &browser{h: h})
		e := asError(t, err, StepAuthorization)
		switch {
		case wrong && (e.Rule != RuleIssuerMismatch || e.OAuthError != "" || e.ErrorDescription != ""):
			t.Errorf("wrong iss: %+v, want only the iss refusal", e)
		case wrong:
			noSecretIn(t, e, "access_denied", deniedDescription)
		case e.Rule != "" || e.OAuthError != "access_denied" || e.ErrorDescription != deniedDescription:
			t.Errorf("right iss: %+v, want the server's access_denied", e)
		}
		if as.tokenRequests() != 0 {
			t.Error("an error response reached the token endpoint")
		}
	}
}

// TestFinishChecksIssuer: a flow finished later (Finish with the redirect
// read by ParseRedirect) checks iss as Authorize does, and a refused
// response leaves it waiting for the real one.
func TestFinishChecksIssuer(t *testing.T) {
	h := newHarness(t)
	as := newAuthServer(h, "as")
	as.issSupported = ptr(true)
	mcp := newMCPServer(h, as.URL)
	p := &browser{h: h, later: true}
	c := h.client()
	_, err := Authorize(context.Background(), c, mcp.URL+"/mcp", mcp.challenge(), codeSettings(), p)
	var pe *PendingError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a pending flow", err)
	}
	loc, err := p.follow(p.pendingURL)
	if err != nil {
		t.Fatal(err)
	}
	good, err := ParseRedirect(loc)
	if err != nil || !good.HasIss || good.Iss != as.URL {
		t.Fatalf("ParseRedirect = %+v, %v", good, err)
	}
	for rule, r := range map[string]Redirect{
		RuleIssuerMismatch: {Code: good.Code, State: good.State, Iss: "https://evil.example.com", HasIss: true},
		RuleIssuerMissing:  {Code: good.Code, State: good.State},
	} {
		_, err := Finish(context.Background(), c, pe.Pending, &r)
		if e := asError(t, err, StepAuthorization); e.Rule != rule {
			t.Errorf("rule %q, want %q", e.Rule, rule)
		}
	}
	if as.tokenRequests() != 0 {
		t.Fatal("a refused response reached the token endpoint")
	}
	if tok, err := Finish(context.Background(), c, pe.Pending, good); err != nil || tok.AccessToken == "" {
		t.Fatalf("Finish = %+v, %v", tok, err)
	}
}

// TestCheckIssuerFallback: the 2025-03-26 default endpoints have no
// validated issuer, so any iss (or none) is taken as it is.
func TestCheckIssuerFallback(t *testing.T) {
	meta := &ServerMetadata{Issuer: "https://mcp.example", Fallback: true, AuthorizationResponseIssParameterSupported: true}
	for _, r := range []Redirect{{Code: "c"}, {Code: "c", Iss: "https://other.example", HasIss: true}} {
		if err := checkIssuer(&Client{}, meta, &r); err != nil {
			t.Errorf("checkIssuer(%+v) = %v", r, err)
		}
	}
}

// TestParseRedirect reads the authorization response from a redirect URL:
// iss form-decoded and nothing else, present or absent.
func TestParseRedirect(t *testing.T) {
	tests := []struct {
		url  string
		want Redirect
	}{
		{"http://localhost:3000/callback?code=c&state=s&iss=https%3A%2F%2Fas.example%2Ft1", Redirect{Code: "c", State: "s", Iss: "https://as.example/t1", HasIss: true}},
		{"http://localhost:3000/callback?code=c&state=s", Redirect{Code: "c", State: "s"}},
		{"http://localhost:3000/callback?code=c&state=s&iss=", Redirect{Code: "c", State: "s", HasIss: true}},
		{"http://localhost:3000/callback?code=c&iss=HTTPS://AS.example:443/", Redirect{Code: "c", Iss: "HTTPS://AS.example:443/", HasIss: true}},
		{"http://localhost:3000/callback?error=access_denied&error_description=no+way&iss=x", Redirect{Error: "access_denied", ErrorDescription: "no way", Iss: "x", HasIss: true}},
	}
	for _, tt := range tests {
		got, err := ParseRedirect(tt.url)
		if err != nil || *got != tt.want {
			t.Errorf("ParseRedirect(%s) = %+v, %v; want %+v", tt.url, got, err, tt.want)
		}
	}
	for _, bad := range []string{"http://localhost:3000/callback?state=s&iss=x", "http://[::1/cb?code=" + planted} {
		_, err := ParseRedirect(bad)
		noSecretIn(t, asError(t, err, StepAuthorization), planted)
	}
}

// noSecretIn fails when a field of e quotes one of secrets (or anything
// else it must not show).
func noSecretIn(t *testing.T, e *Error, secrets ...string) {
	t.Helper()
	for _, s := range []string{e.Message, e.OAuthError, e.ErrorDescription, e.Error()} {
		for _, secret := range secrets {
			if strings.Contains(s, secret) {
				t.Errorf("the error quotes %q: %q", secret, s)
			}
		}
	}
}
