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
	"encoding/binary"
	"syscall/js"
	"unsafe"

	"github.com/toolgate/toolgate/core"
)

var inBuf, outBuf []byte

//go:wasmexport validator_buffer
func exportBuffer(n int32) uintptr {
	if n < 1 {
		n = 1
	}
	if cap(inBuf) < int(n) {
		inBuf = make([]byte, n)
	}
	inBuf = inBuf[:cap(inBuf)]
	return uintptr(unsafe.Pointer(&inBuf[0]))
}

//go:wasmexport validator_call
func exportCall(op int32, n int32) uintptr {
	var res []byte
	if n < 0 || int(n) > len(inBuf) {
		res = []byte(`1{"code":"internal","message":"payload length out of range"}`)
	} else {
		res = core.ServeValidator(int(op), inBuf[:n])
	}
	need := 4 + len(res)
	if cap(outBuf) < need {
		outBuf = make([]byte, need, need+need/2)
	}
	outBuf = outBuf[:need]
	binary.LittleEndian.PutUint32(outBuf, uint32(len(res)))
	copy(outBuf[4:], res)
	return uintptr(unsafe.Pointer(&outBuf[0]))
}

// keepAlive is a callback the program holds, so that waiting in select{}
// is waiting for JS, never a deadlock.
var keepAlive js.Func

func main() {
	keepAlive = js.FuncOf(func(js.Value, []js.Value) any { return nil })
	select {}
}
