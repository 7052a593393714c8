package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
)

// RegisterOptions are the knobs of RegisterServer (JS registerMcpServer's
// options). A nil *RegisterOptions means every default, which refuses the
// server: there is no policy.
type RegisterOptions struct {
	// ToolNames, when not empty, declares the tools instead of discovering
	// them: no connection is made and tools/list is not called; each tool
	// gets LionAGI's proxy schema (one "kwargs" string), or its
	// RequestOptions schema (default nil: discover).
	ToolNames []string
	// RequestOptions maps wire tool names to JSON Schemas that validate the
	// arguments at match time (the typed path). A key naming no discovered
	// or declared tool is refused before any change (default nil: none).
	RequestOptions map[string]json.RawMessage
	// Update lets a tool replace one registered under the same name by the
	// same server and wire tool (default false: duplicate-tool). An MCP
	// tool never replaces a local tool, nor another server's tool.
	Update bool
	// Security is the policy every request is checked against (default
	// nil: fail-closed, everything is refused with policy-denied).
	Security *Security
	// Qualify names tools "mcp__{server}__{tool}" (default nil: true);
	// false keeps the wire names. Either way a name that is not
	// ^[a-zA-Z0-9_-]{1,64}$ is sanitised with a hash suffix.
	Qualify *bool
	// Result is what calls of the tools respond with (default "":
	// ResultLionAGI, LionAGI's unwrapping; ResultFull gives the whole
	// CallToolResult). An unknown mode is unsupported-type.
	Result ResultMode
	// Filter chooses the tools registered, after discovery and before the
	// all-or-nothing registration (default nil: all). With ToolNames only
	// Allow and Block apply; a hint filter is refused (invalid-request).
	Filter *Filter
	// Approval makes the tools it selects ask its hook before each call
	// (default nil: no approval). See Approval.Validate for its refusals.
	Approval *Approval
	// OnProgress receives the progress notifications of the tools' calls;
	// given, every tools/call asks for them (default nil: none asked).
	OnProgress ProgressFunc
	// OnToolsChanged receives each refresh of the tools after the server's
	// notifications/tools/list_changed (listchanged.go); given, the
	// standalone GET stream is opened, and held until Pool.Cleanup
	// (default nil: list changes seen on other streams still refresh).
	OnToolsChanged ToolsChangedFunc
	// Hooks are the client capabilities the server may use: roots,
	// sampling, elicitation (default nil: none declared; every server
	// request but ping is answered -32601). Registrations share a
	// connection only when their hooks have the same ids.
	Hooks *ClientHooks
	// Auth is the server's OAuth authorization (default nil: none; a 401
	// is reported as a transport error). See Auth.
	Auth *Auth
	// OnWarning receives each discovered tool left out because its
	// x-mcp-header annotations are invalid (a modern server's: an
	// invalid-tool error with Rule RuleMCPHeader and Tool the wire name),
	// at registration and at each refresh (default nil: only the tool's
	// absence shows it).
	OnWarning func(server string, err error)
	// Tasks chooses which calls are task-augmented on the 2025-11-25 wire
	// (default "": TasksRequired, only those of tools that require it);
	// docs/mcp-tasks.md.
	Tasks TaskMode

	refresh bool     // a list-change refresh: requestOptions may name tools the server no longer lists
	reuse   reusable // a refresh's registered tools, kept when their descriptor comes again (reuse.go)
}

