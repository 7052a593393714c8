package oauth

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/toolgate/toolgate/internal/wire"
)

// maxAssertionBytes bounds a workload identity assertion (the limits table
// of the README): a platform's workload JWT is a few kilobytes; a larger
// one is refused before it is sent.
const maxAssertionBytes = 16 << 10

// WorkloadIdentity configures workload identity federation (extension,
// SEP-1933): the JWT bearer grant (RFC 7523 §2.1) of a JWT the workload's
// platform issued (a Kubernetes service account token, a cloud's instance
// identity, a CI job's OIDC token), with no user, no registration and no
// client secret.
type WorkloadIdentity struct {
	// ClientID is sent as client_id, the authorization server's
	// token_endpoint_auth_method "none" ("": none sent, RFC 7523 §3.1
	// makes client authentication optional for this grant).
	ClientID string
	// Assertion is the workload's JWT, sent as it is.
	Assertion string
	// FetchAssertion, when set, is asked for the JWT before each token
	// request instead of using Assertion: a platform's tokens are short
	// lived, so each grant gets a fresh one. Its error's text is never
	// quoted (it may hold anything); an *Error it returns is passed on as
	// it is.
	FetchAssertion func(ctx context.Context) (string, error)
}

// WorkloadIdentityToken is the JWT bearer grant of workload identity
// federation at meta's token endpoint: grant_type
// urn:ietf:params:oauth:grant-type:jwt-bearer, assertion (w.Assertion, or
// what w.FetchAssertion answers now), client_id when w.ClientID is not "",
// and scope and resource when not "". The assertion joins c.Secrets before
// anything is sent. It sends one request: a refusal (invalid_grant for an
// expired assertion or one of another audience, invalid_scope,
// unauthorized_client, …) is an *Error of StepToken with the server's
// error, never followed by another try or another grant. It refuses
// (before sending) a missing or empty assertion, one that is not a
// compact JWT (three or five dot-separated parts, no white space) and one
// over maxAssertionBytes, never quoting it.
func WorkloadIdentityToken(ctx context.Context, c *Client, meta *ServerMetadata, w *WorkloadIdentity, scope, resource string) (*Tokens, error) {
	if w == nil || (w.Assertion == "" && w.FetchAssertion == nil) {
		return nil, &Error{Step: StepToken, Message: "workload identity needs an assertion (the workload's JWT) or a function that fetches one"}
	}
	assertion, err := workloadAssertion(ctx, w)
	if c != nil {
		c.Secrets.Add(assertion)
	}
	if err != nil {
		return nil, err
	}
	form := url.Values{"grant_type": {GrantJWTBearer}, "assertion": {assertion}}
	setIf(form, "client_id", w.ClientID)
	setIf(form, "scope", scope)
	setIf(form, "resource", resource)
	return postToken(ctx, c, StepToken, meta, form, wire.Header{})
}

// workloadAssertion is the assertion to send now: w.FetchAssertion's
// answer when it is set, else w.Assertion, checked to be a compact JWT.
func workloadAssertion(ctx context.Context, w *WorkloadIdentity) (string, error) {
	a := w.Assertion
	if w.FetchAssertion != nil {
		var err error
		a, err = w.FetchAssertion(ctx)
		var own *Error
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return "", ctx.Err()
		case errors.As(err, &own):
			return "", own // the function's answer refused by its caller (its type), in our words
		default:
			return "", &Error{Step: StepToken, Message: "the workload identity assertion function failed"}
		}
	}
	switch {
	case a == "":
		return a, &Error{Step: StepToken, Message: "the workload identity assertion is empty"}
	case len(a) > maxAssertionBytes:
		return a, &Error{Step: StepToken, Message: "the workload identity assertion is larger than 16 KiB"}
	case !compactJWT(a):
		return a, &Error{Step: StepToken, Message: "the workload identity assertion is not a compact JWT (three or five base64url parts joined by '.')"}
	}
	return a, nil
}

// compactJWT says s has the shape of a JWT's compact serialization (RFC
// 7519 §7.2): three (JWS) or five (JWE) parts of base64url characters
// joined by ".", the header not empty, nor a JWS's payload (a JWE's
// encrypted key may be).
func compactJWT(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 3 && len(parts) != 5 || parts[0] == "" || len(parts) == 3 && parts[1] == "" {
		return false
	}
	for _, p := range parts {
		for _, r := range p {
			if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}
