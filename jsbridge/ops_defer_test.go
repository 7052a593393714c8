package jsbridge

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestDeferOpsRegisterSearchAndExport(t *testing.T) {
	b := New("v")
	add := createTool(t, b, addSpec)
	book := createTool(t, b, `{"kind":"typed","name":"book.room","options":{"description":"Books a hotel room.","parameters":{"type":"object","properties":{"room":{"type":"string"}},"required":["room"]}}}`)
	h := mustOK(t, b, "branch.create", 0, `{"items":[{"$tool":`+strconv.FormatInt(add.ID, 10)+`}]}`)
	handle, err := strconv.ParseInt(h, 10, 64)
	require.NoError(t, err)

	names := mustOK(t, b, "branch.register", handle, `{"items":[{"$tool":`+strconv.FormatInt(book.ID, 10)+`}],"update":false,"defer":true}`)
	assert.Equal(t, `["book.room"]`, names)
	assert.NotContains(t, mustOK(t, b, "toProvider", handle, `{"target":"anthropic"}`), `"name":"book_room_ec67f954"`)
	assert.Contains(t, mustOK(t, b, "toProvider", handle, `{"target":"anthropic"}`), `"kind":"tool-deferred"`)

	hits := mustOK(t, b, "branch.searchTools", handle, `{"query":"hotel room","limit":3}`)
	assert.JSONEq(t, `[{"name":"book.room","description":"Books a hotel room.","parameters":["room"]}]`, hits)
	mustOK(t, b, "branch.defer", handle, `{"reveal":["book.room"]}`)
	assert.Contains(t, mustOK(t, b, "toProvider", handle, `{"target":"anthropic"}`), `"name":"book_room_ec67f954"`)

	mustErr(t, b, "branch.searchTools", handle, `{"query":""}`, core.CodeInvalidArguments)
	mustErr(t, b, "branch.defer", handle, `{"names":["x"],"bogus":1}`, core.CodeUnsupportedType)
}
