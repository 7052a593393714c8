package oauth

import "context"

// ClientCredentialsToken is the client_credentials grant (extension):
// client_secret_basic with cc.ClientSecret, or private_key_jwt (RFC 7523
// §2.2) with a client assertion signed by cc.PrivateKeyPEM (ES256 default;
// RS256, PS256, ES384 …), aud the token endpoint; scope and resource as
// given.
func ClientCredentialsToken(ctx context.Context, c *Client, meta *ServerMetadata, cc *ClientCredentials, scope, resource string) (*Tokens, error) {
	return nil, errNotBuilt(StepToken)
}
