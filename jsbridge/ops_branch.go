package jsbridge

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// Refs from JS arrive as JSON: a string is a name, a boolean a boolean, an
// array a list, and objects are tagged: {"$tool": id} a Tool, {"$callable": id}
// a JS function (already turned into a tool by JS), {"$schema": {...}} a
// schema dict, {"$mcp": {name: config}} a one-entry MCP config, {"$type": "x"}
// a value of a kind no call accepts.
type ref struct {
	Tool     *int64                     `json:"$tool"`
	Callable *int64                     `json:"$callable"`
	Schema   json.RawMessage            `json:"$schema"`
	MCP      map[string]json.RawMessage `json:"$mcp"`
	Type     string                     `json:"$type"`
}

// unsupportedValue stands for a JS value of a kind no call accepts; the core
// refuses it with unsupported-type.
type unsupportedValue struct{ kind string }

// convertRef turns a JSON ref into what core.Manager takes. onCallable is
// called for JS functions; it returns what to pass on.
func (b *Bridge) convertRef(raw json.RawMessage, onCallable func(t *core.Tool) (any, error)) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, core.Errorf(core.CodeUnsupportedType, "", "bad name: %v", err)
		}
		return s, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case 'n':
		return nil, nil
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, core.Errorf(core.CodeUnsupportedType, "", "bad list: %v", err)
		}
		out := make([]any, 0, len(items))
		for _, it := range items {
			v, err := b.convertRef(it, onCallable)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case '{':
		if id, ok := toolRefID(raw); ok {
			return b.tool(id)
		}
		var r ref
		if !decodeRefTape(raw, &r) {
			r = ref{}
			if err := decodeStrict(raw, &r, "reference"); err != nil {
				return nil, err
			}
		}
		switch {
		case r.Tool != nil:
			return b.tool(*r.Tool)
		case r.Callable != nil:
			t, err := b.tool(*r.Callable)
			if err != nil {
				return nil, err
			}
			return onCallable(t)
		case r.Schema != nil:
			return r.Schema, nil
		case r.MCP != nil:
			return r.MCP, nil
		case r.Type != "":
			return unsupportedValue{r.Type}, nil
		}
	}
	return unsupportedValue{"number"}, nil
}

type registerPayload struct {
	Items  []json.RawMessage `json:"items"`
	Update bool              `json:"update"`
	Defer  bool              `json:"defer"` // register only: defer the tools registered (answer: their names)
}

func opBranchCreate(b *Bridge, _ int64, payload []byte) (any, error) {
	m := core.NewManager(&core.ManagerOptions{MCPFactory: b.MCPFactory})
	var p registerPayload
	if len(bytes.TrimSpace(payload)) > 0 && !decodeRegisterTape(payload, &p) {
		p = registerPayload{}
		if err := decodeStrict(payload, &p, "branch options"); err != nil {
			return nil, err
		}
	}
	if err := b.registerItems(m, p); err != nil {
		return nil, err
	}
	return b.addBranch(m), nil
}

func (b *Bridge) registerItems(m *core.Manager, p registerPayload) error {
	for _, it := range p.Items {
		v, err := b.convertRef(it, func(t *core.Tool) (any, error) { return t, nil })
		if err != nil {
			return err
		}
		if v == nil { // null and undefined entries are skipped
			continue
		}
		if err := m.Register(v, p.Update); err != nil {
			return err
		}
	}
	return nil
}

// branchPayload returns the branch under handle and payload decoded into a
// P (decodeStrict: unknown keys refused, what names the payload in the
// error).
func branchPayload[P any](b *Bridge, handle int64, payload []byte, what string) (*core.Manager, *P, error) {
	m, err := b.branch(handle)
	if err != nil {
		return nil, nil, err
	}
	p := new(P)
	if rp, ok := any(p).(*registerPayload); ok && decodeRegisterTape(payload, rp) {
		return m, p, nil
	}
	*p = *new(P)
	if err := decodeStrict(payload, p, what); err != nil {
		return nil, nil, err
	}
	return m, p, nil
}

func opBranchRegister(b *Bridge, handle int64, payload []byte) (any, error) {
	m, err := b.branch(handle)
	if err != nil {
		return nil, err
	}
	p := new(registerPayload)
	if !decodeRegisterTape(payload, p) {
		*p = registerPayload{}
		if err := decodeStrict(payload, p, "register options"); err != nil {
			return nil, err
		}
	}
	if len(p.Items) == 1 && bytes.Equal(bytes.TrimSpace(p.Items[0]), []byte("null")) {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "Must provide a `Tool` object, a callable function, or an MCP config dict.")
	}
	if p.Defer {
		return b.registerDeferred(m, *p) // ops_defer.go
	}
	return nil, b.registerItems(m, *p)
}

func opBranchHas(b *Bridge, handle int64, payload []byte) (any, error) {
	m, err := b.branch(handle)
	if err != nil {
		return nil, err
	}
	v, err := b.convertRef(payload, func(t *core.Tool) (any, error) { return t.Function(), nil })
	if err != nil {
		return false, nil
	}
	return m.Has(v), nil
}

