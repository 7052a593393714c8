package oauth

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/toolgate/toolgate/internal/wire"
)

// dpopKeyContext is the context key of the DPoP key a token request
// proves possession of (withDPoPKey).
type dpopKeyContext struct{}

// withDPoPKey is ctx whose token requests prove possession of key (a
// refresh of tokens bound to it); without one a token request makes a new
// key: a fresh grant gets a fresh key.
func withDPoPKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return context.WithValue(ctx, dpopKeyContext{}, key)
}

// postTokenDPoP is postToken with a DPoP proof (RFC 9449 §5) of the key
// ctx names, else of a new key: htm POST, htu the token endpoint, and the
// authorization server's latest nonce. An answer 400 use_dpop_nonce with a
// DPoP-Nonce header is retried once with that nonce (§8); any DPoP-Nonce
// is remembered for the next request. A token_type of DPoP is bound to
// the key (Tokens.DPoPKey); Bearer is taken too (§5 lets the server issue
// one): it is then sent as a bearer token, unless the mode is DPoPRequire,
// which refuses it (RuleDPoPUnsupported).
func postTokenDPoP(ctx context.Context, c *Client, step Step, endpoint string, form url.Values, header wire.Header) (*Tokens, error) {
	key, _ := ctx.Value(dpopKeyContext{}).(string)
	if key == "" {
		k, err := c.DPoP.Signer.NewKey(ctx)
		if err != nil || k == "" {
			return nil, &Error{Step: step, Message: "DPoP: the signer made no key"} // its text is not quoted
		}
		key = k
	}
	for retried := false; ; retried = true {
		proof, err := c.DPoP.proof(ctx, key, wire.MethodPost, endpoint, c.DPoP.nonce("as", endpoint), "")
		if err != nil {
			if e, ok := err.(*Error); ok {
				e.Step = step
			}
			return nil, err
		}
		c.Secrets.Add(proof)
		h := header.Clone()
		if h == nil {
			h = wire.Header{}
		}
		h.Set("DPoP", proof)
		resp, err := sendForm(ctx, c, step, endpoint, form, h)
		if err != nil {
			return nil, err
		}
		fresh := resp.Header.Get("DPoP-Nonce")
		noted := c.DPoP.noteNonce("as", endpoint, fresh)
		if !retried && noted && resp.Status == 400 && oauthErrorCode(resp.Body) == "use_dpop_nonce" {
			if form, err = reassert(ctx, c, form); err != nil {
				return nil, err
			}
			continue
		}
		t, err := readTokensOf(c, step, "the token endpoint", resp, true)
		if err != nil {
			return nil, err
		}
		if t.TokenType == TokenTypeDPoP {
			t.DPoPKey = key
		} else if c.DPoP.Mode == DPoPRequire {
			return nil, &Error{Step: step, Rule: RuleDPoPUnsupported,
				Message: "the token endpoint issued a Bearer token where dpop is required (it did not bind the token to the proof's key)"}
		}
		return t, nil
	}
}

// oauthErrorCode is the error member of an OAuth error answer ("" when
// body is not such an object).
func oauthErrorCode(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	return e.Error
}

// reassertKey is the context key of the function that signs a fresh
// client assertion (private_key_jwt) for a token request sent again.
type reassertKey struct{}

// withReassert is ctx with sign, which makes a new client assertion: a
// token request retried with a DPoP nonce carries a fresh one (a new
// jti), as an authorization server may refuse a replayed assertion.
func withReassert(ctx context.Context, sign func(context.Context) (string, error)) context.Context {
	return context.WithValue(ctx, reassertKey{}, sign)
}

// reassert is form with a fresh client_assertion when it has one and ctx
// carries its signer (withReassert), else form as it is.
func reassert(ctx context.Context, c *Client, form url.Values) (url.Values, error) {
	sign, _ := ctx.Value(reassertKey{}).(func(context.Context) (string, error))
	if sign == nil || form.Get("client_assertion") == "" {
		return form, nil
	}
	a, err := sign(ctx)
	if err != nil {
		return nil, err
	}
	c.Secrets.Add(a)
	out := url.Values{}
	for k, v := range form {
		out[k] = append([]string(nil), v...)
	}
	out.Set("client_assertion", a)
	return out, nil
}