// RegisterServer discovers the tools of cfg's server (or, with ToolNames,
// declares them) and registers them into m, all or nothing; it returns the
// registered names in the server's order.
//
// Discovered tools get the provider schema {"type":"function","function":
// {"name","description","parameters"}} with the tool's inputSchema as
// parameters and no "strict" key (docs/lionagi.md, "The derivation"); a tool without a
// description has "description": null. Its inputSchema (or its
// RequestOptions, when given) validates the arguments at match time as for
// any typed local tool (core.ToolOptions.InputSchema): lax coercion with
// its conversions reported, unnamed keys dropped, invalid-arguments before
// anything is sent. Tool.RequestOptions stays nil without RequestOptions
// and MinimumAcceptableFields is then empty (the proxy's **kwargs).
//
// Filter drops tools after discovery (or among ToolNames) before anything
// is built: a dropped tool is not registered, collides with nothing and
// its schemas are not read. Approval gives each tool it selects a gate
// that asks the hook before every call (proxy.Call).
//
// It refuses, before m changes: with policy-denied, a nil Security or a URL
// (or, during discovery, any request) the policy refuses; with
// invalid-request, a bad Filter pattern, a hint Filter beside ToolNames and
// what Approval.Validate refuses (nothing is contacted); with
// unsupported-type, a Security that does not Validate; with invalid-tool,
// a nil or malformed cfg, a declared or discovered name that breaks the MCP
// name rule, a RequestOptions key naming no tool; with duplicate-tool, a
// name declared or advertised twice, two tools whose registered names
// collide, a name registered in m already (unless Update, and then only
// by the same server's same tool: never over a local tool or another
// server's); with invalid-schema, a bad RequestOptions schema; with
// transport or timeout, a failure talking to the server (see Pool). A
// discovered tool whose schemas or x-mcp-header annotations cannot be used
// is not a refusal: it is left out and reported to OnWarning
// (validateDescriptors). Every error names the server; none holds a header
// value.
func RegisterServer(ctx context.Context, p *Pool, m *core.Manager, cfg *ServerConfig, opts *RegisterOptions) ([]string, error) {
	var o RegisterOptions
	if opts != nil {
		o = *opts
	}
	if m == nil {
		return nil, core.Errorf(core.CodeInvalidRequest, "", "RegisterServer needs a tool manager")
	}
	b, err := prepareServer(ctx, p, cfg, &o)
	if err != nil {
		return nil, err
	}
	names, err := b.commit(m, o.Update)
	if err == nil {
		p.follow(m, b.cfg, &o) // listchanged.go
	}
	return names, err
}

// batch is one server's tools, built and checked, not registered yet.
type batch struct {
	cfg   *ServerConfig
	tools []*core.Tool
	names []string
	wires []string
}

// prepareServer validates the inputs, discovers or declares the tools and
// builds them, changing nothing.
func prepareServer(ctx context.Context, p *Pool, cfg *ServerConfig, o *RegisterOptions) (*batch, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if p == nil {
		return nil, core.Errorf(core.CodeInvalidRequest, "", "registering an MCP server needs a Pool")
	}
	cfg, err := checkConfig(cfg)
	if err != nil {
		return nil, err
	}
	if err := o.Hooks.check(cfg); err != nil {
		return nil, err
	}
	cfg.hooks = o.Hooks
	cfg.auth = o.Auth
	if err := o.Security.Validate(); err != nil {
		return nil, named(err, cfg.Name)
	}
	// A copy: changing the caller's struct later changes no live proxy.
	sec := o.Security.withDefaults()
	if e := checkServerURL(cfg.URL, sec, cfg.Name, cfg); e != nil {
		return nil, e
	}
	qualify := o.Qualify == nil || *o.Qualify
	mode, err := ParseResultMode("server "+strconv.QuoteToASCII(cfg.Name), string(o.Result))
	if err != nil {
		return nil, err
	}
	if err := checkPolicies(cfg, o); err != nil {
		return nil, err
	}
	reqOpts := map[string]json.RawMessage{}
	for k, v := range o.RequestOptions {
		if v = bytes.TrimSpace(v); len(v) > 0 && string(v) != "null" {
			reqOpts[k] = v
		}
	}
	b := &batch{cfg: cfg}
	descs, version, err := p.descriptorsOf(ctx, cfg, sec, o)
	if err != nil {
		return nil, err
	}
	if err := checkRequestOptionKeys(cfg, reqOpts, descs); err != nil && !o.refresh {
		return nil, err
	}
	byName := map[string]string{}
	pace := newPacer()
	for _, d := range descs {
		pace.step() // pace.go
		if d.filtered {
			continue
		}
		name := registeredName(cfg.Name, d.wire, qualify)
		if other, dup := byName[name]; dup {
			return nil, serverError(core.CodeDuplicateTool, cfg.Name, cfg,
				"the tools %q and %q would both register as %q", other, d.wire, name)
		}
		byName[name] = d.wire
		if d.reused != nil {
			p.stats.toolsReused.Add(1)
			b.tools = append(b.tools, d.reused)
			b.names = append(b.names, name)
			b.wires = append(b.wires, d.wire)
			continue
		}
		px := &proxy{pool: p, cfg: cfg, sec: sec, name: name, wire: d.wire, mode: mode, headers: d.headers, version: version,
			annotations: d.annotations, gate: o.Approval.gateFor(d.annotations, d.ann), onProgress: o.OnProgress, raw: d.raw, sum: d.sum,
			taskRequired: taskSupport(d.raw) == "required", taskOptional: taskSupport(d.raw) == "optional", tasks: o.Tasks}
		t, err := buildTool(px, d, reqOpts[d.wire])
		if err != nil {
			return nil, err
		}
		_ = t.Function() // derives the tool's fields here, between pace points, not all at once in the registry's swap
		b.tools = append(b.tools, t)
		b.names = append(b.names, name)
		b.wires = append(b.wires, d.wire)
	}
	return b, nil
}

