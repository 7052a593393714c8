package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
)

// rpcBody writes a JSON-RPC error with a null id, as a server that could
// not serve the request does, with status.
func rpcBody(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
}

// The legacy SSE hint, which only a legacy server may get.
const sseHint = `set transport: "sse"`

func TestHTTPErrorsAtConnect(t *testing.T) {
	cases := []struct {
		name     string
		handler  http.HandlerFunc
		status   int
		rpcCode  *int
		contains []string
	}{
		{
			name: "401 with WWW-Authenticate Bearer",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="`+planted+`", error="invalid_token", resource_metadata="https://a.example/.well-known/x"`)
				w.WriteHeader(http.StatusUnauthorized)
			},
			status:   401,
			contains: []string{"requires authorization", "HTTP 401 Unauthorized", `WWW-Authenticate scheme "Bearer"`, "server/discover answered"},
		},
		{
			name: "403 with a JSON-RPC error",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				rpcBody(w, 403, -32001, "token "+planted+" is not allowed")
			},
			status:   403,
			rpcCode:  ptr(-32001),
			contains: []string{"refused authorization", "HTTP 403 Forbidden", "JSON-RPC error -32001", "[redacted]"},
		},
		{
			name:     "404",
			handler:  func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			status:   404,
			contains: []string{"the path was not found", "/wrong", "HTTP 404 Not Found"},
		},
		{
			name:     "405",
			handler:  func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusMethodNotAllowed) },
			status:   405,
			contains: []string{"does not accept POST", "HTTP 405 Method Not Allowed"},
		},
		{
			name:     "406",
			handler:  func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusNotAcceptable) },
			status:   406,
			contains: []string{"Accept: application/json, text/event-stream", "HTTP 406 Not Acceptable"},
		},
		{
			name:     "415",
			handler:  func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusUnsupportedMediaType) },
			status:   415,
			contains: []string{"does not accept a JSON request body", "HTTP 415 Unsupported Media Type"},
		},
		{
			name:     "500 with a JSON-RPC error",
			handler:  func(w http.ResponseWriter, _ *http.Request) { rpcBody(w, 500, -32603, "database down") },
			status:   500,
			rpcCode:  ptr(-32603),
			contains: []string{"the server failed", "HTTP 500 Internal Server Error", `JSON-RPC error -32603: "database down"`},
		},
		{
			name: "HTML 502",
			handler: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusBadGateway)
				_, _ = io.WriteString(w, "<html><body>Bad gateway "+planted+"</body></html>")
			},
			status:   502,
			contains: []string{"an HTML page, not MCP", "HTTP 502 Bad Gateway"},
		},
		{
			name: "400 whose GET is an event stream without endpoint",
			handler: func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					w.Header().Set("Content-Type", "text/event-stream")
					_, _ = io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\n\n")
					return
				}
				http.Error(w, "bad", http.StatusBadRequest)
			},
			status:   400,
			contains: []string{"refused the request", "HTTP 400 Bad Request"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(tc.handler)
			defer ts.Close()
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			cfg := &ServerConfig{Name: "h", URL: ts.URL + "/wrong?key=" + planted, Headers: map[string]string{"Authorization": "Bearer " + planted}}
			_, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: loopback()})
			var ce *core.Error
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, core.CodeTransport, ce.Code, "got %s (%s)", ce.Code, ce.Message)
			assert.Equal(t, tc.status, transportOf(t, ce).HTTPStatus, "%s", ce.Message)
			assert.Equal(t, tc.rpcCode, transportOf(t, ce).RPCCode, "%s", ce.Message)
			for _, want := range tc.contains {
				assert.Contains(t, ce.Message, want)
			}
			assert.NotContains(t, ce.Message, sseHint)
			assert.NotContains(t, ce.Message, "invalid_token", "a WWW-Authenticate parameter was quoted")
			noSecret(t, err.Error(), planted)
			noSecret(t, transportOf(t, ce).RPCMessage, planted)
			assert.Equal(t, []string{"local"}, m.Names(), "a refusal registered tools")
		})
	}
}

func TestHTTPErrorLegacyHintOnlyForALegacyServer(t *testing.T) {
	t.Run("a legacy SSE server addressed as Streamable HTTP", func(t *testing.T) {
		_, url := serveSSE(t, fixtureTools(nil))
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		m := localManager(t)
		_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "old", URL: url}, &RegisterOptions{Security: loopback()})
		var ce *core.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, core.CodeTransport, ce.Code)
		assert.Contains(t, ce.Message, "does not speak Streamable HTTP")
		assert.Contains(t, ce.Message, sseHint)
		assert.NotZero(t, transportOf(t, ce).HTTPStatus)
		assert.Equal(t, []string{"local"}, m.Names())

		// With the transport the hint names, it registers.
		names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "old", URL: url, Transport: TransportSSE}, &RegisterOptions{Security: loopback()})
		require.NoError(t, err)
		assert.NotEmpty(t, names)
	})
	t.Run("a Streamable HTTP server at a wrong path", func(t *testing.T) {
		mux := http.NewServeMux()
		s := fixtureTools(nil)
		mux.Handle("/mcp", server.NewStreamableHTTPServer(s))
		ts := httptest.NewServer(mux)
		defer ts.Close()
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		_, err := RegisterServer(context.Background(), p, core.NewManager(nil), &ServerConfig{Name: "s", URL: ts.URL + "/mpc"}, &RegisterOptions{Security: loopback()})
		var ce *core.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, 404, transportOf(t, ce).HTTPStatus)
		assert.Contains(t, ce.Message, "the path was not found")
		assert.NotContains(t, ce.Message, sseHint)
	})
	t.Run("a Streamable HTTP server addressed as legacy SSE", func(t *testing.T) {
		h := newHostile(t) // GET answers 405
		p := NewPool(nil)
		defer p.Cleanup(context.Background())
		_, err := RegisterServer(context.Background(), p, core.NewManager(nil), &ServerConfig{Name: "s", URL: h.url, Transport: TransportSSE}, &RegisterOptions{Security: loopback()})
		var ce *core.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, 405, transportOf(t, ce).HTTPStatus)
		assert.Contains(t, ce.Message, `drop transport: "sse"`)
	})
}

func TestToolCallErrorsKeepTheirJSONRPCError(t *testing.T) {
	cases := []struct {
		name   string
		call   func(w http.ResponseWriter, r *http.Request, m rpcMessage)
		status int
		want   string
	}{
		{"a JSON-RPC error answer", func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
			writeRPCError(w, m.ID, -32602, "unknown argument q for "+planted)
		}, 0, `JSON-RPC error -32602: "unknown argument q for [redacted]"`},
		{"HTTP 500 with a JSON-RPC error", func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32602, "message": "unknown argument q for " + planted}})
		}, 500, `tools/call answered HTTP 500 Internal Server Error`},
		{"HTTP 403", func(w http.ResponseWriter, _ *http.Request, _ rpcMessage) {
			w.Header().Set("WWW-Authenticate", "Bearer error=\"insufficient_scope\"")
			w.WriteHeader(403)
		}, 403, "refused authorization"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			h.toolsList = listOf(toolJSON("t"))
			h.toolsCall = tc.call
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			cfg := &ServerConfig{Name: "s", URL: h.url, Headers: map[string]string{"Authorization": "Bearer " + planted}}
			_, err := RegisterServer(context.Background(), p, m, cfg, &RegisterOptions{Security: loopback()})
			require.NoError(t, err)
			fc := invoke(t, m, "mcp__s__t", nil)
			require.Equal(t, core.StatusFailed, fc.Status)
			var ce *core.Error
			require.ErrorAs(t, fc.Err, &ce)
			assert.Equal(t, core.CodeTransport, ce.Code)
			assert.Equal(t, "mcp__s__t", ce.Tool)
			assert.Equal(t, tc.status, transportOf(t, ce).HTTPStatus, "%s", ce.Message)
			assert.Contains(t, ce.Message, tc.want)
			if tc.status != 403 {
				require.NotNil(t, transportOf(t, ce).RPCCode, "%s", ce.Message)
				assert.Equal(t, -32602, *transportOf(t, ce).RPCCode)
				assert.Equal(t, "unknown argument q for [redacted]", transportOf(t, ce).RPCMessage)
			}
			assert.False(t, strings.Contains(ce.Message, "insufficient_scope"), "a WWW-Authenticate parameter was quoted: %s", ce.Message)
			noSecret(t, fc.Err.Error(), planted)
		})
	}
}

func TestAuthScheme(t *testing.T) {
	for in, want := range map[string]string{
		`Bearer realm="x"`:             "Bearer",
		`Basic`:                        "Basic",
		`  DPoP algs="ES256"`:          "DPoP",
		`Bearer,Basic`:                 "Bearer",
		``:                             "",
		`"quoted"`:                     "",
		strings.Repeat("a", 31) + " x": "",
		planted + "=":                  "",
	} {
		h := http.Header{}
		h.Set("WWW-Authenticate", in)
		got := authScheme(wire.Header(h))
		assert.Equal(t, want, got, "WWW-Authenticate %q", in)
	}
}

func ptr(n int) *int { return &n }

func TestHTTPErrorsOfTheLegacyStream(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="`+planted+`"`)
		rpcBody(w, 401, -32001, "no "+planted)
	}))
	defer ts.Close()
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	cfg := &ServerConfig{Name: "old", URL: ts.URL + "/sse", Transport: TransportSSE, Headers: map[string]string{"Authorization": "Bearer " + planted}}
	_, err := RegisterServer(context.Background(), p, core.NewManager(nil), cfg, &RegisterOptions{Security: loopback()})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, core.CodeTransport, ce.Code)
	assert.Equal(t, 401, transportOf(t, ce).HTTPStatus)
	require.NotNil(t, transportOf(t, ce).RPCCode)
	assert.Equal(t, -32001, *transportOf(t, ce).RPCCode)
	assert.Equal(t, "no [redacted]", transportOf(t, ce).RPCMessage)
	assert.Contains(t, ce.Message, "the server refused the SSE stream: the server requires authorization")
	assert.Contains(t, ce.Message, `WWW-Authenticate scheme "Basic"`)
	noSecret(t, err.Error(), planted)
}

func TestHTTPErrorOfNotificationsInitialized(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m rpcMessage
		_ = json.NewDecoder(r.Body).Decode(&m)
		if m.Method == "initialize" {
			writeResult(w, m.ID, map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "x", "version": "0"}})
			return
		}
		http.Error(w, "no", http.StatusUnsupportedMediaType)
	}))
	defer ts.Close()
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	_, err := RegisterServer(context.Background(), p, core.NewManager(nil), &ServerConfig{Name: "n", URL: ts.URL + "/mcp"}, &RegisterOptions{Security: loopback()})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 415, transportOf(t, ce).HTTPStatus)
	assert.Contains(t, ce.Message, "notifications/initialized answered HTTP 415 Unsupported Media Type")
	assert.NotContains(t, ce.Message, sseHint)
}

// transportOf is ce's Transport detail, which every error of these tests
// carries (the server answered).
func transportOf(t *testing.T, ce *core.Error) *core.TransportDetail {
	t.Helper()
	require.NotNil(t, ce.Transport, "no transport detail: %s", ce.Message)
	return ce.Transport
}
