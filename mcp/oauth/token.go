package oauth

import (
	"context"
	"net/url"

	"github.com/toolgate/toolgate/internal/wire"
)

// ExchangeCode redeems an authorization code at meta's token endpoint
// (grant_type=authorization_code, code, redirect_uri, code_verifier, and
// resource when not ""), authenticating as client per TokenAuthMethod. The
// code, the verifier and the client secret join c.Secrets before anything
// is sent. A refusal is an *Error of StepToken with the server's error and
// error_description; a token type other than Bearer is refused.
func ExchangeCode(ctx context.Context, c *Client, meta *ServerMetadata, client *ClientInfo, code, verifier, redirectURL, resource string) (*Tokens, error) {
	if c != nil {
		c.Secrets.Add(code, verifier)
	}
	if code == "" || verifier == "" {
		return nil, &Error{Step: StepToken, Message: "the code exchange needs an authorization code and its PKCE verifier"}
	}
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"code_verifier": {verifier},
	}
	setIf(form, "redirect_uri", redirectURL)
	setIf(form, "resource", resource)
	return grant(ctx, c, StepToken, meta, client, form)
}

// Refresh uses a refresh token (grant_type=refresh_token, resource when
// not "", and scope when not ""); a refusal is an *Error of StepRefresh
// with the server's error (invalid_grant: the refresh token is no longer
// good, authorize again). A new refresh token replaces the old one;
// without one the old one is kept.
func Refresh(ctx context.Context, c *Client, meta *ServerMetadata, client *ClientInfo, refreshToken, resource, scope string) (*Tokens, error) {
	if c != nil {
		c.Secrets.Add(refreshToken)
	}
	if refreshToken == "" {
		return nil, &Error{Step: StepRefresh, Message: "there is no refresh token"}
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}}
	setIf(form, "resource", resource)
	setIf(form, "scope", scope)
	t, err := grant(ctx, c, StepRefresh, meta, client, form)
	if err != nil {
		return nil, err
	}
	if t.RefreshToken == "" {
		t.RefreshToken = refreshToken
	}
	return t, nil
}

// grant sends form to meta's token endpoint with client's authentication
// (TokenAuthMethod) and reads the tokens.
func grant(ctx context.Context, c *Client, step Step, meta *ServerMetadata, client *ClientInfo, form url.Values) (*Tokens, error) {
	if client == nil || client.ClientID == "" {
		return nil, &Error{Step: step, Message: "the token request needs a client_id"}
	}
	if c != nil {
		c.Secrets.Add(client.ClientSecret)
	}
	header := wire.Header{}
	applyClientAuth(TokenAuthMethod(meta, client), client, form, header)
	return postToken(ctx, c, step, meta, form, header)
}

// postToken checks the client and meta's token endpoint, records the
// request's secrets, sends form there and reads the tokens: with a DPoP
// proof when c.DPoP uses DPoP at that server (postTokenDPoP).
func postToken(ctx context.Context, c *Client, step Step, meta *ServerMetadata, form url.Values, header wire.Header) (*Tokens, error) {
	if meta == nil || meta.TokenEndpoint == "" {
		return nil, &Error{Step: step, Message: "the authorization server names no token_endpoint"}
	}
	if err := c.dpop().check(meta); err != nil {
		return nil, err // a required DPoP is never dropped, even by a grant called on its own
	}
	if c.dpop().use(meta) {
		return postTokenDPoP(ctx, c, step, meta.TokenEndpoint, form, header)
	}
	resp, err := sendForm(ctx, c, step, meta.TokenEndpoint, form, header)
	if err != nil {
		return nil, err
	}
	return readTokens(c, step, "the token endpoint", resp)
}

// sendForm records form's secret fields and the Authorization header in
// c.Secrets, then POSTs form to endpoint through c (policy-checked). It
// refuses a Client without a Transport.
func sendForm(ctx context.Context, c *Client, step Step, endpoint string, form url.Values, header wire.Header) (*Response, error) {
	if c == nil || c.Transport == nil {
		return nil, &Error{Step: step, Message: "the flow has no HTTP client"}
	}
	for _, k := range []string{"code", "code_verifier", "refresh_token", "client_secret", "client_assertion", "assertion", "subject_token"} {
		c.Secrets.Add(form.Get(k))
	}
	c.Secrets.Add(header.Get("Authorization"))
	return c.PostForm(ctx, step, endpoint, form, header)
}
