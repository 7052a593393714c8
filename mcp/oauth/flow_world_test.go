package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
)

// authServer is an authorization server of the flow's end-to-end tests,
// laid out as the conformance suite's createAuthServer: metadata at the
// RFC 8414 root location, dynamic registration, an authorization endpoint
// that redirects at once (with iss as configured) and a token endpoint.
// It records what it was sent.
type authServer struct {
	*httptest.Server
	name string // its client ids and tokens start with it

	// issSupported is authorization_response_iss_parameter_supported
	// (nil: not in the metadata).
	issSupported *bool
	// metaIssuer is the metadata's issuer for the server's base URL (nil:
	// the base URL itself).
	metaIssuer func(base string) string
	// redirectIss is the iss the redirect carries for the metadata's
	// issuer; ok false: none (nil: the issuer itself).
	redirectIss func(issuer string) (iss string, ok bool)
	// refuse makes the authorization endpoint answer access_denied.
	refuse bool

	mu          sync.Mutex
	registered  int
	authorizeID []string     // the client_id of each authorization request
	tokenForms  []url.Values // each token request's form
}

// deniedDescription is the error_description of an authServer that
// refuses.
const deniedDescription = "the user said no"

// newAuthServer starts an authorization server named name behind h.
func newAuthServer(h *harness, name string) *authServer {
	a := &authServer{name: name}
	a.Server = h.server(map[string]route{
		asPath:       a.metadata,
		"/register":  a.register,
		"/authorize": a.authorize,
		"/token":     a.token,
	})
	return a
}

func (a *authServer) issuer(base string) string {
	if a.metaIssuer != nil {
		return a.metaIssuer(base)
	}
	return base
}

func (a *authServer) metadata(w http.ResponseWriter, r *http.Request, base string) {
	doc := map[string]any{
		"issuer": a.issuer(base), "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
		"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
		"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
	}
	if a.issSupported != nil {
		doc["authorization_response_iss_parameter_supported"] = *a.issSupported
	}
	writeJSON(w, 200, doc)
}

func (a *authServer) register(w http.ResponseWriter, r *http.Request, _ string) {
	a.mu.Lock()
	a.registered++
	id := a.name + "-client-" + strconv.Itoa(a.registered)
	a.mu.Unlock()
	writeJSON(w, 201, map[string]any{"client_id": id, "token_endpoint_auth_method": "none"})
}

func (a *authServer) authorize(w http.ResponseWriter, r *http.Request, base string) {
	q := r.URL.Query()
	a.mu.Lock()
	a.authorizeID = append(a.authorizeID, q.Get("client_id"))
	a.mu.Unlock()
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", 400)
		return
	}
	v := back.Query()
	if a.refuse {
		v.Set("error", "access_denied")
		v.Set("error_description", deniedDescription)
	} else {
		v.Set("code", "code-"+planted)
	}
	v.Set("state", q.Get("state"))
	iss, ok := a.issuer(base), true
	if a.redirectIss != nil {
		iss, ok = a.redirectIss(iss)
	}
	if ok {
		v.Set("iss", iss)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (a *authServer) token(w http.ResponseWriter, r *http.Request, _ string) {
	_ = r.ParseForm()
	a.mu.Lock()
	a.tokenForms = append(a.tokenForms, r.PostForm)
	n := len(a.tokenForms)
	a.mu.Unlock()
	writeJSON(w, 200, map[string]any{"access_token": a.name + "-at-" + strconv.Itoa(n), "token_type": "Bearer",
		"refresh_token": a.name + "-rt-" + strconv.Itoa(n)})
}

// tokenRequests is how many token requests the server received.
func (a *authServer) tokenRequests() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.tokenForms)
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// mcpServer is a protected resource whose metadata lists the
// authorization server *as (which a test may change: a migration).
type mcpServer struct {
	*httptest.Server
	mu sync.Mutex
	as string
}

// newMCPServer starts an MCP server behind h whose metadata names as.
func newMCPServer(h *harness, as string) *mcpServer {
	m := &mcpServer{as: as}
	m.Server = h.server(map[string]route{prmPath: func(w http.ResponseWriter, r *http.Request, base string) {
		m.mu.Lock()
		defer m.mu.Unlock()
		writeJSON(w, 200, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{m.as}})
	}})
	return m
}

// moveTo makes the resource metadata name another authorization server.
func (m *mcpServer) moveTo(as string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.as = as
}

// challenge is the MCP server's 401 challenge.
func (m *mcpServer) challenge() Challenge {
	return Challenge{Scheme: "Bearer", Error: "invalid_token", ResourceMetadata: m.URL + prmPath}
}

// browser is a Provider whose user follows the authorization URL (after
// the test policy allowed it, as the flow's own requests are) and brings
// the redirect's URL back, read with ParseRedirect. Registrations are
// kept by issuer, or in one place when oneClient is set (an application
// that ignores the issuer it is given); later keeps the authorization URL
// and fails, as a provider that cannot wait for the user does.
type browser struct {
	h         *harness
	oneClient bool
	later     bool

	tokens     *Tokens
	clients    map[string]*ClientInfo
	saved      []string // the issuer of each SaveClientInfo
	pendingURL string
}

func (b *browser) Tokens(context.Context) (*Tokens, error) { return b.tokens, nil }

func (b *browser) SaveTokens(_ context.Context, t *Tokens) error {
	b.tokens = t
	return nil
}

func (b *browser) key(issuer string) string {
	if b.oneClient {
		return ""
	}
	return issuer
}

func (b *browser) ClientInfo(_ context.Context, issuer string) (*ClientInfo, error) {
	return b.clients[b.key(issuer)], nil
}

func (b *browser) SaveClientInfo(_ context.Context, issuer string, ci *ClientInfo) error {
	if b.clients == nil {
		b.clients = map[string]*ClientInfo{}
	}
	b.clients[b.key(issuer)] = ci
	b.saved = append(b.saved, issuer)
	return nil
}

func (b *browser) Authorize(_ context.Context, authURL string) (*Redirect, error) {
	if b.later {
		b.pendingURL = authURL
		return nil, errors.New("the user is in another tab")
	}
	loc, err := b.follow(authURL)
	if err != nil {
		return nil, err
	}
	return ParseRedirect(loc)
}

// follow requests authURL without following its redirect and returns the
// redirect's location.
func (b *browser) follow(authURL string) (string, error) {
	if err := b.h.check(authURL); err != nil {
		return "", err
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(authURL)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Header.Get("Location"), nil
}

// codeSettings are the settings of the conformance client: a loopback
// redirect and dynamic registration.
func codeSettings() *Settings {
	return &Settings{RedirectURL: "http://localhost:3000/callback"}
}

// ptr is &v.
func ptr[T any](v T) *T { return &v }
