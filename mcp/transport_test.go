package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
)

func TestGuardRefusesSSEEndpointsOffOrigin(t *testing.T) {
	cases := []struct {
		name     string
		endpoint func(base string) string
		code     core.Code
		contains string
	}{
		{
			name:     "https on the same host and port",
			endpoint: func(base string) string { return strings.Replace(base, "http://", "https://", 1) + "/message" },
			code:     core.CodePolicyDenied, contains: `rule "origin"`,
		},
		{
			name:     "another scheme the policy refuses",
			endpoint: func(base string) string { return strings.Replace(base, "http://", "ftp://", 1) + "/message" },
			code:     core.CodePolicyDenied, contains: `rule "scheme"`,
		},
		{
			name:     "another host",
			endpoint: func(base string) string { return strings.Replace(base, "127.0.0.1", "localhost", 1) + "/message" },
			code:     core.CodePolicyDenied, contains: `rule "origin"`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostileSSE(t, tc.endpoint)
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: 300}
			_, err := RegisterServer(context.Background(), p, m,
				&ServerConfig{Name: "sse", URL: h.url, Transport: TransportSSE, Headers: map[string]string{"X-Key": planted}},
				&RegisterOptions{Security: sec})
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
			assert.Contains(t, ce.Message, tc.contains)
			noSecret(t, err.Error(), planted)
			assert.Zero(t, h.posts.Load(), "got %d POSTs, want none", h.posts.Load())
			assert.Equal(t, []string{"local"}, m.Names())
		})
	}
}

func TestGuardCapsTheSSEStream(t *testing.T) {
	h := newHostileSSE(t, func(string) string { return "/message" })
	h.list = func(json.RawMessage) string { return endlessEvent }
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := localManager(t)
	sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, MaxMessageBytes: 64 << 10}
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "sse", URL: h.url, Transport: TransportSSE}, &RegisterOptions{Security: sec})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, core.CodeTransport, ce.Code, "got %s (%s), want transport", ce.Code, ce.Message)
	assert.Contains(t, ce.Message, "larger than 65536 bytes")
	assert.Equal(t, []string{"local"}, m.Names())
}

func TestGuardRefusesAtConnect(t *testing.T) {
	cases := []struct {
		name     string
		handler  http.HandlerFunc
		code     core.Code
		contains string
	}{
		{
			name: "never answers",
			handler: func(_ http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body) // the server notices a client that goes away only after the body
				<-r.Context().Done()
			},
			code:     core.CodeTimeout,
			contains: "300 ms",
		},
		{
			name: "redirect",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "https://example.com/mcp", http.StatusFound)
			},
			code:     core.CodeTransport,
			contains: "HTTP 302 (a redirect)",
		},
		{
			name: "text/html",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = io.WriteString(w, "<html>login</html>")
			},
			code:     core.CodeTransport,
			contains: `Content-Type "text/html; charset=utf-8"`,
		},
		{
			name:     "404 to initialize",
			handler:  func(w http.ResponseWriter, _ *http.Request) { http.NotFound(w, nil) },
			code:     core.CodeTransport,
			contains: "the path was not found",
		},
		{
			name: "401",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://169.254.169.254/x"`)
				w.WriteHeader(http.StatusUnauthorized)
			},
			code:     core.CodeTransport,
			contains: "requires authorization",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(tc.handler)
			defer ts.Close()
			defer ts.CloseClientConnections()
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			sec := &Security{AllowURLs: true, AllowLoopbackHTTP: true, TimeoutMs: 300}
			_, err := RegisterServer(context.Background(), p, core.NewManager(nil), &ServerConfig{Name: "c", URL: ts.URL}, &RegisterOptions{Security: sec})
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
			assert.Contains(t, ce.Message, tc.contains)
		})
	}
}

func TestGuardReportsUnreachableServer(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL + "/mcp"
	ts.Close()
	p := NewPool(nil)
	_, err := RegisterServer(context.Background(), p, core.NewManager(nil),
		&ServerConfig{Name: "gone", URL: url + "?token=" + planted}, &RegisterOptions{Security: loopback()})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, core.CodeTransport, ce.Code, "got %s (%s), want transport", ce.Code, ce.Message)
	assert.Contains(t, ce.Message, "the request failed")
	noSecret(t, err.Error(), planted)
}

func TestCappedBody(t *testing.T) {
	cases := []struct {
		name string
		body string
		max  int
		sse  bool
		fail bool
	}{
		{"json at the cap", strings.Repeat("a", 10), 10, false, false},
		{"json over the cap", strings.Repeat("a", 11), 10, false, true},
		{"sse events each under the cap", "data: 12\n\ndata: 34\n\n", 9, true, false},
		{"sse event over the cap", "data: 1\ndata: 2\n\n", 9, true, true},
		{"sse line without end", "data: " + strings.Repeat("x", 100), 50, true, true},
		{"sse CRLF events", "data: 12\r\n\r\ndata: 34\r\n\r\n", 10, true, false},
		{"sse comments reset nothing inside an event", ": keep\n: keep\n: keep\n", 12, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			done := 0
			var capped *core.Error
			b := &cappedBody{
				r: io.NopCloser(strings.NewReader(tc.body)), max: tc.max, sse: tc.sse,
				done: func() { done++ }, onCap: func(e *core.Error) { capped = e },
				err: core.Errorf(core.CodeTransport, "", "too large"),
			}
			got, err := io.ReadAll(b)
			require.NoError(t, b.Close())
			if tc.fail {
				require.Error(t, err)
				assert.NotNil(t, capped)
				assert.Less(t, len(got), len(tc.body))
			} else {
				require.NoError(t, err)
				assert.Equal(t, tc.body, string(got))
			}
			assert.Equal(t, 1, done, "got done called %d times, want once", done)
		})
	}
}

