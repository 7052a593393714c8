//go:build js && wasm

// Package wasmbuf is the byte protocol of a synchronous //go:wasmexport
// call, shared by toolgate's wasm programs: JS asks for an input buffer of
// n bytes (In), writes its payload there and calls the program's export,
// which reads the payload (Input) and returns the address of its answer
// (Out): 4 bytes of little-endian length, then the answer. Both buffers are
// reused from call to call; they grow, never shrink. Not for concurrent
// use: a wasm program runs one export at a time.
package wasmbuf

import (
	"encoding/binary"
	"unsafe"
)

// Buffers are one program's input and output buffers.
type Buffers struct {
	in, out []byte
}

// In returns the address of the input buffer, grown to at least n bytes
// (at least one).
func (b *Buffers) In(n int32) uintptr {
	if n < 1 {
		n = 1
	}
	if cap(b.in) < int(n) {
		b.in = make([]byte, n)
	}
	b.in = b.in[:cap(b.in)]
	return uintptr(unsafe.Pointer(&b.in[0]))
}

// Input returns the n bytes JS wrote; false when n is negative or beyond
// the buffer In gave.
func (b *Buffers) Input(n int32) ([]byte, bool) {
	if n < 0 || int(n) > len(b.in) {
		return nil, false
	}
	return b.in[:n], true
}

// Out copies res after its length into the output buffer and returns the
// buffer's address, valid until the next call.
func (b *Buffers) Out(res []byte) uintptr {
	need := 4 + len(res)
	if cap(b.out) < need {
		b.out = make([]byte, need, need+need/2)
	}
	b.out = b.out[:need]
	binary.LittleEndian.PutUint32(b.out, uint32(len(res)))
	copy(b.out[4:], res)
	return uintptr(unsafe.Pointer(&b.out[0]))
}
