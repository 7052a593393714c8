package oauth

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestAuthorizationServerMigration replays auth/authorization-server-migration
// (MCP 2026-07-28, "Authorization Server Binding"): the resource moves from
// one authorization server to another; the flow registers again at the
// new one, and nothing the first one issued (its client id, its refresh
// token) reaches the second, whether the application's storage keys
// registrations by issuer or ignores the issuer it is given.
func TestAuthorizationServerMigration(t *testing.T) {
	for _, oneClient := range []bool{false, true} {
		name := map[bool]string{false: "storage by issuer", true: "storage that ignores the issuer"}[oneClient]
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			as1, as2 := newAuthServer(h, "as1"), newAuthServer(h, "as2")
			mcp := newMCPServer(h, as1.URL)
			p := &browser{h: h, oneClient: oneClient}
			c := h.client()
			first, err := Authorize(context.Background(), c, mcp.URL+"/mcp", mcp.challenge(), codeSettings(), p)
			if err != nil || first.Issuer != as1.URL {
				t.Fatalf("at the first server: %+v, %v", first, err)
			}
			mcp.moveTo(as2.URL)
			second, err := Authorize(context.Background(), c, mcp.URL+"/mcp", mcp.challenge(), codeSettings(), p)
			if err != nil || second.Issuer != as2.URL || !strings.HasPrefix(second.AccessToken, "as2-") {
				t.Fatalf("at the second server: %+v, %v", second, err)
			}
			if as2.registered != 1 {
				t.Errorf("%d registrations at the new server, want 1", as2.registered)
			}
			for _, id := range as2.authorizeID {
				if strings.HasPrefix(id, "as1-") {
					t.Errorf("the new server was sent the old server's client id %q", id)
				}
			}
			for _, f := range as2.tokenForms {
				if strings.HasPrefix(f.Get("client_id"), "as1-") || f.Get("refresh_token") != "" {
					t.Errorf("the new server's token endpoint got %v", f)
				}
			}
		})
	}
}

// TestMigrationBackKeepsEachRegistration: registrations are kept per
// issuer, so moving back to a server the client knows uses its
// registration again (with a new authorization, since the tokens held are
// the other server's).
func TestMigrationBackKeepsEachRegistration(t *testing.T) {
	h := newHarness(t)
	as1, as2 := newAuthServer(h, "as1"), newAuthServer(h, "as2")
	mcp := newMCPServer(h, as1.URL)
	p := &browser{h: h}
	c := h.client()
	for _, as := range []*authServer{as1, as2, as1} {
		mcp.moveTo(as.URL)
		if _, err := Authorize(context.Background(), c, mcp.URL+"/mcp", mcp.challenge(), codeSettings(), p); err != nil {
			t.Fatal(err)
		}
	}
	if as1.registered != 1 || as2.registered != 1 {
		t.Errorf("registrations: %d and %d, want one at each server", as1.registered, as2.registered)
	}
	if n := len(as1.authorizeID); n != 2 || as1.tokenForms[1].Get("grant_type") != "authorization_code" {
		t.Errorf("back at the first server: %d authorizations, token requests %v", n, as1.tokenForms)
	}
}

