package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Servers of mcp-go (v1.2.1), which serves both protocol eras on one
// Streamable HTTP endpoint: the era is decided per request from its _meta;
// 2025 clients get sessions (WithStateful) and server→client requests, and
// 2026-07-28 ones server/discover, input_required results and
// subscriptions/listen. Tool handlers ask for input the 2026-07-28 way
// (server.NewInputRequestBuilder); for a 2025 client mcp-go sends the real
// requests and re-invokes the handler.

// mcpgoMode is how an mcp-go server is served.
type mcpgoMode struct {
	name    string
	sse     bool
	opts    []server.StreamableHTTPOption
	want    string
	noInput string // why the server cannot ask for input ("" when it can)
}

var mcpgoModes = []mcpgoMode{
	// Both eras: 2026-07-28 per request, 2025 with sessions.
	{name: "stateful", opts: []server.StreamableHTTPOption{server.WithStateful(true)}, want: eraModern},
	// server/discover advertises 2026-07-28 only (a 2025 initialize is still served).
	{name: "modern-advertised", opts: []server.StreamableHTTPOption{server.WithStateful(true), server.WithStreamableHTTPProtocolVersions(eraModern)}, want: eraModern},
	// The deprecated HTTP+SSE transport, which only the legacy revisions
	// define: toolgate speaks 2025-11-25 over it and sends no probe
	// (docs/mcp-eras.md), although mcp-go answers server/discover there and
	// the Go SDK's and TypeScript SDK v2's clients probe it. mcp-go's SSE
	// sessions cannot send the requests its handlers ask for, so the input
	// tools fail there whichever client calls them.
	{name: "sse", sse: true, want: eraLegacy, noInput: "mcp-go's SSE sessions send no server requests (\"session does not support elicitation\")"},
}

// mcpgoEraServer is the shared tool set on an mcp-go server.
func mcpgoEraServer(t *testing.T) *server.MCPServer {
	sp := spec(t)
	s := server.NewMCPServer("mcpgo-eras", "1.0.0", server.WithToolCapabilities(true))
	s.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("Echoes its text."), mcpgo.WithString("text", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("text", "")), nil
		})
	s.AddTool(mcpgo.NewTool("add", mcpgo.WithDescription("Adds two integers."),
		mcpgo.WithNumber("a", mcpgo.Required()), mcpgo.WithNumber("b", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(fmt.Sprint(req.GetInt("a", 0) + req.GetInt("b", 0))), nil
		})
	s.AddTool(mcpgo.NewTool("ask", mcpgo.WithDescription("Asks the user for a name (elicitation).")),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if r := server.ElicitationResponse(req.Params.InputResponses, "name"); r != nil {
				if r.Action == mcpgo.ElicitationResponseActionAccept {
					content, _ := r.Content.(map[string]any)
					return mcpgo.NewToolResultText(fmt.Sprint("hello ", content["name"])), nil
				}
				return mcpgo.NewToolResultText("declined"), nil
			}
			return server.NewInputRequestBuilder("").Elicit("name", mcpgo.ElicitationParams{
				Message: sp.Ask.Message, RequestedSchema: sp.Ask.RequestedSchema}).ToolResult(), nil
		})
	s.AddTool(mcpgo.NewTool("sample", mcpgo.WithDescription("Asks the client's model (sampling).")),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if r := server.SamplingResponse(req.Params.InputResponses, "reply"); r != nil {
				var c struct {
					Text string `json:"text"`
				}
				b, _ := json.Marshal(r.Content)
				if json.Unmarshal(b, &c) != nil || c.Text == "" {
					return mcpgo.NewToolResultText("unexpected content " + string(b)), nil
				}
				return mcpgo.NewToolResultText(c.Text), nil
			}
			var params mcpgo.CreateMessageParams
			b, _ := json.Marshal(map[string]any{"messages": sp.Sample.Messages, "maxTokens": sp.Sample.MaxTokens})
			if err := json.Unmarshal(b, &params); err != nil {
				return nil, err
			}
			return server.NewInputRequestBuilder("").Sample("reply", params).ToolResult(), nil
		})
	s.AddTool(mcpgo.NewTool("roots", mcpgo.WithDescription("Lists the client's roots.")),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if r := server.RootsResponse(req.Params.InputResponses, "roots"); r != nil {
				uris := make([]string, len(r.Roots))
				for i, root := range r.Roots {
					uris[i] = root.URI
				}
				return mcpgo.NewToolResultText(strings.Join(uris, sp.RootsSeparator)), nil
			}
			return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
		})
	var grow sync.Once
	s.AddTool(mcpgo.NewTool("grow", mcpgo.WithDescription("Adds the tool "+sp.Grown+".")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			// AddTool on a running server sends notifications/tools/list_changed.
			grow.Do(func() {
				s.AddTool(mcpgo.NewTool(sp.Grown, mcpgo.WithDescription("Added by grow.")),
					func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
						return mcpgo.NewToolResultText(sp.Grown), nil
					})
			})
			return mcpgo.NewToolResultText("grown"), nil
		})
	return s
}

// serveMcpGo serves an mcp-go server in mode on 127.0.0.1 (httptest).
func serveMcpGo(t *testing.T, mode mcpgoMode) eraServer {
	s := mcpgoEraServer(t)
	seen := &requestLog{}
	srv := eraServer{name: "mcpgo", want: mode.want, seen: seen, noInput: mode.noInput}
	if mode.sse {
		ts := httptest.NewServer(seen.wrap(server.NewSSEServer(s)))
		t.Cleanup(ts.Close)
		srv.url, srv.transport = ts.URL+"/sse", TransportSSE
		return srv
	}
	ts := httptest.NewServer(seen.wrap(server.NewStreamableHTTPServer(s, mode.opts...)))
	t.Cleanup(ts.Close)
	srv.url = ts.URL + "/mcp"
	return srv
}

func TestErasMcpGo(t *testing.T) {
	for _, mode := range mcpgoModes {
		t.Run(mode.name, func(t *testing.T) {
			runEraContract(t, serveMcpGo(t, mode))
		})
	}
}

// TestErasMcpGoFixtureAnswersTheGoSDKClient checks the fixture, not
// toolgate, with the official Go SDK's client (checkWithGoSDKClient),
// dual-era and pinned to 2025-11-25. A failure here is the fixture's. Two
// gaps that are the SDKs', not the fixture's: the Go SDK's client cannot
// read mcp-go's roots/list input request (sent without "params", which is
// optional: "unexpected end of JSON input"), and mcp-go's SSE sessions send
// no server→client request ("session does not support elicitation").
func TestErasMcpGoFixtureAnswersTheGoSDKClient(t *testing.T) {
	for _, mode := range mcpgoModes {
		t.Run(mode.name+"/client dual-era", func(t *testing.T) {
			want := mode.want
			if mode.sse {
				want = eraModern // the Go SDK's client probes over SSE too; toolgate does not
			}
			checkWithGoSDKClient(t, serveMcpGo(t, mode), "", want, []string{"ask", "sample"}, true)
		})
		t.Run(mode.name+"/client pinned to "+eraLegacy, func(t *testing.T) {
			asks := []string{"ask", "sample", "roots"}
			if mode.sse {
				asks = nil
			}
			checkWithGoSDKClient(t, serveMcpGo(t, mode), eraLegacy, eraLegacy, asks, true)
		})
	}
}
