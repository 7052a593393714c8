//lint:file-ignore SA1019 the era servers exercise sampling and roots, deprecated as of 2026-07-28 (SEP-2577) yet still served by both eras

// Package toolset builds the shared tool set of the protocol-era tests
// (tests/fixtures/mcp-eras/tools.json) on a server of the official Go SDK.
// The mcp package's era tests (mcp/eras_gosdk_test.go) serve it with
// httptest; the program in tests/servers/gosdk serves it to the Node tests.
// It imports the Go SDK and the standard library only, nothing of toolgate.
//
// Tool handlers ask for input the 2026-07-28 way, returning InputRequests
// (MRTR); for a 2025 session the SDK sends the real elicitation, sampling
// and roots requests instead.
package toolset

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Spec is tests/fixtures/mcp-eras/tools.json: the tool names, the tool
// grow adds, and the params of the requests the tools send the client.
type Spec struct {
	Tools []string `json:"tools"`
	Grown string   `json:"grown"`
	Ask   struct {
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	} `json:"ask"`
	Sample struct {
		Messages  json.RawMessage `json:"messages"`
		MaxTokens int64           `json:"maxTokens"`
	} `json:"sample"`
	RootsSeparator string `json:"rootsSeparator"`
}

// LoadSpec reads the fixture at path.
func LoadSpec(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &s, nil
}

// NewServer is a Go SDK server offering sp's tool set. versions is
// ServerOptions.SupportedProtocolVersions (nil: every version the SDK
// speaks). One server serves every request: grow adds sp.Grown once, and
// the SDK sends notifications/tools/list_changed on every 2025 session and
// every subscriptions/listen stream.
func NewServer(sp *Spec, versions []string) *gosdk.Server {
	s := gosdk.NewServer(&gosdk.Implementation{Name: "gosdk-eras", Version: "1.0.0"}, &gosdk.ServerOptions{
		Capabilities:              &gosdk.ServerCapabilities{Tools: &gosdk.ToolCapabilities{ListChanged: true}},
		SupportedProtocolVersions: versions,
	})
	gosdk.AddTool(s, &gosdk.Tool{Name: "echo", Description: "Echoes its text."},
		func(_ context.Context, _ *gosdk.CallToolRequest, in struct {
			Text string `json:"text"`
		}) (*gosdk.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	gosdk.AddTool(s, &gosdk.Tool{Name: "add", Description: "Adds two integers."},
		func(_ context.Context, _ *gosdk.CallToolRequest, in struct {
			A int64 `json:"a"`
			B int64 `json:"b"`
		}) (*gosdk.CallToolResult, any, error) {
			return text(fmt.Sprint(in.A + in.B)), nil, nil
		})
	gosdk.AddTool(s, &gosdk.Tool{Name: "ask", Description: "Asks the user for a name (elicitation)."}, ask(sp))
	gosdk.AddTool(s, &gosdk.Tool{Name: "sample", Description: "Asks the client's model (sampling)."}, sample(sp))
	gosdk.AddTool(s, &gosdk.Tool{Name: "roots", Description: "Lists the client's roots."}, roots(sp))
	gosdk.AddTool(s, &gosdk.Tool{Name: "grow", Description: "Adds the tool " + sp.Grown + "."}, grow(s, sp))
	return s
}

// none is the input of the tools that take no arguments.
type none struct{}

// handler is the shape of a tool of the set.
type handler = gosdk.ToolHandlerFor[none, any]

func text(s string) *gosdk.CallToolResult {
	return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: s}}}
}

// ask elicits a name: "hello <name>" on accept, "declined" otherwise.
func ask(sp *Spec) handler {
	return func(_ context.Context, req *gosdk.CallToolRequest, _ none) (*gosdk.CallToolResult, any, error) {
		if r, ok := req.Params.InputResponses["name"].(*gosdk.ElicitResult); ok {
			if r.Action == "accept" {
				return text(fmt.Sprint("hello ", r.Content["name"])), nil, nil
			}
			return text("declined"), nil, nil
		}
		return &gosdk.CallToolResult{InputRequests: gosdk.InputRequestMap{"name": &gosdk.ElicitParams{
			Message: sp.Ask.Message, RequestedSchema: sp.Ask.RequestedSchema}}}, nil, nil
	}
}

// sample asks the client's model; the text it answers is the tool's answer.
func sample(sp *Spec) handler {
	return func(_ context.Context, req *gosdk.CallToolRequest, _ none) (*gosdk.CallToolResult, any, error) {
		switch r := req.Params.InputResponses["reply"].(type) {
		case *gosdk.CreateMessageWithToolsResult:
			if len(r.Content) == 1 {
				if tc, ok := r.Content[0].(*gosdk.TextContent); ok {
					return text(tc.Text), nil, nil
				}
			}
			return text(fmt.Sprintf("unexpected content %v", r.Content)), nil, nil
		case *gosdk.CreateMessageResult:
			if tc, ok := r.Content.(*gosdk.TextContent); ok {
				return text(tc.Text), nil, nil
			}
			return text(fmt.Sprintf("unexpected content %v", r.Content)), nil, nil
		}
		var params gosdk.CreateMessageParams
		msgs, _ := json.Marshal(map[string]any{"messages": sp.Sample.Messages, "maxTokens": sp.Sample.MaxTokens})
		if err := json.Unmarshal(msgs, &params); err != nil {
			return nil, nil, err
		}
		return &gosdk.CallToolResult{InputRequests: gosdk.InputRequestMap{"reply": &params}}, nil, nil
	}
}

// roots lists the client's roots: their URIs, joined.
func roots(sp *Spec) handler {
	return func(_ context.Context, req *gosdk.CallToolRequest, _ none) (*gosdk.CallToolResult, any, error) {
		if r, ok := req.Params.InputResponses["roots"].(*gosdk.ListRootsResult); ok {
			uris := make([]string, len(r.Roots))
			for i, root := range r.Roots {
				uris[i] = root.URI
			}
			return text(strings.Join(uris, sp.RootsSeparator)), nil, nil
		}
		return &gosdk.CallToolResult{InputRequests: gosdk.InputRequestMap{"roots": &gosdk.ListRootsParams{}}}, nil, nil
	}
}

// grow adds sp.Grown to s, once. AddTool on a running server sends
// notifications/tools/list_changed: on the session to 2025 clients, on
// subscriptions/listen to 2026-07-28 ones.
func grow(s *gosdk.Server, sp *Spec) handler {
	var once sync.Once
	return func(context.Context, *gosdk.CallToolRequest, none) (*gosdk.CallToolResult, any, error) {
		once.Do(func() {
			gosdk.AddTool(s, &gosdk.Tool{Name: sp.Grown, Description: "Added by grow."},
				func(context.Context, *gosdk.CallToolRequest, none) (*gosdk.CallToolResult, any, error) {
					return text(sp.Grown), nil, nil
				})
		})
		return text("grown"), nil, nil
	}
}
