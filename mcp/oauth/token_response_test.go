package oauth

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestExpiresIn(t *testing.T) {
	for raw, want := range map[string]int64{"": 0, "null": 0, "3600": 3600, `"3600"`: 3600, "1.5e3": 1500, " 7 ": 7} {
		if got, ok := expiresIn(json.RawMessage(raw)); !ok || got != want {
			t.Errorf("expires_in %s = %d, %v; want %d", raw, got, ok, want)
		}
	}
	for _, raw := range []string{"-1", `"soon"`, "true", "{}", "1e300", `"`} {
		if _, ok := expiresIn(json.RawMessage(raw)); ok {
			t.Errorf("expires_in %s accepted", raw)
		}
	}
}

// Whatever a token endpoint answers, reading it does not panic, and an
// error quotes neither a secret the flow knew nor a token in the answer.
func FuzzReadTokens(f *testing.F) {
	f.Add(200, `{"access_token":"a-token-1234","token_type":"Bearer","expires_in":1}`)
	f.Add(400, `{"error":"invalid_grant","error_description":"code planted-code-value is spent"}`)
	f.Add(200, `{"access_token":"a-token-1234","token_type":"planted-code-value"}`)
	f.Add(401, `{"error":"planted-code-value"}`)
	f.Add(500, `planted-code-value`)
	f.Add(200, `{"access_token":"a-token-1234","token_type":"bearer","expires_in":"x"}`)
	f.Fuzz(func(t *testing.T, status int, body string) {
		c := &Client{Secrets: &Secrets{}}
		c.Secrets.Add("planted-code-value")
		tok, err := readTokens(c, StepToken, "the token endpoint", &Response{Status: status, Body: []byte(body)})
		if err == nil {
			if tok == nil || tok.AccessToken == "" || tok.TokenType != "Bearer" {
				t.Fatalf("accepted %+v", tok)
			}
			return
		}
		e := err.(*Error)
		text := e.Message + e.OAuthError + e.ErrorDescription
		if strings.Contains(text, "planted-code-value") {
			t.Fatalf("the error quotes the planted secret: %q", text)
		}
		var a tokenAnswer
		if json.Unmarshal([]byte(body), &a) == nil && len(a.AccessToken) >= 8 && strings.Contains(text, a.AccessToken) {
			t.Fatalf("the error quotes the access token: %q", text)
		}
	})
}
