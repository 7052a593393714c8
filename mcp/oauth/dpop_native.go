//go:build !js

package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"sync"
)

// defaultDPoPSigner is the native build's DPoP signer: P-256 keys made
// with crypto/ecdsa and held in memory (the WebAssembly build leaves this
// file out: dpop_js.go).
func defaultDPoPSigner() DPoPSigner { return &MemoryDPoPSigner{} }

// maxMemoryDPoPKeys is how many keys a MemoryDPoPSigner holds; a new key
// past it forgets the oldest (a token bound to it is then authorized
// again).
const maxMemoryDPoPKeys = 16

// MemoryDPoPSigner is a DPoPSigner whose ES256 keys live in this
// process's memory and are never exported: only their public JWK appears
// in a proof. Safe for concurrent use.
type MemoryDPoPSigner struct {
	mu    sync.Mutex
	keys  map[string]*ecdsa.PrivateKey
	order []string
}

// NewKey makes a P-256 key and returns its RFC 7638 thumbprint.
func (m *MemoryDPoPSigner) NewKey(context.Context) (string, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", dpopError("no key could be made")
	}
	jwk, err := publicJWK(&k.PublicKey)
	if err != nil {
		return "", err
	}
	jkt := jwkThumbprint(jwk)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.keys == nil {
		m.keys = map[string]*ecdsa.PrivateKey{}
	}
	if len(m.order) >= maxMemoryDPoPKeys {
		delete(m.keys, m.order[0])
		m.order = m.order[1:]
	}
	m.keys[jkt] = k
	m.order = append(m.order, jkt)
	return jkt, nil
}

// Proof signs claims with key as a dpop+jwt whose header carries the
// public JWK; it refuses a key it does not hold.
func (m *MemoryDPoPSigner) Proof(_ context.Context, key string, claims []byte) (string, error) {
	m.mu.Lock()
	k := m.keys[key]
	m.mu.Unlock()
	if k == nil {
		return "", dpopError("the signer holds no such key")
	}
	jwk, err := publicJWK(&k.PublicKey)
	if err != nil {
		return "", err
	}
	head, err := json.Marshal(map[string]any{"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk})
	if err != nil {
		return "", dpopError("the proof's header cannot be encoded")
	}
	input := b64(head) + "." + b64(claims)
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, k, sum[:])
	if err != nil {
		return "", dpopError("signing the proof failed")
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return input + "." + b64(sig), nil
}

// Forget drops key.
func (m *MemoryDPoPSigner) Forget(_ context.Context, key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.keys[key]; !ok {
		return
	}
	delete(m.keys, key)
	m.order = slices.DeleteFunc(m.order, func(k string) bool { return k == key })
}

// publicJWK is the public JWK of an EC P-256 key: kty, crv, x, y only.
func publicJWK(k *ecdsa.PublicKey) (map[string]string, error) {
	p, err := k.Bytes() // 0x04 ‖ x ‖ y
	if err != nil || len(p) != 65 {
		return nil, dpopError("the key is not a P-256 key")
	}
	return map[string]string{"kty": "EC", "crv": "P-256", "x": b64(p[1:33]), "y": b64(p[33:])}, nil
}

// jwkThumbprint is the RFC 7638 thumbprint of an EC public JWK:
// base64url(SHA-256) of its required members crv, kty, x, y in that order.
func jwkThumbprint(jwk map[string]string) string {
	canon, _ := json.Marshal(struct {
		Crv string `json:"crv"`
		Kty string `json:"kty"`
		X   string `json:"x"`
		Y   string `json:"y"`
	}{jwk["crv"], jwk["kty"], jwk["x"], jwk["y"]})
	sum := sha256.Sum256(canon)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
