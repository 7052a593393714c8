package oauth

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// tokenAnswer is a token endpoint's JSON answer: the tokens (RFC 6749
// §5.1, RFC 8693 §2.2.1) or the refusal (§5.2).
type tokenAnswer struct {
	AccessToken      string          `json:"access_token"`
	TokenType        string          `json:"token_type"`
	ExpiresIn        json.RawMessage `json:"expires_in"`
	RefreshToken     string          `json:"refresh_token"`
	Scope            string          `json:"scope"`
	IssuedTokenType  string          `json:"issued_token_type"`
	Error            string          `json:"error"`
	ErrorDescription string          `json:"error_description"`
}

// now is the clock of ObtainedAt (a variable for the tests).
var now = time.Now

// readTokens is the Tokens of a token endpoint's answer (what names the
// endpoint in errors): a 200 JSON object with an access_token and a
// token_type of Bearer (any case; stored as "Bearer"). Anything else is an
// *Error of step, with the server's error and error_description when it
// sent them.
func readTokens(c *Client, step Step, what string, resp *Response) (*Tokens, error) {
	return readTokensOf(c, step, what, resp, false)
}

// readTokensOf is readTokens that, when the request carried a DPoP proof
// (dpop), also takes a token_type of DPoP (any case; stored as "DPoP").
func readTokensOf(c *Client, step Step, what string, resp *Response, dpop bool) (*Tokens, error) {
	a, err := readAnswer(c, step, what, resp)
	if err != nil {
		return nil, err
	}
	typ := "Bearer"
	if dpop && strings.EqualFold(a.TokenType, TokenTypeDPoP) {
		typ = TokenTypeDPoP
	} else if !strings.EqualFold(a.TokenType, "bearer") {
		return nil, c.Secrets.errorf(step, "", "", "%s issued a token of type %q, not Bearer", what, cut(a.TokenType, 40))
	}
	exp, ok := expiresIn(a.ExpiresIn)
	if !ok {
		return nil, c.Secrets.errorf(step, "", "", "%s sent an expires_in that is not a number of seconds", what)
	}
	return &Tokens{
		AccessToken:  a.AccessToken,
		TokenType:    typ,
		ExpiresIn:    exp,
		RefreshToken: a.RefreshToken,
		Scope:        a.Scope,
		ObtainedAt:   now().Unix(),
	}, nil
}

// readAnswer decodes a token endpoint's answer, records its tokens in
// c.Secrets at once, and turns a refusal (any status but 200, or an error
// member without an access_token) into an *Error of step.
func readAnswer(c *Client, step Step, what string, resp *Response) (*tokenAnswer, error) {
	var a tokenAnswer
	jsonErr := json.Unmarshal(resp.Body, &a)
	c.Secrets.Add(a.AccessToken, a.RefreshToken)
	if resp.Status != 200 || (a.Error != "" && a.AccessToken == "") {
		if jsonErr == nil && a.Error != "" {
			msg := what + " refused the request (HTTP " + itoa(resp.Status) + "): " + a.Error
			if a.ErrorDescription != "" {
				msg += ": " + a.ErrorDescription
			}
			return nil, c.Secrets.errorf(step, a.Error, a.ErrorDescription, "%s", cut(msg, 500))
		}
		return nil, c.Secrets.errorf(step, "", "", "%s answered HTTP %d", what, resp.Status)
	}
	if jsonErr != nil {
		return nil, c.Secrets.errorf(step, "", "", "%s's answer is not a JSON object", what)
	}
	if a.AccessToken == "" {
		return nil, c.Secrets.errorf(step, "", "", "%s's answer has no access_token", what)
	}
	return &a, nil
}

// expiresIn reads expires_in: absent or null is 0; a JSON number or a
// string of digits (some servers quote it) is its value.
func expiresIn(raw json.RawMessage) (int64, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, true
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
	} else {
		s = string(raw)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 && f < 1<<53 {
		return int64(f), true
	}
	return 0, false
}
