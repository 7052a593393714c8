package oauth

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// memProvider is a Provider in memory whose Authorize answers with the
// state of the URL (or a wrong one) and counts the authorizations.
type memProvider struct {
	tokens     *Tokens
	clients    map[string]*ClientInfo
	authorized int
	lastURL    string
	badState   bool
	noUser     bool
}

func (m *memProvider) Tokens(context.Context) (*Tokens, error) { return m.tokens, nil }
func (m *memProvider) SaveTokens(_ context.Context, t *Tokens) error {
	m.tokens = t
	return nil
}
func (m *memProvider) ClientInfo(_ context.Context, iss string) (*ClientInfo, error) {
	return m.clients[iss], nil
}
func (m *memProvider) SaveClientInfo(_ context.Context, iss string, ci *ClientInfo) error {
	if m.clients == nil {
		m.clients = map[string]*ClientInfo{}
	}
	m.clients[iss] = ci
	return nil
}
func (m *memProvider) Authorize(_ context.Context, u string) (*Redirect, error) {
	m.authorized++
	m.lastURL = u
	if m.noUser {
		return nil, errors.New("the user is elsewhere")
	}
	state := u[strings.Index(u, "state=")+6:]
	if m.badState {
		state = "forged"
	}
	return &Redirect{Code: "the-code", State: state}, nil
}

// fakeFlow swaps the flow's functions for fakes for the test's duration;
// the fake token endpoint issues "at-<n>" and records the scopes asked.
func fakeFlow(t *testing.T) *[]string {
	t.Helper()
	saved := []any{runDiscoverResource, runCheckResource, runDiscoverServer, runLegacyServer, runChooseScope, runRegister,
		runNewPKCE, runNewState, runAuthorizationURL, runExchangeCode, runRefreshTokens, runClientCredentialsToken}
	var log []string
	meta := &ServerMetadata{Issuer: "https://as.example", TokenEndpoint: "https://as.example/token"}
	runDiscoverResource = func(context.Context, *Client, string, Challenge) (*ResourceMetadata, error) {
		return &ResourceMetadata{Resource: "https://mcp.example/mcp", AuthorizationServers: []string{"https://as.example"}}, nil
	}
	runCheckResource = func(*ResourceMetadata, string) error { return nil }
	runDiscoverServer = func(context.Context, *Client, string) (*ServerMetadata, error) { return meta, nil }
	runLegacyServer = func(context.Context, *Client, string) (*ServerMetadata, error) { return meta, nil }
	runChooseScope = func(ch Challenge, _ *ResourceMetadata, _ *ServerMetadata, conf string) string {
		if ch.Scope != "" {
			return ch.Scope
		}
		return conf
	}
	runRegister = func(context.Context, *Client, *ServerMetadata, *Settings) (*ClientInfo, error) {
		log = append(log, "register")
		return &ClientInfo{ClientID: "dyn", Raw: []byte(`{"client_id":"dyn"}`)}, nil
	}
	runNewPKCE = func() (string, string, error) { return "verifier-secret", "chal", nil }
	runNewState = func() (string, error) { return "st4te", nil }
	runAuthorizationURL = func(_ *ServerMetadata, _ *ClientInfo, _, scope, _, state, _ string) (string, error) {
		return "https://as.example/authorize?scope=" + scope + "&state=" + state, nil
	}
	runExchangeCode = func(_ context.Context, _ *Client, _ *ServerMetadata, _ *ClientInfo, code, v, _, res string) (*Tokens, error) {
		log = append(log, "exchange "+code+" "+v+" "+res)
		return &Tokens{AccessToken: "at-code", RefreshToken: "rt-1"}, nil
	}
	runRefreshTokens = func(_ context.Context, _ *Client, _ *ServerMetadata, _ *ClientInfo, rt, _, _ string) (*Tokens, error) {
		log = append(log, "refresh "+rt)
		if rt == "dead" {
			return nil, &Error{Step: StepRefresh, OAuthError: "invalid_grant"}
		}
		return &Tokens{AccessToken: "at-refreshed"}, nil
	}
	runClientCredentialsToken = func(_ context.Context, _ *Client, _ *ServerMetadata, cc *ClientCredentials, scope, _ string) (*Tokens, error) {
		log = append(log, "client_credentials "+cc.ClientID+" "+scope)
		return &Tokens{AccessToken: "at-cc"}, nil
	}
	t.Cleanup(func() {
		runDiscoverResource = saved[0].(func(context.Context, *Client, string, Challenge) (*ResourceMetadata, error))
		runCheckResource = saved[1].(func(*ResourceMetadata, string) error)
		runDiscoverServer = saved[2].(func(context.Context, *Client, string) (*ServerMetadata, error))
		runLegacyServer = saved[3].(func(context.Context, *Client, string) (*ServerMetadata, error))
		runChooseScope = saved[4].(func(Challenge, *ResourceMetadata, *ServerMetadata, string) string)
		runRegister = saved[5].(func(context.Context, *Client, *ServerMetadata, *Settings) (*ClientInfo, error))
		runNewPKCE = saved[6].(func() (string, string, error))
		runNewState = saved[7].(func() (string, error))
		runAuthorizationURL = saved[8].(func(*ServerMetadata, *ClientInfo, string, string, string, string, string) (string, error))
		runExchangeCode = saved[9].(func(context.Context, *Client, *ServerMetadata, *ClientInfo, string, string, string, string) (*Tokens, error))
		runRefreshTokens = saved[10].(func(context.Context, *Client, *ServerMetadata, *ClientInfo, string, string, string) (*Tokens, error))
		runClientCredentialsToken = saved[11].(func(context.Context, *Client, *ServerMetadata, *ClientCredentials, string, string) (*Tokens, error))
	})
	return &log
}

