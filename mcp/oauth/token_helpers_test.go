package oauth

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/internal/wire/nethttp"
)

// tokSeen is one request a test server received.
type tokSeen struct {
	Method, Host, Path string
	Header             http.Header
	Form               url.Values
}

// tokServer is an httptest server that records every request and answers
// with answer's status and JSON body.
type tokServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []tokSeen
}

func newTokServer(t *testing.T, answer func(r tokSeen) (int, any)) *tokServer {
	t.Helper()
	s := &tokServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		req := tokSeen{Method: r.Method, Host: r.Host, Path: r.URL.Path, Header: r.Header.Clone(), Form: form}
		s.mu.Lock()
		s.seen = append(s.seen, req)
		s.mu.Unlock()
		status, v := answer(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if raw, ok := v.(string); ok {
			io.WriteString(w, raw)
			return
		}
		json.NewEncoder(w).Encode(v)
	}))
	t.Cleanup(s.Close)
	return s
}

// requests is what the server received so far.
func (s *tokServer) requests() []tokSeen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]tokSeen(nil), s.seen...)
}

// only is the one request the server received.
func (s *tokServer) only(t *testing.T) tokSeen {
	t.Helper()
	r := s.requests()
	if len(r) != 1 {
		t.Fatalf("the server received %d requests, want 1", len(r))
	}
	return r[0]
}

// errTokRefused is what the tests' policy answers for a refused URL.
var errTokRefused = errors.New("policy-denied: test policy")

// tokClient is a Client over net/http whose Check records every URL and
// refuses those refuse names.
func tokClient(refuse ...string) (*Client, *[]string) {
	var mu sync.Mutex
	var checked []string
	c := &Client{
		Transport: nethttp.Transport{},
		Secrets:   &Secrets{},
		Check: func(u string) error {
			mu.Lock()
			defer mu.Unlock()
			checked = append(checked, u)
			for _, r := range refuse {
				if strings.HasPrefix(u, r) {
					return errTokRefused
				}
			}
			return nil
		},
	}
	return c, &checked
}

// tokMeta is authorization server metadata at base.
func tokMeta(base string, methods ...string) *ServerMetadata {
	return &ServerMetadata{
		Issuer:                            base,
		AuthorizationEndpoint:             base + "/authorize",
		TokenEndpoint:                     base + "/token",
		CodeChallengeMethodsSupported:     []string{"S256"},
		TokenEndpointAuthMethodsSupported: methods,
	}
}

// tokOK is a token answer as the conformance servers send it.
func tokOK(token string) map[string]any {
	return map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600}
}

// wantForm fails unless got holds exactly want (one value per key).
func wantForm(t *testing.T, got url.Values, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if g := got[k]; len(g) != 1 || g[0] != v {
			t.Errorf("form %s = %q, want %q", k, g, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("form has %s = %q, not expected", k, got[k])
		}
	}
}

// tokError is err as an *Error of step.
func tokError(t *testing.T, err error, step Step) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	if e.Step != step {
		t.Fatalf("error step %q, want %q (%v)", e.Step, step, e)
	}
	return e
}

// noSecret fails when err shows any of secrets, in any field.
func noSecret(t *testing.T, err error, secrets ...string) {
	t.Helper()
	var e *Error
	text := err.Error()
	if errors.As(err, &e) {
		text += " " + e.OAuthError + " " + e.ErrorDescription + " " + e.Message
	}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("the error quotes the secret %q: %s", s, text)
		}
	}
}
