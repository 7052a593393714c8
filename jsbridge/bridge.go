package jsbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// Op is one synchronous bridge operation: it reads a JSON payload and an
// integer handle (a tool or branch id, or 0) and returns a JSON-marshalable
// result, a json.RawMessage taken as is, or an error.
type Op func(b *Bridge, handle int64, payload []byte) (any, error)

// AsyncOp is an operation that may block (network, a Go callable): the js/wasm
// glue runs it on its own goroutine and settles a JS Promise with its result.
// ctx is cancelled when the JS caller's AbortSignal fires.
type AsyncOp func(ctx context.Context, b *Bridge, handle int64, payload []byte) (any, error)

// Bridge is the state one WebAssembly instance keeps for JavaScript: tools and
// branches by integer handle, and the table of named operations. JS values
// never enter it: JS functions stay in a JS-side table and Go sees only their
// signatures. It is pure Go so that every operation is tested natively; the
// js/wasm files only move bytes in and out.
type Bridge struct {
	mu       sync.Mutex
	next     int64
	tools    map[int64]*core.Tool
	toolIDs  map[*core.Tool]int64
	branches map[int64]*core.Manager
	ops      map[string]Op
	names    []string
	table    []Op // the ops by index, in names' order
	async    map[string]AsyncOp
	// MCPFactory builds a one-entry MCP config into a tool (full build); nil
	// makes branches refuse such configs with "unsupported".
	MCPFactory func(name string, config json.RawMessage) (*core.Tool, error)
	// Version is handed to the JS loader as boot.version (see Serve), which
	// checks it against the JS package's.
	Version string
}

// New returns a Bridge with the core operations (tool.*, branch.*) and the
// test diagnostics (debug.*) registered.
func New(version string) *Bridge {
	b := &Bridge{
		tools:    map[int64]*core.Tool{},
		toolIDs:  map[*core.Tool]int64{},
		branches: map[int64]*core.Manager{},
		ops:      map[string]Op{},
		async:    map[string]AsyncOp{},
		Version:  version,
	}
	registerCoreOps(b)
	b.RegisterAsync("tool.invoke", opToolInvoke)
	registerDebugOps(b)
	return b
}

// Register adds a named operation. Registering a name twice panics: it is a
// programming error caught by the first test run. (Not inlined: each of the
// registrations at start-up would copy its body, code the wasm engine
// compiles before the first call.)
//
//go:noinline
func (b *Bridge) Register(name string, op Op) {
	if _, dup := b.ops[name]; dup {
		panic("jsbridge: op registered twice: " + name)
	}
	b.ops[name] = op
	b.names = append(b.names, name)
	b.table = append(b.table, op)
}

// RegisterAsync adds a named asynchronous operation, reachable from JS as
// boot.async(name, handle, payload) → Promise<string> (status byte + JSON).
//
//go:noinline
func (b *Bridge) RegisterAsync(name string, op AsyncOp) {
	if _, dup := b.async[name]; dup {
		panic("jsbridge: async op registered twice: " + name)
	}
	b.async[name] = op
}

// callAsync runs the named asynchronous operation to completion on the
// calling goroutine and encodes its outcome like call. It never panics.
func (b *Bridge) callAsync(ctx context.Context, name string, handle int64, payload []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = encodeErrorInternal(fmt.Sprintf("recovered panic in %s: %v", name, r))
		}
	}()
	op, ok := b.async[name]
	if !ok {
		return encodeErrorInternal("unknown async operation " + name)
	}
	res, err := op(ctx, b, handle, payload)
	if err != nil {
		return encodeErrorAny(err)
	}
	return encodeResult(res)
}

// Branch returns the branch (registry) stored under handle, for the
// operations of other packages (jsbridge/mcpops).
func (b *Bridge) Branch(handle int64) (*core.Manager, error) { return b.branch(handle) }

// Ops lists the registered operations: the synchronous ones in
// registration order (the integer an op is called by is its index here;
// the "ops" op hands JS this list), then the asynchronous ones, sorted.
// cmd/gen-contract writes both lists into the npm package.
func (b *Bridge) Ops() (sync, async []string) {
	for name := range b.async {
		async = append(async, name)
	}
	slices.Sort(async)
	return append([]string(nil), b.names...), async
}

// call runs the operation at index op of the ops table (the "ops" op lists it). The result is one status
// byte ('0' success, '1' error) followed by JSON: the result, or the
// core.Error. It never panics: a panic in an op becomes an internal error and
// the bridge keeps working.
func (b *Bridge) call(op int, handle int64, payload []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = encodeError(&core.Error{Code: core.CodeInternal,
				Message: fmt.Sprintf("recovered panic in %s: %v", b.opName(op), r)})
			_ = debug.Stack // the stack is not sent to JS: it may hold argument values
		}
	}()
	if op < 0 || op >= len(b.names) {
		return encodeError(core.Errorf(core.CodeInternal, "", "unknown bridge operation %d", op))
	}
	res, err := b.table[op](b, handle, payload)
	if err != nil {
		return encodeError(core.AsError(err))
	}
	return encodeResult(res)
}