// The code flow registers once (the registration kept by the provider),
// redeems the code with the verifier for the PRM's resource, and stores
// the tokens.
func TestAuthorizeCodeFlowStoresTokensAndRegistration(t *testing.T) {
	log := fakeFlow(t)
	p := &memProvider{}
	s := &Settings{RedirectURL: "http://localhost/cb"}
	tok, err := Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{Scheme: "Bearer"}, s, p)
	if err != nil || tok.AccessToken != "at-code" || p.tokens != tok || tok.ObtainedAt == 0 {
		t.Fatalf("Authorize = %+v, %v", tok, err)
	}
	if p.clients["https://as.example"].ClientID != "dyn" {
		t.Fatalf("registration not saved: %+v", p.clients)
	}
	p.tokens = nil
	if _, err := Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{}, s, p); err != nil {
		t.Fatal(err)
	}
	want := "register,exchange the-code verifier-secret https://mcp.example/mcp,exchange the-code verifier-secret https://mcp.example/mcp"
	if got := strings.Join(*log, ","); got != want {
		t.Fatalf("steps = %s, want %s", got, want)
	}
}

// A redirect whose state is not the one sent is refused before the code
// is redeemed.
func TestAuthorizeRefusesWrongState(t *testing.T) {
	log := fakeFlow(t)
	p := &memProvider{badState: true}
	_, err := Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{}, &Settings{RedirectURL: "http://localhost/cb"}, p)
	var e *Error
	if !errors.As(err, &e) || e.Step != StepAuthorization || e.Rule != RuleStateMismatch {
		t.Fatalf("err = %v", err)
	}
	for _, l := range *log {
		if strings.HasPrefix(l, "exchange") {
			t.Fatal("the code was redeemed despite a wrong state")
		}
	}
}

// Stored tokens with a refresh token are refreshed instead of asking the
// user; a refused refresh falls back to a new authorization; a step-up
// never refreshes and asks for the challenge's scope.
func TestAuthorizeRefreshesFirstButNotOnStepUp(t *testing.T) {
	log := fakeFlow(t)
	s := &Settings{RedirectURL: "http://localhost/cb", Client: &ClientInfo{ClientID: "pre"}}
	p := &memProvider{tokens: &Tokens{AccessToken: "old", RefreshToken: "rt-0"}}
	tok, err := Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{Error: "invalid_token"}, s, p)
	if err != nil || tok.AccessToken != "at-refreshed" || tok.RefreshToken != "rt-0" || p.authorized != 0 {
		t.Fatalf("refresh: %+v %v (authorized %d)", tok, err, p.authorized)
	}
	p.tokens = &Tokens{AccessToken: "old", RefreshToken: "dead"}
	if tok, err = Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{}, s, p); err != nil || tok.AccessToken != "at-code" || p.authorized != 1 {
		t.Fatalf("after a refused refresh: %+v %v", tok, err)
	}
	*log = nil
	up := Challenge{Error: "insufficient_scope", Scope: "mcp:basic mcp:write"}
	if _, err = Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", up, s, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(*log, ","), "refresh") || !strings.Contains(p.lastURL, "scope=mcp:basic mcp:write") {
		t.Fatalf("step-up: %v, %s", *log, p.lastURL)
	}
}

