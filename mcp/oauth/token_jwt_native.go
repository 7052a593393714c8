//go:build !js

package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"strings"
)

// The native signer of client assertions: a PEM private key read with
// crypto/x509 and signed with crypto/ecdsa or crypto/rsa. The WebAssembly
// build leaves this file out (token_jwt_js.go), because those packages
// weigh about 400 KB compressed there; the JS host signs with WebCrypto
// through ClientCredentials.Sign instead.

// signPEM is the compact JWS of claims signed with the private key of
// pemText for alg (parseSigningKey), with the header {"alg", "typ"}.
func signPEM(pemText, alg, typ string, claims map[string]any) (string, error) {
	key, err := parseSigningKey(pemText, alg)
	if err != nil {
		return "", err
	}
	return signJWT(key, typ, claims)
}

// signingKey is a private key read from PEM and the JWS algorithm it signs
// with.
type signingKey struct {
	alg  string
	hash crypto.Hash
	ec   *ecdsa.PrivateKey
	rsa  *rsa.PrivateKey
	pss  bool
}

// parseSigningKey reads the first private key of pemText (PKCS#8 "PRIVATE
// KEY", SEC 1 "EC PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY") for alg: ES256,
// ES384, ES512 (the key's curve must match), RS256/384/512 or
// PS256/384/512 (an RSA key of at least 2048 bits). An empty alg is the
// key's own: ES256/ES384/ES512 by curve, RS256 for RSA. Errors never quote
// the key.
func parseSigningKey(pemText, alg string) (*signingKey, error) {
	key, err := decodePrivateKey(pemText)
	if err != nil {
		return nil, err
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		return ecSigningKey(k, alg)
	case *rsa.PrivateKey:
		return rsaSigningKey(k, alg)
	}
	return nil, jwtError("the private key is neither an EC nor an RSA key")
}

// decodePrivateKey is the private key in the first PEM block of pemText.
func decodePrivateKey(pemText string) (any, error) {
	block, _ := pem.Decode([]byte(strings.TrimSpace(pemText)))
	if block == nil {
		return nil, jwtError("the private key is not PEM")
	}
	if _, encrypted := block.Headers["Proc-Type"]; encrypted {
		return nil, jwtError("the private key is encrypted")
	}
	var (
		key any
		err error
	)
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, jwtError("the PEM block is not a PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY")
	}
	if err != nil {
		return nil, jwtError("the " + strings.ToLower(block.Type) + " cannot be read")
	}
	return key, nil
}

// ecSigningKey is k for alg (or its curve's algorithm when alg is "").
func ecSigningKey(k *ecdsa.PrivateKey, alg string) (*signingKey, error) {
	var want string
	var hash crypto.Hash
	switch k.Curve {
	case elliptic.P256():
		want, hash = "ES256", crypto.SHA256
	case elliptic.P384():
		want, hash = "ES384", crypto.SHA384
	case elliptic.P521():
		want, hash = "ES512", crypto.SHA512
	default:
		return nil, jwtError("the EC key's curve is not P-256, P-384 or P-521")
	}
	if alg != "" && alg != want {
		return nil, jwtError("the algorithm " + cut(alg, 20) + " does not fit the EC key (its curve signs " + want + ")")
	}
	return &signingKey{alg: want, hash: hash, ec: k}, nil
}

// rsaSigningKey is k for alg (RS256 when alg is "").
func rsaSigningKey(k *rsa.PrivateKey, alg string) (*signingKey, error) {
	if alg == "" {
		alg = "RS256"
	}
	hashes := map[string]crypto.Hash{"256": crypto.SHA256, "384": crypto.SHA384, "512": crypto.SHA512}
	hash, ok := hashes[strings.TrimLeft(alg, "RSP")]
	if !ok || len(alg) != 5 || (alg[:2] != "RS" && alg[:2] != "PS") {
		return nil, jwtError("the algorithm " + cut(alg, 20) + " does not fit an RSA key (RS256, RS384, RS512, PS256, PS384, PS512)")
	}
	if k.N.BitLen() < 2048 {
		return nil, jwtError("the RSA key is shorter than 2048 bits")
	}
	return &signingKey{alg: alg, hash: hash, rsa: k, pss: alg[:2] == "PS"}, nil
}

// signJWT is the compact JWS of claims signed by k, with the header
// {"alg": k.alg, "typ": typ}.
func signJWT(k *signingKey, typ string, claims map[string]any) (string, error) {
	head, err := json.Marshal(map[string]string{"alg": k.alg, "typ": typ})
	if err != nil {
		return "", jwtError("the JWT header cannot be encoded")
	}
	body, err := json.Marshal(claims)
	if err != nil {
		return "", jwtError("the JWT claims cannot be encoded")
	}
	input := b64(head) + "." + b64(body)
	sig, err := k.sign([]byte(input))
	if err != nil {
		return "", jwtError("signing the JWT failed")
	}
	return input + "." + b64(sig), nil
}

// sign is the JWS signature of input (RFC 7518 §3): for ECDSA r and s as
// fixed-width big-endian integers, concatenated (not ASN.1).
func (k *signingKey) sign(input []byte) ([]byte, error) {
	h := k.hash.New()
	h.Write(input)
	digest := h.Sum(nil)
	switch {
	case k.ec != nil:
		r, s, err := ecdsa.Sign(rand.Reader, k.ec, digest)
		if err != nil {
			return nil, err
		}
		size := (k.ec.Curve.Params().BitSize + 7) / 8
		out := make([]byte, 2*size)
		r.FillBytes(out[:size])
		s.FillBytes(out[size:])
		return out, nil
	case k.pss:
		return rsa.SignPSS(rand.Reader, k.rsa, k.hash, digest, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
	default:
		return rsa.SignPKCS1v15(rand.Reader, k.rsa, k.hash, digest)
	}
}

// b64 is base64url without padding.
func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
