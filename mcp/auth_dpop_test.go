//go:build !js

package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/mcp/oauth"
)

// dpopGate serves h only to requests with "Authorization: DPoP want" and a
// DPoP proof whose nonce is the gate's current one; a proof without it
// gets 401 DPoP use_dpop_nonce with a DPoP-Nonce header (RFC 9449 §9).
// rotate gives a new nonce on every challenge (a server that never lets
// the client in). It records each request's Authorization and proof
// claims.
type dpopGate struct {
	want   string
	h      http.Handler
	rotate bool

	mu     sync.Mutex
	nonce  int
	seen   []string
	claims []map[string]any
}

func (g *dpopGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	claims := proofClaims(r.Header.Get("DPoP"))
	g.mu.Lock()
	g.seen = append(g.seen, r.Method+" "+r.Header.Get("Authorization"))
	g.claims = append(g.claims, claims)
	fresh := g.rotate || g.nonce == 0 // a new nonce: the first request, or every one when rotating
	if fresh {
		g.nonce++
	}
	want := "rs-nonce-" + strconv.Itoa(g.nonce)
	g.mu.Unlock()
	if r.Header.Get("Authorization") != "DPoP "+g.want || claims == nil {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if fresh || claims["nonce"] != want {
		w.Header().Set("DPoP-Nonce", want)
		w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce", error_description="nonce please"`)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	g.h.ServeHTTP(w, r)
}

// proofClaims is a DPoP proof's claims, unverified (nil: no proof); the
// oauth package's tests verify proofs.
func proofClaims(proof string) map[string]any {
	parts := strings.Split(proof, ".")
	if len(parts) != 3 {
		return nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var m map[string]any
	if err != nil || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// dpopRegistration registers the server behind a dpopGate with a stored
// DPoP-bound token whose key the registration's signer holds.
func dpopRegistration(t *testing.T, rotate bool) (*dpopGate, []string, error) {
	t.Helper()
	ts, u := serveStreamable(t, fixtureTools(nil))
	gate := &dpopGate{want: "tok-DPOP-1", h: ts.Config.Handler, rotate: rotate}
	ts.Config.Handler = gate
	signer := &oauth.MemoryDPoPSigner{}
	key, err := signer.NewKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := &MemoryProvider{}
	_ = p.SaveTokens(context.Background(), &oauth.Tokens{AccessToken: "tok-DPOP-1", TokenType: "DPoP", DPoPKey: key})
	pool := NewPool(nil)
	t.Cleanup(func() { pool.Cleanup(context.Background()) })
	names, err := RegisterServer(context.Background(), pool, core.NewManager(nil), &ServerConfig{Name: "s", URL: u},
		&RegisterOptions{Security: loopback(), Auth: &Auth{Provider: p, ID: "d", Settings: oauth.Settings{DPoPSigner: signer}}})
	return gate, names, err
}

// Every request carries the DPoP-bound token with the DPoP scheme and a
// fresh proof; the server's use_dpop_nonce challenge is answered by one
// retry with its nonce, which later requests carry from the start.
func TestAuthDPoPResourceNonce(t *testing.T) {
	gate, names, err := dpopRegistration(t, false)
	if err != nil || len(names) != len(fixtureNames) {
		t.Fatalf("RegisterServer = %v, %v", names, err)
	}
	gate.mu.Lock()
	defer gate.mu.Unlock()
	jtis := map[any]bool{}
	challenged := 0
	for i, s := range gate.seen {
		if s[strings.Index(s, " ")+1:] != "DPoP tok-DPOP-1" {
			t.Fatalf("request %d sent %q, want the DPoP scheme", i, s)
		}
		c := gate.claims[i]
		if c["ath"] == nil || jtis[c["jti"]] {
			t.Fatalf("request %d: proof %v lacks ath or reuses a jti", i, c)
		}
		jtis[c["jti"]] = true
		if c["nonce"] != "rs-nonce-1" {
			challenged++
		}
	}
	if challenged != 1 || len(gate.seen) < 3 {
		t.Fatalf("%d of %d requests went without the nonce, want only the first", challenged, len(gate.seen))
	}
}

// A server that answers use_dpop_nonce again after the retry gets no third
// attempt and no authorization flow: its 401 is reported.
func TestAuthDPoPResourceNonceRetryBounded(t *testing.T) {
	gate, _, err := dpopRegistration(t, true)
	if err == nil {
		t.Fatal("the registration passed a gate that never accepts")
	}
	if e := core.AsError(err); e == nil || strings.Contains(e.Message, "tok-DPOP") {
		t.Fatalf("err = %v", err)
	}
	gate.mu.Lock()
	defer gate.mu.Unlock()
	if len(gate.seen) != 2 {
		t.Fatalf("%d requests, want 2 (one nonce retry)", len(gate.seen))
	}
}

// A new grant's tokens make the registration's signer forget the key of
// the tokens they replace; a refresh, bound to the same key, keeps it.
func TestAuthDPoPForgetsReplacedKey(t *testing.T) {
	ctx := context.Background()
	signer := &oauth.MemoryDPoPSigner{}
	k1, _ := signer.NewKey(ctx)
	k2, _ := signer.NewKey(ctx)
	cfg := &ServerConfig{Name: "s", URL: "https://mcp.example/mcp", auth: &Auth{Settings: oauth.Settings{DPoPSigner: signer}}}
	st := newAuthState(cfg, loopback(), nil)
	st.replace(ctx, &oauth.Tokens{AccessToken: "a1", TokenType: "DPoP", DPoPKey: k1})
	st.replace(ctx, &oauth.Tokens{AccessToken: "a2", TokenType: "DPoP", DPoPKey: k1}) // a refresh
	if _, err := signer.Proof(ctx, k1, []byte(`{}`)); err != nil {
		t.Fatalf("a refresh dropped its own key: %v", err)
	}
	st.replace(ctx, &oauth.Tokens{AccessToken: "a3", TokenType: "DPoP", DPoPKey: k2}) // a new grant
	if _, err := signer.Proof(ctx, k1, []byte(`{}`)); err == nil {
		t.Fatal("the replaced tokens' key is still held")
	}
	if _, err := signer.Proof(ctx, k2, []byte(`{}`)); err != nil {
		t.Fatalf("the live key was dropped: %v", err)
	}
}
