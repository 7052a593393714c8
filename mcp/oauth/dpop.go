package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// The DPoP modes of Settings.DPoP (RFC 9449; docs/oauth.md, "DPoP").
const (
	// DPoPAuto (the default, also ""): DPoP when the authorization
	// server lists ES256 in dpop_signing_alg_values_supported and the
	// build has a signer; bearer tokens otherwise.
	DPoPAuto = "auto"
	// DPoPRequire: DPoP always; an authorization server that does not list
	// ES256 is refused (RuleDPoPUnsupported) before any token request.
	DPoPRequire = "require"
	// DPoPOff: never DPoP.
	DPoPOff = "off"
)

// RuleDPoPUnsupported: Settings.DPoP is DPoPRequire and the authorization
// server does not list ES256 in dpop_signing_alg_values_supported (or the
// build has no DPoP signer).
const RuleDPoPUnsupported = "dpop-unsupported"

// TokenTypeDPoP is the token_type of a DPoP-bound access token (RFC 9449
// §5), and the Authorization scheme it is sent with (§7.1).
const TokenTypeDPoP = "DPoP"

// The DPoP budgets (README's limits table): the nonces remembered, by
// origin, for each side of one registration, and the longest nonce kept.
const (
	maxDPoPNonces    = 8
	maxDPoPNonceSize = 512
)

// DPoPSigner holds DPoP keys and signs proofs with them; the private keys
// never leave it. The JS host keeps them in WebCrypto, not extractable
// (npm/lib/dpop.js); native Go keeps them in memory (dpop_native.go).
type DPoPSigner interface {
	// NewKey makes a new ES256 (P-256) key and returns its handle: the
	// RFC 7638 thumbprint of its public JWK (what a bound token's cnf.jkt
	// names).
	NewKey(ctx context.Context) (string, error)
	// Proof is the compact JWS of claims (JSON) signed with key, whose
	// header is {"typ":"dpop+jwt","alg":"ES256","jwk":<the public JWK>}.
	// It fails for a key it does not hold.
	Proof(ctx context.Context, key string, claims []byte) (string, error)
}

// DPoPKeyForgetter is a DPoPSigner that can drop a key no token is bound
// to any more (both signers of this module are).
type DPoPKeyForgetter interface {
	// Forget drops key; a key it does not hold is no error.
	Forget(ctx context.Context, key string)
}

// Forget has the signer drop key when it can (DPoPKeyForgetter): the
// tokens bound to it were replaced by a new grant's.
func (d *DPoP) Forget(ctx context.Context, key string) {
	if d == nil || key == "" {
		return
	}
	if f, ok := d.Signer.(DPoPKeyForgetter); ok {
		f.Forget(ctx, key)
	}
}

// DPoP is one registration's DPoP state: the mode, the signer, and the
// latest nonce each origin sent, the authorization servers' apart from
// the resource servers' (RFC 9449 §8, §9). Safe for concurrent use.
type DPoP struct {
	Mode   string
	Signer DPoPSigner

	mu     sync.Mutex
	nonces map[string]string // "as " or "rs " + origin
}

// NewDPoP is the DPoP state of settings s: its mode, and its signer (nil:
// the build's own, which the WebAssembly build does not have).
func NewDPoP(s *Settings) *DPoP {
	d := &DPoP{Mode: DPoPAuto, Signer: defaultDPoPSigner()}
	if s != nil {
		if s.DPoP != "" {
			d.Mode = s.DPoP
		}
		if s.DPoPSigner != nil {
			d.Signer = s.DPoPSigner
		}
	}
	return d
}

// dpop is c's DPoP state (nil for a nil Client).
func (c *Client) dpop() *DPoP {
	if c == nil {
		return nil
	}
	return c.DPoP
}

// supportsDPoP reports whether meta lists ES256 in
// dpop_signing_alg_values_supported.
func supportsDPoP(meta *ServerMetadata) bool {
	return meta != nil && slices.Contains(meta.DPoPSigningAlgValuesSupported, "ES256")
}

