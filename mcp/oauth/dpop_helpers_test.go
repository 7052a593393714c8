//go:build !js

package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"testing"
	"time"
)

// proofSeen is a DPoP proof once checkProof verified it: its claims and
// the thumbprint of the key that signed it.
type proofSeen struct {
	claims map[string]any
	jkt    string
}

// checkProof verifies a DPoP proof as RFC 9449 §4.3 asks a server to:
// header typ dpop+jwt, alg ES256, a public JWK (no "d" nor any member but
// kty, crv, x, y) whose key verifies the signature; claims jti, htm, htu
// and a recent iat.
func checkProof(t *testing.T, proof, htm, htu string) proofSeen {
	t.Helper()
	p, err := splitJWT(proof)
	if err != nil {
		t.Fatalf("the proof: %v", err)
	}
	if p.header["typ"] != "dpop+jwt" || p.header["alg"] != "ES256" {
		t.Fatalf("proof header %v, want typ dpop+jwt and alg ES256", p.header)
	}
	jwk, _ := p.header["jwk"].(map[string]any)
	if len(jwk) != 4 || jwk["kty"] != "EC" || jwk["crv"] != "P-256" || jwk["d"] != nil {
		t.Fatalf("proof jwk %v, want the public members kty, crv, x, y only", jwk)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, coord(t, jwk["x"])...), coord(t, jwk["y"])...))
	if err != nil {
		t.Fatalf("the proof's jwk is not a P-256 point: %v", err)
	}
	if _, err := checkJWT(proof, pub); err != nil {
		t.Fatalf("the proof's signature: %v", err)
	}
	c := p.claims
	if jti, _ := c["jti"].(string); len(jti) < 16 {
		t.Fatalf("proof jti %v, want a random string", c["jti"])
	}
	if c["htm"] != htm || c["htu"] != htu {
		t.Fatalf("proof htm %v htu %v, want %s %s", c["htm"], c["htu"], htm, htu)
	}
	if iat, _ := c["iat"].(float64); time.Since(time.Unix(int64(iat), 0)).Abs() > time.Minute {
		t.Fatalf("proof iat %v is not now", c["iat"])
	}
	return proofSeen{claims: c, jkt: jwkThumbprint(map[string]string{
		"kty": "EC", "crv": "P-256", "x": jwk["x"].(string), "y": jwk["y"].(string)})}
}

// coord is a JWK coordinate's 32 bytes.
func coord(t *testing.T, v any) []byte {
	t.Helper()
	s, _ := v.(string)
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("jwk coordinate %v is not 32 bytes of base64url", v)
	}
	return b
}

// athOf is the ath claim of an access token.
func athOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// dpopClient is tokClient with DPoP in mode (the native signer).
func dpopClient(mode string) *Client {
	c, _ := tokClient()
	c.DPoP = NewDPoP(&Settings{DPoP: mode})
	return c
}

// dpopMeta is tokMeta of an authorization server that takes ES256 proofs.
func dpopMeta(base string) *ServerMetadata {
	m := tokMeta(base, AuthNone)
	m.DPoPSigningAlgValuesSupported = []string{"ES256"}
	return m
}

// dpopOK is a token answer binding token to the proof's key.
func dpopOK(token string) map[string]any {
	return map[string]any{"access_token": token, "token_type": "DPoP", "expires_in": 3600, "refresh_token": "rt-" + token}
}
