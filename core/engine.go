package core

import "encoding/binary"

// RemoteValidator is how a module built with the toolgate_remote_validator
// tag reaches the validator module (cmd/wasm/validator, which serves
// ServeValidator): op and payload as ServeValidator takes them, the result
// as it returns them, or a status byte '2' and a message when the validator
// is not available. The JS bridge sets it at startup; builds without the tag
// never call it.
var RemoteValidator func(op int, payload []byte) []byte

// The operations of the validator module, and the status bytes of its
// results: '0' and the result, '1' and an Error's JSON, '2' and a message
// saying why the validator is not available. A payload is a sequence of
// fields, each its length (4 bytes, little-endian) and its bytes
// (appendField), so a tool name may hold any byte.
const (
	validatorOpCompile  = 1 // fields tool, schema → handle (decimal)
	validatorOpValidate = 2 // fields handle, tool, value JSON → nothing
	validatorOpRelease  = 3 // fields handle… (any number) → nothing
	validatorOpStats    = 4 // no field → the number of schemas held (decimal)

	validatorOK          = '0'
	validatorFailed      = '1'
	validatorUnreachable = '2'
)

// appendField appends one field of a validator payload to dst: the length
// of b as 4 little-endian bytes, then b.
func appendField(dst, b []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// validatorPayload is the fields as one validator payload.
func validatorPayload(fields ...[]byte) []byte {
	n := 0
	for _, f := range fields {
		n += 4 + len(f)
	}
	out := make([]byte, 0, n)
	for _, f := range fields {
		out = appendField(out, f)
	}
	return out
}