// Client credentials select their grant: no user, no registration.
func TestAuthorizeClientCredentials(t *testing.T) {
	log := fakeFlow(t)
	p := &memProvider{}
	s := &Settings{ClientCredentials: &ClientCredentials{ClientID: "svc", ClientSecret: "sec"}, Scope: "read"}
	tok, err := Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{}, s, p)
	if err != nil || tok.AccessToken != "at-cc" || p.authorized != 0 || strings.Join(*log, ",") != "client_credentials svc read" {
		t.Fatalf("%+v %v %v", tok, err, *log)
	}
}

// A provider that cannot ask the user now gives a PendingError; Finish
// completes the flow later with the redirect's code and state.
func TestAuthorizePendingThenFinish(t *testing.T) {
	fakeFlow(t)
	p := &memProvider{noUser: true}
	c := &Client{Secrets: &Secrets{}}
	_, err := Authorize(context.Background(), c, "https://mcp.example/mcp", Challenge{}, &Settings{RedirectURL: "http://localhost/cb"}, p)
	var pe *PendingError
	if !errors.As(err, &pe) || pe.Err.Step != StepAuthorization {
		t.Fatalf("err = %v", err)
	}
	if _, err := Finish(context.Background(), c, pe.Pending, &Redirect{Code: "the-code", State: "other"}); err == nil {
		t.Fatal("Finish accepted a wrong state")
	}
	tok, err := Finish(context.Background(), c, pe.Pending, &Redirect{Code: "the-code", State: pe.Pending.State()})
	if err != nil || tok.AccessToken != "at-code" {
		t.Fatalf("Finish = %+v, %v", tok, err)
	}
	if got := c.Secrets.Scrub("verifier-secret the-code at-code rt-1"); strings.Contains(got, "secret") || strings.Contains(got, "at-code") {
		t.Fatalf("secrets not recorded: %q", got)
	}
}

// A step-up asks for the scope the stored tokens were granted as well as
// the challenge's (auth/scope-step-up at 2026-07-28, SEP-2350), and the
// tokens of an answer that names no scope are stored with the scope asked
// for (RFC 6749 §5.1), so the next step-up knows it.
func TestAuthorizeStepUpKeepsGrantedScope(t *testing.T) {
	fakeFlow(t)
	s := &Settings{RedirectURL: "http://localhost/cb", Client: &ClientInfo{ClientID: "pre"}}
	p := &memProvider{}
	tok, err := Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", Challenge{Scope: "mcp:basic"}, s, p)
	if err != nil || tok.Scope != "mcp:basic" || p.tokens.Scope != "mcp:basic" {
		t.Fatalf("first: %+v, %v", tok, err)
	}
	up := Challenge{Error: "insufficient_scope", Scope: "mcp:write"}
	if tok, err = Authorize(context.Background(), &Client{}, "https://mcp.example/mcp", up, s, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.lastURL, "scope=mcp:basic mcp:write") || tok.Scope != "mcp:basic mcp:write" {
		t.Fatalf("step-up asked %s, stored %q", p.lastURL, tok.Scope)
	}
}

// TestStepUpChallenge: the granted scope goes before the challenge's; a
// challenge without a scope, or no granted scope, is left as it is.
func TestStepUpChallenge(t *testing.T) {
	tests := []struct{ granted, challenged, want string }{
		{"mcp:basic", "mcp:write", "mcp:basic mcp:write"},
		{"mcp:basic offline_access", "mcp:basic mcp:write", "mcp:basic offline_access mcp:basic mcp:write"},
		{"", "mcp:write", "mcp:write"},
		{"mcp:basic", "", ""},
		{"  ", "mcp:write", "mcp:write"},
	}
	for _, tt := range tests {
		ch := StepUpChallenge(Challenge{Error: "insufficient_scope", Scope: tt.challenged}, tt.granted)
		if ch.Scope != tt.want || ch.Error != "insufficient_scope" {
			t.Errorf("StepUpChallenge(%q, %q) = %+v, want scope %q", tt.challenged, tt.granted, ch, tt.want)
		}
	}
	got := ChooseScope(StepUpChallenge(Challenge{Scope: "b c"}, "a b"), nil, nil, "")
	if got != "a b c" {
		t.Errorf("ChooseScope after StepUpChallenge = %q, want each scope once", got)
	}
}
