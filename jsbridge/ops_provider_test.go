package jsbridge

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestToProviderExportsAToolListAndABranch(t *testing.T) {
	b := New("v")
	add := createTool(t, b, addSpec)
	book := createTool(t, b, `{"kind":"typed","name":"book.room","options":{"parameters":{"type":"object","properties":{"room":{"type":"string"},"nights":{"type":"integer"}},"required":["room"]}}}`)
	list := `{"target":"anthropic","tools":[{"$tool":` + strconv.FormatInt(add.ID, 10) + `}]}`
	var res toProviderResult
	require.NoError(t, json.Unmarshal([]byte(mustOK(t, b, "toProvider", 0, list)), &res))
	assert.JSONEq(t, `[{"name":"add","description":"Add.","input_schema":{"type":"object","properties":{"a":{"type":"string","description":"first"},"b":{"type":"string"}},"required":["a","b"]}}]`, string(res.Tools))
	assert.Equal(t, map[string]string{"add": "add"}, res.Report.Names)
	assert.Empty(t, res.StepAside, "a tool list remembers nothing")

	h := mustOK(t, b, "branch.create", 0, `{"items":[{"$tool":`+strconv.FormatInt(add.ID, 10)+`},{"$tool":`+strconv.FormatInt(book.ID, 10)+`}]}`)
	handle, err := strconv.ParseInt(h, 10, 64)
	require.NoError(t, err)
	res = toProviderResult{}
	require.NoError(t, json.Unmarshal([]byte(mustOK(t, b, "toProvider", handle, `{"target":"openai-responses","strict":true}`)), &res))
	assert.True(t, res.Report.Strict)
	assert.Equal(t, []string{"book.room"}, res.StepAside, "the renamed tool with a strict restore is Go's to answer; add, already strict, keeps the fast paths")
	var exported string
	for e, r := range res.Report.Names {
		if r == "book.room" {
			exported = e
		}
	}
	m := mustOK(t, b, "branch.validate", handle, `{"type":"function_call","call_id":"c1","name":"`+exported+`","arguments":"{\"room\":\"1\",\"nights\":null}"}`)
	assert.Contains(t, m, `"function":"book.room"`)
	assert.Contains(t, m, `"arguments":{"room":"1"}`)
	assert.Contains(t, m, `"id":"c1"`)
}

func TestToProviderRefusesBadPayloads(t *testing.T) {
	b := New("v")
	mustErr(t, b, "toProvider", 0, `{"target":"cohere"}`, core.CodeInvalidRequest)
	mustErr(t, b, "toProvider", 0, `{"target":"mcp","bogus":1}`, core.CodeUnsupportedType)
	mustErr(t, b, "toProvider", 0, `{"target":"mcp","tools":["add"]}`, core.CodeUnsupportedType)
	mustErr(t, b, "toProvider", 0, `{"target":"mcp","tools":[{"$tool":99}]}`, core.CodeUnsupportedType)
	mustErr(t, b, "toProvider", 77, `{"target":"mcp"}`, core.CodeUnsupportedType)
}
