//lint:file-ignore SA1019 the era tests exercise sampling and roots, deprecated as of 2026-07-28 (SEP-2577) yet still served by both eras

package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/tests/servers/gosdk/toolset"
)

// Servers of the official Go SDK (v1.8.0), which serves both protocol eras:
// 2026-07-28 only on a Stateless handler (per request, server/discover,
// subscriptions/listen); a 2025 client gets the initialize handshake, on a
// temporary session when Stateless (so no server→client request can reach
// it) and on a real session otherwise. Tool handlers ask for input the
// 2026-07-28 way, returning InputRequests (MRTR); for a 2025 session the
// SDK sends the real elicitation/sampling/roots requests instead.

// gosdkMode is how a Go SDK server is served.
type gosdkMode struct {
	name      string
	stateless bool
	versions  []string // ServerOptions.SupportedProtocolVersions (nil: all)
	want      string   // the version toolgate must land on
}

var gosdkModes = []gosdkMode{
	// Both eras: 2026-07-28 per request, 2025 statelessly.
	{name: "stateless", stateless: true, want: eraModern},
	// 2026-07-28 only: server/discover lists it alone; initialize is
	// still answered (with 2025-11-25, "so that the client disconnects").
	{name: "modern-only", stateless: true, versions: []string{eraModern}, want: eraModern},
	// Sessions: 2025 only; a 2026-07-28 request is answered -32022 with
	// the legacy versions it serves.
	{name: "stateful", stateless: false, want: eraLegacy},
}

// gosdkEraServer is the shared tool set on a Go SDK server, built by
// tests/servers/gosdk/toolset, which the Node tests' Go SDK server
// (tests/servers/gosdk) serves too.
func gosdkEraServer(t *testing.T, versions []string) *gosdk.Server {
	return toolset.NewServer(spec(t), versions)
}

// serveGoSDK serves a Go SDK server in mode on 127.0.0.1 (httptest).
func serveGoSDK(t *testing.T, mode gosdkMode) eraServer {
	s := gosdkEraServer(t, mode.versions)
	seen := &requestLog{}
	h := gosdk.NewStreamableHTTPHandler(func(*http.Request) *gosdk.Server { return s }, &gosdk.StreamableHTTPOptions{Stateless: mode.stateless})
	ts := httptest.NewServer(seen.wrap(h))
	t.Cleanup(ts.Close)
	return eraServer{name: "gosdk", url: ts.URL + "/mcp", want: mode.want, seen: seen}
}

func TestErasGoSDK(t *testing.T) {
	for _, mode := range gosdkModes {
		t.Run(mode.name, func(t *testing.T) {
			runEraContract(t, serveGoSDK(t, mode))
		})
	}
}

// TestErasGoSDKFixtureAnswersItsOwnClient checks the fixture, not toolgate:
// the Go SDK's own client, dual-era (it probes server/discover and falls
// back to initialize) and pinned to 2025-11-25, reaches each mode on the
// era TestErasGoSDK expects, and the tools that ask the client work where
// the SDK can carry the request. A failure here is the fixture's.
func TestErasGoSDKFixtureAnswersItsOwnClient(t *testing.T) {
	asks := []string{"ask", "sample", "roots"}
	for _, mode := range gosdkModes {
		t.Run(mode.name+"/client dual-era", func(t *testing.T) {
			checkWithGoSDKClient(t, serveGoSDK(t, mode), "", mode.want, asks, true)
		})
		t.Run(mode.name+"/client pinned to "+eraLegacy, func(t *testing.T) {
			srv := serveGoSDK(t, mode)
			if mode.versions != nil {
				// initialize is answered (2025-11-25), notifications/initialized is refused 400.
				_, err := gosdkClient(nil).Connect(context.Background(), &gosdk.StreamableClientTransport{Endpoint: srv.url},
					&gosdk.ClientSessionOptions{ProtocolVersion: eraLegacy})
				require.Error(t, err, "a 2025 client of a 2026-07-28-only server")
				return
			}
			if mode.stateless {
				// A stateless 2025 session carries no server→client request, and no
				// GET stream for the list change.
				checkWithGoSDKClient(t, srv, eraLegacy, eraLegacy, nil, false)
				return
			}
			checkWithGoSDKClient(t, srv, eraLegacy, eraLegacy, asks, true)
		})
	}
}

// gosdkClient is the Go SDK's client with the three capabilities; each tools
// list change is sent on changed.
func gosdkClient(changed chan<- struct{}) *gosdk.Client {
	c := gosdk.NewClient(&gosdk.Implementation{Name: "check", Version: "1"}, &gosdk.ClientOptions{
		ElicitationHandler: func(context.Context, *gosdk.ElicitRequest) (*gosdk.ElicitResult, error) {
			return &gosdk.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		},
		CreateMessageHandler: func(context.Context, *gosdk.CreateMessageRequest) (*gosdk.CreateMessageResult, error) {
			return &gosdk.CreateMessageResult{Role: "assistant", Model: "m", Content: &gosdk.TextContent{Text: "model says hi"}}, nil
		},
		ToolListChangedHandler: func(context.Context, *gosdk.ToolListChangedRequest) {
			if changed != nil {
				changed <- struct{}{}
			}
		},
	})
	c.AddRoots(&gosdk.Root{URI: "file:///srv/a"})
	return c
}

// checkWithGoSDKClient connects the Go SDK's client to srv (pinned to pin
// when not ""), checks the version it lands on and calls the tools: add and
// grow always, the tools in asks (which ask the client), and it waits for
// grow's list change when notified.
func checkWithGoSDKClient(t *testing.T, srv eraServer, pin, want string, asks []string, notified bool) {
	changed := make(chan struct{}, 4)
	var transport gosdk.Transport = &gosdk.StreamableClientTransport{Endpoint: srv.url}
	if srv.transport == TransportSSE {
		transport = &gosdk.SSEClientTransport{Endpoint: srv.url}
	}
	cs, err := gosdkClient(changed).Connect(context.Background(), transport, &gosdk.ClientSessionOptions{ProtocolVersion: pin})
	require.NoError(t, err, "requests seen: %s", srv.seen)
	defer cs.Close()
	assert.Equal(t, want, cs.InitializeResult().ProtocolVersion, "requests seen: %s", srv.seen)
	callText := func(tool string) string {
		args := map[string]any{}
		if tool == "add" {
			args = map[string]any{"a": 2, "b": 40}
		}
		res, err := cs.CallTool(context.Background(), &gosdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return "error: " + err.Error()
		}
		if len(res.Content) != 1 {
			return fmt.Sprintf("content %v", res.Content)
		}
		return res.Content[0].(*gosdk.TextContent).Text
	}
	answers := map[string]string{"add": "42", "ask": "hello Ada", "sample": "model says hi", "roots": "file:///srv/a", "grow": "grown"}
	for _, tool := range append([]string{"add"}, append(asks, "grow")...) {
		assert.Equal(t, answers[tool], callText(tool), tool)
	}
	if notified {
		waitUntil(t, "the client's ToolListChangedHandler runs", func() bool { return len(changed) > 0 })
	}
}
