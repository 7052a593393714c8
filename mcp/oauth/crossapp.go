package oauth

import "context"

// CrossAppToken is cross-app access (extension): a token exchange (RFC
// 8693) of x.IDToken at the identity provider for an identity assertion
// authorization grant (requested_token_type
// urn:ietf:params:oauth:token-type:id-jag, audience meta.Issuer, resource),
// then the JWT bearer grant (RFC 7523) of that assertion at meta's token
// endpoint.
func CrossAppToken(ctx context.Context, c *Client, meta *ServerMetadata, x *CrossApp, scope, resource string) (*Tokens, error) {
	return nil, errNotBuilt(StepToken)
}
