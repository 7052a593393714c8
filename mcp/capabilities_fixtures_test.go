package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// hookFn wraps a Go func as a Hook with an id.
func hookFn(id string, f func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)) *Hook {
	return &Hook{ID: id, Func: f}
}

// fixedHook answers every request with result.
func fixedHook(id, result string) *Hook {
	return hookFn(id, func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(result), nil
	})
}

// capableTools is an mcp-go server whose tools send the server's requests
// back to the client mid-call (on the tools/call POST's SSE stream) and
// answer with what the client said, as JSON text.
func capableTools() *server.MCPServer {
	s := server.NewMCPServer("capable", "1.0.0", server.WithToolCapabilities(false), server.WithElicitation(), server.WithRoots())
	s.EnableSampling()
	asText := func(v any, err error) (*mcpgo.CallToolResult, error) {
		if err != nil {
			return mcpgo.NewToolResultError("request failed: " + err.Error()), nil
		}
		b, _ := json.Marshal(v)
		return mcpgo.NewToolResultText(string(b)), nil
	}
	s.AddTool(mcpgo.NewTool("sample", mcpgo.WithDescription("Asks the client's model.")),
		func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			//lint:ignore SA1019 servers still ask clients for sampling before protocol 2026-07-28
			return asText(s.RequestSampling(ctx, mcpgo.CreateMessageRequest{CreateMessageParams: mcpgo.CreateMessageParams{
				Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("say hi")}},
				MaxTokens: 10,
			}}))
		})
	s.AddTool(mcpgo.NewTool("elicit", mcpgo.WithDescription("Asks the user.")),
		func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return asText(s.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
				Message: "who are you?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{
					"name": map[string]any{"type": "string", "default": "Ada"},
					"age":  map[string]any{"type": "integer", "default": 36},
				}},
			}}))
		})
	s.AddTool(mcpgo.NewTool("roots", mcpgo.WithDescription("Lists the client's roots.")),
		func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return asText(s.RequestRoots(ctx, mcpgo.ListRootsRequest{}))
		})
	return s
}

// postedAnswer is an answer the client POSTed to a server request.
type postedAnswer struct {
	ID     string
	Result json.RawMessage
	Error  *jsonrpcErrorObj
	Header http.Header
}

// askingServer wraps a hostile server: it records the initialize params,
// collects the answers the client POSTs to the server's requests, and
// serves a GET stream with get (405 when nil).
type askingServer struct {
	*hostile
	mu      sync.Mutex
	init    json.RawMessage
	answers chan postedAnswer
	get     func(w http.ResponseWriter, r *http.Request)
}

// newAskingServer starts one in front of a new hostile server.
func newAskingServer(t *testing.T) *askingServer {
	a := &askingServer{hostile: newHostile(t), answers: make(chan postedAnswer, 64)}
	next := a.ts.Config.Handler
	a.ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && a.get != nil {
			a.get(w, r)
			return
		}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			var m jsonrpcMessage
			if json.Unmarshal(body, &m) == nil && m.Method == "" && m.hasID() {
				a.answers <- postedAnswer{ID: idKey(m.ID), Result: m.Result, Error: m.Error, Header: r.Header.Clone()}
				w.WriteHeader(http.StatusAccepted)
				return
			}
			if m.Method == "initialize" {
				a.mu.Lock()
				a.init = m.Params
				a.mu.Unlock()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
	return a
}

// capabilities is what the client declared in initialize.
func (a *askingServer) capabilities() map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	var p struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	_ = json.Unmarshal(a.init, &p)
	return p.Capabilities
}

// next returns the next answer the client POSTed, or fails.
func (a *askingServer) next(t *testing.T) postedAnswer {
	t.Helper()
	select {
	case got := <-a.answers:
		return got
	case <-a.stop:
	}
	t.Fatal("the server got no answer")
	return postedAnswer{}
}

// askThenAnswer is a tools/call answer on an SSE stream: the server's
// requests (method, params), then, once the client has answered each, a
// text result listing the answers.
func (a *askingServer) askThenAnswer(t *testing.T, requests ...[2]string) func(http.ResponseWriter, *http.Request, rpcMessage) {
	return func(w http.ResponseWriter, r *http.Request, m rpcMessage) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i, req := range requests {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"ask-%d\",\"method\":%q,\"params\":%s}\n\n", i, req[0], req[1])
		}
		w.(http.Flusher).Flush()
		var got []string
		for range requests {
			select {
			case ans := <-a.answers:
				got = append(got, describeAnswer(ans))
			case <-r.Context().Done():
				return
			}
		}
		sort.Strings(got)
		text, _ := json.Marshal(strings.Join(got, "\n"))
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":%s}]}}\n\n", m.ID, text)
	}
}

// describeAnswer is "id: result" or "id: error code message".
func describeAnswer(a postedAnswer) string {
	if a.Error != nil {
		return fmt.Sprintf("%s: error %d %s", a.ID, a.Error.Code, a.Error.Message)
	}
	return fmt.Sprintf("%s: %s", a.ID, a.Result)
}

// errSecret is a hook failure whose text must never reach the server.
var errSecret = errors.New("hook-secret-Zq81")
