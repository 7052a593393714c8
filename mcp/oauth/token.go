package oauth

import "context"

// ExchangeCode redeems an authorization code at meta's token endpoint
// (grant_type=authorization_code, code, redirect_uri, code_verifier,
// resource), authenticating as client per clientAuth. A refusal is an
// *Error of StepToken with the server's error and error_description.
func ExchangeCode(ctx context.Context, c *Client, meta *ServerMetadata, client *ClientInfo, code, verifier, redirectURL, resource string) (*Tokens, error) {
	return nil, errNotBuilt(StepToken)
}

// Refresh uses a refresh token (grant_type=refresh_token, resource, and
// scope when not ""); a refusal is an *Error of StepRefresh. A new
// refresh token replaces the old one; without one the old one is kept.
func Refresh(ctx context.Context, c *Client, meta *ServerMetadata, client *ClientInfo, refreshToken, resource, scope string) (*Tokens, error) {
	return nil, errNotBuilt(StepRefresh)
}
