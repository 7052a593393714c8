package oauth

import (
	"context"
	"net/url"
	"strings"
)

// Provider is where a flow keeps what it learns and how it reaches the
// user (JS: the auth provider's functions; the mcp package gives a memory
// store for what the application does not keep itself).
type Provider interface {
	// Tokens returns the stored tokens for the server (nil: none).
	Tokens(ctx context.Context) (*Tokens, error)
	// SaveTokens stores tokens (nil: forget them).
	SaveTokens(ctx context.Context, t *Tokens) error
	// ClientInfo returns the stored registration at issuer (nil: none).
	ClientInfo(ctx context.Context, issuer string) (*ClientInfo, error)
	// SaveClientInfo stores a registration at issuer.
	SaveClientInfo(ctx context.Context, issuer string, ci *ClientInfo) error
	// Authorize sends the user to authURL and returns the authorization
	// response the redirect brought back, whole: its iss too (RFC 9207),
	// which Finish checks before the code is used (ParseRedirect reads
	// a redirect URL). An error when the user cannot be asked now (the
	// application finishes later with Finish).
	Authorize(ctx context.Context, authURL string) (*Redirect, error)
}

// The functions the flow orchestrates, as variables so the flow's tests
// can put fakes in their place.
var (
	runDiscoverResource       = DiscoverResource
	runCheckResource          = CheckResource
	runDiscoverServer         = DiscoverServer
	runLegacyServer           = LegacyServer
	runChooseScope            = ChooseScope
	runResourceFor            = ResourceFor
	runRegister               = Register
	runNewPKCE                = NewPKCE
	runNewState               = NewState
	runAuthorizationURL       = AuthorizationURL
	runExchangeCode           = ExchangeCode
	runRefreshTokens          = Refresh
	runClientCredentialsToken = ClientCredentialsToken
	runCrossAppToken          = CrossAppToken
	runWorkloadIdentityToken  = WorkloadIdentityToken
)

// Authorize runs the flow for the MCP server at serverURL after its
// challenge ch (a 401, or a 403 insufficient_scope for a step-up):
// discovery, registration, then the grant s selects, and stores the
// tokens with p. It returns the tokens to send.
//
// Stored tokens with a refresh token are refreshed first (not on a
// step-up, which needs a new grant); only when that fails does a new
// authorization start. A step-up asks for the scope the stored tokens
// were granted as well as the challenge's (StepUpChallenge). The authorization code grant refuses
// (StepAuthorization) what Finish refuses: an authorization response whose
// iss is not the authorization server's issuer (or has none when the
// server says it always sends one), or whose state is not the one sent. When
// p.Authorize cannot ask the user now, the error is returned and the flow
// may be finished later with Finish and the Pending that error carries
// (a *PendingError).
func Authorize(ctx context.Context, c *Client, serverURL string, ch Challenge, s *Settings, p Provider) (*Tokens, error) {
	if s == nil {
		s = &Settings{}
	}
	if p == nil {
		return nil, &Error{Step: StepAuthorization, Message: "no auth provider"}
	}
	at, err := discover(ctx, c, serverURL, ch)
	if err != nil {
		return nil, err
	}
	if err := c.dpop().check(at.meta); err != nil {
		return nil, err // DPoP required where it cannot be had: refused before any token request
	}
	if ch.Error == "insufficient_scope" {
		if old, err := p.Tokens(ctx); err == nil && old != nil {
			ch = StepUpChallenge(ch, old.Scope)
		}
	}
	scope := runChooseScope(ch, at.prm, at.meta, s.Scope)
	var t *Tokens
	switch {
	case s.ClientCredentials != nil:
		t, err = runClientCredentialsToken(ctx, c, at.meta, s.ClientCredentials, scope, at.resource)
	case s.CrossApp != nil:
		t, err = runCrossAppToken(ctx, c, at.meta, s.CrossApp, scope, at.resource)
	case s.WorkloadIdentity != nil:
		t, err = runWorkloadIdentityToken(ctx, c, at.meta, s.WorkloadIdentity, scope, at.resource)
	default:
		t, err = codeFlow(ctx, c, at, ch, scope, s, p)
	}
	if err != nil {
		return nil, err
	}
	if t != nil && t.Scope == "" {
		t.Scope = scope // RFC 6749 §5.1: no scope in the answer is the scope asked for
	}
	return save(ctx, c, p, t, at.issuer)
}

// found is what discovery learned: the resource metadata (nil: the
// 2025-03-26 fallback), the authorization server's metadata, the resource
// to name in requests (ResourceFor) and the issuer under
// which the registration is kept.
type found struct {
	prm      *ResourceMetadata
	meta     *ServerMetadata
	resource string
	issuer   string
}

