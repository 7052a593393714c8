package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// A host signer (ClientCredentials.Sign, how the WebAssembly build signs)
// gets the typ, the algorithm asked for and the claims; its JWS is sent as
// the client assertion, and a failure or a malformed answer is refused
// without quoting the signer's text.
func TestClientAssertionThroughTheHostSigner(t *testing.T) {
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return time.Unix(1700000000, 0) }
	var gotTyp, gotAlg string
	var gotClaims map[string]any
	sign := func(_ context.Context, typ, alg string, claims []byte) (string, error) {
		gotTyp, gotAlg = typ, alg
		if err := json.Unmarshal(claims, &gotClaims); err != nil {
			return "", err
		}
		head := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","typ":"JWT"}`))
		return head + "." + base64.RawURLEncoding.EncodeToString(claims) + ".c2ln", nil
	}
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		if !strings.HasSuffix(r.Form.Get("client_assertion"), ".c2ln") {
			return 401, map[string]string{"error": "invalid_client"}
		}
		return 200, tokOK("signed-by-host")
	})
	c, _ := tokClient()
	meta := tokMeta(srv.URL, "private_key_jwt")
	tok, err := ClientCredentialsToken(context.Background(), c, meta, &ClientCredentials{ClientID: "cid", Algorithm: "ES256", Sign: sign}, "", "")
	if err != nil || tok.AccessToken != "signed-by-host" {
		t.Fatalf("%+v %v", tok, err)
	}
	if gotTyp != "JWT" || gotAlg != "ES256" || gotClaims["iss"] != "cid" || gotClaims["aud"] != srv.URL || gotClaims["exp"] != float64(1700000300) {
		t.Fatalf("the signer got typ %q alg %q claims %v", gotTyp, gotAlg, gotClaims)
	}
	for _, bad := range []AssertionSigner{
		func(context.Context, string, string, []byte) (string, error) {
			return "", errors.New("hsm-pin-1234567 refused")
		},
		func(context.Context, string, string, []byte) (string, error) { return "not a jws", nil },
	} {
		_, err := ClientCredentialsToken(context.Background(), c, meta, &ClientCredentials{ClientID: "cid", Sign: bad}, "", "")
		var oe *Error
		if !errors.As(err, &oe) || oe.Step != StepToken || strings.Contains(err.Error(), "hsm-pin") {
			t.Fatalf("err = %v, want a token-step *Error quoting nothing of the signer", err)
		}
	}
}
