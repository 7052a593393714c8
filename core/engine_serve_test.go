//go:build !toolgate_remote_validator

package core

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serve calls ServeValidator and splits its answer: the result, or the
// Error it reported.
func serve(t *testing.T, op int, payload []byte) ([]byte, *Error) {
	t.Helper()
	out := ServeValidator(op, payload)
	require.NotEmpty(t, out, "got no answer, want a status byte")
	switch out[0] {
	case validatorOK:
		return out[1:], nil
	case validatorFailed:
		var e Error
		require.NoError(t, json.Unmarshal(out[1:], &e), "got %q, want an Error's JSON", out)
		require.True(t, e.Code.Valid(), "got code %q, want one of the closed set", e.Code)
		return nil, &e
	}
	t.Fatalf("got status %q, want '0' or '1'", out[0])
	return nil, nil
}

// TestServeValidatorToolNames asserts that a tool name holding any byte,
// NUL and the field length's own bytes included, reaches the validator
// module whole: the schema compiles, and verdicts name the tool.
func TestServeValidatorToolNames(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"x":{"not":{"type":"string"}}}}`)
	for _, tool := range []string{"plain", "a\x00b", "\x00", "a\x00\x00\x00\x00{}", "\x05\x00\x00\x00trick"} {
		t.Run(strconv.Quote(tool), func(t *testing.T) {
			handle, err := serve(t, validatorOpCompile, validatorPayload([]byte(tool), schema))
			require.Nil(t, err, "got %v compiling, want a handle", err)
			_, err = serve(t, validatorOpValidate, validatorPayload(handle, []byte(tool), []byte(`{"x":1}`)))
			assert.Nil(t, err, "got %v, want {x:1} valid", err)
			_, err = serve(t, validatorOpValidate, validatorPayload(handle, []byte(tool), []byte(`{"x":"s"}`)))
			require.NotNil(t, err, "got {x:\"s\"} valid, want the not failure")
			assert.Equal(t, CodeInvalidArguments, err.Code)
			assert.Equal(t, tool, err.Tool, "got the tool %q, want %q", err.Tool, tool)
			require.Len(t, err.Issues, 1)
			assert.Equal(t, "not", err.Issues[0].Keyword)
			_, err = serve(t, validatorOpRelease, validatorPayload(handle))
			assert.Nil(t, err)
		})
	}
}

// TestServeValidatorRefusesMalformed asserts the typed refusals of
// payloads that break the protocol: data after the value, a length past
// the end, the wrong number of fields, a handle the module does not hold.
func TestServeValidatorRefusesMalformed(t *testing.T) {
	handle, err := serve(t, validatorOpCompile, validatorPayload([]byte("t"), []byte(`{"type":"object","properties":{"x":{"not":{"type":"string"}}}}`)))
	require.Nil(t, err)
	defer ServeValidator(validatorOpRelease, validatorPayload(handle))
	long := binary.LittleEndian.AppendUint32(nil, 99)
	cases := []struct {
		name    string
		op      int
		payload []byte
		keyword string
	}{
		{"a second value after the value", validatorOpValidate, validatorPayload(handle, []byte("t"), []byte(`{"x":1} {"x":"s"}`)), "trailingData"},
		{"bytes after the value", validatorOpValidate, validatorPayload(handle, []byte("t"), []byte(`{"x":1}]`)), "trailingData"},
		{"a number then more", validatorOpValidate, validatorPayload(handle, []byte("t"), []byte(`1 2`)), "trailingData"},
		{"no value", validatorOpValidate, validatorPayload(handle, []byte("t"), nil), "value"},
		{"a length past the end", validatorOpValidate, append(long, "short"...), "protocol"},
		{"a partial length", validatorOpCompile, []byte{1, 0}, "protocol"},
		{"a field too few", validatorOpValidate, validatorPayload(handle, []byte(`{"x":1}`)), "protocol"},
		{"a field too many", validatorOpCompile, validatorPayload([]byte("t"), []byte(`{}`), []byte(`{}`)), "protocol"},
		{"the old NUL-separated compile", validatorOpCompile, []byte("t\x00{}"), "protocol"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := serve(t, tc.op, tc.payload)
			require.NotNil(t, err, "got it accepted, want %s refused", tc.name)
			assert.Equal(t, CodeInternal, err.Code)
			require.Len(t, err.Issues, 1)
			assert.Equal(t, tc.keyword, err.Issues[0].Keyword)
		})
	}
	_, err = serve(t, validatorOpValidate, validatorPayload([]byte("12345"), []byte("t"), []byte(`{}`)))
	require.NotNil(t, err, "got a handle never given accepted, want it refused")
	assert.Equal(t, CodeInternal, err.Code)
	require.Len(t, err.Issues, 1)
	assert.Equal(t, "unknownSchema", err.Issues[0].Keyword, "the keyword the core module recompiles on")
}

// TestServeValidatorRelease asserts that released schemas are forgotten,
// several in one call, and that the count says so.
func TestServeValidatorRelease(t *testing.T) {
	count := func() int {
		out, err := serve(t, validatorOpStats, nil)
		require.Nil(t, err)
		n, perr := strconv.Atoi(string(out))
		require.NoError(t, perr)
		return n
	}
	before := count()
	var handles [][]byte
	for i := range 3 {
		h, err := serve(t, validatorOpCompile, validatorPayload([]byte("t"), []byte(`{"not":{"const":`+strconv.Itoa(i)+`}}`)))
		require.Nil(t, err)
		handles = append(handles, h)
	}
	assert.Equal(t, before+3, count())
	_, err := serve(t, validatorOpRelease, validatorPayload(handles...))
	require.Nil(t, err)
	assert.Equal(t, before, count(), "got the released schemas still held")
	_, err = serve(t, validatorOpValidate, validatorPayload(handles[0], []byte("t"), []byte(`1`)))
	require.NotNil(t, err, "got a released handle still validating")
}
