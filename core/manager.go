package core

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// ManagerOptions are the knobs of NewManager. A nil *ManagerOptions means
// every default; the struct is copied on entry.
type ManagerOptions struct {
	// MCPFactory builds the proxy tool of a one-entry MCP config {name:
	// config} (config is the entry's JSON object). The tool it returns is
	// marked MCP. nil (the default, the core build) refuses MCP configs with
	// unsupported.
	MCPFactory func(name string, config json.RawMessage) (*Tool, error)
}

// Manager is a branch's tool registry (LionAGI's ActionManager): tools by
// function name in insertion order, schema selection, request matching and
// invocation. It is safe for concurrent use.
type Manager struct {
	mu      sync.RWMutex
	names   []string
	tools   map[string]*Tool
	opts    ManagerOptions
	version uint64        // grows with every change to names or tools
	exports *exportMemory // what RememberExport recorded (nil before any)
	defers  *deferral     // the deferred tools and what a search revealed (nil before Defer)
}

// NewManager returns an empty registry.
func NewManager(opts *ManagerOptions) *Manager {
	m := &Manager{tools: map[string]*Tool{}}
	if opts != nil {
		m.opts = *opts
	}
	return m
}

// registrationTypeMessage is LionAGI's TypeError text for a value that is not
// a tool.
const registrationTypeMessage = "Must provide a `Tool` object, a callable function, or an MCP config dict."

// Register adds one tool, LionAGI's register_tool. x may be:
//
//   - a *Tool, registered under its Function() name;
//   - a Callable, built into a tool with NewTool(x, nil);
//   - a one-entry MCP config {name: config}, as map[string]json.RawMessage or
//     map[string]any, built by ManagerOptions.MCPFactory and marked MCP;
//   - a string, which only ever fails: duplicate-tool when it names a
//     registered tool and update is false (LionAGI's message said
//     "Tool None is already registered."; ours names the tool), otherwise
//     unsupported-type.
//
// A name already registered is refused with duplicate-tool ("Tool <name> is
// already registered.") unless update is true; update replaces the entry
// and keeps its position. A one-entry config's key counts as its name (the
// dict duplicate hole of LionAGI, delta D3, is closed), and an MCP tool never
// replaces a local tool, even with update (duplicate-tool). Any other x is
// refused with unsupported-type; a config without exactly one entry, or
// whose entry is not an object, with invalid-tool; a config without an
// MCPFactory with unsupported ("MCP needs the full build"); and NewTool's or
// the factory's own errors are returned as they are.
func (m *Manager) Register(x any, update bool) error {
	switch v := x.(type) {
	case *Tool:
		if v == nil {
			return Errorf(CodeUnsupportedType, "", registrationTypeMessage)
		}
		return m.put(v, update)
	case string:
		if !update && m.hasName(v) {
			return duplicateError(v)
		}
		return Errorf(CodeUnsupportedType, v, registrationTypeMessage)
	case map[string]json.RawMessage:
		return m.registerMCP(v, update)
	case map[string]any:
		cfg, err := rawConfig(v)
		if err != nil {
			return err
		}
		return m.registerMCP(cfg, update)
	case Callable:
		if isNilCallable(v) {
			return Errorf(CodeUnsupportedType, "", registrationTypeMessage)
		}
		if sig, err := safeSignature(v); err == nil && sig.Name != "" && !update && m.hasName(sig.Name) {
			return duplicateError(sig.Name)
		}
		t, err := NewTool(v, nil)
		if err != nil {
			return err
		}
		return m.put(t, update)
	}
	return Errorf(CodeUnsupportedType, "", registrationTypeMessage)
}

// RegisterAll registers each item in order, LionAGI's register_tools; nil
// items are skipped (LionAGI flattens with dropna). It stops at the first
// error, keeping what was registered before it.
func (m *Manager) RegisterAll(xs []any, update bool) error {
	for _, x := range xs {
		if x == nil {
			continue
		}
		if err := m.Register(x, update); err != nil {
			return err
		}
	}
	return nil
}

// registerMCP registers a one-entry MCP config through the factory.
func (m *Manager) registerMCP(cfg map[string]json.RawMessage, update bool) error {
	name, config, err := oneEntry(cfg)
	if err != nil {
		return err
	}
	if err := m.checkPut(name, true, update); err != nil {
		return err
	}
	c := bytes.TrimSpace(config)
	if len(c) == 0 || c[0] != '{' || !jsontext.Valid(c) {
		return Errorf(CodeInvalidTool, name, "the MCP config of %s must be an object.", name)
	}
	if m.opts.MCPFactory == nil {
		return Errorf(CodeUnsupported, name, "MCP needs the full build: the core build cannot register the MCP tool %s.", name)
	}
	t, err := m.opts.MCPFactory(name, c)
	if err != nil {
		return err
	}
	if t == nil {
		return Errorf(CodeInvalidTool, name, "the MCP factory returned no tool for %s.", name)
	}
	t.MCP = true
	return m.put(t, update)
}

