package oauth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/internal/wire/nethttp"
)

// errDenied is what the test policy answers for a URL it refuses.
var errDenied = errors.New("policy-denied (test)")

// harness is a URL policy the test controls plus a log of what the test
// servers received; at cleanup it fails the test if any request reached a
// server without passing Check first, or if a refused URL was requested.
type harness struct {
	t         *testing.T
	mu        sync.Mutex
	checked   []string
	requested []string
	deny      func(rawURL string) bool
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t}
	t.Cleanup(h.verify)
	return h
}

// check is the Client's Check: it records rawURL and refuses what deny says.
func (h *harness) check(rawURL string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.checked = append(h.checked, rawURL)
	if h.deny != nil && h.deny(rawURL) {
		return errDenied
	}
	return nil
}

// client is a Client through h's policy with empty secrets.
func (h *harness) client() *Client {
	return &Client{Transport: nethttp.Transport{}, Check: h.check, Secrets: &Secrets{}}
}

// route answers one request of a test server: base is the server's URL.
type route func(w http.ResponseWriter, r *http.Request, base string)

// server starts a test server answering routes by path (404 otherwise),
// recording every request's full URL.
func (h *harness) server(routes map[string]route) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host
		h.mu.Lock()
		h.requested = append(h.requested, base+r.URL.RequestURI())
		h.mu.Unlock()
		if rt, ok := routes[r.URL.Path]; ok {
			rt(w, r, base)
			return
		}
		http.NotFound(w, r)
	}))
	h.t.Cleanup(srv.Close)
	return srv
}

// reqs is what the servers received so far.
func (h *harness) reqs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.requested...)
}

// wantReqs fails unless the servers received exactly want, in order.
func (h *harness) wantReqs(want ...string) {
	h.t.Helper()
	got := h.reqs()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		h.t.Errorf("requests:\n  got  %q\n  want %q", got, want)
	}
}

// verify: every request passed Check first, and no refused URL was sent.
func (h *harness) verify() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.requested {
		if !contains(h.checked, r) {
			h.t.Errorf("%s was requested without passing Check", r)
		}
		if h.deny != nil && h.deny(r) {
			h.t.Errorf("%s was requested although the policy refused it", r)
		}
	}
}

// jsonRoute answers body as JSON with status.
func jsonRoute(status int, body string) route {
	return func(w http.ResponseWriter, _ *http.Request, _ string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// templRoute answers body as JSON with "{base}" replaced by the server's URL.
func templRoute(body string) route {
	return func(w http.ResponseWriter, r *http.Request, base string) {
		jsonRoute(200, strings.ReplaceAll(body, "{base}", base))(w, r, base)
	}
}

// asError fails unless err is an *Error of step ("": any step).
func asError(t *testing.T, err error, step Step) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	if step != "" && e.Step != step {
		t.Fatalf("error %q has step %q, want %q", e.Error(), e.Step, step)
	}
	return e
}

// closedURL is the URL of a server that no longer listens.
func closedURL(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	return u
}

// redirectRoute answers 302 to location.
func redirectRoute(location string) route {
	return func(w http.ResponseWriter, r *http.Request, _ string) {
		http.Redirect(w, r, location, http.StatusFound)
	}
}
