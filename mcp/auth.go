package mcp

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
	"github.com/toolgate/toolgate/mcp/oauth"
)

// Auth is a registration's OAuth authorization (RegisterOptions.Auth,
// LoadOptions.Auth): what the application configured (Settings) and the
// provider that stores tokens and registrations and asks the user
// (Provider; nil: memory storage and no user, so only the grants without
// one work: client credentials, cross-app access, workload identity,
// stored tokens). When the
// server answers 401 the flow runs (docs/oauth.md) and the request is sent
// again once with the token; a 403 insufficient_scope steps up.
type Auth struct {
	Settings oauth.Settings
	Provider oauth.Provider
	// ID names the provider for the pool: registrations share a
	// connection (and its tokens) only when their Auth IDs are equal.
	ID string
}

// key is the pool key's part for a's identity ("" without auth).
func (a *Auth) key() string {
	if a == nil {
		return ""
	}
	return "auth:" + a.ID
}

// maxFlows bounds the flows one request may run: a 401's, then step-ups
// after 403 insufficient_scope, so a server that never accepts a token
// ends in auth-failed instead of a loop (the conformance suite's
// auth/scope-retry-limit allows three tokened attempts).
const maxFlows = 3

// authState is one pool entry's authorization: its tokens (in memory, and
// with the provider), the flow's client, and the code grant waiting for a
// redirect (Pool.FinishAuth). Flows of one entry run one at a time.
type authState struct {
	auth     *Auth
	provider oauth.Provider
	client   *oauth.Client
	cfg      *ServerConfig

	flow    sync.Mutex // one flow at a time
	mu      sync.Mutex
	tokens  *oauth.Tokens
	loaded  bool
	pending *oauth.Pending
}

// newAuthState is the authorization of entry cfg under sec, its flow's
// requests sent with base after the registration's URL policy allowed
// them.
func newAuthState(cfg *ServerConfig, sec *Security, base wire.RoundTripper) *authState {
	if base == nil {
		base = defaultBase
	}
	if base == nil {
		base = noBase{}
	}
	p := cfg.auth.Provider
	if p == nil {
		p = &MemoryProvider{}
	}
	st := &authState{auth: cfg.auth, provider: p, cfg: cfg}
	st.client = &oauth.Client{
		Transport: base,
		Secrets:   &oauth.Secrets{},
		DPoP:      oauth.NewDPoP(&cfg.auth.Settings), // its keys: one registration's, a new one per grant
		Check: func(raw string) error {
			if e := checkServerURL(raw, sec, cfg.Name, cfg); e != nil {
				return e
			}
			return nil
		},
	}
	return st
}

// bearer is the access token to send ("" when there is none yet), read
// from the provider the first time.
func (st *authState) bearer(ctx context.Context) string {
	if t := st.current(ctx); t != nil {
		return t.AccessToken
	}
	return ""
}

// current is the tokens to send (nil when there are none yet), read from
// the provider the first time.
func (st *authState) current(ctx context.Context) *oauth.Tokens {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.loaded {
		st.loaded = true
		if t, err := st.provider.Tokens(ctx); err == nil && t != nil {
			st.client.Secrets.Add(t.AccessToken, t.RefreshToken)
			st.tokens = t
		}
	}
	return st.tokens
}

// authorize runs the flow after challenge ch unless another request's flow
// replaced the token sent meanwhile; it returns nil when there is a new
// token to send, else the auth-failed (or policy-denied) error.
func (st *authState) authorize(ctx context.Context, sent string, ch oauth.Challenge) error {
	st.flow.Lock()
	defer st.flow.Unlock()
	if cur := st.bearer(ctx); cur != "" && cur != sent {
		return nil
	}
	t, err := oauth.Authorize(ctx, st.client, st.cfg.URL, ch, &st.auth.Settings, st.provider)
	if err != nil {
		var pe *oauth.PendingError
		if errors.As(err, &pe) {
			st.mu.Lock()
			st.pending = pe.Pending
			st.mu.Unlock()
		}
		return st.failure(err)
	}
	st.replace(ctx, t)
	return nil
}

