package oauth

// ParseChallenge reads the Bearer challenge of WWW-Authenticate header
// values (RFC 6750 §3, RFC 9728 §5.1): auth-params quoted or not, several
// challenges in one value or several values, the scheme matched without
// regard to case. A missing or malformed header gives the zero Challenge.
func ParseChallenge(values []string) Challenge {
	return Challenge{} // built by the discovery slice
}