// TestStoredCredentialsWithoutStamp: what an earlier version stored has no
// issuer stamp. Such a registration is used (the provider was asked for
// this issuer's) and stored again, stamped; such tokens are refreshed at
// the current server. A stamp naming the current server is used too.
func TestStoredCredentialsWithoutStamp(t *testing.T) {
	h := newHarness(t)
	as := newAuthServer(h, "as")
	mcp := newMCPServer(h, as.URL)
	raw := json.RawMessage(`{"client_id":"old-client","client_name":"kept","registration_access_token":"rat"}`)
	p := &browser{h: h, clients: map[string]*ClientInfo{as.URL: {ClientID: "old-client", Raw: raw}},
		tokens: &Tokens{AccessToken: "old-at", RefreshToken: "old-rt"}}
	tok, err := Authorize(context.Background(), h.client(), mcp.URL+"/mcp", mcp.challenge(), codeSettings(), p)
	if err != nil || tok.Issuer != as.URL || as.registered != 0 {
		t.Fatalf("Authorize = %+v, %v (%d registrations)", tok, err, as.registered)
	}
	if f := as.tokenForms; len(f) != 1 || f[0].Get("refresh_token") != "old-rt" || f[0].Get("client_id") != "old-client" {
		t.Errorf("token requests %v, want the old refresh token refreshed by the old client", f)
	}
	ci := p.clients[as.URL]
	var stored map[string]any
	if len(p.saved) != 1 || ci.Issuer != as.URL || json.Unmarshal(ci.Raw, &stored) != nil ||
		stored["issuer"] != as.URL || stored["client_name"] != "kept" || stored["registration_access_token"] != "rat" {
		t.Errorf("stored again: %v %+v %s", p.saved, ci, ci.Raw)
	}
}

// TestRefreshTokenStaysWithItsServer: stored tokens stamped with another
// authorization server are not refreshed at this one (a new authorization
// follows); tokens stamped with this one are.
func TestRefreshTokenStaysWithItsServer(t *testing.T) {
	for _, stamp := range []string{"https://other.example", ""} {
		h := newHarness(t)
		as := newAuthServer(h, "as")
		mcp := newMCPServer(h, as.URL)
		if stamp == "" {
			stamp = as.URL + "/"
		}
		p := &browser{h: h, tokens: &Tokens{AccessToken: "at", RefreshToken: "rt-of-" + stamp, Issuer: stamp}}
		if _, err := Authorize(context.Background(), h.client(), mcp.URL+"/mcp", mcp.challenge(), codeSettings(), p); err != nil {
			t.Fatal(err)
		}
		refreshed := as.tokenForms[0].Get("grant_type") == "refresh_token"
		if ours := strings.HasPrefix(stamp, as.URL); refreshed != ours {
			t.Errorf("tokens of %s: refreshed %v, want %v", stamp, refreshed, ours)
		}
	}
}

// TestPreRegisteredClientIssuer: a pre-registered client whose issuer is
// configured is used at that server only; at another (the resource moved)
// the flow refuses before the client id is sent anywhere. Without a
// configured issuer it is used wherever the resource points.
func TestPreRegisteredClientIssuer(t *testing.T) {
	tests := []struct {
		name     string
		issuer   func(as string) string
		wantRule string
	}{
		{"its own server", func(as string) string { return as }, ""},
		{"its own server, with a trailing slash", func(as string) string { return as + "/" }, ""},
		{"not configured", func(string) string { return "" }, ""},
		{"another server", func(string) string { return "https://as.example/" + planted }, RuleClientIssuer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			as := newAuthServer(h, "as")
			mcp := newMCPServer(h, as.URL)
			s := codeSettings()
			s.Client = &ClientInfo{ClientID: "pre-client", ClientSecret: "pre-secret", Issuer: tt.issuer(as.URL)}
			c := h.client()
			c.Secrets.Add(planted)
			_, err := Authorize(context.Background(), c, mcp.URL+"/mcp", mcp.challenge(), s, &browser{h: h})
			if tt.wantRule == "" {
				if err != nil || len(as.authorizeID) != 1 || as.authorizeID[0] != "pre-client" {
					t.Fatalf("Authorize: %v; authorized %v", err, as.authorizeID)
				}
				return
			}
			e := asError(t, err, StepRegistration)
			if e.Rule != tt.wantRule || len(as.authorizeID) != 0 || as.tokenRequests() != 0 || as.registered != 0 {
				t.Errorf("rule %q (want %q); the server saw %v, %d token requests, %d registrations",
					e.Rule, tt.wantRule, as.authorizeID, as.tokenRequests(), as.registered)
			}
			noSecretIn(t, e, planted, "pre-secret")
		})
	}
}
