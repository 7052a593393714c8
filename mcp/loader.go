package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"

	"github.com/toolgate/toolgate/core"
)

// NamedConfig is one entry of a config's servers object ("mcpServers", or
// VS Code's "servers"): the server's name and its config, not validated
// yet.
type NamedConfig struct {
	Name string
	Raw  json.RawMessage
}

// LoadConfig parses MCP config text and returns the servers in the order
// the text lists them. The servers are the object under "mcpServers" (the
// .mcp.json of Claude Code and Cursor: {"mcpServers": {name: config}}) or
// under "servers" (VS Code's mcp.json: {"servers": {name: config},
// "inputs": [...]}); other top-level keys are ignored; the server configs
// are not validated (LoadMcpConfig does that per server).
//
// It refuses with invalid-request: text that is not one JSON object,
// trailing data, an object with neither key or with both, a servers value
// that is not an object, and a server name given twice.
func LoadConfig(data []byte) ([]NamedConfig, error) {
	bad := func(format string, args ...any) error {
		return core.Errorf(core.CodeInvalidRequest, "", "MCP config: "+format, args...)
	}
	data = bytes.TrimSpace(data)
	var top map[string]json.RawMessage
	if jsontext.Kind(data) != "object" {
		return nil, bad("must be a JSON object, got %s", jsontext.Kind(data))
	}
	if err := strictUnmarshal(data, &top); err != nil {
		return nil, bad("not valid JSON: %v", err)
	}
	key := "mcpServers"
	servers, ok := top[key]
	if vs, vsOK := top["servers"]; vsOK {
		if ok {
			return nil, bad(`it has both "mcpServers" and "servers": give the servers under one of them`)
		}
		key, servers, ok = "servers", vs, true
	}
	if !ok {
		return nil, bad(`no servers: want {"mcpServers": {name: {url, …}}} (Claude Code, Cursor) or {"servers": {name: {type, url, …}}} (VS Code)`)
	}
	if jsontext.Kind(servers) != "object" {
		return nil, bad(`%q must be an object, got %s`, key, jsontext.Kind(servers))
	}
	dec := json.NewDecoder(bytes.NewReader(servers))
	_, _ = dec.Token() // '{': checked above
	out := []NamedConfig{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, bad("not valid JSON: %v", err)
		}
		name, _ := tok.(string) // inside an object the decoder only yields string keys
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, bad("not valid JSON: %v", err)
		}
		if seen[name] {
			return nil, bad("the server %s is defined twice", strconv.QuoteToASCII(name))
		}
		seen[name] = true
		out = append(out, NamedConfig{Name: name, Raw: raw})
	}
	return out, nil
}

// strictUnmarshal decodes exactly one JSON value from data into v.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the value")
	}
	return nil
}

// LoadOptions are the knobs of LoadMcpConfig and LoadMcpTools. A nil
// *LoadOptions means every default, which refuses every server: there is
// no policy.
type LoadOptions struct {
	// ServerNames selects servers of the config, in this order (default
	// nil: all of them, in the config's order). A name the config does not
	// define is reported to OnWarning and gets no tools.
	ServerNames []string
	// Update is RegisterOptions.Update for every server (default false).
	Update bool
	// Security is the policy of every server (default nil: fail-closed). A
	// "security" key inside a server's config is ignored: a config file
	// cannot grant itself trust.
	Security *Security
	// RequestOptionsMap maps server names to RegisterOptions.RequestOptions
	// (default nil: none).
	RequestOptionsMap map[string]map[string]json.RawMessage
	// OnWarning receives each server that registers nothing because of a
	// failure other than a policy refusal, among them each command (stdio)
	// server, as an unsupported error naming it, and each discovered tool
	// left out for its x-mcp-header annotations (RegisterOptions.OnWarning)
	// (default nil: the failure is only visible as the server's empty list).
	OnWarning func(server string, err error)
	// Result is RegisterOptions.Result for every server (default "":
	// ResultLionAGI).
	Result ResultMode
	// Tasks is RegisterOptions.Tasks for every server (default "":
	// TasksRequired).
	Tasks TaskMode
	// Strict refuses the whole load with unsupported when a selected
	// server's config has a command (default false: that server gets [] and
	// goes to OnWarning while the URL servers load). No process is ever
	// started either way.
	Strict bool
	// Filter is RegisterOptions.Filter for every server (default nil: all
	// tools); a bad pattern refuses the whole load.
	Filter *Filter
	// Approval is RegisterOptions.Approval for every server (default nil:
	// none); what Approval.Validate refuses refuses the whole load.
	Approval *Approval
	// OnProgress is RegisterOptions.OnProgress for every server.
	OnProgress ProgressFunc
	// OnToolsChanged is RegisterOptions.OnToolsChanged for every server
	// (LoadMcpTools ignores it: its tools are in no branch).
	OnToolsChanged ToolsChangedFunc
	// Hooks is RegisterOptions.Hooks for every server (default nil: none).
	Hooks *ClientHooks
	// Auth is RegisterOptions.Auth per server name; the key "*" applies
	// to the servers not named (default nil: none).
	Auth map[string]*Auth
	// Env is the environment a config's ${NAME}, ${env:NAME} and
	// ${NAME:-default} references in url and header values are expanded
	// from (configenv.go); a reference to a variable it does not set
	// refuses the whole load (default nil: none is set).
	Env map[string]string

	noFollow bool // LoadMcpTools: the tools go into no branch, so no list change is followed
}