// opBranchTools lists [name, toolHandle] pairs in insertion order, after
// the registry's version (see listUnchanged).
func opBranchTools(b *Bridge, handle int64, payload []byte) (any, error) {
	return b.branchList(handle, payload, func(m *core.Manager) ([]byte, error) {
		tools := m.Tools()
		out := make([][2]any, 0, len(tools))
		for _, t := range tools {
			out = append(out, [2]any{t.Function(), b.addTool(t)})
		}
		return json.Marshal(out)
	})
}

// branchList answers a list op of the branch under handle: the registry's
// version alone when payload holds it (see listUnchanged), else the
// version and the list write makes.
func (b *Bridge) branchList(handle int64, payload []byte, write func(*core.Manager) ([]byte, error)) (any, error) {
	m, err := b.branch(handle)
	if err != nil {
		return nil, err
	}
	v, same := listUnchanged(m, payload)
	if same {
		return v, nil
	}
	data, err := write(m)
	if err != nil {
		return nil, err
	}
	return versioned(v, data), nil
}

// opBranchSchemaList lists the provider schemas in insertion order, after
// the registry's version (see listUnchanged).
func opBranchSchemaList(b *Bridge, handle int64, payload []byte) (any, error) {
	return b.branchList(handle, payload, func(m *core.Manager) ([]byte, error) {
		buf := []byte{'['}
		for i, s := range m.SchemaList() {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, s...)
		}
		return append(buf, ']'), nil
	})
}

// versioned is the JSON [version, list] of a list op whose list changed.
func versioned(v, list []byte) json.RawMessage {
	out := append(append([]byte{'['}, v...), ',')
	return append(append(out, list...), ']')
}

// listUnchanged reads the registry's version (Manager.Version) as text, and
// whether it is the one JS sent (the version of the list it holds). A list
// op answers just the version (a JSON number) when it is, and [version,
// list] when not, so JS crosses and keeps the text of a registry of 10,000
// tools only when it changed.
func listUnchanged(m *core.Manager, payload []byte) ([]byte, bool) {
	v := strconv.AppendUint(nil, m.Version(), 10)
	return v, len(payload) > 0 && string(payload) == string(v)
}

type toolSchemaPayload struct {
	Selection    json.RawMessage `json:"selection"`
	AutoRegister *bool           `json:"autoRegister"`
	Update       bool            `json:"update"`
}

func opBranchGetToolSchema(b *Bridge, handle int64, payload []byte) (any, error) {
	m, p, err := branchPayload[toolSchemaPayload](b, handle, payload, "getToolSchema options")
	if err != nil {
		return nil, err
	}
	auto := p.AutoRegister == nil || *p.AutoRegister
	top := true
	sel, err := b.convertRef(p.Selection, func(t *core.Tool) (any, error) {
		// LionAGI: a callable is looked up by name; unregistered, it is
		// registered when autoRegister (update passed at the top level only).
		name := t.Function()
		if !m.Has(name) {
			if !auto {
				return nil, core.Errorf(core.CodeToolNotFound, name, "Tool %s is not registered.", name)
			}
			if err := m.Register(t, top && p.Update); err != nil {
				return nil, err
			}
		}
		return name, nil
	})
	if err != nil {
		return nil, err
	}
	if sel == nil && p.Selection == nil {
		sel = false // omitted selection: LionAGI's default tools=False
	}
	return m.ToolSchema(sel, auto, p.Update)
}

// opBranchMatch parses a request (JSON text) and matches it (Manager.Match,
// for b.match and b.invoke). The result is {"tool": handle, "function":
// name, "arguments": {...}, "bigints": [pointers], "conversions": [...],
// "id"?, "precheck"?}, written by hand: this is the hot path of validate and
// invoke. "precheck": true says JS may answer later calls naming this
// function with its JS evaluator while the registry is unchanged (see
// precheckable).
func opBranchMatch(b *Bridge, handle int64, payload []byte) (any, error) {
	return matchResult(b, handle, payload, false)
}

// opBranchValidate is opBranchMatch through Manager.Validate (b.validate):
// it also refuses the keys the tool's callable would refuse when it runs.
func opBranchValidate(b *Bridge, handle int64, payload []byte) (any, error) {
	return matchResult(b, handle, payload, true)
}

// runsInJS reports whether a tool's callable runs in JavaScript, so that
// only the arguments' JSON text is needed from a match.
func runsInJS(t *core.Tool) bool {
	_, ok := t.Callable.(*jsCallable)
	return ok
}

