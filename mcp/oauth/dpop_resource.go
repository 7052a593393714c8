package oauth

import (
	"context"
	"strings"

	"github.com/toolgate/toolgate/internal/wire"
)

// SetAuthorization sets req's Authorization for the tokens t (Tokens is
// what the flow stored): "Bearer <token>" for a bearer token; for a
// DPoP-bound one (TokenType "DPoP", RFC 9449 §7.1) "DPoP <token>" and a
// DPoP header with a fresh proof of t's key: htm req's method, htu its URL
// without query and fragment, the MCP server's latest nonce for its
// origin, and ath, the access token's hash. Any Authorization and DPoP
// header of an earlier attempt is removed first. It reports false, and
// sends no token, when t is nil or the proof cannot be made (the key is
// gone, d is nil): the server's 401 then runs the flow again, which binds
// a new key.
func (d *DPoP) SetAuthorization(ctx context.Context, req *wire.Request, t *Tokens) bool {
	req.Header.Del("Authorization")
	req.Header.Del("DPoP")
	if t == nil || t.AccessToken == "" {
		return false
	}
	if !strings.EqualFold(t.TokenType, TokenTypeDPoP) {
		req.Header.Set("Authorization", "Bearer "+t.AccessToken)
		return true
	}
	if d == nil || d.Signer == nil || t.DPoPKey == "" {
		return false
	}
	raw := req.URL.String()
	proof, err := d.proof(ctx, t.DPoPKey, req.Method, raw, d.nonce("rs", raw), t.AccessToken)
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", TokenTypeDPoP+" "+t.AccessToken)
	req.Header.Set("DPoP", proof)
	return true
}

// ResourceAnswer remembers the DPoP-Nonce header of the MCP server's
// answer to req (any status, RFC 9449 §9) and reports whether the answer
// is a use_dpop_nonce challenge to a request that carried a proof: a 401
// whose WWW-Authenticate has a DPoP challenge with error="use_dpop_nonce"
// and a nonce that was kept. The caller sends req again, once, with a new
// proof (SetAuthorization uses the nonce).
func (d *DPoP) ResourceAnswer(req *wire.Request, status int, header wire.Header) bool {
	if d == nil {
		return false
	}
	raw := req.URL.String()
	noted := d.noteNonce("rs", raw, header.Get("DPoP-Nonce"))
	if !noted || status != 401 || req.Header.Get("DPoP") == "" {
		return false
	}
	return dpopNonceChallenge(header.Values("WWW-Authenticate"))
}

// dpopNonceChallenge reports whether WWW-Authenticate values hold a DPoP
// challenge whose error is use_dpop_nonce.
func dpopNonceChallenge(values []string) bool {
	for _, v := range values {
		chs, ok := parseChallenges(v)
		if !ok {
			continue
		}
		for _, ch := range chs {
			if strings.EqualFold(ch.scheme, TokenTypeDPoP) && ch.params["error"] == "use_dpop_nonce" {
				return true
			}
		}
	}
	return false
}
