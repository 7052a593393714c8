package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// proxy is the core.Callable of an MCP tool, LionAGI's mcp_callable(**kwargs):
// it calls the wire tool name on its server through the pool.
type proxy struct {
	pool *Pool
	cfg  *ServerConfig
	sec  *Security // the policy as given; nil refuses every call (fail-closed)
	name string    // the registered name
	wire string    // the tool's name on the server
	// mode is what a call responds with (RegisterOptions.Result).
	mode ResultMode
	// output is the tool's compiled outputSchema (nil when it has none):
	// structuredContent is checked against it.
	output *core.CompiledSchema
	// annotations are the tool's annotations as the server sent them (nil
	// when none, and for declared tools).
	annotations json.RawMessage
	// gate is the tool's approval (nil: none needed).
	gate *gate
	// onProgress receives the progress of its calls (RegisterOptions.OnProgress).
	onProgress ProgressFunc
	// raw is the tool's descriptor as tools/list gave it (compacted): a
	// refresh compares it to tell a changed tool (listchanged.go).
	raw json.RawMessage
	// sum is the SHA-256 of the descriptor as the page carried it: a
	// refresh that finds it again keeps the tool (reuse.go).
	sum descriptorSum
	// headers are its x-mcp-header annotations: on the modern wire each
	// call mirrors their values into Mcp-Param-* headers (mcpheader.go).
	headers []paramHeader
	// version is the protocol version the tool was discovered with
	// (ProtocolModern, or the legacy version initialize agreed); "" for a
	// declared tool.
	version string
	// taskRequired and taskOptional: the tool's execution.taskSupport is
	// "required" or "optional"; tasks is the registration's TaskMode. On
	// the 2025-11-25 wire they decide whether a call is task-augmented
	// (legacyTask, task_legacy.go).
	taskRequired, taskOptional bool
	tasks                      TaskMode
	// entry remembers the pool entry of its calls (entrymemo.go).
	entry entrySlot
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

// Call sends tools/call for the wire name with args and returns the
// response readResult makes of the result under the proxy's mode: in
// ResultLionAGI mode (the default) LionAGI's unwrapping, a single text item
// giving its text (a string) and anything else the content list as a
// json.RawMessage; in ResultFull mode the whole CallToolResult as a
// json.RawMessage. Both hold the server's JSON with every key where the
// server put it and every number as spelled (decode it with UseNumber to
// keep big integers).
//
// The arguments are the ones match validated against the tool's
// inputSchema (see RegisterServer); Call sends them as given. It fails
// with: invalid-arguments when they are not JSON; policy-denied when the policy refuses a request (a nil
// policy refuses all); timeout when an answer takes longer than TimeoutMs;
// tool-error for a result whose isError is true (LionAGI returns such
// content as a success; toolgate fails the call so the FunctionCalling
// ends failed: the message quotes the text content, Result holds the whole
// result and the Cause is a *ToolError with the unwrapped content);
// policy-denied with rule "approval", before anything is sent, when the
// tool needs approval (RegisterOptions.Approval) and the hook did not
// approve this call;
// invalid-result when structuredContent breaks the tool's outputSchema;
// unsupported with rule RuleTaskRequired, before tools/call is sent, when
// the tool's execution.taskSupport is "required" and its 2025-11-25 server
// did not declare task-augmented tools/call;
// transport for any other network, protocol or server failure. A call the
// server runs as a task (docs/mcp-tasks.md) is driven to its end first
// (runTask, task.go), and fails too with the errors of its bounds.
// Every error names the server and none holds a header value.
func (p *proxy) Call(ctx context.Context, args *core.Arguments) (any, error) {
	body := []byte("{}")
	if args != nil {
		b, err := args.MarshalJSON()
		if err != nil {
			return nil, core.Errorf(core.CodeInvalidArguments, p.name, "the arguments of %s are not JSON: %v", p.name, err)
		}
		body = b
	}
	if p.gate != nil {
		if e := checkServerURL(p.cfg.URL, p.sec, p.cfg.Name, p.cfg); e != nil {
			e.Tool = p.name
			return nil, e // refused anyway: no one is asked to approve it
		}
		if err := p.approve(ctx, body); err != nil {
			return nil, err
		}
	}
	return p.pool.callTool(ctx, p, json.RawMessage(body))
}

// ToolError is the Cause of the tool-error error a proxy returns when the
// server's tools/call result has isError true: Content is the result
// unwrapped as LionAGI unwraps a successful one (the whole result is the
// error's Result).
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

// callTool runs tools/call for px on a pooled client and reads the result.
func (p *Pool) callTool(ctx context.Context, px *proxy, args json.RawMessage) (any, error) {
	var out any
	cfg, tool, wire := px.cfg, px.name, px.wire
	err := p.run(ctx, cfg, px.sec, &px.entry, tool, func(ctx context.Context, e *entry, c *conn) error {
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		params := map[string]any{"name": wire, "arguments": args}
		augmented, err := px.legacyTask(c) // task_legacy.go
		if err != nil {
			return err
		}
		if augmented {
			params["task"] = taskParam()
		}
		defer trackProgress(ctx, px, c, params)() // progress.go: a task's progress too, until it ends
		if len(px.headers) > 0 {
			ctx = withValue(ctx, &paramHeaderSet{headers: paramHeaderValues(px.headers, args)})
		}
		raw, err := p.request(ctx, e, c, tool, "tools/call", params)
		if err == nil && asTaskHandle(c, augmented, raw) {
			raw, err = p.runTask(ctx, e, c, px, raw) // task.go
		}
		if err != nil {
			return err
		}
		out, err = readResult(cfg, tool, wire, raw, px.mode, px.output)
		return err
	})
	if err != nil {
		return nil, err
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
// transport?, security?, result?}} into LionAGI's proxy tool, registered
// under the bare name with the proxy schema (one "kwargs" string), calling
// the wire tool name on the server. The config's own "security" is the
// policy, checked on every call (without one every call fails with
// policy-denied); its "result" ("lionagi", the default, or "full") is the
// ResultMode, kept in the record's config; nothing is contacted at
// registration. It refuses with unsupported a config with a command, with
// unsupported-type a "result" that is neither mode, and with invalid-tool
// or unsupported-type what ValidateServerConfig refuses.
func (p *Pool) ProxyFactory() func(name string, config json.RawMessage) (*core.Tool, error) {
	return func(name string, config json.RawMessage) (*core.Tool, error) {
		cfg, err := ValidateServerConfig(name, config)
		if err != nil {
			return nil, err
		}
		mode, given, err := configResult(name, config)
		if err != nil {
			return nil, err
		}
		px := &proxy{pool: p, cfg: cfg, sec: cfg.Security, name: name, wire: name, mode: mode}
		t, err := core.NewTool(px, nil)
		if err != nil {
			return nil, err
		}
		t.MCP = true
		rec := cfg.Redacted()
		if given {
			rec["result"] = string(mode)
		}
		t.MCPConfig = map[string]any{name: rec}
		return t, nil
	}
}

// configResult reads a one-entry config's "result" (absent or null:
// ResultLionAGI, given false); a value that is not "lionagi" or "full" is
// unsupported-type naming the server. config is a valid object here.
func configResult(name string, config json.RawMessage) (ResultMode, bool, error) {
	fields, _ := jsontext.Members(config)
	v, ok := fields["result"]
	if !ok || jsontext.Kind(v) == jsontext.Null {
		return ResultLionAGI, false, nil
	}
	var s string
	if jsontext.Kind(v) != jsontext.String || json.Unmarshal(v, &s) != nil {
		return "", false, core.Errorf(core.CodeUnsupportedType, name, "server %s: \"result\" must be \"lionagi\" or \"full\", got %s",
			strconv.QuoteToASCII(name), jsontext.Kind(v))
	}
	mode, err := ParseResultMode("server "+strconv.QuoteToASCII(name), s)
	return mode, true, named(err, name)
}
