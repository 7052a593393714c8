//go:build js && wasm

//lint:file-ignore U1000 the //go:wasmexport functions are called by JS, which staticcheck cannot see.

// Command validator is toolgate-validator.wasm: the full JSON Schema
// validator (santhosh-tekuri/jsonschema/v5, through core) for the core and
// full builds, which are built without it (the toolgate_remote_validator
// tag) and reach it through the JS loader only for schemas their fast path
// does not cover. JS writes a payload into the buffer (validator_buffer),
// calls validator_call and reads the answer at the address it returns: 4
// bytes of little-endian length, then core.ServeValidator's answer.
package main

import (
	"syscall/js"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wasmbuf"
)

var bufs wasmbuf.Buffers

//go:wasmexport validator_buffer
func exportBuffer(n int32) uintptr { return bufs.In(n) }

//go:wasmexport validator_call
func exportCall(op int32, n int32) uintptr {
	payload, ok := bufs.Input(n)
	if !ok {
		return bufs.Out([]byte(`1{"code":"internal","message":"payload length out of range"}`))
	}
	return bufs.Out(core.ServeValidator(int(op), payload))
}

// keepAlive is a callback the program holds, so that waiting in select{}
// is waiting for JS, never a deadlock.
var keepAlive js.Func

func main() {
	keepAlive = js.FuncOf(func(js.Value, []js.Value) any { return nil })
	select {}
}