// oneEntry returns the single entry of an MCP config, refusing any other
// count with LionAGI's message.
func oneEntry(cfg map[string]json.RawMessage) (string, json.RawMessage, error) {
	if len(cfg) != 1 {
		return "", nil, Errorf(CodeInvalidTool, "", "`mcp_config` must contain exactly one entry.")
	}
	for k, v := range cfg {
		return k, v, nil
	}
	panic("unreachable")
}

// rawConfig marshals each value of a map[string]any config.
func rawConfig(v map[string]any) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(v))
	for k, x := range v {
		b, err := json.Marshal(x)
		if err != nil {
			return nil, Errorf(CodeInvalidTool, k, "the MCP config of %s is not JSON: %v", k, err)
		}
		out[k] = b
	}
	return out, nil
}

// put stores t under its function name.
func (m *Manager) put(t *Tool, update bool) error {
	name := t.Function()
	if name == "" {
		return Errorf(CodeInvalidTool, "", "the tool's schema has no function name.")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.checkPutLocked(name, t.MCP, update); err != nil {
		return err
	}
	old, ok := m.tools[name]
	if !ok {
		m.names = append(m.names, name)
	}
	m.tools[name] = t
	m.forgetLocked(old)
	m.version++
	registryChanges.Add(1)
	return nil
}

// Version counts the changes to the registry: it grows with every
// registration (a replacement included), so a caller that read Tools or
// SchemaList at one Version can tell whether that is still current. Read it
// before the list: a list read after it is at least as new. A Tool's fields
// reassigned in place do not count.
func (m *Manager) Version() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.version
}

// registryChanges counts the changes to every Manager's registry.
var registryChanges atomic.Uint64

// RegistryChanges returns the counter of changes to every Manager's
// registry (each registration, a replacement included, adds to it): the
// bridge shares its address with JavaScript, whose caches of which tool a
// name resolves to hold only while it stays the same.
func RegistryChanges() *atomic.Uint64 { return &registryChanges }

// RegisterBatch registers tools all-or-nothing: under one lock every tool is
// checked (the rules of Register, a name repeated within the batch, and then
// check, when given, against the entry it would replace) before any is
// stored. On error the registry is unchanged. MCP discovery uses it so that
// a server's tools appear together or not at all.
func (m *Manager) RegisterBatch(tools []*Tool, update bool, check func(existing, incoming *Tool) error) error {
	names, err := batchNames(tools)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, t := range tools {
		if err := m.checkPutLocked(names[i], t.MCP, update); err != nil {
			return err
		}
		if old, ok := m.tools[names[i]]; ok && check != nil {
			if err := check(old, t); err != nil {
				return err
			}
		}
	}
	gone := make([]*Tool, 0, len(tools))
	for i, t := range tools {
		old, ok := m.tools[names[i]]
		if !ok {
			m.names = append(m.names, names[i])
		}
		m.tools[names[i]] = t
		gone = append(gone, old)
	}
	m.forgetLocked(gone...)
	m.version++
	registryChanges.Add(1)
	return nil
}

func (m *Manager) checkPut(name string, mcp, update bool) error {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.checkPutLocked(name, mcp, update)
}

// checkPutLocked refuses a duplicate without update, and an MCP tool over a
// local one.
func (m *Manager) checkPutLocked(name string, mcp, update bool) error {
	old, ok := m.tools[name]
	if !ok {
		return nil
	}
	if !update {
		return duplicateError(name)
	}
	if mcp && !old.MCP {
		return Errorf(CodeDuplicateTool, name, "MCP tool '%s' cannot replace an existing local tool.", name)
	}
	return nil
}

func duplicateError(name string) error {
	return Errorf(CodeDuplicateTool, name, "Tool %s is already registered.", name)
}

func (m *Manager) hasName(name string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	_, ok := m.tools[name]
	return ok
}

// Has reports whether ref is registered, LionAGI's __contains__: a *Tool by
// its function name, a string as a name, a Callable by its signature name (a
// different callable with the same name counts), a one-entry MCP config by
// its key; anything else is false.
func (m *Manager) Has(ref any) bool {
	switch v := ref.(type) {
	case *Tool:
		return v != nil && m.hasName(v.Function())
	case string:
		return m.hasName(v)
	case map[string]json.RawMessage:
		if len(v) != 1 {
			return false
		}
		for k := range v {
			return m.hasName(k)
		}
	case map[string]any:
		if len(v) != 1 {
			return false
		}
		for k := range v {
			return m.hasName(k)
		}
	case Callable:
		if isNilCallable(v) {
			return false
		}
		sig, err := safeSignature(v)
		return err == nil && m.hasName(sig.Name)
	}
	return false
}

