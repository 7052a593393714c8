package jsbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/jsbridge/jsfunc"
)

// toolSpec is what tg.tool() sends: a raw JS function (name + source text) or
// a typed tool (name + parameters), with the options Go acts on. Options that
// are JS values (handler, processors) stay in JS.
type toolSpec struct {
	Kind    string          `json:"kind"` // "function" | "typed"
	Name    string          `json:"name"`
	Source  string          `json:"source"`
	Options toolSpecOptions `json:"options"`
}

// toolSpecOptions are the options of tg.tool() that Go reads; ToolOptions.Go
// (the contract JS checks against) is derived from these fields.
type toolSpecOptions struct {
	Name                  string            `json:"name"`
	Description           string            `json:"description"`
	ParameterDescriptions map[string]string `json:"parameterDescriptions"`
	Parameters            json.RawMessage   `json:"parameters"`
	Schema                json.RawMessage   `json:"schema"`
	Strict                bool              `json:"strict"`
	StrictFuncCall        bool              `json:"strictFuncCall"`
	SchemaMode            string            `json:"schemaMode"`
	DocstringStyle        string            `json:"docstringStyle"`
	Coerce                string            `json:"coerce"`
	TimeoutMs             float64           `json:"timeoutMs"`
	Metadata              map[string]any    `json:"metadata"`
	// InputExamples is the array of argument objects (core's
	// ToolOptions.InputExamples), split by inputExamples.
	InputExamples json.RawMessage `json:"inputExamples"`
}

// toolInfo is everything JS caches about a tool: it is immutable once built.
type toolInfo struct {
	ID                      int64           `json:"id"`
	UUID                    string          `json:"uuid"`
	CreatedAt               float64         `json:"createdAt"`
	Function                string          `json:"function"`
	ToolSchema              json.RawMessage `json:"toolSchema"`
	RequiredFields          []string        `json:"requiredFields"`
	RequiredFieldsError     *core.Error     `json:"requiredFieldsError,omitempty"`
	MinimumAcceptableFields []string        `json:"minimumAcceptableFields"`
	StrictFuncCall          bool            `json:"strictFuncCall"`
	Signature               *core.Signature `json:"signature,omitempty"`
	Metadata                map[string]any  `json:"metadata"`
	MCP                     bool            `json:"mcp,omitempty"`
	// MCPTool is an MCP proxy's {server, tool, annotations} (JS tool.mcp);
	// absent for other tools.
	MCPTool json.RawMessage `json:"mcpTool,omitempty"`
	// InputExamples are the tool's input examples (JS tool.inputExamples);
	// absent when it has none.
	InputExamples []json.RawMessage `json:"inputExamples,omitempty"`
}

// jsCallable stands for a JS function: Go knows its signature only. JS tools
// are invoked by the JS side (no js.FuncOf round trip per call), so Call is
// never reached through the bridge.
type jsCallable struct{ sig core.Signature }

// Signature returns the signature parsed from the function's source.
func (c *jsCallable) Signature() (core.Signature, error) { return c.sig, nil }

// Call refuses: JS tools run in JS, never through Go.
func (c *jsCallable) Call(_ context.Context, _ *core.Arguments) (any, error) {
	return nil, core.Errorf(core.CodeInternal, c.sig.Name, "JS tools are invoked from JavaScript")
}

