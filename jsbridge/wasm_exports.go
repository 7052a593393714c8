//go:build js && wasm

//lint:file-ignore U1000 the //go:wasmexport functions (and what only they use) are called by JS, which staticcheck cannot see.

package jsbridge

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall/js"
	"unsafe"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wasmbuf"
)

// The synchronous path: JS writes a payload into the input buffer (its
// address from toolgate_buffer), calls toolgate_call, and reads the result
// from the address it returns: 4 bytes of little-endian length, then the
// status byte and JSON (internal/wasmbuf). No js.FuncOf is involved, so a
// call costs about a microsecond, not 20.
var (
	active *Bridge
	bufs   wasmbuf.Buffers
)

//go:wasmexport toolgate_buffer
func exportBuffer(n int32) uintptr {
	defer func() { _ = recover() }()
	return bufs.In(n)
}

//go:wasmexport toolgate_call
func exportCall(op int32, handle int32, n int32) (p uintptr) {
	defer func() {
		if r := recover(); r != nil {
			p = bufs.Out([]byte(`1{"code":"internal","message":"recovered panic at the bridge"}`))
		}
	}()
	payload, ok := bufs.Input(n)
	if !ok {
		return bufs.Out([]byte(`1{"code":"internal","message":"payload length out of range"}`))
	}
	return bufs.Out(active.call(int(op), int64(handle), payload))
}

var (
	cancelMu   sync.Mutex
	cancels    = map[int]context.CancelFunc{}
	nextCancel int
	liveFuncs  atomic.Int64 // js.Funcs made by asyncEntry and not yet released
)

func init() {
	asyncStats = func() (int, int64) {
		cancelMu.Lock()
		defer cancelMu.Unlock()
		return len(cancels), liveFuncs.Load()
	}
}

// Serve installs b as the instance's bridge, hands the async entry points to
// JS through globalThis.__toolgate_boot (set by the loader just before
// go.run), and blocks forever. It never returns.
func Serve(b *Bridge) {
	active = b
	boot := js.Global().Get("__toolgate_boot")
	if boot.Type() != js.TypeObject {
		panic("toolgate: loaded without the toolgate JS loader")
	}
	boot.Set("async", js.FuncOf(asyncEntry))
	boot.Set("cancel", js.FuncOf(cancelEntry))
	boot.Set("version", b.Version)
	// The address of core's registry change counter (a little-endian uint64
	// in linear memory, which Go's collector never moves): JS reads it to
	// know when a name may resolve to another tool (npm/lib/branch.js).
	boot.Set("changes", int(uintptr(unsafe.Pointer(core.RegistryChanges()))))
	installValidator()
	installHost(boot)
	select {}
}

// The validator module's calls, which the JS loader provides in the
// module's import object (npm/lib/instance.js, import module "toolgate"):
// validatorCall hands it op and the n bytes at payload and returns the
// answer's length (JS keeps the answer), or -1 when the loader has no
// validator module; validatorAnswer then copies the answer into the n bytes
// at dst. Two steps, so JS never calls back into Go, and no js.Value is made:
// nothing waits on a finalizer to be released.
//
//go:wasmimport toolgate validator_call
func validatorCall(op int32, payload unsafe.Pointer, n int32) int32

//go:wasmimport toolgate validator_answer
func validatorAnswer(dst unsafe.Pointer, n int32)

// installValidator makes the loader's validator module core's
// RemoteValidator. A build with the validator linked never calls it.
func installValidator() {
	core.RemoteValidator = callValidator
}

// callValidator is core.RemoteValidator over the two imports.
func callValidator(op int, payload []byte) []byte {
	var p unsafe.Pointer
	if len(payload) > 0 {
		p = unsafe.Pointer(&payload[0])
	}
	n := validatorCall(int32(op), p, int32(len(payload)))
	runtime.KeepAlive(payload)
	if n < 0 {
		return []byte("2this schema needs the full JSON Schema validator, and the loader provided none")
	}
	out := make([]byte, n)
	if n > 0 {
		validatorAnswer(unsafe.Pointer(&out[0]), n)
	}
	return out
}

// asyncEntry(name, handle, payload, resolve) returns the call's cancel id
// and hands its answer ('0' result or '1' error, then JSON) to resolve, the
// loader's function: the loader makes the Promise, so no js.Func is made
// and no executor calls back into Go for each call. It checks its
// arguments, starts a goroutine and returns at once: nothing blocks inside a
// js.FuncOf. A malformed call (no resolve function, arguments of the wrong
// types) returns 0 and is answered internal when it has a resolve.
func asyncEntry(_ js.Value, args []js.Value) (ret any) {
	var resolve js.Value
	if len(args) == 4 && args[3].Type() == js.TypeFunction {
		resolve = args[3]
	}
	defer func() {
		if r := recover(); r != nil {
			settle(resolve, `1{"code":"internal","message":"recovered panic at the async bridge"}`)
			ret = 0
		}
	}()
	if resolve.IsUndefined() || args[0].Type() != js.TypeString || args[1].Type() != js.TypeNumber || args[2].Type() != js.TypeString {
		settle(resolve, `1{"code":"internal","message":"bad async call"}`)
		return 0
	}
	name, handle, payload := args[0].String(), int64(args[1].Int()), []byte(args[2].String())
	ctx, cancel := context.WithCancel(context.Background())
	cancelMu.Lock()
	nextCancel++
	id := nextCancel
	cancels[id] = cancel
	cancelMu.Unlock()
	go func() {
		out := active.callAsync(ctx, name, handle, payload)
		cancelMu.Lock()
		delete(cancels, id)
		cancelMu.Unlock()
		cancel()
		settle(resolve, string(out))
	}()
	return id
}

// settle hands an async call's answer to its resolve function (none when
// the call was malformed: the loader's promise then never settles, as a
// caller that broke the contract gets no answer to give).
func settle(resolve js.Value, out string) {
	defer func() { _ = recover() }() // a resolve function that throws ends nothing here
	if resolve.Type() == js.TypeFunction {
		resolve.Invoke(out)
	}
}

func cancelEntry(_ js.Value, args []js.Value) any {
	defer func() { _ = recover() }()
	if len(args) != 1 || args[0].Type() != js.TypeNumber {
		return nil
	}
	cancelMu.Lock()
	c := cancels[args[0].Int()]
	cancelMu.Unlock()
	if c != nil {
		c()
	}
	return nil
}
