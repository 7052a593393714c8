package oauth

import (
	"context"
	"encoding/json"
)

// Challenge is what a WWW-Authenticate header of a 401 or 403 says
// (wwwauth.go ParseChallenge): the Bearer challenge's parameters.
type Challenge struct {
	Scheme           string // "Bearer" or "DPoP" (as sent); "" when there was no header
	ResourceMetadata string // resource_metadata: the PRM URL (RFC 9728 §5.1)
	Scope            string // scope
	Error            string // error: "invalid_token", "insufficient_scope", …
	ErrorDescription string // error_description
}

// ResourceMetadata is a protected resource's metadata (RFC 9728).
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
	// URL is where it was read from (not in the document).
	URL string `json:"-"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414 or
// OpenID discovery); Fallback marks the 2025-03-26 defaults (/authorize,
// /token, /register at the MCP server's origin) used when none is found.
type ServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported            []string `json:"response_types_supported,omitempty"`
	GrantTypesSupported               []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported,omitempty"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported,omitempty"`
	// AuthorizationResponseIssParameterSupported says every authorization
	// response carries iss (RFC 9207 §3): one without is then refused.
	AuthorizationResponseIssParameterSupported bool `json:"authorization_response_iss_parameter_supported,omitempty"`
	// DPoPSigningAlgValuesSupported lists the DPoP proof algorithms the
	// server takes (RFC 9449 §5.1): with ES256 the flow uses DPoP (DPoP).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
	Fallback                      bool     `json:"-"`
}

// ClientInfo is the client's registration at one authorization server:
// pre-registered, a Client ID Metadata Document URL as client_id, or what
// dynamic registration returned (RFC 7591).
type ClientInfo struct {
	ClientID                string `json:"client_id"`
	ClientSecret            string `json:"client_secret,omitempty"`
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	ClientSecretExpiresAt   int64  `json:"client_secret_expires_at,omitempty"`
	// Issuer is the authorization server the registration belongs to,
	// stamped by the flow when it stores it (in Raw too), so that it is
	// never used at another ("": stored before the stamp, taken as the
	// issuer's it was asked for). For a pre-registered client
	// (Settings.Client) the application sets it: a resource that names
	// another authorization server is then refused instead of being sent
	// the client id ("": the client is used wherever the resource points).
	Issuer string `json:"issuer,omitempty"`
	// Raw is the registration answer as the server sent it (for the
	// provider to store), nil for pre-registered and CIMD clients.
	Raw json.RawMessage `json:"-"`
}

// Tokens is a token endpoint's answer (RFC 6749 §5.1), with ObtainedAt
// (Unix seconds) and Issuer set by the flow so expiry can be judged later
// and a refresh token goes back only to its authorization server.
type Tokens struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in,omitempty"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope,omitempty"`
	ObtainedAt   int64  `json:"obtained_at,omitempty"`
	// Issuer is the authorization server that issued the tokens, set by
	// the flow: a refresh token is only ever sent back to it ("": stored
	// before the stamp, taken as the current server's).
	Issuer string `json:"issuer,omitempty"`
	// DPoPKey is the thumbprint of the DPoP key a token of TokenType
	// "DPoP" is bound to (its cnf.jkt, RFC 9449 §6), set by the flow; the
	// key itself stays with the DPoPSigner.
	DPoPKey string `json:"dpop_jkt,omitempty"`
}

// Settings are what the application configured for one server's
// authorization (JS: the auth provider's data; its functions are Provider).
type Settings struct {
	// RedirectURL is the authorization code flow's redirect_uri ("" when
	// the flow has no user: client credentials, cross-app access).
	RedirectURL string
	// ClientMetadata is the client metadata sent to dynamic registration
	// (client_name, redirect_uris, grant_types, …), as JSON; the flow fills
	// redirect_uris from RedirectURL when absent.
	ClientMetadata json.RawMessage
	// ClientMetadataURL is an https URL whose document describes the
	// client (Client ID Metadata Document): used as client_id when the
	// authorization server says client_id_metadata_document_supported.
	ClientMetadataURL string
	// Client is pre-registered client information (nil: register).
	Client *ClientInfo
	// Scope is asked for when neither the challenge nor the resource
	// metadata names one ("" : omitted).
	Scope string
	// ClientCredentials selects the client_credentials grant instead of
	// the authorization code grant (extension): client_secret_basic with
	// Client's secret, or private_key_jwt with PrivateKeyPEM.
	ClientCredentials *ClientCredentials
	// CrossApp selects the cross-app access extension (token exchange at
	// the identity provider, then the JWT bearer grant).
	CrossApp *CrossApp
	// WorkloadIdentity selects the JWT bearer grant of a workload's
	// platform-issued JWT (extension, jwtbearer.go).
	WorkloadIdentity *WorkloadIdentity
	// DPoP is the DPoP mode (RFC 9449): DPoPAuto ("" too), DPoPRequire or
	// DPoPOff (dpop.go).
	DPoP string
	// DPoPSigner holds the DPoP keys and signs proofs (nil: the build's
	// own, in memory; the WebAssembly build has none, and the JS host
	// gives one that keeps the keys in WebCrypto).
	DPoPSigner DPoPSigner
}

// ClientCredentials configures the client_credentials grant: ClientID and
// either ClientSecret (client_secret_basic) or PrivateKeyPEM with
// Algorithm ("ES256" default, "RS256", …) for private_key_jwt.
type ClientCredentials struct {
	ClientID      string
	ClientSecret  string
	PrivateKeyPEM string
	Algorithm     string
	// Sign, when set, signs the client assertion instead of PrivateKeyPEM:
	// it gets the JWS header's typ, the algorithm asked for ("": the key's
	// own) and the claims as JSON, and returns the compact JWS. The JS
	// host signs with WebCrypto this way, so the key never enters Go and
	// the WebAssembly build links no key parser (token_jwt_js.go).
	Sign AssertionSigner
}

// AssertionSigner signs a JWT: the compact JWS of claims with the header
// {"alg", "typ"}; alg "" lets the signer use its key's own algorithm.
type AssertionSigner func(ctx context.Context, typ, alg string, claims []byte) (string, error)

// CrossApp configures cross-app access: the identity provider's token
// endpoint, the ID token to exchange, and the client's credentials at the
// identity provider and at the authorization server.
type CrossApp struct {
	IDPTokenEndpoint string
	IDToken          string
	IDPClientID      string
	IDPClientSecret  string
	ClientID         string
	ClientSecret     string
}