// descriptorsOf is the tools of a registration: the declared ToolNames
// (each checked, marked filtered when the Filter drops it), or those
// discovered (their warnings passed to OnWarning), with the protocol
// version they were discovered with ("" when declared).
func (p *Pool) descriptorsOf(ctx context.Context, cfg *ServerConfig, sec *Security, o *RegisterOptions) ([]descriptor, string, error) {
	if len(o.ToolNames) == 0 {
		found, err := p.discover(ctx, cfg, sec, o.Filter, o.reuse)
		if err != nil {
			return nil, "", err
		}
		for _, w := range found.warnings {
			if o.OnWarning != nil {
				o.OnWarning(cfg.Name, w)
			}
		}
		return found.descs, found.version, nil
	}
	var descs []descriptor
	seen := map[string]bool{}
	for _, n := range o.ToolNames {
		if err := checkWireName(cfg, n, seen, "toolNames:", "toolNames lists %q twice"); err != nil {
			return nil, "", err
		}
		descs = append(descs, descriptor{wire: n, filtered: !o.Filter.keepsName(n)})
	}
	return descs, "", nil
}

// checkPolicies refuses, with invalid-request naming the server, a bad
// filter pattern, a hint filter beside declared ToolNames, and what
// Approval.Validate refuses.
func checkPolicies(cfg *ServerConfig, o *RegisterOptions) error {
	where := "server " + strconv.QuoteToASCII(cfg.Name)
	if err := o.Filter.Validate(where); err != nil {
		return named(err, cfg.Name)
	}
	if len(o.ToolNames) > 0 {
		if err := checkDeclaredFilter(cfg, o.Filter); err != nil {
			return err
		}
	}
	return named(o.Approval.Validate(where), cfg.Name)
}

// checkConfig refuses a nil or malformed Go-built ServerConfig with
// invalid-tool and returns a copy with the transport defaulted.
func checkConfig(cfg *ServerConfig) (*ServerConfig, error) {
	if cfg == nil {
		return nil, core.Errorf(core.CodeInvalidTool, "", "an MCP server config is required")
	}
	c := *cfg
	switch {
	case c.Name == "":
		return nil, configError("", "the server has no name")
	case c.URL == "":
		return nil, configError(c.Name, `"url" is empty`)
	}
	switch c.Transport {
	case "":
		c.Transport = TransportStreamableHTTP
	case TransportStreamableHTTP, TransportSSE:
	default:
		return nil, configError(c.Name, "transport %s is unknown; want %q or %q",
			strconv.QuoteToASCII(truncate(c.Transport, 40)), TransportStreamableHTTP, TransportSSE)
	}
	if c.ProtocolVersion != "" {
		if _, err := configProtocolVersion(c.Name, json.RawMessage(strconv.Quote(c.ProtocolVersion))); err != nil {
			return nil, err
		}
	}
	if err := checkEra(c.Name, c.Transport, c.ProtocolVersion); err != nil {
		return nil, err
	}
	for k, v := range c.Headers {
		if !isToken(k) {
			return nil, configError(c.Name, "header name %s is not an HTTP token", strconv.QuoteToASCII(k))
		}
		if hasControl(v) {
			return nil, configError(c.Name, "the value of header %s contains a control character", strconv.QuoteToASCII(k))
		}
	}
	c.Headers = cloneHeaders(c.Headers)
	return &c, nil
}

