//go:build !js

package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"
)

// The auth/client-credentials-jwt scenario: an ES256 key as PKCS#8 PEM;
// the token request carries client_assertion_type jwt-bearer and a JWT the
// server verifies with the public key: iss = sub = the client id, aud the
// issuer, iat, exp five minutes on, a jti.
func TestClientCredentialsJWTScenario(t *testing.T) {
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return time.Unix(1700000000, 0) }
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	keyPEM := pemOf(t, "PRIVATE KEY", der, err)
	srv := newTokServer(t, func(r tokSeen) (int, any) {
		if r.Form.Get("client_assertion_type") != AssertionTypeJWT {
			return 401, map[string]string{"error": "invalid_client"}
		}
		p, err := checkJWT(r.Form.Get("client_assertion"), &key.PublicKey)
		if err != nil {
			return 401, map[string]string{"error": "invalid_client", "error_description": err.Error()}
		}
		// as the scenario's server: aud is the issuer, with or without a trailing "/"
		if aud, _ := p.claims["aud"].(string); strings.TrimSuffix(aud, "/") != "http://"+r.Host {
			return 401, map[string]string{"error": "invalid_client", "error_description": "unexpected aud"}
		}
		return 200, tokOK("cc-token-2")
	})
	c, _ := tokClient()
	meta := tokMeta(srv.URL, "private_key_jwt")
	cc := &ClientCredentials{ClientID: "conformance-test-client", PrivateKeyPEM: keyPEM, Algorithm: "ES256"}
	tok, err := ClientCredentialsToken(context.Background(), c, meta, cc, "", "http://127.0.0.1:4000/mcp")
	if err != nil || tok.AccessToken != "cc-token-2" {
		t.Fatalf("%+v %v", tok, err)
	}
	r := srv.only(t)
	if r.Header.Get("Authorization") != "" {
		t.Fatal("private_key_jwt sent an Authorization header")
	}
	wantForm(t, r.Form, map[string]string{
		"grant_type": "client_credentials", "client_id": "conformance-test-client", "resource": "http://127.0.0.1:4000/mcp",
		"client_assertion_type": AssertionTypeJWT, "client_assertion": r.Form.Get("client_assertion"),
	})
	got := verifyJWT(t, r.Form.Get("client_assertion"), &key.PublicKey)
	if got.header["alg"] != "ES256" || got.header["typ"] != "JWT" {
		t.Fatalf("header %v", got.header)
	}
	cl := got.claims
	if cl["iss"] != "conformance-test-client" || cl["sub"] != "conformance-test-client" || cl["aud"] != srv.URL ||
		cl["iat"] != float64(1700000000) || cl["exp"] != float64(1700000300) {
		t.Fatalf("claims %v", cl)
	}
	if jti, _ := cl["jti"].(string); len(jti) < 16 {
		t.Fatalf("jti %v", cl["jti"])
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if _, err := checkJWT(r.Form.Get("client_assertion"), &other.PublicKey); err == nil {
		t.Fatal("the test's verifier accepts another key's signature")
	}
}

// The other key encodings and algorithms: SEC 1 EC keys, P-384 (ES384),
// RSA as PKCS#1 (RS256) and PKCS#8 (PS256); an empty algorithm is the
// key's own.
func TestClientAssertionKeysAndAlgorithms(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	rk := testRSAKey(t)
	sec1, err := x509.MarshalECPrivateKey(p256)
	sec1PEM := pemOf(t, "EC PRIVATE KEY", sec1, err)
	p384DER, err := x509.MarshalPKCS8PrivateKey(p384)
	p384PEM := pemOf(t, "PRIVATE KEY", p384DER, err)
	pkcs1PEM := pemOf(t, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rk), nil)
	rsa8, err := x509.MarshalPKCS8PrivateKey(rk)
	rsa8PEM := pemOf(t, "PRIVATE KEY", rsa8, err)
	cases := []struct {
		pem, alg, want string
		pub            crypto.PublicKey
	}{
		{sec1PEM, "", "ES256", &p256.PublicKey},
		{sec1PEM, "ES256", "ES256", &p256.PublicKey},
		{p384PEM, "ES384", "ES384", &p384.PublicKey},
		{pkcs1PEM, "", "RS256", &rk.PublicKey},
		{pkcs1PEM, "RS512", "RS512", &rk.PublicKey},
		{rsa8PEM, "PS256", "PS256", &rk.PublicKey},
	}
	meta := &ServerMetadata{Issuer: "https://as.example", TokenEndpoint: "https://as.example/token"}
	for _, tc := range cases {
		jwt, err := clientAssertion(context.Background(), meta, &ClientCredentials{ClientID: "c", PrivateKeyPEM: tc.pem, Algorithm: tc.alg})
		if err != nil {
			t.Fatalf("%s: %v", tc.want, err)
		}
		if p := verifyJWT(t, jwt, tc.pub); p.header["alg"] != tc.want || p.claims["aud"] != "https://as.example" {
			t.Fatalf("%s: header %v claims %v", tc.want, p.header, p.claims)
		}
	}
}

// Keys and algorithms that cannot sign are refused without quoting the key,
// and nothing is sent.
func TestClientAssertionRefusals(t *testing.T) {
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, err := x509.MarshalPKCS8PrivateKey(p256)
	good := pemOf(t, "PRIVATE KEY", der, err)
	pkcs1 := pemOf(t, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(testRSAKey(t)), nil)
	body := strings.Split(good, "\n")[1]
	cases := map[string]*ClientCredentials{
		"not PEM":          {ClientID: "c", PrivateKeyPEM: "k3y-material-" + body},
		"corrupt DER":      {ClientID: "c", PrivateKeyPEM: pemOf(t, "PRIVATE KEY", []byte("k3y-material-garbage"), nil)},
		"certificate":      {ClientID: "c", PrivateKeyPEM: pemOf(t, "CERTIFICATE", der, nil)},
		"RS256 with EC":    {ClientID: "c", PrivateKeyPEM: good, Algorithm: "RS256"},
		"ES384 with P-256": {ClientID: "c", PrivateKeyPEM: good, Algorithm: "ES384"},
		"ES256 with RSA":   {ClientID: "c", PrivateKeyPEM: pkcs1, Algorithm: "ES256"},
		"HS256":            {ClientID: "c", PrivateKeyPEM: pkcs1, Algorithm: "HS256"},
		"no client_id":     {PrivateKeyPEM: good},
		"no credential":    {ClientID: "c"},
	}
	srv := newTokServer(t, func(tokSeen) (int, any) { return 200, tokOK("t") })
	for name, cc := range cases {
		c, _ := tokClient()
		_, err := ClientCredentialsToken(context.Background(), c, tokMeta(srv.URL), cc, "", "")
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		tokError(t, err, StepToken)
		noSecret(t, err, "k3y-material", body[:20])
	}
	if n := len(srv.requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// A refused token endpoint is never requested.
func TestClientCredentialsGoesThroughCheck(t *testing.T) {
	srv := newTokServer(t, func(tokSeen) (int, any) { return 200, tokOK("t") })
	c, _ := tokClient(srv.URL)
	_, err := ClientCredentialsToken(context.Background(), c, tokMeta(srv.URL), &ClientCredentials{ClientID: "c", ClientSecret: "s"}, "", "")
	if err != errTokRefused || len(srv.requests()) != 0 {
		t.Fatalf("error %v, %d requests", err, len(srv.requests()))
	}
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
