package oauth

import "net/url"

// The rules of the authorization response a refusal names (Error.Rule).
const (
	// RuleIssuerMismatch: the response's iss is not the recorded issuer.
	RuleIssuerMismatch = "iss-mismatch"
	// RuleIssuerMissing: the authorization server says it always sends
	// iss (authorization_response_iss_parameter_supported), and the
	// response has none.
	RuleIssuerMissing = "iss-missing"
	// RuleStateMismatch: the response's state is not the one sent.
	RuleStateMismatch = "state-mismatch"
)

// Redirect is the authorization response the user's redirect brought back
// (RFC 6749 §4.1.2, §4.1.2.1): the code and the state, or the
// authorization server's error, and the iss parameter (RFC 9207). Finish
// compares iss with the authorization server's issuer before it does
// anything else with the response (docs/oauth-tokens.md, "The
// authorization response").
type Redirect struct {
	Code  string
	State string
	// Iss is the iss parameter, form-decoded and nothing else; HasIss says
	// the response carried one (an empty iss is present, and matches no
	// issuer).
	Iss    string
	HasIss bool
	// Error and ErrorDescription are an error response's error and
	// error_description ("" for a code).
	Error            string
	ErrorDescription string
}

// ParseRedirect reads the authorization response from the query of the
// redirect URL raw: code, state, iss, error and error_description (the
// first value of each). It refuses (StepAuthorization) a URL that does not
// parse and one with neither a code nor an error. The message never
// quotes raw, which holds the code.
func ParseRedirect(raw string) (*Redirect, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, &Error{Step: StepAuthorization, Message: "the redirect is not a URL"}
	}
	q := u.Query()
	r := &Redirect{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss"), HasIss: q.Has("iss"),
		Error: q.Get("error"), ErrorDescription: q.Get("error_description")}
	if r.Code == "" && r.Error == "" {
		return nil, &Error{Step: StepAuthorization, Message: "the redirect carries neither a code nor an error"}
	}
	return r, nil
}

// checkIssuer is RFC 9207's check of the authorization response r against
// the authorization server meta the request went to (MCP 2026-07-28,
// "Authorization Response Validation"), run on error responses too:
//
//   - an iss is compared with meta.Issuer, the issuer of the validated
//     metadata, byte for byte: no case folding, no default port, no
//     trailing "/", no percent-decoding beyond the query's own;
//   - no iss is refused when meta says
//     authorization_response_iss_parameter_supported, and accepted
//     otherwise;
//   - the 2025-03-26 default endpoints (meta.Fallback) have no validated
//     issuer to compare with: the response is taken as it is.
//
// The refusal names its rule (RuleIssuerMismatch, RuleIssuerMissing) and
// quotes neither the iss received nor the response's error.
func checkIssuer(c *Client, meta *ServerMetadata, r *Redirect) *Error {
	if meta == nil || meta.Fallback {
		return nil
	}
	switch {
	case r.HasIss && r.Iss != meta.Issuer:
		e := c.Secrets.errorf(StepAuthorization, "", "",
			"the authorization response's iss is not the issuer %s the request went to (a mix-up, RFC 9207): refused before the code is used",
			redactURL(meta.Issuer))
		e.Rule = RuleIssuerMismatch
		return e
	case !r.HasIss && meta.AuthorizationResponseIssParameterSupported:
		e := c.Secrets.errorf(StepAuthorization, "", "",
			"the authorization server %s says its authorization responses carry iss, and this one has none (RFC 9207): refused before the code is used",
			redactURL(meta.Issuer))
		e.Rule = RuleIssuerMissing
		return e
	}
	return nil
}
