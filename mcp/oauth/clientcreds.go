package oauth

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/toolgate/toolgate/internal/wire"
)

// AssertionTypeJWT is client_assertion_type of private_key_jwt (RFC 7523 §2.2).
const AssertionTypeJWT = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// ClientCredentialsToken is the client_credentials grant (extension,
// SEP-1046) at meta's token endpoint, with scope and resource when not "".
// With cc.PrivateKeyPEM the client authenticates by private_key_jwt (RFC
// 7523 §2.2): client_id, client_assertion_type and a client_assertion JWT
// signed with the key (cc.Algorithm; "" is the key's own, ES256 for a P-256
// key) whose iss and sub are cc.ClientID, aud the issuer (the token
// endpoint when meta names none), with iat, exp (five minutes) and a
// random jti. With cc.ClientSecret it authenticates per TokenAuthMethod
// (client_secret_basic unless the server lists only client_secret_post).
// It refuses a missing client_id or credential and a key it cannot read
// (never quoting it); a refusal is an *Error of StepToken with the
// server's error.
func ClientCredentialsToken(ctx context.Context, c *Client, meta *ServerMetadata, cc *ClientCredentials, scope, resource string) (*Tokens, error) {
	if cc == nil || cc.ClientID == "" || (cc.ClientSecret == "" && cc.PrivateKeyPEM == "" && cc.Sign == nil) {
		return nil, &Error{Step: StepToken, Message: "client credentials need a client_id and a client secret or a private key"}
	}
	if c != nil {
		c.Secrets.Add(cc.ClientSecret, cc.PrivateKeyPEM)
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	setIf(form, "scope", scope)
	setIf(form, "resource", resource)
	if cc.PrivateKeyPEM == "" && cc.Sign == nil {
		return grant(ctx, c, StepToken, meta, &ClientInfo{ClientID: cc.ClientID, ClientSecret: cc.ClientSecret}, form)
	}
	assertion, err := clientAssertion(ctx, meta, cc)
	if err != nil {
		return nil, err
	}
	if c != nil {
		c.Secrets.Add(assertion)
	}
	form.Set("client_id", cc.ClientID)
	form.Set("client_assertion_type", AssertionTypeJWT)
	form.Set("client_assertion", assertion)
	ctx = withReassert(ctx, func(ctx context.Context) (string, error) { return clientAssertion(ctx, meta, cc) })
	return postToken(ctx, c, StepToken, meta, form, wire.Header{})
}

// clientAssertion is the signed JWT of private_key_jwt for cc at meta:
// signed by cc.Sign when set, else with cc.PrivateKeyPEM (signPEM, which
// the WebAssembly build does not have).
func clientAssertion(ctx context.Context, meta *ServerMetadata, cc *ClientCredentials) (string, error) {
	aud := ""
	if meta != nil {
		aud = meta.Issuer
		if aud == "" {
			aud = meta.TokenEndpoint
		}
	}
	if aud == "" {
		return "", jwtError("the authorization server names no issuer for the assertion's audience")
	}
	jti, err := randomString(StepToken, 16)
	if err != nil {
		return "", err
	}
	t := now().Unix()
	claims := map[string]any{
		"iss": cc.ClientID, "sub": cc.ClientID, "aud": aud,
		"iat": t, "exp": t + jwtLifetime, "jti": jti,
	}
	if cc.Sign == nil {
		return signPEM(cc.PrivateKeyPEM, cc.Algorithm, "JWT", claims)
	}
	body, err := json.Marshal(claims)
	if err != nil {
		return "", jwtError("the JWT claims cannot be encoded")
	}
	jws, err := cc.Sign(ctx, "JWT", cc.Algorithm, body)
	if err != nil {
		return "", jwtError("the signer failed") // its text is not quoted: it may hold anything
	}
	if strings.Count(jws, ".") != 2 || strings.ContainsAny(jws, " \t\r\n") {
		return "", jwtError("the signer's answer is not a compact JWS")
	}
	return jws, nil
}