// callName is call by operation name, for tests.
func (b *Bridge) callName(name string, handle int64, payload []byte) []byte {
	for i, n := range b.names {
		if n == name {
			return b.call(i, handle, payload)
		}
	}
	return encodeError(core.Errorf(core.CodeInternal, "", "unknown bridge operation %q", name))
}

func (b *Bridge) opName(op int) string {
	if op >= 0 && op < len(b.names) {
		return b.names[op]
	}
	return fmt.Sprint(op)
}

// encoded is a result already written with its status byte ('0' and JSON).
type encoded []byte

func encodeResult(v any) []byte {
	switch r := v.(type) {
	case encoded:
		return r
	case json.RawMessage:
		return append([]byte{'0'}, r...)
	case []byte:
		return append([]byte{'0'}, r...)
	case int64: // a handle: written as json.Marshal would, without its encoder
		return strconv.AppendInt([]byte{'0'}, r, 10)
	case bool:
		return strconv.AppendBool([]byte{'0'}, r)
	case *toolInfo:
		data, err := r.appendJSON([]byte{'0'})
		if err != nil {
			return encodeError(&core.Error{Code: core.CodeInternal, Message: "result not serialisable: " + err.Error()})
		}
		return data
	}
	data, err := json.Marshal(v)
	if err != nil {
		return encodeError(&core.Error{Code: core.CodeInternal, Message: "result not serialisable: " + err.Error()})
	}
	return append([]byte{'0'}, data...)
}

func encodeError(e *core.Error) []byte {
	return appendError(make([]byte, 0, 64+len(e.Message)*2), e)
}

// appendError writes e's JSON, with the status byte, as JSON.parse reads
// json.Marshal's (the same members in the same order, omitempty alike),
// its common members without reflection: it is on the path of every
// refused call. Strings are written without HTML escaping, which
// JSON.parse does not see. The rare Detail groups go through
// appendDetail.
func appendError(buf []byte, e *core.Error) []byte {
	buf = append(buf, `1{"code":`...)
	buf = jsontext.AppendString(buf, string(e.Code))
	buf = append(buf, `,"message":`...)
	buf = jsontext.AppendString(buf, e.Message)
	if e.Tool != "" {
		buf = append(buf, `,"tool":`...)
		buf = jsontext.AppendString(buf, e.Tool)
	}
	if len(e.Issues) > 0 {
		buf = append(buf, `,"issues":[`...)
		for i, is := range e.Issues {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"path":`...)
			buf = jsontext.AppendString(buf, is.Path)
			buf = append(buf, `,"keyword":`...)
			buf = jsontext.AppendString(buf, is.Keyword)
			buf = append(buf, `,"message":`...)
			buf = jsontext.AppendString(buf, is.Message)
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	}
	if e.Rule != "" {
		buf = append(buf, `,"rule":`...)
		buf = jsontext.AppendString(buf, e.Rule)
	}
	if e.CallID != "" {
		buf = append(buf, `,"callId":`...)
		buf = jsontext.AppendString(buf, e.CallID)
	}
	if len(e.Result) > 0 {
		buf = append(buf, `,"result":`...)
		buf = append(buf, e.Result...)
	}
	return append(appendDetail(buf, &e.Detail), '}')
}

// addTool stores t and returns its handle; a tool already stored keeps its handle.
func (b *Bridge) addTool(t *core.Tool) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if id, ok := b.toolIDs[t]; ok {
		return id
	}
	b.next++
	b.tools[b.next] = t
	b.toolIDs[t] = b.next
	return b.next
}

func (b *Bridge) tool(id int64) (*core.Tool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.tools[id]
	if !ok {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "no tool with handle %d (released, or from another instance)", id)
	}
	return t, nil
}

func (b *Bridge) addBranch(m *core.Manager) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	b.branches[b.next] = m
	return b.next
}

func (b *Bridge) branch(id int64) (*core.Manager, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	m, ok := b.branches[id]
	if !ok {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "no branch with handle %d (released, or from another instance)", id)
	}
	return m, nil
}

// counts reports how many tools and branches the bridge holds (leak tests).
func (b *Bridge) counts() (tools, branches int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.tools), len(b.branches)
}

func encodeErrorInternal(msg string) []byte {
	return encodeError(&core.Error{Code: core.CodeInternal, Message: msg})
}

func encodeErrorAny(err error) []byte { return encodeError(core.AsError(err)) }

// rawJSON is p when it is valid JSON, else null.
func rawJSON(p []byte) json.RawMessage {
	if !json.Valid(p) {
		return json.RawMessage("null")
	}
	return json.RawMessage(p)
}

// appendDetail appends the members of e's Detail groups (transport,
// auth, …), each when set, as json.Marshal writes them: the groups are
// rare, so they go through reflection, and a new group or field needs no
// edit here. Nothing is appended when every group is nil.
func appendDetail(buf []byte, d *core.Detail) []byte {
	if *d == (core.Detail{}) {
		return buf
	}
	data, err := json.Marshal(d)
	if err != nil || len(data) <= 2 {
		return buf // not reached: the groups hold numbers and strings, and one is set
	}
	buf = append(buf, ',')
	return append(buf, data[1:len(data)-1]...)
}