// safeSignature calls c.Signature, turning a panic into an error.
func safeSignature(c Callable) (sig Signature, err error) {
	defer recoverInto("", &err)
	return c.Signature()
}

// Get returns the tool registered under name.
func (m *Manager) Get(name string) (*Tool, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	t, ok := m.tools[name]
	return t, ok
}

// Names returns the registered names in insertion order (never nil).
func (m *Manager) Names() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]string, len(m.names))
	copy(out, m.names)
	return out
}

// Tools returns the registered tools in insertion order (the same *Tool
// values the registry holds).
func (m *Manager) Tools() []*Tool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]*Tool, len(m.names))
	for i, n := range m.names {
		out[i] = m.tools[n]
	}
	return out
}

// SchemaList returns each tool's provider schema in insertion order,
// LionAGI's schema_list. Each is a copy: changing it changes nothing
// registered (LionAGI hands out its live dicts).
func (m *Manager) SchemaList() []json.RawMessage {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]json.RawMessage, len(m.names))
	for i, n := range m.names {
		out[i] = append(json.RawMessage(nil), m.tools[n].Schema...)
	}
	return out
}

// ToolSchema selects provider schemas, LionAGI's get_tool_schema:
//
//   - a one-item []any (or other slice listed below) is unwrapped first;
//   - true gives {"tools": [every schema]}; false gives [] (a list, as
//     LionAGI returns);
//   - anything else gives {"tools": S} where S is, by the selection's kind:
//     a json.RawMessage (or map) schema: itself, not registered; a Callable:
//     the schema registered under its signature name (a same-named tool
//     wins), registering it first with update when autoRegister is true,
//     otherwise tool-not-found; a *Tool or string: the schema registered
//     under its name, never auto-registered, else tool-not-found; a []any
//     (also []string, []*Tool, []Callable, []json.RawMessage): a JSON array
//     of each item's S, nested lists staying nested and update not passed
//     down (as in LionAGI); []any{} gives {"tools": []}.
//
// nil, other bools inside a list and any other kind are unsupported-type
// ("Unsupported type <T>"). Registration errors of auto-registration are
// returned as they are.
func (m *Manager) ToolSchema(sel any, autoRegister, update bool) (json.RawMessage, error) {
	sel = normaliseSelection(sel)
	if xs, ok := sel.([]any); ok && len(xs) == 1 {
		sel = xs[0]
	}
	if b, ok := sel.(bool); ok {
		if !b {
			return json.RawMessage("[]"), nil
		}
		var buf bytes.Buffer
		buf.WriteString(`{"tools":[`)
		for i, s := range m.SchemaList() {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(s)
		}
		buf.WriteString("]}")
		return buf.Bytes(), nil
	}
	s, err := m.schemaOf(sel, autoRegister, update)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString(`{"tools":`)
	buf.Write(s)
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// normaliseSelection turns typed slices into []any.
func normaliseSelection(sel any) any {
	switch v := sel.(type) {
	case []string:
		return sliceToAny(v)
	case []*Tool:
		return sliceToAny(v)
	case []Callable:
		return sliceToAny(v)
	case []json.RawMessage:
		return sliceToAny(v)
	}
	return sel
}

func sliceToAny[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// schemaOf is LionAGI's _get_tool_schema.
func (m *Manager) schemaOf(sel any, autoRegister, update bool) (json.RawMessage, error) {
	sel = normaliseSelection(sel)
	switch v := sel.(type) {
	case json.RawMessage:
		r := bytes.TrimSpace(v)
		if len(r) == 0 || r[0] != '{' || !jsontext.Valid(r) {
			return nil, Errorf(CodeUnsupportedType, "", "Unsupported type json.RawMessage (a schema must be a JSON object).")
		}
		return append(json.RawMessage(nil), r...), nil
	case map[string]any, map[string]json.RawMessage:
		b, err := jsontext.Marshal(v)
		if err != nil {
			return nil, Errorf(CodeUnsupportedType, "", "Unsupported type %T (not JSON: %v).", v, err)
		}
		return b, nil
	case *Tool:
		if v == nil {
			return nil, Errorf(CodeUnsupportedType, "", "Unsupported type %T.", v)
		}
		return m.registeredSchema(v.Function())
	case string:
		return m.registeredSchema(v)
	case []any:
		var buf bytes.Buffer
		buf.WriteByte('[')
		for i, x := range v {
			s, err := m.schemaOf(x, autoRegister, false)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(s)
		}
		buf.WriteByte(']')
		return buf.Bytes(), nil
	case Callable:
		if isNilCallable(v) {
			return nil, Errorf(CodeUnsupportedType, "", "Unsupported type %T.", v)
		}
		sig, err := safeSignature(v)
		if err != nil {
			return nil, err
		}
		if !m.hasName(sig.Name) {
			if !autoRegister {
				return nil, notRegistered(sig.Name)
			}
			if err := m.Register(v, update); err != nil {
				return nil, err
			}
		}
		return m.registeredSchema(sig.Name)
	}
	return nil, Errorf(CodeUnsupportedType, "", "Unsupported type %s.", selectionTypeName(sel))
}

// selectionTypeName names a Go value's type for messages.
func selectionTypeName(v any) string {
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%T", v)
}

func notRegistered(name string) error {
	return Errorf(CodeToolNotFound, name, "Tool %s is not registered.", name)
}

// registeredSchema returns a copy of the schema registered under name.
func (m *Manager) registeredSchema(name string) (json.RawMessage, error) {
	t, ok := m.Get(name)
	if !ok {
		return nil, notRegistered(name)
	}
	return append(json.RawMessage(nil), bytes.TrimSpace(t.Schema)...), nil
}

// Match resolves a request to a pending FunctionCalling, LionAGI's
// match_tool: the tool registered under req.Function, then its
// ValidateArguments. After an export (RememberExport), a name the export
// rewrote resolves to its tool, and the tool's argument restore (the nulls
// the strict transform introduced removed) is applied before validation.
// It refuses a nil request with invalid-request, an
// unknown function with tool-not-found ("Function <name> is not
// registered."), a request whose RawArguments could not be decoded with
// that decoding error, and returns ValidateArguments' errors; every error
// of a request with a call id carries it (Error.CallID) and the tool name.
func (m *Manager) Match(req *Request) (*FunctionCalling, error) {
	if req == nil {
		return nil, Errorf(CodeInvalidRequest, "", "the request is null.")
	}
	t, restore, ok := m.resolve(req.Function)
	if !ok {
		return nil, WithCall(Errorf(CodeToolNotFound, req.Function, "Function %s is not registered.", req.Function), req.Function, req.ID)
	}
	if req.argsErr != nil || req.Arguments == nil && req.RawArguments != "" {
		return nil, WithCall(req.argumentsError(), req.Function, req.ID)
	}
	given := req.Arguments
	if restore != nil {
		given = restore.Apply(given)
	}
	given, absent := t.dropAbsentNulls(given)
	args, conv, err := t.ValidateArguments(given)
	if err != nil {
		return nil, WithCall(err, req.Function, req.ID)
	}
	if absent != nil {
		conv = append(absent, conv...)
	}
	return &FunctionCalling{
		ID:          newUUID4(),
		CreatedAt:   epochSeconds(),
		Metadata:    map[string]any{},
		Tool:        t,
		Arguments:   args,
		Conversions: conv,
		CallID:      req.ID,
		Status:      StatusPending,
	}, nil
}

// Validate is Match followed by the check the tool's callable makes when
// it runs (every argument key taken by a parameter), so a call Validate
// accepts is one the callable accepts too. Match leaves that check to call
// time, as LionAGI's non-strict check does: an extra key then fails the
// call, not the match. It refuses what Match refuses, and keys the callable
// would refuse with invalid-arguments (keyword "signature").
func (m *Manager) Validate(req *Request) (*FunctionCalling, error) {
	fc, err := m.Match(req)
	if err != nil {
		return nil, err
	}
	if err := fc.Tool.checkSignature(fc.Arguments); err != nil {
		return nil, WithCall(err, fc.Function(), req.ID)
	}
	return fc, nil
}

// MatchJSON parses a request envelope (ParseRequest) and matches it.
func (m *Manager) MatchJSON(data []byte) (*FunctionCalling, error) {
	req, err := ParseRequest(data)
	if err != nil {
		return nil, err
	}
	return m.Match(req)
}

// Invoke matches req and runs the call, LionAGI's ActionManager.invoke. It
// returns the event whatever its final status (a failing tool is data, not
// an error); the error is only what Match refuses.
func (m *Manager) Invoke(ctx context.Context, req *Request) (*FunctionCalling, error) {
	fc, err := m.Match(req)
	if err != nil {
		return nil, err
	}
	fc.Invoke(ctx)
	return fc, nil
}

// Clone returns a new registry with the same tools (the same *Tool values)
// in the same order and the same options, as Branch.clone does, and what
// its exports remembered (aliases and strict restores).
func (m *Manager) Clone() *Manager {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c := &Manager{names: append([]string(nil), m.names...), tools: make(map[string]*Tool, len(m.tools)), opts: m.opts, exports: m.exports.clone(), defers: m.defers.clone()}
	for k, v := range m.tools {
		c.tools[k] = v
	}
	return c
}
