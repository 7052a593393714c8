package jsbridge

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/provider"
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

	h := mustOK(t, b, "branch.create", 0, `{"items":[{"$tool":`+strconv.FormatInt(add.ID, 10)+`},{"$tool":`+strconv.FormatInt(book.ID, 10)+`}]}`)
	handle, err := strconv.ParseInt(h, 10, 64)
	require.NoError(t, err)
	res = toProviderResult{}
	require.NoError(t, json.Unmarshal([]byte(mustOK(t, b, "toProvider", handle, `{"target":"openai-responses","strict":true}`)), &res))
	assert.True(t, res.Report.Strict)
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

// TestMatchAnswerSaysWhenJSMayPrecheck: a match answer carries "precheck":
// true (a refusal "plan": the tool's handle) exactly when JS may answer later
// calls of the name itself, and a
// branch's export takes it away from the names it gave an alias or a strict
// restore, and from them only.
func TestMatchAnswerSaysWhenJSMayPrecheck(t *testing.T) {
	b := New("v")
	spec := func(name, params string) string {
		return `{"kind":"typed","name":"` + name + `","options":{"parameters":` + params + `}}`
	}
	const opt = `{"type":"object","properties":{"a":{"type":"string"}}}`
	const all = `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`
	const num = `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`
	var refs []string
	for _, s := range []string{spec("book.room", opt), spec("get.time", all), spec("optional", opt), spec("all_required", all), spec("count", num)} {
		refs = append(refs, `{"$tool":`+strconv.FormatInt(createTool(t, b, s).ID, 10)+`}`)
	}
	handle, err := strconv.ParseInt(mustOK(t, b, "branch.create", 0, `{"items":[`+strings.Join(refs, ",")+`]}`), 10, 64)
	require.NoError(t, err)
	precheck := func(op, call string) bool {
		return strings.Contains(mustOK(t, b, op, handle, call), `"precheck":true`)
	}
	plain := func(name string) string { return `{"function":"` + name + `","arguments":{"a":"x"}}` }
	for _, op := range []string{"branch.match", "branch.validate"} {
		assert.True(t, precheck(op, plain("book.room")), "%s before any export", op)
		assert.True(t, precheck(op, `{"function":"book.room","arguments":"{\"a\":\"x\"}"}`), "%s: arguments as text", op)
		assert.False(t, precheck(op, `{"function":"book.room","arguments":{"a":"x"},"id":"c1"}`), "%s: a call with an id", op)
		assert.True(t, precheck(op, `{"function":"count","arguments":{"n":"5"}}`), "%s: a lax conversion (JS plans only tools with a program)", op)
		assert.True(t, precheck(op, `{"function":"count","arguments":{"n":5}}`), "%s: no conversion", op)
		refused := string(b.callName(op, handle, []byte(`{"function":"get.time","arguments":{"a":5}}`)))
		assert.True(t, strings.HasPrefix(refused, `1{"code":"invalid-arguments"`) && strings.HasSuffix(refused, `,"plan":2}`), "%s: a refusal JS may answer next time names the tool: %s", op, refused)
		refused = string(b.callName(op, handle, []byte(`{"function":"get.time","arguments":{"a":5},"id":"c1"}`)))
		assert.NotContains(t, refused, `"plan"`, "%s: a refused call with an id", op)
	}
	mustOK(t, b, "toProvider", handle, `{"target":"openai-chat","strict":true}`)
	rule, _ := provider.NameRuleOf(core.ProviderOpenAIChat)
	cases := []struct {
		call string
		want bool
	}{
		{plain("book.room"), false},               // an alias and a strict restore
		{plain(rule.Rewrite("book.room")), false}, // the alias itself
		{plain("get.time"), false},                // an alias only
		{plain(rule.Rewrite("get.time")), false},  // the alias itself
		{plain("optional"), false},                // a strict restore only
		{plain("all_required"), true},             // nothing remembered
		{`{"function":"count","arguments":{"n":5}}`, true},
	}
	for _, tc := range cases {
		for _, op := range []string{"branch.match", "branch.validate"} {
			assert.Equal(t, tc.want, precheck(op, tc.call), "%s %s after a strict export", op, tc.call)
		}
	}
}
