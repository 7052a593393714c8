package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// otherID is an id no request of the test has.
const otherID = `"not-yours"`

// sseEvents answers with the given JSON-RPC messages as SSE events.
func sseEvents(w http.ResponseWriter, msgs ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, m := range msgs {
		_, _ = fmt.Fprintf(w, "event: message\ndata: %s\n\n", m)
	}
}

// toolsResult is a tools/list answer with id, listing one tool.
func toolsResult(id json.RawMessage, tool string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"tools": []any{toolJSON(tool)}}})
	return string(b)
}

func TestAnswersAreMatchedByID(t *testing.T) {
	cases := []struct {
		name    string
		list    func(w http.ResponseWriter, r *http.Request, m rpcMessage)
		names   []string  // registered when the right answer got through
		code    core.Code // otherwise
		dropped int64
	}{
		{
			name: "a JSON answer with another id",
			list: func(w http.ResponseWriter, _ *http.Request, _ rpcMessage) {
				writeResult(w, json.RawMessage(otherID), map[string]any{"tools": []any{toolJSON("evil")}})
			},
			code:    core.CodeTransport,
			dropped: 1,
		},
		{
			name: "a JSON answer with the id as a string",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				writeResult(w, json.RawMessage(`"`+string(m.ID)+`"`), map[string]any{"tools": []any{toolJSON("evil")}})
			},
			code:    core.CodeTransport,
			dropped: 1,
		},
		{
			name: "an SSE answer with another id, then the right one",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				sseEvents(w, toolsResult(json.RawMessage(otherID), "evil"), toolsResult(m.ID, "good"))
			},
			names:   []string{"mcp__w__good"},
			dropped: 1,
		},
		{
			name: "SSE answers with other ids only",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				sseEvents(w, toolsResult(json.RawMessage(otherID), "evil"), toolsResult(json.RawMessage(`12345`), "evil2"))
			},
			code:    core.CodeTransport,
			dropped: 2,
		},
		{
			name: "a server request that borrows the request's id, then the answer",
			list: func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				sseEvents(w, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"ping","result":{"tools":[]}}`, m.ID), toolsResult(m.ID, "good"))
			},
			names: []string{"mcp__w__good"},
		},
		{
			name: "an HTTP 400 JSON-RPC error with a null id",
			list: func(w http.ResponseWriter, _ *http.Request, _ rpcMessage) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = fmt.Fprint(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`)
			},
			code: core.CodeTransport,
		},
		{
			name: "an HTTP 400 JSON-RPC error with another id",
			list: func(w http.ResponseWriter, _ *http.Request, _ rpcMessage) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"Invalid Request"}}`, otherID)
			},
			code:    core.CodeTransport,
			dropped: 1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostile(t)
			h.toolsList = tc.list
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := localManager(t)
			names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "w", URL: h.url}, &RegisterOptions{Security: loopback()})
			if tc.names != nil {
				require.NoError(t, err)
				assert.Equal(t, tc.names, names)
			} else {
				var ce *core.Error
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, tc.code, ce.Code, "got %s (%s), want %s", ce.Code, ce.Message, tc.code)
				assert.NotContains(t, ce.Message, "evil")
				assert.Equal(t, []string{"local"}, m.Names(), "nothing registered")
			}
			assert.Equal(t, tc.dropped, p.Stats().AnswersDropped, "answers dropped")
			if tc.dropped > 0 && tc.names == nil {
				assert.Contains(t, err.Error(), "id", "the error says why: %s", err)
			}
		})
	}
}

func TestToolsCallAnswerWithAnotherID(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%v", sse), func(t *testing.T) {
			h := newHostile(t)
			p := NewPool(nil)
			defer p.Cleanup(context.Background())
			m := core.NewManager(nil)
			_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "w", URL: h.url},
				&RegisterOptions{Security: loopback(), ToolNames: []string{"t"}})
			require.NoError(t, err)
			h.setCall(func(w http.ResponseWriter, _ *http.Request, m rpcMessage) {
				result := `{"jsonrpc":"2.0","id":` + otherID + `,"result":{"content":[{"type":"text","text":"evil"}]}}`
				if sse {
					sseEvents(w, result)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = fmt.Fprint(w, result)
			})
			fc := invoke(t, m, "mcp__w__t", nil)
			assert.Equal(t, core.StatusFailed, fc.Status)
			assert.Equal(t, core.CodeTransport, core.AsError(fc.Err).Code, "got %v", fc.Err)
			assert.Nil(t, fc.Response, "the other request's answer is not the result")
			assert.Equal(t, int64(1), p.Stats().AnswersDropped)

			h.setCall(nil) // the server mends its ways: the same pool still calls
			fc = invoke(t, m, "mcp__w__t", nil)
			assert.Equal(t, core.StatusCompleted, fc.Status, "got %v", fc.Err)
			assert.Equal(t, "ok", fc.Response)
		})
	}
}

func TestLegacyStreamAnswersAreMatchedByID(t *testing.T) {
	h := newHostileSSE(t, func(string) string { return "/message" })
	h.list = func(id json.RawMessage) string {
		return fmt.Sprintf("event: message\ndata: %s\n\n", toolsResult(json.RawMessage(otherID), "evil")) +
			fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"ping\"}\n\n", id) +
			fmt.Sprintf("event: message\ndata: %s\n\n", toolsResult(id, "good"))
	}
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	names, err := RegisterServer(context.Background(), p, core.NewManager(nil),
		&ServerConfig{Name: "w", URL: h.url, Transport: TransportSSE}, &RegisterOptions{Security: loopback()})
	require.NoError(t, err)
	assert.Equal(t, []string{"mcp__w__good"}, names, "neither the other id nor the ping with this id is the answer")
	st := p.Stats()
	assert.Equal(t, int64(1), st.AnswersDropped)
	assert.Equal(t, int64(1), st.ServerRequestsAnswered, "the ping is answered as a ping")
}

func TestWrongIDNeverEchoesSecrets(t *testing.T) {
	for _, secret := range []string{echoedHeader, echoedPath, echoedQuery} {
		h := newHostile(t)
		h.toolsList = func(w http.ResponseWriter, _ *http.Request, _ rpcMessage) {
			id, _ := json.Marshal(strings.Repeat("x", 40) + secret)
			writeResult(w, id, map[string]any{"tools": []any{}})
		}
		p := NewPool(nil)
		_, err := RegisterServer(context.Background(), p, core.NewManager(nil), echoConfig(h), &RegisterOptions{Security: loopback()})
		require.Error(t, err)
		noEcho(t, "an answer's id", err.Error())
		_ = p.Cleanup(context.Background())
	}
}

// TestDecodeMessageTakesTheFilters: the session takes an answer the
// stream's filter decoded instead of decoding its data again, and decodes
// any other data itself.
func TestDecodeMessageTakesTheFilters(t *testing.T) {
	f := &sseFilter{}
	f.remember("data-the-filter-saw", &jsonrpcMessage{JSONRPC: "2.0", ID: json.RawMessage("7"), Result: json.RawMessage(`{}`)})
	var m jsonrpcMessage
	require.True(t, decodeMessage(f, "data-the-filter-saw", &m))
	require.Equal(t, "7", string(m.ID))
	require.True(t, decodeMessage(f, `{"jsonrpc":"2.0","id":8,"result":{}}`, &m))
	require.Equal(t, "8", string(m.ID))
	require.False(t, decodeMessage(f, "not json", &m))
	require.False(t, decodeMessage(strings.NewReader(""), "data-the-filter-saw", &m), "only a filter remembers")
}