// check refuses what the mode cannot do at meta's authorization server:
// an unknown mode, and DPoPRequire without ES256 support or a signer.
func (d *DPoP) check(meta *ServerMetadata) error {
	if d == nil {
		return nil
	}
	switch d.Mode {
	case DPoPAuto, DPoPOff:
		return nil
	case DPoPRequire:
		if d.Signer == nil {
			return &Error{Step: StepDiscovery, Rule: RuleDPoPUnsupported, Message: "dpop is required, and this build has no DPoP signer"}
		}
		if !supportsDPoP(meta) {
			return &Error{Step: StepDiscovery, Rule: RuleDPoPUnsupported,
				Message: "dpop is required, and the authorization server does not list ES256 in dpop_signing_alg_values_supported"}
		}
		return nil
	}
	return &Error{Step: StepDiscovery, Message: "unknown dpop mode " + cut(d.Mode, 20) + ` (want "auto", "require" or "off")`}
}

// use reports whether token requests to meta's authorization server carry
// DPoP proofs.
func (d *DPoP) use(meta *ServerMetadata) bool {
	return d != nil && d.Signer != nil && d.Mode != DPoPOff && (d.Mode == DPoPRequire || supportsDPoP(meta)) && d.check(meta) == nil
}

// proof is a fresh proof for a request of method to rawURL (its query and
// fragment left out of htu) with key: a random jti, iat now, the nonce
// when not "", and ath = base64url(SHA-256(accessToken)) when the access
// token is not "".
func (d *DPoP) proof(ctx context.Context, key, method, rawURL, nonce, accessToken string) (string, error) {
	htu, err := dpopHTU(rawURL)
	if err != nil {
		return "", err
	}
	jti, err := randomString(StepToken, 16)
	if err != nil {
		return "", err
	}
	claims := map[string]any{"jti": jti, "htm": method, "htu": htu, "iat": now().Unix()}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	body, err := json.Marshal(claims)
	if err != nil {
		return "", dpopError("the proof's claims cannot be encoded")
	}
	jws, err := d.Signer.Proof(ctx, key, body)
	if err != nil {
		return "", dpopError("the signer made no proof") // its text is not quoted: it may hold anything
	}
	if strings.Count(jws, ".") != 2 || strings.ContainsAny(jws, " \t\r\n,") {
		return "", dpopError("the signer's proof is not a compact JWS")
	}
	return jws, nil
}

// dpopHTU is rawURL without its query and fragment (RFC 9449 §4.2).
func dpopHTU(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", dpopError("the request URL cannot be a proof's htu")
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment, u.User = "", false, "", "", nil
	return u.String(), nil
}

// nonce is the latest nonce origin's side ("as" or "rs") sent ("": none).
func (d *DPoP) nonce(side, rawURL string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.nonces[side+" "+originOnly(rawURL)]
}

// noteNonce remembers the DPoP-Nonce header of an answer from rawURL's
// origin, for that side; a nonce over maxDPoPNonceSize bytes or with a
// byte outside the visible ASCII range is ignored, and a new origin past
// maxDPoPNonces replaces the others. It reports whether the nonce is kept.
func (d *DPoP) noteNonce(side, rawURL, nonce string) bool {
	if d == nil || nonce == "" || len(nonce) > maxDPoPNonceSize || strings.IndexFunc(nonce, notNonceRune) >= 0 {
		return false
	}
	k := side + " " + originOnly(rawURL)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.nonces[k]; !ok && len(d.nonces) >= maxDPoPNonces {
		d.nonces = nil
	}
	if d.nonces == nil {
		d.nonces = map[string]string{}
	}
	d.nonces[k] = nonce
	return true
}

// notNonceRune is true for a rune a nonce may not hold (RFC 9449 §8.1:
// NQCHAR, visible ASCII without '"' and '\').
func notNonceRune(r rune) bool { return r < 0x21 || r > 0x7e || r == '"' || r == '\\' }

// dpopError is an *Error of StepToken about DPoP.
func dpopError(msg string) *Error {
	return &Error{Step: StepToken, Message: "DPoP: " + msg}
}