// matchResult resolves a request with Manager.Match (Validate when
// validate is true) and writes the result opBranchMatch describes. For a
// tool that runs in JS it takes core's fast path (Manager.MatchFast), which
// writes the arguments without decoding them into Go values, whenever that
// path can answer.
func matchResult(b *Bridge, handle int64, payload []byte, validate bool) (any, error) {
	m, err := b.branch(handle)
	if err != nil {
		return nil, err
	}
	if fm, handled, err := m.MatchFast(payload, validate, runsInJS); handled {
		if err != nil {
			if precheckable(m, fm.Tool, fm.Tool.Function(), fm.ID) {
				return refusalWithPlan(err, b.addTool(fm.Tool)), nil
			}
			return nil, err
		}
		defer fm.Release()
		pre := precheckable(m, fm.Tool, fm.Tool.Function(), fm.ID)
		return matchJSON(b.addTool(fm.Tool), fm.Tool.Function(), fm.Arguments, fm.BigInts, fm.Conversions, fm.ID, pre), nil
	}
	req, err := core.ParseRequest(payload)
	if err != nil {
		return nil, err
	}
	match := (*core.Manager).Match
	if validate {
		match = (*core.Manager).Validate
	}
	fc, err := match(m, req)
	if err != nil {
		return nil, err
	}
	var bigints []string
	args := appendJSArguments(make([]byte, 0, 64+len(payload)), fc.Arguments, &bigints)
	pre := precheckable(m, fc.Tool, req.Function, req.ID)
	return matchJSON(b.addTool(fc.Tool), fc.Function(), args, bigints, fc.Conversions, req.ID, pre), nil
}

// precheckable reports whether JS may answer later calls naming name with
// the JS evaluator of tool's arguments (npm/lib/plan-cache.js,
// docs/architecture.md): the tool runs in JS, the answer is one of a plain
// call (no call id), and the name reaches the tool with nothing an export
// remembered in between (Manager.ResolvesDirectly: no alias, no argument
// restore). JS holds a plan only for a tool with an evaluator program
// (core Tool.Program), which reproduces any lax conversion it makes. This
// is the one place the rule is written; JS only follows it.
func precheckable(m *core.Manager, tool *core.Tool, name string, id string) bool {
	return runsInJS(tool) && id == "" && m.ResolvesDirectly(name)
}

// refusalWithPlan is the fast path's refusal of a call JS may answer next
// time (precheckable): the error as the bridge writes it, with a "plan"
// member holding the tool's handle, which branch.js takes off the
// ToolgateError before anyone sees it.
func refusalWithPlan(err error, tool int64) encoded {
	buf := encodeError(core.AsError(err))
	buf = append(buf[:len(buf)-1], `,"plan":`...)
	buf = strconv.AppendInt(buf, tool, 10)
	return encoded(append(buf, '}'))
}

// matchJSON writes a match result, with its status byte.
func matchJSON(tool int64, function string, args []byte, bigints []string, convs []core.Conversion, id string, precheck bool) encoded {
	buf := make([]byte, 0, 96+len(function)+len(args))
	buf = append(buf, `0{"tool":`...)
	buf = strconv.AppendInt(buf, tool, 10)
	buf = append(buf, `,"function":`...)
	buf = jsontext.AppendString(buf, function)
	buf = append(buf, `,"arguments":`...)
	buf = append(buf, args...)
	if len(bigints) > 0 {
		buf = append(buf, `,"bigints":`...)
		data, _ := json.Marshal(bigints)
		buf = append(buf, data...)
	}
	if len(convs) > 0 {
		buf = append(buf, `,"conversions":`...)
		data, _ := json.Marshal(convs)
		buf = append(buf, data...)
	}
	if id != "" {
		buf = append(buf, `,"id":`...)
		buf = jsontext.AppendString(buf, id)
	}
	if precheck {
		buf = append(buf, `,"precheck":true`...)
	}
	return encoded(append(buf, '}'))
}

func opBranchClone(b *Bridge, handle int64, _ []byte) (any, error) {
	m, err := b.branch(handle)
	if err != nil {
		return nil, err
	}
	return b.addBranch(m.Clone()), nil
}

func opBranchRelease(b *Bridge, handle int64, _ []byte) (any, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.branches, handle)
	return true, nil
}

// opOps lists the ops table, the first call of every instance: written
// here (op names need no escaping) so that starting links no encoder.
func opOps(b *Bridge, _ int64, _ []byte) (any, error) {
	names, _ := b.Ops()
	buf := append(make([]byte, 0, 32*len(names)), '0', '[')
	for i, name := range names {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsontext.AppendString(buf, name)
	}
	return encoded(append(buf, ']')), nil
}

func registerCoreOps(b *Bridge) {
	b.Register("ops", opOps) // must stay first: JS asks for the table by index 0
	b.Register("tool.create", opToolCreate)
	b.Register("tool.info", opToolInfo)
	b.Register("tool.toDict", opToolToDict)
	b.Register("tool.release", opToolRelease)
	b.Register("tool.program", opToolProgram)
	b.Register("event.toDict", opEventToDict)
	b.Register("branch.create", opBranchCreate)
	b.Register("branch.register", opBranchRegister)
	b.Register("branch.has", opBranchHas)
	b.Register("branch.tools", opBranchTools)
	b.Register("branch.schemaList", opBranchSchemaList)
	b.Register("branch.getToolSchema", opBranchGetToolSchema)
	b.Register("branch.match", opBranchMatch)
	b.Register("branch.validate", opBranchValidate)
	b.Register("branch.clone", opBranchClone)
	b.Register("branch.release", opBranchRelease)
	b.Register("toProvider", opToProvider)
	b.Register("branch.defer", opBranchDefer)
	b.Register("branch.searchTools", opBranchSearchTools)
	registerProviderCallOps(b)
}
