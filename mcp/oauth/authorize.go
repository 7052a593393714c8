package oauth

// AuthorizationURL is the authorization request of the code grant (RFC
// 6749 §4.1.1 with PKCE and RFC 8707): response_type=code, client_id,
// redirect_uri, code_challenge (S256), state, resource, and scope when not
// "". It refuses (StepAuthorization) a server that does not support S256.
func AuthorizationURL(meta *ServerMetadata, client *ClientInfo, redirectURL, scope, resource, state, challenge string) (string, error) {
	return "", errNotBuilt(StepAuthorization)
}
