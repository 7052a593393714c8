//go:build !js

package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

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
