package core

// RemoteValidator is how a module built with the toolgate_remote_validator
// tag reaches the validator module (cmd/wasm/validator, which serves
// ServeValidator): op and payload as ServeValidator takes them, the result
// as it returns them, or a status byte '2' and a message when the validator
// is not available. The JS bridge sets it at startup; builds without the tag
// never call it.
var RemoteValidator func(op int, payload []byte) []byte

// The operations of the validator module, and the status bytes of its
// results: '0' and the result, '1' and an Error's JSON, '2' and a message
// saying why the validator is not available.
const (
	validatorOpCompile  = 1 // tool NUL schema → handle (decimal)
	validatorOpValidate = 2 // handle NUL tool NUL value JSON → nothing
	validatorOpRelease  = 3 // handle → nothing

	validatorOK          = '0'
	validatorFailed      = '1'
	validatorUnreachable = '2'
)