// checkRequestOptionKeys refuses keys of reqOpts that name no tool.
func checkRequestOptionKeys(cfg *ServerConfig, reqOpts map[string]json.RawMessage, descs []descriptor) error {
	known := make(map[string]bool, len(descs))
	for _, d := range descs {
		known[d.wire] = true
	}
	var unknown []string
	for k := range reqOpts {
		if !known[k] {
			unknown = append(unknown, strconv.QuoteToASCII(truncate(k, 140)))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return serverError(core.CodeInvalidTool, cfg.Name, cfg,
		"requestOptions name tools the server does not have: %s", strings.Join(unknown, ", "))
}

// buildTool builds the proxy tool of one descriptor (a discovered one has
// an inputSchema; a declared one has not).
func buildTool(px *proxy, d descriptor, reqOpts json.RawMessage) (*core.Tool, error) {
	cfg, name := px.cfg, px.name
	px.output = d.output
	opts := &core.ToolOptions{Parameters: reqOpts, AbsentNulls: optionalNonNull(reqOpts)}
	if d.inputSchema != nil {
		opts.Schema = discoveredSchema(name, d)
		opts.InputSchema = d.compiled // validates when reqOpts is not given
		if reqOpts == nil {
			opts.AbsentNulls = optionalNonNull(d.inputSchema)
		}
	}
	t, err := core.NewTool(px, opts)
	if err != nil {
		return nil, prefixed(cfg, d.wire, err)
	}
	t.MCP = true
	t.MCPConfig = mcpConfigOf(cfg, name, d.wire)
	return t, nil
}

// discoveredSchema is LionAGI's hand-built schema of a discovered tool:
// {"type":"function","function":{"name","description","parameters"}}, no
// "strict" key. The description and inputSchema are the server's JSON
// (compacted), and name is plain ASCII.
func discoveredSchema(name string, d descriptor) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"function","function":{"name":`)
	b.WriteString(strconv.Quote(name))
	b.WriteString(`,"description":`)
	b.Write(d.description)
	b.WriteString(`,"parameters":`)
	b.Write(d.inputSchema)
	b.WriteString(`}}`)
	return b.Bytes()
}

// mcpConfigOf is the Tool.MCPConfig of a proxy: {name: the redacted server
// config plus "_original_tool_name"}.
func mcpConfigOf(cfg *ServerConfig, name, wire string) map[string]any {
	c := cfg.Redacted()
	c["_original_tool_name"] = wire
	return map[string]any{name: c}
}

// commit registers the batch into m all-or-nothing (core.Manager's
// RegisterBatch checks every name under one lock before storing any): a
// duplicate without update, an MCP tool over a local one, or a tool of
// another server or wire name is refused and nothing changes.
func (b *batch) commit(m *core.Manager, update bool) ([]string, error) {
	wires := make(map[*core.Tool]string, len(b.tools))
	for i, t := range b.tools {
		wires[t] = b.wires[i]
	}
	var ownerErr error
	check := func(old, incoming *core.Tool) error {
		name := incoming.Function()
		px, ok := old.Callable.(*proxy)
		if !ok || px.cfg.Name != b.cfg.Name || px.wire != wires[incoming] {
			ownerErr = serverError(core.CodeDuplicateTool, b.cfg.Name, b.cfg,
				"MCP tool '%s' is already registered for another server or tool%s; it is not replaced", name, ownerOf(px, ok))
			return ownerErr
		}
		return nil
	}
	if err := m.RegisterBatch(b.tools, update, check); err != nil {
		if err == ownerErr {
			return nil, err
		}
		return nil, prefixed(b.cfg, "", err)
	}
	return append([]string{}, b.names...), nil // [] for a server without tools, never null in JSON
}

// ownerOf names the server and tool of a registered proxy for messages.
func ownerOf(px *proxy, ok bool) string {
	if !ok {
		return ""
	}
	return fmt.Sprintf(" (tool %q of server %s)", px.wire, strconv.QuoteToASCII(px.cfg.Name))
}