// LoadMcpConfig registers the tools of the servers of one .mcp.json text
// into m, each server all or nothing, and returns the servers handled (in
// order) with their registered names (empty for a server that failed).
//
// It refuses the whole load, before m changes: with invalid-request, what
// LoadConfig refuses, a nil m, a bad Filter pattern and what
// Approval.Validate refuses; with unsupported-type, a Security that
// does not Validate; with unsupported, under Strict, a selected server
// whose config has a command (there are no processes); with policy-denied,
// a selected server the policy refuses, at any point of its discovery.
// Every server is discovered before any is registered. Any other failure
// of one server (a command config without Strict, a malformed config,
// transport, timeout, invalid tools, a name collision at registration)
// gives it [] and is passed to OnWarning; the other servers are
// unaffected.
func LoadMcpConfig(ctx context.Context, p *Pool, m *core.Manager, data []byte, opts *LoadOptions) (servers []string, names map[string][]string, err error) {
	if m == nil {
		return nil, nil, core.Errorf(core.CodeInvalidRequest, "", "loadMcpConfig needs a tool manager")
	}
	configs, err := LoadConfig(data)
	if err != nil {
		return nil, nil, err
	}
	return loadInto(ctx, p, m, configs, opts)
}

// LoadMcpTools builds the tools of the servers of one .mcp.json text
// without registering them anywhere, as LoadMcpConfig would register them
// into a fresh manager, and returns them in order. data may be empty when
// ServerNames is given (every name is then unknown, reported to OnWarning);
// with neither it refuses with invalid-request. Other refusals are
// LoadMcpConfig's.
func LoadMcpTools(ctx context.Context, p *Pool, data []byte, opts *LoadOptions) ([]*core.Tool, error) {
	var configs []NamedConfig
	if d := bytes.TrimSpace(data); len(d) == 0 || string(d) == "null" {
		if opts == nil || len(opts.ServerNames) == 0 {
			return nil, core.Errorf(core.CodeInvalidRequest, "", "loadMcpTools: give a config or serverNames")
		}
	} else {
		var err error
		if configs, err = LoadConfig(data); err != nil {
			return nil, err
		}
	}
	var o LoadOptions
	if opts != nil {
		o = *opts
	}
	o.OnToolsChanged, o.noFollow = nil, true
	m := core.NewManager(nil)
	if _, _, err := loadInto(ctx, p, m, configs, &o); err != nil {
		return nil, err
	}
	return m.Tools(), nil
}

