package jsbridge

import (
	"context"
	"encoding/json"

	"github.com/toolgate/toolgate/core"
)

// Host calls: Go calling a JS function the npm package registered (a hook
// given as an option: an MCP client capability, an approval, a progress or
// list-change listener). JS functions never enter Go (docs/architecture.md,
// "The bridge"): the package keeps them in a table and hands Go a number.

// HostCall runs the JS function registered under id with payload, a JSON
// value the function receives parsed, and returns the function's result as
// JSON (a function that returns nothing gives null). ctx ending aborts the
// AbortSignal the function was handed and returns ctx.Err() at once,
// without waiting for the function.
//
// It refuses with an internal *core.Error: an id no function is registered
// under, a function that throws or rejects (the message names the error's
// class only, never its text, which may hold anything), and a result JSON
// cannot carry. Under js/wasm Serve sets it; natively it is nil, and tests
// set a fake.
var HostCall func(ctx context.Context, id int64, payload []byte) (json.RawMessage, error)

// HostNotify runs the JS function registered under id with payload and does
// not wait for it: its result and its errors are dropped. It is for
// listeners (progress, list changes), which answer nothing. Natively it
// does nothing until a test replaces it.
var HostNotify = func(id int64, payload []byte) {}

// CallHost is HostCall, refusing with unsupported when no host is
// installed (a native program with no JS behind it), so that a caller
// never dereferences a nil HostCall.
func CallHost(ctx context.Context, id int64, payload []byte) (json.RawMessage, error) {
	if HostCall == nil {
		return nil, core.Errorf(core.CodeUnsupported, "", "this program has no JS host to call hook %d", id)
	}
	return HostCall(ctx, id, payload)
}
