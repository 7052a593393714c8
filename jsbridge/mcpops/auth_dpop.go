package mcpops

import (
	"context"
	"encoding/json"
)

// jsDPoPSigner is the oauth.DPoPSigner of a JS auth provider: its keys are
// made and kept by the provider's dispatcher in WebCrypto, not extractable
// (npm/lib/dpop.js), and only their thumbprints and the proofs cross into
// Go.
type jsDPoPSigner struct{ p *jsProvider }

// NewKey is the dispatcher's "dpopKey" op: a new P-256 key, its RFC 7638
// thumbprint answered.
func (s *jsDPoPSigner) NewKey(ctx context.Context) (string, error) {
	var jkt string
	err := s.p.ask(ctx, map[string]any{"op": "dpopKey"}, &jkt)
	return jkt, err
}

// Proof is the dispatcher's "dpopProof" op: claims signed as a dpop+jwt
// with the key of thumbprint key.
func (s *jsDPoPSigner) Proof(ctx context.Context, key string, claims []byte) (string, error) {
	var jws string
	err := s.p.ask(ctx, map[string]any{"op": "dpopProof", "key": key, "claims": json.RawMessage(claims)}, &jws)
	return jws, err
}

// Forget is the dispatcher's "dpopForget" op: the key of thumbprint key
// dropped (the tokens bound to it were replaced). Its failure is ignored:
// the store's own bound still holds.
func (s *jsDPoPSigner) Forget(ctx context.Context, key string) {
	_ = s.p.ask(ctx, map[string]any{"op": "dpopForget", "key": key}, nil)
}
