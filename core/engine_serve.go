//go:build !toolgate_remote_validator

package core

// The validator module's side of RemoteValidator (engine_remote.go): the
// schemas it compiled for the core and full modules, by handle.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// served are the schemas ServeValidator compiled, by handle. A handle's
// upper 32 bits are this instance's epoch, so a handle kept across a
// restart of the validator module names no schema of the new instance
// (which answers that it has none) rather than another one.
var (
	servedMu   sync.Mutex
	served     = map[uint64]*CompiledSchema{}
	nextServed = uint64(uint32(time.Now().UnixNano())|1) << 32
)

// ServeValidator is the validator module's side of RemoteValidator: it
// compiles a parameters schema with the validator (CompileSchema, the
// compile never deferred), validates a value against a schema it compiled,
// forgets schemas, or counts the schemas it holds, and answers with a
// status byte ('0' or '1') and the result or an Error's JSON, so that a
// module without the validator gives the same errors, byte for byte. It
// refuses, with internal, a payload whose fields do not add up (see
// appendField) or hold the wrong number of fields, a handle it does not
// hold, and a value that is not exactly one JSON value (trailing data).
func ServeValidator(op int, payload []byte) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			out = servedError(Errorf(CodeInternal, "", "the validator module failed: %s", clipText(fmt.Sprint(r), MaxIssueMessageBytes)))
		}
	}()
	fields, ok := readFields(payload)
	want := map[int]int{validatorOpCompile: 2, validatorOpValidate: 3, validatorOpStats: 0}
	if n, fixed := want[op]; !ok || fixed && len(fields) != n {
		return servedError(protocolError("", "protocol", fmt.Sprintf("the validator module was sent a malformed payload for operation %d", op)))
	}
	switch op {
	case validatorOpCompile:
		return serveCompile(string(fields[0]), fields[1])
	case validatorOpValidate:
		return serveValidate(fields[0], string(fields[1]), fields[2])
	case validatorOpRelease:
		servedMu.Lock()
		for _, f := range fields {
			if h, err := strconv.ParseUint(string(f), 10, 64); err == nil {
				delete(served, h)
			}
		}
		servedMu.Unlock()
		return []byte{validatorOK}
	case validatorOpStats:
		servedMu.Lock()
		defer servedMu.Unlock()
		return strconv.AppendInt([]byte{validatorOK}, int64(len(served)), 10)
	}
	return servedError(Errorf(CodeInternal, "", "the validator module has no operation %d", op))
}

// serveCompile compiles a schema for ServeValidator and keeps it.
func serveCompile(tool string, schema []byte) []byte {
	cs, err := CompileSchema(tool, schema)
	if err != nil {
		return servedError(AsError(err))
	}
	if _, err := cs.validator(tool); err != nil {
		return servedError(err)
	}
	servedMu.Lock()
	nextServed++
	h := nextServed
	served[h] = cs
	servedMu.Unlock()
	return strconv.AppendUint([]byte{validatorOK}, h, 10)
}

// serveValidate validates one JSON value for ServeValidator.
func serveValidate(handle []byte, tool string, value []byte) []byte {
	cs := servedSchema(handle)
	if cs == nil {
		return servedError(protocolError(tool, "unknownSchema", fmt.Sprintf("the validator module has no schema %.40q (it may have been restarted since it compiled it)", handle)))
	}
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return servedError(protocolError(tool, "value", "the validator module was sent a value that is not JSON"))
	}
	if _, err := dec.Token(); err != io.EOF {
		return servedError(protocolError(tool, "trailingData", "the validator module was sent a value with data after its end: exactly one JSON value is validated"))
	}
	if err := cs.validateSafely(tool, v); err != nil {
		return servedError(err)
	}
	return []byte{validatorOK}
}

// protocolError is the internal error of a validator payload that breaks
// the protocol, its rule as the issue's keyword.
func protocolError(tool, keyword, msg string) *Error {
	return &Error{Code: CodeInternal, Tool: tool, Message: msg, Issues: []Issue{{Keyword: keyword, Message: msg}}}
}

// servedSchema finds a schema ServeValidator compiled.
func servedSchema(handle []byte) *CompiledSchema {
	h, err := strconv.ParseUint(string(handle), 10, 64)
	if err != nil {
		return nil
	}
	servedMu.Lock()
	defer servedMu.Unlock()
	return served[h]
}

// servedError is an Error as ServeValidator answers it.
func servedError(e *Error) []byte {
	data, _ := json.Marshal(e)
	return append([]byte{validatorFailed}, data...)
}

// readFields splits a validator payload into its fields; false when a
// length runs past the end (so no byte is left over or read twice).
func readFields(payload []byte) ([][]byte, bool) {
	var fields [][]byte
	for len(payload) > 0 {
		if len(payload) < 4 {
			return nil, false
		}
		n := binary.LittleEndian.Uint32(payload)
		payload = payload[4:]
		if uint64(n) > uint64(len(payload)) {
			return nil, false
		}
		fields = append(fields, payload[:n])
		payload = payload[n:]
	}
	return fields, true
}
