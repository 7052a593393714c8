package oauth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// NewPKCE returns a fresh PKCE verifier (43 to 128 unreserved characters
// from crypto/rand) and its S256 challenge (RFC 7636).
func NewPKCE() (verifier, challenge string, err error) {
	verifier, err = randomString(StepAuthorization, 32)
	if err != nil {
		return "", "", err
	}
	return verifier, s256Challenge(verifier), nil
}

// NewState returns a fresh random state parameter.
func NewState() (string, error) {
	return randomString(StepAuthorization, 32)
}

// s256Challenge is BASE64URL(SHA256(ASCII(verifier))) without padding
// (RFC 7636 §4.2).
func s256Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// randomString is n bytes from crypto/rand, base64url without padding (so
// only unreserved characters); its failure is an *Error of step.
func randomString(step Step, n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", &Error{Step: step, Message: "no random bytes: " + err.Error()}
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
