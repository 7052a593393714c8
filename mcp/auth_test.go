package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/mcp/oauth"
)

// bearerGate serves h only to requests with "Authorization: Bearer want";
// others get 401 with a Bearer challenge. It records every Authorization
// header it saw.
type bearerGate struct {
	want string
	h    http.Handler
	mu   sync.Mutex
	seen []string
}

func (g *bearerGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.seen = append(g.seen, r.Method+" "+r.Header.Get("Authorization"))
	g.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+g.want {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", resource_metadata="http://`+r.Host+`/.well-known/oauth-protected-resource/mcp"`)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	g.h.ServeHTTP(w, r)
}

// gated puts a bearerGate wanting want in front of the server ts, and
// returns it with a provider that holds the access token stored.
func gated(ts *httptest.Server, want string, stored oauth.Tokens) (*bearerGate, *MemoryProvider) {
	gate := &bearerGate{want: want, h: ts.Config.Handler}
	ts.Config.Handler = gate
	p := &MemoryProvider{}
	_ = p.SaveTokens(context.Background(), &stored)
	return gate, p
}

// Stored tokens are sent as a Bearer header on every request of the
// session, and the registration works without any flow.
func TestAuthSendsStoredBearer(t *testing.T) {
	ts, u := serveStreamable(t, fixtureTools(nil))
	gate, p := gated(ts, "tok-SECRET-1", oauth.Tokens{AccessToken: "tok-SECRET-1", TokenType: "Bearer"})
	pool := NewPool(nil)
	defer pool.Cleanup(context.Background())
	names, err := RegisterServer(context.Background(), pool, core.NewManager(nil), &ServerConfig{Name: "s", URL: u},
		&RegisterOptions{Security: loopback(), Auth: &Auth{Provider: p, ID: "p1"}})
	if err != nil || len(names) != len(fixtureNames) {
		t.Fatalf("RegisterServer = %v, %v", names, err)
	}
	gate.mu.Lock()
	defer gate.mu.Unlock()
	for _, s := range gate.seen {
		if !strings.HasSuffix(s, " Bearer tok-SECRET-1") {
			t.Fatalf("a request without the token: %q (all: %q)", s, gate.seen)
		}
	}
}

// The legacy SSE transport's stream and the POSTs to its endpoint carry
// the token too.
func TestAuthBearerOnLegacySSE(t *testing.T) {
	ts, u := serveSSE(t, fixtureTools(nil))
	gate, p := gated(ts, "tok-SECRET-3", oauth.Tokens{AccessToken: "tok-SECRET-3"})
	pool := NewPool(nil)
	defer pool.Cleanup(context.Background())
	names, err := RegisterServer(context.Background(), pool, core.NewManager(nil), &ServerConfig{Name: "s", URL: u, Transport: TransportSSE},
		&RegisterOptions{Security: loopback(), Auth: &Auth{Provider: p}})
	if err != nil || len(names) != len(fixtureNames) {
		t.Fatalf("RegisterServer = %v, %v", names, err)
	}
	gate.mu.Lock()
	defer gate.mu.Unlock()
	var gets, posts int
	for _, s := range gate.seen {
		if !strings.HasSuffix(s, " Bearer tok-SECRET-3") {
			t.Fatalf("a request without the token: %q", s)
		}
		if strings.HasPrefix(s, "GET") {
			gets++
		} else {
			posts++
		}
	}
	if gets == 0 || posts == 0 {
		t.Fatalf("saw %d GETs and %d POSTs", gets, posts)
	}
}

// A 401 with no way to authorize (no metadata, no user) is auth-failed
// naming the server and the step; the token refused is never quoted.
func TestAuth401IsAuthFailedWithoutSecrets(t *testing.T) {
	ts, u := serveStreamable(t, fixtureTools(nil))
	_, p := gated(ts, "other", oauth.Tokens{AccessToken: "tok-SECRET-2"})
	pool := NewPool(nil)
	defer pool.Cleanup(context.Background())
	_, err := RegisterServer(context.Background(), pool, core.NewManager(nil), &ServerConfig{Name: "s", URL: u},
		&RegisterOptions{Security: loopback(), Auth: &Auth{Provider: p}})
	e := core.AsError(err)
	if e == nil || e.Code != core.CodeAuthFailed || e.Auth == nil || e.Auth.Step == "" || !strings.Contains(e.Message, `server "s"`) {
		t.Fatalf("err = %#v", err)
	}
	if strings.Contains(e.Message+e.Auth.OAuthErrorDescription, "SECRET") {
		t.Fatalf("the token is quoted: %s", e.Message)
	}
}

// Registrations with other providers get other pool entries (other
// tokens); the same provider shares one.
func TestAuthPoolKeyNamesTheProvider(t *testing.T) {
	cfg := &ServerConfig{Name: "s", URL: "https://x.example/mcp"}
	sec := loopback().withDefaults()
	a := entryKeyOf(&ServerConfig{Name: cfg.Name, URL: cfg.URL, auth: &Auth{ID: "a"}}, sec)
	b := entryKeyOf(&ServerConfig{Name: cfg.Name, URL: cfg.URL, auth: &Auth{ID: "b"}}, sec)
	none := entryKeyOf(cfg, sec)
	if a == b || a == none || a != entryKeyOf(&ServerConfig{Name: cfg.Name, URL: cfg.URL, auth: &Auth{ID: "a"}}, sec) {
		t.Fatal("the pool key does not follow the provider's identity")
	}
}

// FinishAuth without an authorization waiting is invalid-request naming
// the server (tests/node/mcp-oauth.test.mjs finishes a waiting one).
func TestFinishAuthNeedsAWaitingFlow(t *testing.T) {
	pool := NewPool(nil)
	err := pool.FinishAuth(context.Background(), "nobody", &oauth.Redirect{Code: "code", State: "state"})
	if e := core.AsError(err); e == nil || e.Code != core.CodeInvalidRequest || !strings.Contains(e.Message, `"nobody"`) {
		t.Fatalf("err = %v", err)
	}
}
