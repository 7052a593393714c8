package oauth

import (
	"encoding/base64"
	"net/url"
	"slices"

	"github.com/toolgate/toolgate/internal/wire"
)

// The token endpoint's client authentication methods the flow sends
// (RFC 6749 §2.3.1, RFC 7591 §2).
const (
	AuthSecretBasic = "client_secret_basic"
	AuthSecretPost  = "client_secret_post"
	AuthNone        = "none"
)

// TokenAuthMethod is how the client authenticates at meta's token
// endpoint: the registration's token_endpoint_auth_method when it is one
// of the three above, usable (a secret for the secret methods) and listed
// in token_endpoint_auth_methods_supported (or the list is absent); else,
// with an absent list, client_secret_basic for a client with a secret
// (RFC 8414's default) and none without; else the first the server lists
// of client_secret_basic and client_secret_post (with a secret) and none;
// else client_secret_post with a secret, none without.
func TokenAuthMethod(meta *ServerMetadata, client *ClientInfo) string {
	var supported []string
	if meta != nil {
		supported = meta.TokenEndpointAuthMethodsSupported
	}
	hasSecret := client != nil && client.ClientSecret != ""
	usable := func(m string) bool {
		return m == AuthNone || (hasSecret && (m == AuthSecretBasic || m == AuthSecretPost))
	}
	if client != nil && usable(client.TokenEndpointAuthMethod) &&
		(len(supported) == 0 || slices.Contains(supported, client.TokenEndpointAuthMethod)) {
		return client.TokenEndpointAuthMethod
	}
	if len(supported) == 0 {
		if hasSecret {
			return AuthSecretBasic
		}
		return AuthNone
	}
	for _, m := range []string{AuthSecretBasic, AuthSecretPost, AuthNone} {
		if usable(m) && slices.Contains(supported, m) {
			return m
		}
	}
	if hasSecret {
		return AuthSecretPost
	}
	return AuthNone
}

// applyClientAuth adds the client's authentication by method to a token
// request: a Basic Authorization header, client_id and client_secret in
// the form, or client_id alone (a public client).
func applyClientAuth(method string, client *ClientInfo, form url.Values, header wire.Header) {
	switch method {
	case AuthSecretBasic:
		header.Set("Authorization", basicCredentials(client.ClientID, client.ClientSecret))
	case AuthSecretPost:
		form.Set("client_id", client.ClientID)
		form.Set("client_secret", client.ClientSecret)
	default:
		form.Set("client_id", client.ClientID)
	}
}

// basicCredentials is the Authorization value of client_secret_basic (RFC
// 6749 §2.3.1): the client id and secret, each form-urlencoded (Appendix
// B), joined by ":" and base64-encoded.
func basicCredentials(id, secret string) string {
	pair := url.QueryEscape(id) + ":" + url.QueryEscape(secret)
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(pair))
}
