package mcp_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/mcp"
)

// A server's tools become ordinary tools of a manager, named
// mcp__{server}__{tool}; a call goes through the pool, under the policy.
func ExampleRegisterServer() {
	s := server.NewMCPServer("demo", "1.0.0")
	s.AddTool(mcpgo.NewTool("echo", mcpgo.WithString("message", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("message", "")), nil
		})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer ts.Close()

	ctx := context.Background()
	pool := mcp.NewPool(nil)
	defer pool.Cleanup(ctx)
	m := core.NewManager(nil)
	names, err := mcp.RegisterServer(ctx, pool, m,
		&mcp.ServerConfig{Name: "demo", URL: ts.URL + "/mcp"},
		&mcp.RegisterOptions{Security: &mcp.Security{AllowURLs: true, AllowLoopbackHTTP: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(names)

	args := core.NewArguments()
	args.Set("message", "hello")
	fc, _ := m.Invoke(ctx, &core.Request{Function: "mcp__demo__echo", Arguments: args})
	fmt.Println(fc.Status, fc.Response)

	_, err = mcp.RegisterServer(ctx, pool, core.NewManager(nil), &mcp.ServerConfig{Name: "demo", URL: ts.URL + "/mcp"}, nil)
	fmt.Println(core.AsError(err).Code)
	// Output:
	// [mcp__demo__echo]
	// completed hello
	// policy-denied
}
