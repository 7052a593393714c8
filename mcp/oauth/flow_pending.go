package oauth

import (
	"context"
	"crypto/subtle"
)

// Pending is an authorization code grant waiting for the user's redirect:
// what Finish needs to redeem the code (the PKCE verifier, the state sent,
// the authorization server and the client). It holds secrets: it is kept
// in memory and never shown.
type Pending struct {
	meta        *ServerMetadata
	client      *ClientInfo
	redirectURL string
	resource    string
	state       string
	verifier    string
	issuer      string // the tokens' issuer stamp (Tokens.Issuer)
	scope       string // the scope asked for (Tokens.Scope when the answer names none)
}

// State is the state parameter the authorization request carries (what
// the redirect must bring back).
func (p *Pending) State() string { return p.state }

// PendingError is the failure of Provider.Authorize: the user could not
// be asked now. Pending lets the application finish the flow later with
// the code the redirect brings (Finish).
type PendingError struct {
	Err     *Error
	Pending *Pending
}

// Error returns the underlying *Error's message.
func (e *PendingError) Error() string { return e.Err.Error() }

// Unwrap returns the *Error.
func (e *PendingError) Unwrap() error { return e.Err }

// Begin prepares the authorization request: a fresh PKCE pair and state,
// and the URL to send the user to. It refuses (StepAuthorization) a
// redirect URL that is empty and whatever AuthorizationURL refuses.
func Begin(meta *ServerMetadata, client *ClientInfo, redirectURL, scope, resource string) (*Pending, string, error) {
	if redirectURL == "" {
		return nil, "", &Error{Step: StepAuthorization, Message: "no redirectUrl configured for the authorization code grant"}
	}
	verifier, challenge, err := runNewPKCE()
	if err != nil {
		return nil, "", err
	}
	state, err := runNewState()
	if err != nil {
		return nil, "", err
	}
	authURL, err := runAuthorizationURL(meta, client, redirectURL, scope, resource, state, challenge)
	if err != nil {
		return nil, "", err
	}
	pend := &Pending{meta: meta, client: client, redirectURL: redirectURL, resource: resource, state: state, verifier: verifier,
		issuer: trimSlash(meta.Issuer), scope: scope}
	return pend, authURL, nil
}

// Finish redeems the code of the authorization response r to pend's
// request, after checking it in this order (docs/oauth-tokens.md, "The
// authorization response"):
//
//  1. its iss against the authorization server's issuer (checkIssuer:
//     RuleIssuerMismatch, RuleIssuerMissing), so that nothing of a
//     response from the wrong server is used, not even its error;
//  2. an error response is the authorization server's refusal, with its
//     error and error_description;
//  3. its state against the one sent (RuleStateMismatch: a forged or
//     replayed redirect);
//  4. a code must be there.
//
// Those refusals are *Error of StepAuthorization, and the exchange's is
// of StepToken. The tokens, stamped with the authorization server's issuer
// (Tokens.Issuer) and with the scope asked for when the answer names none,
// are not stored: Authorize stores them, and a caller
// finishing a pending flow stores them itself.
func Finish(ctx context.Context, c *Client, pend *Pending, r *Redirect) (*Tokens, error) {
	if pend == nil {
		return nil, &Error{Step: StepAuthorization, Message: "no authorization is waiting"}
	}
	if r == nil {
		return nil, &Error{Step: StepAuthorization, Message: "no authorization response"}
	}
	c.Secrets.Add(r.Code, pend.verifier)
	if err := checkIssuer(c, pend.meta, r); err != nil {
		return nil, err
	}
	if r.Error != "" {
		return nil, c.Secrets.errorf(StepAuthorization, r.Error, r.ErrorDescription, "the authorization server refused the authorization request")
	}
	if subtle.ConstantTimeCompare([]byte(r.State), []byte(pend.state)) != 1 {
		return nil, &Error{Step: StepAuthorization, Rule: RuleStateMismatch,
			Message: "the redirect's state is not the one sent (a forged or stale redirect): refused"}
	}
	if r.Code == "" {
		return nil, &Error{Step: StepAuthorization, Message: "the redirect brought no authorization code"}
	}
	t, err := runExchangeCode(ctx, c, pend.meta, pend.client, r.Code, pend.verifier, pend.redirectURL, pend.resource)
	if err != nil {
		return nil, err
	}
	if t == nil || t.AccessToken == "" {
		return nil, &Error{Step: StepToken, Message: "the token endpoint sent no access token"}
	}
	c.Secrets.Add(t.AccessToken, t.RefreshToken)
	if t.ObtainedAt == 0 {
		t.ObtainedAt = now().Unix()
	}
	t.Issuer = pend.issuer
	if t.Scope == "" {
		t.Scope = pend.scope // RFC 6749 §5.1: no scope in the answer is the scope asked for
	}
	return t, nil
}
