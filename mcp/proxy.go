package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"

	"github.com/toolgate/toolgate/core"
)

// proxy is the core.Callable of an MCP tool, LionAGI's mcp_callable(**kwargs):
// it calls the wire tool name on its server through the pool.
type proxy struct {
	pool *Pool
	cfg  *ServerConfig
	sec  *Security // the policy as given; nil refuses every call (fail-closed)
	name string    // the registered name
	wire string    // the tool's name on the server
}

// Signature is LionAGI's proxy signature: the registered name, the
// docstring "MCP tool: <name>" and one keywords parameter "kwargs".
func (p *proxy) Signature() (core.Signature, error) {
	return core.Signature{
		Name:   p.name,
		Doc:    "MCP tool: " + p.name,
		Params: []core.Param{{Name: "kwargs", Kind: core.ParamKeywords}},
	}, nil
}

// Call sends tools/call for the wire name with args and returns the result
// unwrapped as LionAGI does: a single text item gives its text (a string);
// anything else gives the content list as JSON values ([]any of
// map[string]any, numbers as json.Number). structuredContent is ignored, as
// LionAGI ignores it.
//
// The arguments are the ones match validated against the tool's
// inputSchema (see RegisterServer); Call sends them as given. It fails
// with: invalid-arguments when they are not JSON; policy-denied when the policy refuses a request (a nil
// policy refuses all); timeout when an answer takes longer than TimeoutMs;
// transport for any other network, protocol or server failure, and for a
// result whose isError is true (LionAGI returns such content as a success;
// toolgate fails the call so the FunctionCalling ends failed: the message
// quotes the text content, and the Cause is a *ToolError with the unwrapped
// content). Every error names the server and none holds a header value.
func (p *proxy) Call(ctx context.Context, args *core.Arguments) (any, error) {
	body := []byte("{}")
	if args != nil {
		b, err := args.MarshalJSON()
		if err != nil {
			return nil, core.Errorf(core.CodeInvalidArguments, p.name, "the arguments of %s are not JSON: %v", p.name, err)
		}
		body = b
	}
	return p.pool.callTool(ctx, p.cfg, p.sec, p.name, p.wire, json.RawMessage(body))
}

// ToolError is the Cause of the transport error a proxy returns when the
// server's tools/call result has isError true: Content is the result
// unwrapped as a successful one would be.
type ToolError struct {
	// Server is the server's name.
	Server string
	// Tool is the tool's name on the server.
	Tool string
	// Content is the unwrapped content: a string or a list of JSON values.
	Content any
}

// Error says which tool of which server reported the error.
func (e *ToolError) Error() string {
	return fmt.Sprintf("MCP tool %q of server %q reported an error", e.Tool, e.Server)
}

// callTool runs tools/call on a pooled client and unwraps the result.
func (p *Pool) callTool(ctx context.Context, cfg *ServerConfig, sec *Security, tool, wire string, args json.RawMessage) (any, error) {
	var out any
	err := p.run(ctx, cfg, sec, tool, func(ctx context.Context, e *entry, c *conn) error {
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		raw, err := p.request(ctx, e, c, tool, "tools/call", map[string]any{"name": wire, "arguments": args})
		if err != nil {
			return err
		}
		out, err = unwrapResult(cfg, tool, wire, raw)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// unwrapResult is LionAGI's unwrapping of a tools/call result
// (docs/lionagi.md, "The proxy"): a content list of one item of type "text"
// gives that item's
// "text" ("" when absent); any other content, [] included, is returned as
// the list; a result without content gives []. A result with isError true
// is a transport error whose Cause is a *ToolError.
func unwrapResult(cfg *ServerConfig, tool, wire string, raw json.RawMessage) (any, error) {
	var fields map[string]json.RawMessage
	raw = bytes.TrimSpace(raw)
	if jsontext.Kind(raw) != "object" || json.Unmarshal(raw, &fields) != nil {
		return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: not a JSON object"), tool)
	}
	content := []any{}
	if v, ok := fields["content"]; ok && jsontext.Kind(v) != "null" {
		if jsontext.Kind(v) != "array" {
			return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: \"content\" is not an array"), tool)
		}
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber()
		if err := dec.Decode(&content); err != nil {
			return nil, named(serverError(core.CodeTransport, cfg.Name, cfg, "malformed tools/call result: \"content\" does not decode"), tool)
		}
	}
	var out any = content
	if len(content) == 1 {
		if item, ok := content[0].(map[string]any); ok && item["type"] == "text" {
			text, ok := item["text"]
			if !ok {
				text = ""
			}
			out = text
		}
	}
	if isErr, ok := fields["isError"]; ok && string(isErr) == "true" {
		e := serverError(core.CodeTransport, cfg.Name, cfg, "tool %q reported an error: %s", wire, errorText(cfg, content))
		e.Tool = tool
		e.Cause = &ToolError{Server: cfg.Name, Tool: wire, Content: out}
		return nil, e
	}
	return out, nil
}

// errorText is the text items of an error result joined, redacted, cut and
// quoted.
func errorText(cfg *ServerConfig, content []any) string {
	var parts []string
	for _, c := range content {
		if item, ok := c.(map[string]any); ok && item["type"] == "text" {
			if s, ok := item["text"].(string); ok {
				parts = append(parts, s)
			}
		}
	}
	if len(parts) == 0 {
		return "(no text content)"
	}
	return cfg.quote(strings.Join(parts, "\n"), 500)
}

// ProxyFactory returns the core.ManagerOptions.MCPFactory of the full
// build: it turns a one-entry MCP config {name: {url, headers?,
// transport?, security?}} into LionAGI's proxy tool, registered under the
// bare name with the proxy schema (one "kwargs" string), calling the wire
// tool name on the server. The config's own "security" is the policy,
// checked on every call (without one every call fails with policy-denied);
// nothing is contacted at registration. It refuses with unsupported a
// config with a command, and with invalid-tool or unsupported-type what
// ValidateServerConfig refuses.
func (p *Pool) ProxyFactory() func(name string, config json.RawMessage) (*core.Tool, error) {
	return func(name string, config json.RawMessage) (*core.Tool, error) {
		cfg, err := ValidateServerConfig(name, config)
		if err != nil {
			return nil, err
		}
		px := &proxy{pool: p, cfg: cfg, sec: cfg.Security, name: name, wire: name}
		t, err := core.NewTool(px, nil)
		if err != nil {
			return nil, err
		}
		t.MCP = true
		t.MCPConfig = map[string]any{name: cfg.Redacted()}
		return t, nil
	}
}
