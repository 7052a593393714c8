package mcp

import (
	"context"
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/provider"
)

// countSchema is the outputSchema of the "count" tools: {count: integer}.
const countSchema = `{"type":"object","properties":{"count":{"type":"integer","minimum":0}},"required":["count"]}`

// resultTools serves one tool per content kind, structured results valid and
// invalid against their outputSchema, and an isError result with
// structuredContent that breaks its schema (not checked on isError).
func resultTools() *server.MCPServer {
	s := server.NewMCPServer("results", "1.0.0", server.WithToolCapabilities(false))
	prio := 0.5
	note := mcpgo.Annotated{Annotations: &mcpgo.Annotations{Audience: []mcpgo.Role{"user"}, Priority: &prio}}
	text := mcpgo.NewTextContent("hi")
	text.Annotated = note
	text.Meta = &mcpgo.Meta{AdditionalFields: map[string]any{"k": "v"}}
	add := func(name string, res *mcpgo.CallToolResult, opts ...mcpgo.ToolOption) {
		s.AddTool(mcpgo.NewTool(name, opts...), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return res, nil
		})
	}
	add("text", &mcpgo.CallToolResult{Content: []mcpgo.Content{text},
		Result: mcpgo.Result{Meta: &mcpgo.Meta{AdditionalFields: map[string]any{"trace": "t1"}}}})
	add("kinds", &mcpgo.CallToolResult{Content: []mcpgo.Content{
		mcpgo.NewImageContent("aGk=", "image/png"),
		mcpgo.NewAudioContent("AAA=", "audio/wav"),
		mcpgo.NewResourceLink("file:///a.txt", "a.txt", "A file.", "text/plain"),
		mcpgo.NewEmbeddedResource(mcpgo.TextResourceContents{URI: "mem://t", MIMEType: "text/plain", Text: "inside"}),
		mcpgo.NewEmbeddedResource(mcpgo.BlobResourceContents{URI: "mem://b", MIMEType: "application/octet-stream", Blob: "AQI="}),
	}})
	add("count", mcpgo.NewToolResultStructured(map[string]any{"count": 3}, `{"count":3}`),
		mcpgo.WithRawOutputSchema(json.RawMessage(countSchema)))
	add("badcount", mcpgo.NewToolResultStructured(map[string]any{"count": "three"}, "three"),
		mcpgo.WithRawOutputSchema(json.RawMessage(countSchema)))
	failed := mcpgo.NewToolResultError("no such repo")
	failed.StructuredContent = map[string]any{"count": "n/a"}
	add("failcount", failed, mcpgo.WithRawOutputSchema(json.RawMessage(countSchema)))
	return s
}

// registerResults registers resultTools' server under mode.
func registerResults(t *testing.T, mode ResultMode) *core.Manager {
	t.Helper()
	_, url := serveStreamable(t, resultTools())
	p := NewPool(nil)
	t.Cleanup(func() { p.Cleanup(context.Background()) })
	m := core.NewManager(nil)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "rs", URL: url},
		&RegisterOptions{Security: loopback(), Result: mode})
	require.NoError(t, err)
	return m
}

// asJSON is v as JSON text, for comparing responses with JSONEq.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestFullResultsKeepEveryContentKind(t *testing.T) {
	m := registerResults(t, ResultFull)
	fc := invoke(t, m, "mcp__rs__text", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.5},"_meta":{"k":"v"}}],
		"_meta":{"trace":"t1"}}`, asJSON(t, fc.Response))

	fc = invoke(t, m, "mcp__rs__kinds", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.JSONEq(t, `{"content":[
		{"type":"image","data":"aGk=","mimeType":"image/png"},
		{"type":"audio","data":"AAA=","mimeType":"audio/wav"},
		{"type":"resource_link","uri":"file:///a.txt","name":"a.txt","description":"A file.","mimeType":"text/plain"},
		{"type":"resource","resource":{"uri":"mem://t","mimeType":"text/plain","text":"inside"}},
		{"type":"resource","resource":{"uri":"mem://b","mimeType":"application/octet-stream","blob":"AQI="}}]}`, asJSON(t, fc.Response))

	fc = invoke(t, m, "mcp__rs__count", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"{\"count\":3}"}],"structuredContent":{"count":3}}`, asJSON(t, fc.Response))
}

