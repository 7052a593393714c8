package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// The auth/client-credentials-basic scenario: grant_type
// client_credentials, the id and secret in HTTP Basic.
func TestClientCredentialsBasicScenario(t *testing.T) {
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		if r.Header.Get("Authorization") != basicCredentials("conformance-test-client", "conformance-test-secret") {
			return 401, map[string]string{"error": "invalid_client", "error_description": "Invalid client credentials"}
		}
		return 200, tokOK("cc-token-1")
	})
	c, checked := tokClient()
	meta := tokMeta(srv.URL, AuthSecretBasic)
	cc := &ClientCredentials{ClientID: "conformance-test-client", ClientSecret: "conformance-test-secret"}
	tok, err := ClientCredentialsToken(context.Background(), c, meta, cc, "mcp:tools", "http://127.0.0.1:4000/mcp")
	if err != nil || tok.AccessToken != "cc-token-1" {
		t.Fatalf("%+v %v", tok, err)
	}
	wantForm(t, srv.only(t).Form, map[string]string{"grant_type": "client_credentials", "scope": "mcp:tools", "resource": "http://127.0.0.1:4000/mcp"})
	if len(*checked) != 1 || (*checked)[0] != meta.TokenEndpoint {
		t.Fatalf("checked %q", *checked)
	}
	cc.ClientSecret = "wrong-secret-value"
	_, err = ClientCredentialsToken(context.Background(), c, meta, cc, "", "")
	if e := tokError(t, err, StepToken); e.OAuthError != "invalid_client" || e.ErrorDescription != "Invalid client credentials" {
		t.Fatalf("%+v", e)
	}
	noSecret(t, err, "wrong-secret-value")
}

// jwtParts are a compact JWS's decoded header and claims, its signing
// input and its signature.
type jwtParts struct {
	header, claims map[string]any
	input          string
	sig            []byte
}

func splitJWT(jwt string) (jwtParts, error) {
	var out jwtParts
	p := strings.Split(jwt, ".")
	if len(p) != 3 {
		return out, fmt.Errorf("not a compact JWS: %d parts", len(p))
	}
	for i, dst := range []*map[string]any{&out.header, &out.claims} {
		raw, err := base64.RawURLEncoding.DecodeString(p[i])
		if err != nil || json.Unmarshal(raw, dst) != nil {
			return out, fmt.Errorf("part %d is not base64url JSON", i)
		}
	}
	sig, err := base64.RawURLEncoding.DecodeString(p[2])
	if err != nil {
		return out, err
	}
	out.input, out.sig = p[0]+"."+p[1], sig
	return out, nil
}

// verifyJWT checks jwt's signature with pub as a JOSE verifier does.
func verifyJWT(t *testing.T, jwt string, pub crypto.PublicKey) jwtParts {
	t.Helper()
	p, err := checkJWT(jwt, pub)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkJWT is jwt's parts once its signature verifies with pub: ECDSA as
// r||s of the curve's width, RSA PKCS#1 v1.5 or PSS.
func checkJWT(jwt string, pub crypto.PublicKey) (jwtParts, error) {
	p, err := splitJWT(jwt)
	if err != nil {
		return p, err
	}
	alg, _ := p.header["alg"].(string)
	hash := map[string]crypto.Hash{"256": crypto.SHA256, "384": crypto.SHA384, "512": crypto.SHA512}[strings.TrimLeft(alg, "ERPS")]
	if len(alg) != 5 || !hash.Available() {
		return p, fmt.Errorf("alg %q", alg)
	}
	h := hash.New()
	h.Write([]byte(p.input))
	digest := h.Sum(nil)
	ok := false
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		n := (k.Curve.Params().BitSize + 7) / 8
		if len(p.sig) == 2*n {
			ok = ecdsa.Verify(k, digest, new(big.Int).SetBytes(p.sig[:n]), new(big.Int).SetBytes(p.sig[n:]))
		}
	case *rsa.PublicKey:
		if alg[:2] == "PS" {
			ok = rsa.VerifyPSS(k, hash, digest, p.sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash}) == nil
		} else {
			ok = rsa.VerifyPKCS1v15(k, hash, digest, p.sig) == nil
		}
	}
	if !ok {
		return p, fmt.Errorf("the %s signature does not verify", alg)
	}
	return p, nil
}

func pemOf(t *testing.T, typ string, der []byte, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

// testRSAKey is one 2048-bit RSA key for the tests, made on first use.
var testRSAKey = func() func(t *testing.T) *rsa.PrivateKey {
	var k *rsa.PrivateKey
	return func(t *testing.T) *rsa.PrivateKey {
		if k == nil {
			var err error
			if k, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
				t.Fatal(err)
			}
		}
		return k
	}
}()
