package oauth

// jwtLifetime is how long a client assertion is good for, in seconds.
const jwtLifetime = 300

// jwtError is an *Error of StepToken about the client assertion.
func jwtError(msg string) *Error {
	return &Error{Step: StepToken, Message: "private_key_jwt: " + msg}
}
