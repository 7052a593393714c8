package oauth

import (
	"context"
	"net/url"

	"github.com/toolgate/toolgate/internal/wire"
)

// The URNs of cross-app access (RFC 8693, RFC 7523, the identity assertion
// authorization grant draft).
const (
	GrantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	GrantJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	TokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	TokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// CrossAppToken is cross-app access (extension, SEP-990). First a token
// exchange (RFC 8693) at x.IDPTokenEndpoint: grant_type token-exchange,
// requested_token_type id-jag, audience meta.Issuer, resource, scope when
// not "", subject_token x.IDToken of subject_token_type id_token, the
// client authenticated at the identity provider as x.IDPClientID
// (client_secret_basic with x.IDPClientSecret, else client_id in the
// body); the answer must be of issued_token_type id-jag. Then the JWT
// bearer grant (RFC 7523 §2.1) of that assertion at meta's token endpoint,
// with scope when not "", the client authenticated as x.ClientID per
// TokenAuthMethod. Either refusal is an *Error of StepToken with the
// server's error; the ID token, the assertion and the secrets join
// c.Secrets before anything is sent.
func CrossAppToken(ctx context.Context, c *Client, meta *ServerMetadata, x *CrossApp, scope, resource string) (*Tokens, error) {
	if x == nil || x.IDPTokenEndpoint == "" || x.IDToken == "" || x.ClientID == "" {
		return nil, &Error{Step: StepToken, Message: "cross-app access needs the identity provider's token endpoint, an ID token and a client_id"}
	}
	if c != nil {
		c.Secrets.Add(x.IDToken, x.IDPClientSecret, x.ClientSecret)
	}
	if meta == nil || meta.Issuer == "" {
		return nil, &Error{Step: StepToken, Message: "cross-app access needs the authorization server's issuer (the token exchange's audience)"}
	}
	jag, err := exchangeIDToken(ctx, c, meta.Issuer, x, scope, resource)
	if err != nil {
		return nil, err
	}
	form := url.Values{"grant_type": {GrantJWTBearer}, "assertion": {jag}}
	setIf(form, "scope", scope)
	return grant(ctx, c, StepToken, meta, &ClientInfo{ClientID: x.ClientID, ClientSecret: x.ClientSecret}, form)
}

// exchangeIDToken is the identity assertion authorization grant (ID-JAG)
// the identity provider issues for x.IDToken, for the authorization server
// audience and resource.
func exchangeIDToken(ctx context.Context, c *Client, audience string, x *CrossApp, scope, resource string) (string, error) {
	const what = "the identity provider's token endpoint"
	form := url.Values{
		"grant_type":           {GrantTokenExchange},
		"requested_token_type": {TokenTypeIDJAG},
		"audience":             {audience},
		"subject_token":        {x.IDToken},
		"subject_token_type":   {TokenTypeIDToken},
	}
	setIf(form, "resource", resource)
	setIf(form, "scope", scope)
	idp := &ClientInfo{ClientID: x.IDPClientID, ClientSecret: x.IDPClientSecret}
	header := wire.Header{}
	if idp.ClientID != "" {
		applyClientAuth(TokenAuthMethod(nil, idp), idp, form, header)
	}
	resp, err := sendForm(ctx, c, StepToken, x.IDPTokenEndpoint, form, header)
	if err != nil {
		return "", err
	}
	a, err := readAnswer(c, StepToken, what, resp)
	if err != nil {
		return "", err
	}
	if a.IssuedTokenType != TokenTypeIDJAG {
		return "", c.Secrets.errorf(StepToken, "", "", "%s issued a token of type %q, not an ID-JAG", what, cut(a.IssuedTokenType, 80))
	}
	return a.AccessToken, nil
}