func opToolCreate(b *Bridge, _ int64, payload []byte) (any, error) {
	if err := parametersSize(payload); err != nil {
		return nil, err
	}
	var spec toolSpec
	if !decodeSpecTape(payload, &spec) {
		spec = toolSpec{}
		if err := decodeStrict(payload, &spec, "tool options"); err != nil {
			return nil, err
		}
	}
	o := spec.Options
	opts := &core.ToolOptions{
		Name:                  o.Name,
		Description:           o.Description,
		ParameterDescriptions: o.ParameterDescriptions,
		Schema:                nullToNil(o.Schema),
		Strict:                o.Strict,
		StrictFuncCall:        o.StrictFuncCall,
		SchemaMode:            core.SchemaMode(o.SchemaMode),
		DocstringStyle:        o.DocstringStyle,
		Coerce:                core.CoerceMode(o.Coerce),
		Timeout:               time.Duration(o.TimeoutMs * float64(time.Millisecond)),
		Metadata:              o.Metadata,
	}
	examples, err := inputExamples(spec.Name, o)
	if err != nil {
		return nil, err
	}
	opts.InputExamples = examples
	var sig core.Signature
	switch spec.Kind {
	case "function":
		s, err := jsfunc.Parse(spec.Name, spec.Source)
		if err != nil {
			return nil, err
		}
		sig = s
		// A raw function with parameters is LionAGI's Tool(func_callable=f,
		// request_options=Model): the schema validates, the function runs.
		opts.Parameters = nullToNil(o.Parameters)
	case "typed":
		if spec.Name == "" && o.Name == "" {
			return nil, core.Errorf(core.CodeInvalidTool, "", "a typed tool needs a name")
		}
		name := spec.Name
		if name == "" {
			name = o.Name
		}
		sig = core.Signature{Name: name, Params: []core.Param{{Name: "kwargs", Kind: core.ParamKeywords}}}
		opts.Parameters = nullToNil(o.Parameters)
		if opts.Parameters == nil && opts.Schema == nil {
			opts.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
		}
	default:
		return nil, core.Errorf(core.CodeInvalidTool, spec.Name, "unknown tool kind %q", spec.Kind)
	}
	t, err := core.NewTool(&jsCallable{sig: sig}, opts)
	if err != nil {
		return nil, err
	}
	return b.info(t, &sig), nil
}

// inputExamples splits the inputExamples option into its elements (nil
// when it is absent or null), refusing anything but an array with
// invalid-tool; core checks each element.
func inputExamples(name string, o toolSpecOptions) ([]json.RawMessage, error) {
	raw := nullToNil(o.InputExamples)
	if raw == nil {
		return nil, nil
	}
	if o.Name != "" {
		name = o.Name
	}
	var out []json.RawMessage
	if jsontext.Kind(raw) != jsontext.Array || json.Unmarshal(raw, &out) != nil {
		msg := "inputExamples must be an array of argument objects, got " + jsontext.Described(jsontext.Kind(raw))
		return nil, &core.Error{Code: core.CodeInvalidTool, Tool: name, Message: msg,
			Issues: []core.Issue{{Path: "/inputExamples", Keyword: "type", Message: msg}}}
	}
	return out, nil
}

func nullToNil(r json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(r)) == 0 || string(bytes.TrimSpace(r)) == "null" {
		return nil
	}
	return r
}

