package oauth

// NewPKCE returns a fresh PKCE verifier (43 to 128 unreserved characters
// from crypto/rand) and its S256 challenge (RFC 7636).
func NewPKCE() (verifier, challenge string, err error) {
	return "", "", errNotBuilt(StepAuthorization)
}

// NewState returns a fresh random state parameter.
func NewState() (string, error) {
	return "", errNotBuilt(StepAuthorization)
}
