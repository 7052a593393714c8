package oauth

import "encoding/base64"

// jwtLifetime is how long a client assertion is good for, in seconds.
const jwtLifetime = 300

// b64 is base64url without padding.
func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// jwtError is an *Error of StepToken about the client assertion.
func jwtError(msg string) *Error {
	return &Error{Step: StepToken, Message: "private_key_jwt: " + msg}
}