// discover finds the resource's and its authorization server's metadata.
func discover(ctx context.Context, c *Client, serverURL string, ch Challenge) (*found, error) {
	prm, err := runDiscoverResource(ctx, c, serverURL, ch)
	if err != nil {
		return nil, err
	}
	at := &found{prm: prm}
	if prm == nil {
		at.meta, err = runLegacyServer(ctx, c, serverURL)
	} else {
		if err := runCheckResource(prm, serverURL); err != nil {
			return nil, err
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, &Error{Step: StepDiscovery, Message: "the resource metadata lists no authorization server"}
		}
		at.meta, err = runDiscoverServer(ctx, c, prm.AuthorizationServers[0])
	}
	if err != nil {
		return nil, err
	}
	if at.meta == nil {
		return nil, &Error{Step: StepDiscovery, Message: "no authorization server metadata"}
	}
	at.resource = runResourceFor(prm, serverURL)
	at.issuer = strings.TrimSuffix(at.meta.Issuer, "/") // one registration per issuer, with or without its trailing "/"
	if at.issuer == "" {
		at.issuer = originOnly(serverURL)
	}
	return at, nil
}

// codeFlow is the authorization code grant: the registration, a refresh
// of stored tokens when possible, else PKCE, the user's authorization and
// the code's exchange.
func codeFlow(ctx context.Context, c *Client, at *found, ch Challenge, scope string, s *Settings, p Provider) (*Tokens, error) {
	client, err := clientFor(ctx, c, at, s, p)
	if err != nil {
		return nil, err
	}
	if ch.Error != "insufficient_scope" {
		if t := tryRefresh(ctx, c, at, client, p); t != nil {
			return t, nil
		}
	}
	pend, authURL, err := Begin(at.meta, client, s.RedirectURL, scope, at.resource)
	if err != nil {
		return nil, err
	}
	pend.issuer = at.issuer
	c.Secrets.Add(pend.verifier)
	r, err := p.Authorize(ctx, authURL)
	if err == nil && r == nil {
		err = &Error{Step: StepAuthorization, Message: "the auth provider brought no authorization response back"}
	}
	if err != nil {
		return nil, &PendingError{Err: flowError(err, StepAuthorization, c), Pending: pend}
	}
	return Finish(ctx, c, pend, r)
}

// tryRefresh refreshes p's stored tokens when they hold a refresh token
// issued by at's authorization server; nil when there is none or the
// refresh failed (a new authorization follows).
func tryRefresh(ctx context.Context, c *Client, at *found, client *ClientInfo, p Provider) *Tokens {
	old, err := p.Tokens(ctx)
	if err != nil || old == nil || old.RefreshToken == "" || !issuedBy(old.Issuer, at.issuer) {
		return nil // another authorization server's refresh token is never sent to this one
	}
	c.Secrets.Add(old.AccessToken, old.RefreshToken)
	// A DPoP-bound refresh proves the key of the tokens refreshed (RFC 9449 §5).
	t, err := runRefreshTokens(withDPoPKey(ctx, old.DPoPKey), c, at.meta, client, old.RefreshToken, at.resource, "")
	if err != nil || t == nil || t.AccessToken == "" {
		return nil
	}
	if t.RefreshToken == "" {
		t.RefreshToken = old.RefreshToken
	}
	if t.Scope == "" {
		t.Scope = old.Scope // RFC 6749 §6: the scope of the tokens refreshed
	}
	return t
}

// save stamps t with the time it was obtained and the issuer of the
// authorization server that issued it, records its secrets and stores it
// with p.
func save(ctx context.Context, c *Client, p Provider, t *Tokens, issuer string) (*Tokens, error) {
	if t == nil || t.AccessToken == "" {
		return nil, &Error{Step: StepToken, Message: "the token endpoint sent no access token"}
	}
	c.Secrets.Add(t.AccessToken, t.RefreshToken)
	if t.ObtainedAt == 0 {
		t.ObtainedAt = now().Unix()
	}
	t.Issuer = issuer
	if err := p.SaveTokens(ctx, t); err != nil {
		return nil, flowError(err, StepToken, c)
	}
	return t, nil
}

// flowError is err as an *Error of step (an *Error stays as it is), its
// message scrubbed of c's secrets.
func flowError(err error, step Step, c *Client) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	if e, ok := err.(*PendingError); ok {
		return e.Err
	}
	return c.Secrets.errorf(step, "", "", "%s", err.Error())
}

// originOnly is scheme://host of raw ("" when it does not parse).
func originOnly(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}
