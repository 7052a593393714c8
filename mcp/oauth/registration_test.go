package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// dcrServer is an authorization server's registration endpoint that
// records the body it was sent and answers status with answer.
type dcrServer struct {
	mu   sync.Mutex
	body map[string]any
	raw  string
}

func (d *dcrServer) route(status int, answer string) route {
	return func(w http.ResponseWriter, r *http.Request, base string) {
		data, _ := io.ReadAll(r.Body)
		d.mu.Lock()
		d.raw = string(data)
		_ = json.Unmarshal(data, &d.body)
		d.mu.Unlock()
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want a JSON POST", http.StatusBadRequest)
			return
		}
		jsonRoute(status, answer)(w, r, base)
	}
}

// register runs Register against a server whose registration endpoint
// answers status, answer; methods is token_endpoint_auth_methods_supported.
func register(t *testing.T, h *harness, d *dcrServer, status int, answer string, methods []string, s *Settings) (*ClientInfo, error) {
	srv := h.server(map[string]route{"/register": d.route(status, answer)})
	meta := &ServerMetadata{Issuer: srv.URL, RegistrationEndpoint: srv.URL + "/register", TokenEndpointAuthMethodsSupported: methods}
	return Register(context.Background(), h.client(), meta, s)
}

// TestRegisterPreRegistered (auth/pre-registration): the configured
// client is used as it is, its secret never to be quoted, nothing sent.
func TestRegisterPreRegistered(t *testing.T) {
	h := newHarness(t)
	c := h.client()
	s := &Settings{Client: &ClientInfo{ClientID: "pre-registered-client", ClientSecret: "pre-registered-secret"}, ClientMetadataURL: "https://app.example/cimd.json"}
	meta := &ServerMetadata{ClientIDMetadataDocumentSupported: true, RegistrationEndpoint: "https://as.example/register"}
	ci, err := Register(context.Background(), c, meta, s)
	if err != nil || ci.ClientID != "pre-registered-client" || ci.ClientSecret != "pre-registered-secret" {
		t.Fatalf("got %+v, %v", ci, err)
	}
	if ci == s.Client {
		t.Error("Register returned the caller's struct, not a copy")
	}
	if got := c.Secrets.Scrub("secret pre-registered-secret here"); strings.Contains(got, "pre-registered-secret") {
		t.Errorf("the client secret is not in Secrets: %q", got)
	}
	if len(h.checked) != 0 {
		t.Errorf("checked %q", h.checked)
	}
}

// TestRegisterCIMD (auth/basic-cimd): the metadata document URL is the
// client_id when the server supports it; otherwise registration follows.
func TestRegisterCIMD(t *testing.T) {
	const cimd = "https://conformance-test.local/client-metadata.json"
	h := newHarness(t)
	ci, err := Register(context.Background(), h.client(), &ServerMetadata{ClientIDMetadataDocumentSupported: true}, &Settings{ClientMetadataURL: cimd})
	if err != nil || ci.ClientID != cimd || ci.ClientSecret != "" || ci.TokenEndpointAuthMethod != "none" {
		t.Fatalf("got %+v, %v", ci, err)
	}
	h.wantReqs()

	d := &dcrServer{}
	ci, err = register(t, h, d, 201, `{"client_id":"dcr-client"}`, nil, &Settings{ClientMetadataURL: cimd, RedirectURL: "http://localhost:3000/cb"})
	if err != nil || ci.ClientID != "dcr-client" {
		t.Fatalf("without support: got %+v, %v", ci, err)
	}

	for _, bad := range []string{"http://app.example/cimd.json", "https://app.example", "https://app.example/", "cimd.json", "https://app.example/c.json#f"} {
		_, err := Register(context.Background(), h.client(), &ServerMetadata{ClientIDMetadataDocumentSupported: true}, &Settings{ClientMetadataURL: bad})
		asError(t, err, StepRegistration)
	}
}