// replace makes t the tokens to send, and has the DPoP signer forget the
// key of the tokens replaced when t is bound to another (a new grant): a
// registration holds the keys of its live tokens only.
func (st *authState) replace(ctx context.Context, t *oauth.Tokens) {
	st.mu.Lock()
	old := st.tokens
	st.tokens, st.pending, st.loaded = t, nil, true
	st.mu.Unlock()
	if old != nil && old.DPoPKey != "" && (t == nil || t.DPoPKey != old.DPoPKey) {
		st.client.DPoP.Forget(ctx, old.DPoPKey)
	}
}

// finish completes the code grant waiting for its redirect with the
// authorization response r, and stores the tokens.
func (st *authState) finish(ctx context.Context, r *oauth.Redirect) error {
	st.flow.Lock()
	defer st.flow.Unlock()
	st.mu.Lock()
	pend := st.pending
	st.mu.Unlock()
	t, err := oauth.Finish(ctx, st.client, pend, r)
	if err == nil {
		err = st.provider.SaveTokens(ctx, t)
	}
	if err != nil {
		return st.failure(err)
	}
	st.replace(ctx, t)
	return nil
}

// failure is err as the registration reports it: a policy refusal as it
// is, an *oauth.Error as auth-failed naming the server and the step, with
// the authorization server's OAuth error; nothing quotes a secret.
func (st *authState) failure(err error) *core.Error {
	var ce *core.Error
	if errors.As(err, &ce) {
		return ce
	}
	cfg, sec := st.cfg, st.client.Secrets
	var oe *oauth.Error
	if !errors.As(err, &oe) {
		oe = &oauth.Error{Step: oauth.StepAuthorization, Message: err.Error()}
	}
	msg := "OAuth " + string(oe.Step) + " failed: " + sec.Scrub(oe.Message)
	if oe.OAuthError != "" && !strings.Contains(oe.Message, oe.OAuthError) {
		msg += "; the authorization server said " + cfg.quote(sec.Scrub(oe.OAuthError), 100)
		if oe.ErrorDescription != "" {
			msg += ": " + cfg.quote(sec.Scrub(oe.ErrorDescription), 300)
		}
	}
	var pe *oauth.PendingError
	if errors.As(err, &pe) {
		msg += "; finish the authorization with finishAuth once the redirect brings the code"
	}
	e := serverError(core.CodeAuthFailed, cfg.Name, cfg, "%s", msg)
	e.Auth = &core.AuthDetail{
		Step:                  string(oe.Step),
		OAuthError:            cfg.cut(sec.Scrub(oe.OAuthError), 100),
		OAuthErrorDescription: cfg.cut(sec.Scrub(oe.ErrorDescription), 300),
	}
	e.Message = sec.Scrub(e.Message)
	return e
}

// MemoryProvider is the default oauth.Provider: tokens and registrations
// in memory (lost with the pool), and no user to ask (Authorize refuses).
type MemoryProvider struct {
	mu      sync.Mutex
	tokens  *oauth.Tokens
	clients map[string]*oauth.ClientInfo
}

// Tokens returns the tokens stored.
func (m *MemoryProvider) Tokens(context.Context) (*oauth.Tokens, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tokens, nil
}

// SaveTokens stores t.
func (m *MemoryProvider) SaveTokens(_ context.Context, t *oauth.Tokens) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens = t
	return nil
}

// ClientInfo returns the registration stored for issuer.
func (m *MemoryProvider) ClientInfo(_ context.Context, issuer string) (*oauth.ClientInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.clients[issuer], nil
}

// SaveClientInfo stores ci for issuer.
func (m *MemoryProvider) SaveClientInfo(_ context.Context, issuer string, ci *oauth.ClientInfo) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clients == nil {
		m.clients = map[string]*oauth.ClientInfo{}
	}
	m.clients[issuer] = ci
	return nil
}

// Authorize refuses: a memory provider has no user to send to authURL.
func (m *MemoryProvider) Authorize(context.Context, string) (*oauth.Redirect, error) {
	return nil, errors.New("no redirectToAuthorization: the authorization code grant needs the user; configure one, or finish later with finishAuth")
}