// loadInto runs the load of configs into m: select, validate and check the
// policy of every server, discover every server, then register each.
func loadInto(ctx context.Context, p *Pool, m *core.Manager, configs []NamedConfig, opts *LoadOptions) ([]string, map[string][]string, error) {
	var o LoadOptions
	if opts != nil {
		o = *opts
	}
	if p == nil {
		return nil, nil, core.Errorf(core.CodeInvalidRequest, "", "loading an MCP config needs a Pool")
	}
	if err := o.Security.Validate(); err != nil {
		return nil, nil, err
	}
	o.Security = o.Security.withDefaults() // a copy: changing the caller's struct later changes no live proxy
	warn := func(server string, err error) {
		if o.OnWarning != nil {
			o.OnWarning(server, err)
		}
	}
	if _, err := ParseResultMode("loading an MCP config", string(o.Result)); err != nil {
		return nil, nil, err
	}
	if err := o.Filter.Validate("loading an MCP config"); err != nil {
		return nil, nil, err
	}
	if err := o.Approval.Validate("loading an MCP config"); err != nil {
		return nil, nil, err
	}
	order := serverOrder(configs, o.ServerNames)
	valid, err := validConfigs(configs, order, o.Security, o.Strict, o.Env, warn)
	if err != nil {
		return nil, nil, err
	}
	batches := make(map[string]*batch, len(valid))
	for _, name := range order {
		cfg, ok := valid[name]
		if !ok {
			continue
		}
		b, err := prepareServer(ctx, p, cfg, registerOptionsOf(&o, name))
		if err != nil {
			if errors.Is(err, core.ErrPolicyDenied) || errors.Is(err, core.ErrUnsupported) {
				return nil, nil, err
			}
			warn(name, err)
			continue
		}
		batches[name] = b
	}
	names := make(map[string][]string, len(order))
	for _, name := range order {
		names[name] = []string{}
		b, ok := batches[name]
		if !ok {
			continue
		}
		registered, err := b.commit(m, o.Update)
		if err != nil {
			warn(name, err)
			continue
		}
		if !o.noFollow {
			p.follow(m, b.cfg, registerOptionsOf(&o, name)) // listchanged.go
		}
		names[name] = registered
	}
	return order, names, nil
}

// registerOptionsOf is what a load registers the server name with.
func registerOptionsOf(o *LoadOptions, name string) *RegisterOptions {
	return &RegisterOptions{
		RequestOptions: o.RequestOptionsMap[name],
		Result:         o.Result,
		Tasks:          o.Tasks,
		Update:         o.Update,
		Security:       o.Security,
		Filter:         o.Filter,
		Approval:       o.Approval,
		OnProgress:     o.OnProgress,
		OnToolsChanged: o.OnToolsChanged,
		Hooks:          o.Hooks,
		Auth:           authFor(o.Auth, name),
		OnWarning:      o.OnWarning,
	}
}

// authFor is the Auth of server name: its own, else the "*" entry's.
func authFor(m map[string]*Auth, name string) *Auth {
	if a, ok := m[name]; ok {
		return a
	}
	return m["*"]
}

// serverOrder is the servers to load: those of the config in its order, or
// the requested names in theirs, each once.
func serverOrder(configs []NamedConfig, requested []string) []string {
	order := make([]string, 0, len(configs))
	if requested == nil {
		for _, c := range configs {
			order = append(order, c.Name)
		}
		return order
	}
	for _, n := range requested {
		if !slices.Contains(order, n) {
			order = append(order, n)
		}
	}
	return order
}

// validConfigs validates the config of each server in order against sec,
// its ${…} references expanded from env (expandConfig). A server that is
// not in the config, or whose config is malformed, is passed to warn and
// left out, as is a command config (unsupported) unless strict, when it
// ends the whole load; a reference expandConfig refuses and a URL the
// policy refuses end the whole load. A config's own "security" is
// dropped: a config file cannot grant itself trust.
func validConfigs(configs []NamedConfig, order []string, sec *Security, strict bool, env map[string]string, warn func(string, error)) (map[string]*ServerConfig, error) {
	byName := make(map[string]json.RawMessage, len(configs))
	for _, c := range configs {
		byName[c.Name] = c.Raw
	}
	valid := make(map[string]*ServerConfig, len(order))
	for _, name := range order {
		raw, ok := byName[name]
		if !ok {
			warn(name, core.Errorf(core.CodeInvalidRequest, name, "Unknown MCP server: %s (not in this config)", strconv.QuoteToASCII(name)))
			continue
		}
		cfg, err := ValidateServerConfig(name, raw)
		if err != nil {
			if strict && errors.Is(err, core.ErrUnsupported) {
				return nil, err
			}
			warn(name, err)
			continue
		}
		cfg.Security = nil
		if err := expandConfig(cfg, env); err != nil {
			return nil, err
		}
		if e := checkServerURL(cfg.URL, sec, name, cfg); e != nil {
			return nil, e
		}
		valid[name] = cfg
	}
	return valid, nil
}
