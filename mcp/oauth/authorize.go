package oauth

import (
	"net/url"
	"slices"
	"strings"
)

// AuthorizationURL is the authorization request of the code grant (RFC
// 6749 §4.1.1 with PKCE and RFC 8707): response_type=code, client_id,
// redirect_uri, code_challenge (S256), state, resource, and scope when not
// "" (with prompt=consent when it holds offline_access, as OpenID Connect
// asks). The authorization endpoint's own query is kept. It refuses
// (StepAuthorization) a server whose metadata does not list S256 in
// code_challenge_methods_supported (an absent list means no PKCE, spec
// 2025-11-25; only the 2025-03-26 default endpoints, Fallback, are taken
// on trust), one whose response_types_supported lacks "code", an endpoint
// that is not an absolute http(s) URL or that has a fragment, and missing
// client_id, redirect URL, state or challenge. The URL is not checked
// against the policy here: the caller checks it before opening it.
func AuthorizationURL(meta *ServerMetadata, client *ClientInfo, redirectURL, scope, resource, state, challenge string) (string, error) {
	u, err := authorizationEndpoint(meta)
	if err != nil {
		return "", err
	}
	if client == nil || client.ClientID == "" || redirectURL == "" || state == "" || challenge == "" {
		return "", &Error{Step: StepAuthorization, Message: "the authorization request needs a client_id, a redirect URL, a state and a PKCE challenge"}
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", client.ClientID)
	q.Set("redirect_uri", redirectURL)
	q.Set("code_challenge", challenge)
	q.Set("code_challenge_method", "S256")
	q.Set("state", state)
	setIf(q, "resource", resource)
	setIf(q, "scope", scope)
	if slices.Contains(strings.Fields(scope), "offline_access") {
		q.Set("prompt", "consent")
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// authorizationEndpoint is meta's authorization endpoint once meta passes
// the checks of AuthorizationURL.
func authorizationEndpoint(meta *ServerMetadata) (*url.URL, error) {
	fail := func(msg string) (*url.URL, error) {
		return nil, &Error{Step: StepAuthorization, Message: msg}
	}
	if meta == nil || meta.AuthorizationEndpoint == "" {
		return fail("the authorization server names no authorization_endpoint")
	}
	if !meta.Fallback && !slices.Contains(meta.CodeChallengeMethodsSupported, "S256") {
		return fail("the authorization server does not list S256 in code_challenge_methods_supported (PKCE is required)")
	}
	if len(meta.ResponseTypesSupported) > 0 && !slices.Contains(meta.ResponseTypesSupported, "code") {
		return fail("the authorization server does not list the response type code")
	}
	u, err := url.Parse(meta.AuthorizationEndpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fail("the authorization_endpoint is not an absolute http(s) URL (" + redactURL(meta.AuthorizationEndpoint) + ")")
	}
	if u.Fragment != "" || strings.Contains(meta.AuthorizationEndpoint, "#") {
		return fail("the authorization_endpoint has a fragment (" + redactURL(meta.AuthorizationEndpoint) + ")")
	}
	return u, nil
}

// setIf sets key to value in q when value is not "".
func setIf(q url.Values, key, value string) {
	if value != "" {
		q.Set(key, value)
	}
}
