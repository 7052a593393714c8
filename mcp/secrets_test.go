package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// The configured secrets a hostile server echoes back: a header token with
// JSON-special characters, a token in the URL's path and one in its query.
const (
	echoedHeader = `tok"en\with-quote-and-backslash-5f1e`
	echoedPath   = "sk-path-0123456789abcdef"
	echoedQuery  = "qv-77aa55cc33ee"
)

// echoedSecrets lists the secrets and how a server may spell them back.
func echoedSecrets() []string {
	var out []string
	for _, s := range []string{echoedHeader, echoedPath, echoedQuery} {
		js, _ := json.Marshal(s)
		out = append(out, s, string(js[1:len(js)-1]), strconv.Quote(s), strconv.QuoteToASCII(s))
	}
	return out
}

// noEcho fails when msg holds 8 bytes in a row of any planted secret in any
// spelling: a whole secret, or the first part a cut would leave.
func noEcho(t *testing.T, what, msg string) {
	t.Helper()
	for _, s := range echoedSecrets() {
		for i := 0; i+8 <= len(s); i++ {
			if strings.Contains(msg, s[i:i+8]) {
				t.Fatalf("%s: the message shows %q of the secret %q: %s", what, s[i:i+8], s, msg)
			}
		}
	}
}

// straddling returns filler of n - k bytes then secret then a tail: the
// secret straddles byte n when 0 < k < len(secret).
func straddling(n, k int, secret string) string {
	return strings.Repeat("x", max(n-k, 0)) + secret + strings.Repeat(" tail", 20)
}

// echoConfig is the config of a hostile server whose every secret the
// server may echo.
func echoConfig(h *hostile) *ServerConfig {
	return &ServerConfig{Name: "echo", URL: h.url + "/" + echoedPath + "?key=" + echoedQuery,
		Headers: map[string]string{"Authorization": "Bearer " + echoedHeader}}
}

// writeSSE answers with one SSE event holding v as JSON.
func writeSSE(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "text/event-stream")
	b, _ := json.Marshal(v)
	_, _ = fmt.Fprintf(w, "event: message\ndata: %s\n\n", b)
}

func TestServerErrorsNeverEchoSecrets(t *testing.T) {
	type echo func(w http.ResponseWriter, r *http.Request, m rpcMessage, secret string, k int)
	rpcErr := func(w http.ResponseWriter, _ *http.Request, m rpcMessage, secret string, k int) {
		writeRPCError(w, m.ID, -32000, straddling(300, k, secret))
	}
	places := map[string]echo{
		"a short JSON-RPC error message": func(w http.ResponseWriter, _ *http.Request, m rpcMessage, secret string, _ int) {
			writeRPCError(w, m.ID, -32000, "bad credentials: "+secret)
		},
		"a JSON-RPC error message over 300 bytes": rpcErr,
		"a JSON-RPC error in an SSE event": func(w http.ResponseWriter, _ *http.Request, m rpcMessage, secret string, k int) {
			writeSSE(w, map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -1, "message": straddling(300, k, secret)}})
		},
		"a JSON-RPC error with HTTP 400": func(w http.ResponseWriter, _ *http.Request, m rpcMessage, secret string, k int) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -1, "message": straddling(300, k, secret)}})
		},
		"a JSON body mcp-go quotes in its error": func(w http.ResponseWriter, _ *http.Request, _ rpcMessage, secret string, k int) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_ = json.NewEncoder(w).Encode([]string{straddling(160, k, secret)})
		},
		"the HTTP status text": func(w http.ResponseWriter, _ *http.Request, _ rpcMessage, secret string, _ int) {
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			_, _ = fmt.Fprintf(buf, "HTTP/1.1 500 %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", strings.ReplaceAll(secret, "\n", ""))
			_ = buf.Flush()
		},
		"a Content-Type": func(w http.ResponseWriter, _ *http.Request, _ rpcMessage, secret string, k int) {
			w.Header().Set("Content-Type", "text/html; charset="+straddling(80, k, secret))
		},
		"a tool name": func(w http.ResponseWriter, _ *http.Request, m rpcMessage, secret string, k int) {
			writeResult(w, m.ID, map[string]any{"tools": []any{toolJSON(straddling(140, k, secret))}})
		},
		"a repeated cursor": func(w http.ResponseWriter, _ *http.Request, m rpcMessage, secret string, k int) {
			writeResult(w, m.ID, map[string]any{"tools": []any{}, "nextCursor": straddling(60, k, secret)})
		},
	}
	for name, place := range places {
		for _, secret := range []string{echoedHeader, echoedPath, echoedQuery} {
			for _, k := range []int{0, 1, 4, 8, len(secret) / 2, len(secret) - 1, len(secret)} {
				t.Run(fmt.Sprintf("%s/%s/%d", name, secret[:6], k), func(t *testing.T) {
					h := newHostile(t)
					h.toolsList = func(w http.ResponseWriter, r *http.Request, m rpcMessage) { place(w, r, m, secret, k) }
					p := NewPool(nil)
					defer p.Cleanup(context.Background())
					_, err := RegisterServer(context.Background(), p, core.NewManager(nil), echoConfig(h), &RegisterOptions{Security: loopback()})
					require.Error(t, err)
					noEcho(t, name, err.Error())
				})
			}
		}
	}
}

func TestToolErrorsNeverEchoSecrets(t *testing.T) {
	for _, secret := range []string{echoedHeader, echoedPath, echoedQuery} {
		for _, k := range []int{1, len(secret) / 2, len(secret) - 1} {
			t.Run(fmt.Sprintf("%s/%d", secret[:6], k), func(t *testing.T) {
				h := newHostile(t)
				h.toolsCall = func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
					writeResult(w, m.ID, map[string]any{"isError": true,
						"content": []any{map[string]any{"type": "text", "text": straddling(500, k, secret)}}})
				}
				p := NewPool(nil)
				defer p.Cleanup(context.Background())
				m := core.NewManager(nil)
				_, err := RegisterServer(context.Background(), p, m, echoConfig(h),
					&RegisterOptions{Security: loopback(), ToolNames: []string{"t"}})
				require.NoError(t, err)
				fc := invoke(t, m, "mcp__echo__t", nil)
				require.Error(t, fc.Err)
				noEcho(t, "the text of an error result", fc.Err.Error())
				noEcho(t, "the result of an error result", string(core.AsError(fc.Err).Result))
			})
		}
	}
}

func TestSSEEndpointNeverEchoesSecrets(t *testing.T) {
	h := newHostileSSE(t, func(base string) string {
		return strings.Replace(base, "http://", "https://", 1) + "/" + echoedPath + "?k=" + echoedQuery
	})
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	cfg := &ServerConfig{Name: "sse", URL: h.url + "/" + echoedPath + "?key=" + echoedQuery, Transport: TransportSSE,
		Headers: map[string]string{"Authorization": "Bearer " + echoedHeader}}
	_, err := RegisterServer(context.Background(), p, core.NewManager(nil), cfg, &RegisterOptions{Security: loopback()})
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	require.Equal(t, string(RuleOrigin), ce.Rule, "got %s", ce.Message)
	noEcho(t, "an SSE endpoint off the origin", ce.Message)
}