// TestRegisterDynamicRequest: the client metadata sent (RFC 7591), with
// the defaults filled in and the auth method the server supports, a
// public client first (auth/token-endpoint-auth-*).
func TestRegisterDynamicRequest(t *testing.T) {
	tests := []struct {
		methods []string
		want    any // token_endpoint_auth_method sent; nil: left out
	}{
		{[]string{"none"}, "none"},
		{[]string{"client_secret_basic"}, "client_secret_basic"},
		{[]string{"client_secret_post"}, "client_secret_post"},
		{[]string{"client_secret_post", "client_secret_basic", "none"}, "none"},
		{[]string{"client_secret_post", "client_secret_basic"}, "client_secret_basic"},
		{[]string{"private_key_jwt"}, nil},
		{nil, nil},
	}
	for _, tt := range tests {
		h := newHarness(t)
		d := &dcrServer{}
		_, err := register(t, h, d, 201, `{"client_id":"c"}`, tt.methods, &Settings{RedirectURL: "http://localhost:3000/callback"})
		if err != nil {
			t.Fatal(err)
		}
		if d.body["token_endpoint_auth_method"] != tt.want {
			t.Errorf("supported %q: sent token_endpoint_auth_method %v, want %v", tt.methods, d.body["token_endpoint_auth_method"], tt.want)
		}
		want := `{"application_type":"native","client_name":"toolgate","grant_types":["authorization_code","refresh_token"],"redirect_uris":["http://localhost:3000/callback"],"response_types":["code"]`
		if !strings.HasPrefix(d.raw, want) {
			t.Errorf("sent %s", d.raw)
		}
	}
}