func TestFailureSinkKeepsTheHardFailure(t *testing.T) {
	soft := core.Errorf(core.CodeTransport, "", "HTTP 500")
	hard := core.Errorf(core.CodeTimeout, "", "late")
	other := core.Errorf(core.CodePolicyDenied, "", "no")
	var s failureSink
	s.set(soft, false)
	s.set(hard, true)
	s.set(other, true)
	s.set(soft, false)
	got, isHard := s.get()
	assert.Same(t, hard, got, "got %v, want the first hard failure", got)
	assert.True(t, isHard)
	s.reset()
	got, _ = s.get()
	assert.Nil(t, got)
	var none *failureSink
	none.set(hard, true)
	none.reset()
	got, _ = none.get()
	assert.Nil(t, got)
}

func TestGuardRoundTripRules(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/stream":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, "{}")
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"ok":true}`)
		case "/bad":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`)
		}
	}))
	defer ts.Close()
	cfg := &ServerConfig{Name: "g", URL: ts.URL + "/json", Headers: map[string]string{"A": planted}}
	g := newGuard(cfg, loopback().withDefaults(), nil)
	cases := []struct {
		name   string
		method string
		url    string
		code   core.Code
		status int
	}{
		{"POST json", http.MethodPost, ts.URL + "/json", "", 200},
		{"GET stream with JSON", http.MethodGet, ts.URL + "/stream", core.CodeTransport, 0},
		{"JSON-RPC error with 400", http.MethodPost, ts.URL + "/bad", "", 400},
		{"other port", http.MethodPost, "http://127.0.0.1:1/json", core.CodePolicyDenied, 0},
		{"userinfo", http.MethodPost, strings.Replace(ts.URL, "http://", "http://u:"+planted+"@", 1), core.CodePolicyDenied, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sink := &failureSink{}
			req, err := wire.NewRequest(withValue(context.Background(), sink), tc.method, tc.url, []byte("{}"))
			require.NoError(t, err)
			resp, err := g.RoundTrip(req)
			if tc.code != "" {
				var ce *core.Error
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
				noSecret(t, ce.Message, planted)
				got, hard := sink.get()
				assert.Same(t, ce, got)
				assert.True(t, hard)
				return
			}
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode)
			_, err = io.ReadAll(resp.Body)
			require.NoError(t, err)
		})
	}
}

// baseFunc is a wire.RoundTripper of a test.
type baseFunc func(*wire.Request) (*wire.Response, error)

func (f baseFunc) RoundTrip(r *wire.Request) (*wire.Response, error) { return f(r) }

// closeSpy is a response body that records its Close.
type closeSpy struct {
	io.Reader
	closed bool
}

func (c *closeSpy) Close() error { c.closed = true; return nil }

func TestGuardRefusesRedirectsFromItsBase(t *testing.T) {
	cfg := &ServerConfig{Name: "g", URL: "http://127.0.0.1:1/mcp"}
	body := &closeSpy{Reader: strings.NewReader("moved")}
	calls := 0
	g := newGuard(cfg, loopback().withDefaults(), baseFunc(func(*wire.Request) (*wire.Response, error) {
		calls++
		h := wire.Header{}
		h.Set("Location", "http://127.0.0.1:1/elsewhere")
		return &wire.Response{StatusCode: 307, Header: h, Body: body}, nil
	}))
	req, err := wire.NewRequest(context.Background(), wire.MethodPost, cfg.URL, []byte("{}"))
	require.NoError(t, err)
	resp, err := g.RoundTrip(req)
	assert.Nil(t, resp)
	var ce *core.Error
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, core.CodeTransport, ce.Code)
	assert.Contains(t, fmt.Sprint(err), "redirects are never followed")
	assert.Equal(t, 1, calls, "the redirect was followed")
	assert.True(t, body.closed, "the redirect's body was not closed")
}

func TestGuardWithoutBaseRefuses(t *testing.T) {
	cfg := &ServerConfig{Name: "g", URL: "http://127.0.0.1:1/mcp"}
	g := newGuard(cfg, loopback().withDefaults(), noBase{})
	req, err := wire.NewRequest(context.Background(), wire.MethodPost, cfg.URL, []byte("{}"))
	require.NoError(t, err)
	_, err = g.RoundTrip(req)
	var ce *core.Error
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, core.CodeTransport, ce.Code)
	assert.Contains(t, ce.Message, "no HTTP transport")
}

// cleanBody is a body whose Close ends the exchange (wire.ClosesClean).
type cleanBody struct {
	io.Reader
	closed bool
}

func (*cleanBody) ClosesClean()   {}
func (b *cleanBody) Close() error { b.closed = true; return nil }

// TestDiscardBodyClosesACleanBodyUnread: an answer nobody reads is closed
// unread when its transport's Close ends the exchange (fetch), and read to
// its end first otherwise (net/http reuses a connection only then).
func TestDiscardBodyClosesACleanBodyUnread(t *testing.T) {
	clean := &cleanBody{Reader: strings.NewReader("Accepted")}
	discardBody(&cappedBody{r: clean, max: 100, done: func() {}})
	require.True(t, clean.closed)
	rest, _ := io.ReadAll(clean.Reader)
	require.Equal(t, "Accepted", string(rest), "a clean body is not read")

	plain := strings.NewReader("Accepted")
	discardBody(io.NopCloser(plain))
	require.Zero(t, plain.Len(), "any other body is read to its end")
}