// info describes t for JS, storing it under a handle.
func (b *Bridge) info(t *core.Tool, sig *core.Signature) *toolInfo {
	in := &toolInfo{
		ID:                      b.addTool(t),
		UUID:                    t.ID,
		CreatedAt:               t.CreatedAt,
		Function:                t.Function(),
		ToolSchema:              t.Schema,
		MinimumAcceptableFields: nonNil(t.MinimumAcceptableFields()),
		StrictFuncCall:          t.StrictFuncCall,
		Signature:               sig,
		Metadata:                t.Metadata,
		MCP:                     t.MCP,
		InputExamples:           t.InputExamples,
	}
	if d, ok := t.Callable.(interface{ MCPTool() json.RawMessage }); ok {
		in.MCPTool = d.MCPTool()
	}
	if in.Metadata == nil {
		in.Metadata = map[string]any{}
	}
	req, err := t.RequiredFields()
	if err != nil {
		in.RequiredFieldsError = core.AsError(err)
	} else {
		in.RequiredFields = nonNil(req)
	}
	return in
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func opToolInfo(b *Bridge, handle int64, _ []byte) (any, error) {
	t, err := b.tool(handle)
	if err != nil {
		return nil, err
	}
	var sig *core.Signature
	if t.Callable != nil {
		if s, err := t.Callable.Signature(); err == nil {
			sig = &s
		}
	}
	return b.info(t, sig), nil
}

// opToolProgram answers core's Tool.Program for a typed JS tool (the
// program of npm/lib/evaluator.js, which gives the fast path's verdicts in
// JS), or null for any other tool or when core exports none. JS asks for it
// once, the first time it may answer a call of the tool itself (or builds
// a plan), rather than with every tool.create: most tools of a cold
// workload are called once, and Go answers that call.
func opToolProgram(b *Bridge, handle int64, _ []byte) (any, error) {
	t, err := b.tool(handle)
	if err != nil {
		return nil, err
	}
	if typedJSTool(t) {
		if p := t.Program(); p != nil {
			return p, nil
		}
	}
	return json.RawMessage("null"), nil
}

// typedJSTool reports whether t is a typed JS tool: a JS callable whose
// one parameter collects the keyword arguments.
func typedJSTool(t *core.Tool) bool {
	c, isJS := t.Callable.(*jsCallable)
	return isJS && len(c.sig.Params) == 1 && c.sig.Params[0].Kind == core.ParamKeywords
}

func opToolToDict(b *Bridge, handle int64, payload []byte) (any, error) {
	t, err := b.tool(handle)
	if err != nil {
		return nil, err
	}
	var p struct {
		Mode string `json:"mode"`
	}
	if err := decodeStrict(payload, &p, "toDict options"); err != nil {
		return nil, err
	}
	if p.Mode == "" {
		p.Mode = "python"
	}
	return t.ToDict(p.Mode)
}

func opToolRelease(b *Bridge, handle int64, _ []byte) (any, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t, ok := b.tools[handle]; ok {
		delete(b.toolIDs, t)
		delete(b.tools, handle)
	}
	return true, nil
}

// opToolInvoke runs a Go-side callable (an MCP proxy, a Go func) with
// arguments as JSON; JS runs processors and JS handlers itself. The response
// crosses as JSON.
func opToolInvoke(ctx context.Context, b *Bridge, handle int64, payload []byte) (any, error) {
	return b.InvokeGo(ctx, handle, payload)
}

// InvokeGo runs the Go-side callable of the tool under handle with
// arguments as JSON and returns its response as JSON (tool.invoke, and
// mcpops' mcp.invoke with a progress listener in ctx). It refuses an
// unknown handle, a JS tool (JS invokes those itself), arguments that are
// not a JSON object, and a response JSON cannot carry; the callable's own
// error is returned as it is.
func (b *Bridge) InvokeGo(ctx context.Context, handle int64, payload []byte) (json.RawMessage, error) {
	t, err := b.tool(handle)
	if err != nil {
		return nil, err
	}
	if _, isJS := t.Callable.(*jsCallable); isJS {
		return nil, core.Errorf(core.CodeInternal, t.Function(), "JS tools are invoked from JavaScript")
	}
	args, err := core.DecodeArguments(t.Function(), payload)
	if err != nil {
		return nil, err
	}
	res, err := t.Callable.Call(ctx, args)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(res)
	if err != nil {
		return nil, core.Errorf(core.CodeInternal, t.Function(), "response is not JSON-serialisable: %v", err)
	}
	return json.RawMessage(data), nil
}

// parametersSize refuses a tool.create payload whose options.parameters is
// over core.MaxSchemaBytes (invalid-schema, keyword maxBytes, naming the
// tool), on its length, before the payload is decoded: finding the member
// is a scan, and a payload that short cannot hold one too long.
func parametersSize(payload []byte) error {
	if len(payload) <= core.MaxSchemaBytes {
		return nil
	}
	opts, ok := jsontext.Lookup(payload, "options")
	if !ok {
		return nil
	}
	params, ok := jsontext.Lookup(opts, "parameters")
	if !ok {
		return nil
	}
	var name string
	if raw, ok := jsontext.Lookup(payload, "name"); ok {
		_ = json.Unmarshal(raw, &name)
	}
	return core.CheckSchemaBytes(name, params)
}