// TestRegisterDynamicMetadataKept: what the application's client metadata
// says is sent unchanged (big numbers and unknown members too); only what
// it leaves out is filled in; without a redirect URL no grant is assumed.
func TestRegisterDynamicMetadataKept(t *testing.T) {
	h := newHarness(t)
	d := &dcrServer{}
	md := `{"client_name":"My App","grant_types":["authorization_code"],"token_endpoint_auth_method":"client_secret_post","x_big":12345678901234567890,"redirect_uris":["https://app.example/cb"]}`
	if _, err := register(t, h, d, 201, `{"client_id":"c"}`, []string{"none"}, &Settings{RedirectURL: "http://localhost/cb", ClientMetadata: json.RawMessage(md)}); err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"client_name":"My App"`, `"grant_types":["authorization_code"]`, `"token_endpoint_auth_method":"client_secret_post"`,
		`"x_big":12345678901234567890`, `"redirect_uris":["https://app.example/cb"]`, `"response_types":["code"]`, `"application_type":"web"`} {
		if !strings.Contains(d.raw, part) {
			t.Errorf("sent %s, want %s in it", d.raw, part)
		}
	}

	d2 := &dcrServer{}
	if _, err := register(t, h, d2, 201, `{"client_id":"c"}`, nil, &Settings{}); err != nil {
		t.Fatal(err)
	}
	if d2.raw != `{"application_type":"web","client_name":"toolgate"}` {
		t.Errorf("sent %s", d2.raw)
	}

	for _, bad := range []string{`[]`, `"x"`, `null`, `{`} {
		_, err := register(t, h, &dcrServer{}, 201, `{"client_id":"c"}`, nil, &Settings{ClientMetadata: json.RawMessage(bad)})
		asError(t, err, StepRegistration)
	}
}

// TestRegisterDynamicAnswer: the registration the server returned, its
// secret added to Secrets, the auth method as registered (or as asked
// when the answer leaves it out and is consistent with it).
func TestRegisterDynamicAnswer(t *testing.T) {
	h := newHarness(t)
	c := h.client()
	srv := h.server(map[string]route{"/register": (&dcrServer{}).route(201,
		`{"client_id":"cid","client_secret":"dcr-secret-1","token_endpoint_auth_method":"client_secret_basic","client_secret_expires_at":1700000000,"registration_access_token":"rat-1"}`)})
	meta := &ServerMetadata{RegistrationEndpoint: srv.URL + "/register", TokenEndpointAuthMethodsSupported: []string{"client_secret_basic"}}
	ci, err := Register(context.Background(), c, meta, &Settings{RedirectURL: "http://localhost/cb"})
	if err != nil {
		t.Fatal(err)
	}
	if ci.ClientID != "cid" || ci.ClientSecret != "dcr-secret-1" || ci.TokenEndpointAuthMethod != "client_secret_basic" ||
		ci.ClientSecretExpiresAt != 1700000000 || !strings.Contains(string(ci.Raw), "rat-1") {
		t.Errorf("got %+v", ci)
	}
	if got := c.Secrets.Scrub("dcr-secret-1 rat-1"); strings.Contains(got, "dcr-secret-1") || strings.Contains(got, "rat-1") {
		t.Errorf("Secrets miss the answer's secrets: %q", got)
	}

	tests := []struct {
		methods []string
		answer  string
		want    string
	}{
		{[]string{"none"}, `{"client_id":"c"}`, "none"},
		{[]string{"none"}, `{"client_id":"c","client_secret":"s"}`, ""}, // asked none, got a secret: the token step decides
		{[]string{"client_secret_post"}, `{"client_id":"c","client_secret":"s"}`, "client_secret_post"},
		{[]string{"client_secret_post"}, `{"client_id":"c"}`, ""},
		{nil, `{"client_id":"c","client_secret":"s"}`, ""},
	}
	for _, tt := range tests {
		ci, err := register(t, h, &dcrServer{}, 200, tt.answer, tt.methods, &Settings{})
		if err != nil || ci.TokenEndpointAuthMethod != tt.want {
			t.Errorf("%q → %s: got %+v, %v; want method %q", tt.methods, tt.answer, ci, err, tt.want)
		}
	}
}

// TestRegisterRefusals: a refused registration carries the server's OAuth
// error; an unusable answer, no registration endpoint and a refused URL
// fail too.
func TestRegisterRefusals(t *testing.T) {
	h := newHarness(t)
	_, err := register(t, h, &dcrServer{}, 400, `{"error":"invalid_client_metadata","error_description":"redirect_uris is bad"}`, nil, &Settings{})
	e := asError(t, err, StepRegistration)
	if e.OAuthError != "invalid_client_metadata" || e.ErrorDescription != "redirect_uris is bad" || !strings.Contains(e.Message, "HTTP 400: invalid_client_metadata (redirect_uris is bad)") {
		t.Errorf("got %+v", e)
	}

	for name, answer := range map[string]string{"no client_id": `{"client_secret":"x"}`, "not JSON": `<html>`, "an array": `[{"client_id":"c"}]`} {
		_, err := register(t, h, &dcrServer{}, 201, answer, nil, &Settings{})
		if e := asError(t, err, StepRegistration); !strings.Contains(e.Message, "client_id") {
			t.Errorf("%s: message %q", name, e.Message)
		}
	}

	_, err = register(t, h, &dcrServer{}, 500, `oops`, nil, &Settings{})
	if e := asError(t, err, StepRegistration); e.OAuthError != "" || !strings.Contains(e.Message, "HTTP 500") {
		t.Errorf("got %+v", e)
	}

	_, err = Register(context.Background(), h.client(), &ServerMetadata{Issuer: "https://as.example"}, &Settings{})
	if e := asError(t, err, StepRegistration); !strings.Contains(e.Message, "pre-registered client id") {
		t.Errorf("message %q", e.Message)
	}
	_, err = Register(context.Background(), h.client(), nil, &Settings{})
	asError(t, err, StepRegistration)

	h2 := newHarness(t)
	h2.deny = func(u string) bool { return strings.HasSuffix(u, "/register") }
	if _, err := register(t, h2, &dcrServer{}, 201, `{"client_id":"c"}`, nil, &Settings{}); !errors.Is(err, errDenied) {
		t.Fatalf("err = %v, want the policy's error", err)
	}
	h2.wantReqs()
}