func TestLionAGIResultsUnwrapAndStillCheckTheOutputSchema(t *testing.T) {
	m := registerResults(t, "")
	fc := invoke(t, m, "mcp__rs__text", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Equal(t, "hi", fc.Response, "one text item gives its text, as LionAGI does")
	fc = invoke(t, m, "mcp__rs__count", nil)
	require.Equal(t, core.StatusCompleted, fc.Status, "%v", fc.Err)
	assert.Equal(t, `{"count":3}`, fc.Response)
	fc = invoke(t, m, "mcp__rs__badcount", nil)
	require.Equal(t, core.StatusFailed, fc.Status)
	assert.Equal(t, core.CodeInvalidResult, core.AsError(fc.Err).Code)
}

func TestStructuredContentBreakingTheOutputSchemaIsInvalidResult(t *testing.T) {
	m := registerResults(t, ResultFull)
	fc := invoke(t, m, "mcp__rs__badcount", nil)
	require.Equal(t, core.StatusFailed, fc.Status)
	ce := core.AsError(fc.Err)
	assert.Equal(t, core.CodeInvalidResult, ce.Code)
	assert.Equal(t, "mcp__rs__badcount", ce.Tool)
	assert.Contains(t, ce.Message, `tool "badcount"`)
	assert.Contains(t, ce.Message, "/count")
	require.Len(t, ce.Issues, 1)
	assert.Equal(t, "/count", ce.Issues[0].Path)
	assert.Equal(t, "type", ce.Issues[0].Keyword)
	text := provider.FailureText(&provider.ToolResult{Function: "mcp__rs__badcount", Status: core.StatusFailed, Error: &provider.ToolResultError{Code: ce.Code, Message: ce.Message, Issues: ce.Issues}})
	assert.Contains(t, text, "field /count, rule \"type\"")
	fc = invoke(t, m, "mcp__rs__count", nil)
	assert.Equal(t, core.StatusCompleted, fc.Status, "the tool keeps working: %v", fc.Err)
}

func TestIsErrorIsToolErrorWithTheWholeResult(t *testing.T) {
	for _, mode := range []ResultMode{ResultLionAGI, ResultFull} {
		t.Run(string(mode), func(t *testing.T) {
			m := registerResults(t, mode)
			fc := invoke(t, m, "mcp__rs__failcount", nil)
			require.Equal(t, core.StatusFailed, fc.Status)
			ce := core.AsError(fc.Err)
			assert.Equal(t, core.CodeToolError, ce.Code, "not transport: the tool ran and reported a failure")
			assert.NotEqual(t, core.CodeTransport, ce.Code)
			assert.Contains(t, ce.Message, "no such repo")
			assert.Empty(t, ce.Issues, "structuredContent is not checked on isError")
			assert.JSONEq(t, `{"content":[{"type":"text","text":"no such repo"}],"structuredContent":{"count":"n/a"},"isError":true}`, string(ce.Result))
			var te *ToolError
			require.ErrorAs(t, fc.Err, &te)
			assert.Equal(t, "no such repo", te.Content)
			text := provider.FailureText(&provider.ToolResult{Function: "mcp__rs__failcount", Status: core.StatusFailed, Error: &provider.ToolResultError{Code: ce.Code, Message: ce.Message}})
			assert.Contains(t, text, "reported an error (tool-error)")
			assert.Contains(t, text, "no such repo")
		})
	}
}

func TestResultModeAndOutputSchemaRefusals(t *testing.T) {
	_, err := ParseResultMode("registerMcpServer", "raw")
	assert.ErrorIs(t, err, core.ErrUnsupportedType)
	assert.Contains(t, err.Error(), `"lionagi" or "full"`)
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	_, err = RegisterServer(context.Background(), p, m, &ServerConfig{Name: "x", URL: "http://127.0.0.1:1/mcp"},
		&RegisterOptions{Security: loopback(), Result: "raw", ToolNames: []string{"t"}})
	assert.ErrorIs(t, err, core.ErrUnsupportedType)
	assert.Empty(t, m.Names(), "nothing registered")

	h := newHostile(t)
	h.toolsList = listOf(map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}, "outputSchema": "nope"})
	var warned []error
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "h", URL: h.url}, &RegisterOptions{Security: loopback(),
		OnWarning: func(_ string, err error) { warned = append(warned, err) }})
	require.NoError(t, err)
	assert.Empty(t, names, "the tool with a bad outputSchema is left out")
	require.Len(t, warned, 1)
	var ce *core.Error
	require.ErrorAs(t, warned[0], &ce)
	assert.Equal(t, core.CodeInvalidSchema, ce.Code)
	assert.Contains(t, ce.Message, "outputSchema")
	assert.Empty(t, m.Names(), "nothing registered")
}
