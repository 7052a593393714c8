package jsbridge

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// call runs op and splits the status byte: it returns the JSON and whether it
// was an error.
func call(t *testing.T, b *Bridge, op string, handle int64, payload string) (string, bool) {
	t.Helper()
	out := b.callName(op, handle, []byte(payload))
	require.NotEmpty(t, out)
	require.Contains(t, "01", string(out[0]), "status byte of %q", out)
	require.True(t, json.Valid(out[1:]), "result of %s is not JSON: %s", op, out[1:])
	return string(out[1:]), out[0] == '1'
}

func mustOK(t *testing.T, b *Bridge, op string, handle int64, payload string) string {
	t.Helper()
	res, isErr := call(t, b, op, handle, payload)
	require.False(t, isErr, "%s failed: %s", op, res)
	return res
}

func mustErr(t *testing.T, b *Bridge, op string, handle int64, payload string, code core.Code) core.Error {
	t.Helper()
	res, isErr := call(t, b, op, handle, payload)
	require.True(t, isErr, "%s succeeded, want %s: %s", op, code, res)
	var e core.Error
	require.NoError(t, json.Unmarshal([]byte(res), &e))
	assert.Equal(t, code, e.Code, "got %s (%s), want %s", e.Code, e.Message, code)
	return e
}

func createTool(t *testing.T, b *Bridge, spec string) toolInfo {
	t.Helper()
	var info toolInfo
	require.NoError(t, json.Unmarshal([]byte(mustOK(t, b, "tool.create", 0, spec)), &info))
	return info
}

const addSpec = `{"kind":"function","name":"add","source":"function add(a, b = 2) {\n  /** Add.\n   * Args:\n   *   a: first\n   */\n  return a + b;\n}","options":{}}`

func TestOpsTableStartsWithOps(t *testing.T) {
	b := New("1.2.3")
	names, _ := b.Ops()
	require.Equal(t, "ops", names[0], "JS reads the table through index 0")
	res := mustOK(t, b, "ops", 0, "")
	var got []string
	require.NoError(t, json.Unmarshal([]byte(res), &got))
	assert.Equal(t, names, got)
	assert.Panics(t, func() { b.Register("ops", opOps) }, "a duplicate op is a programming error")
}

func TestCallRefusesUnknownOpsAndRecoversPanics(t *testing.T) {
	b := New("v")
	out := b.call(9999, 0, nil)
	assert.Equal(t, byte('1'), out[0])
	assert.Contains(t, string(out), "unknown bridge operation")
	out = b.call(-1, 0, nil)
	assert.Equal(t, byte('1'), out[0])
	assert.Equal(t, byte('1'), b.callName("nope", 0, nil)[0])
	b.Register("test.panic", func(*Bridge, int64, []byte) (any, error) { panic("secret-value") })
	e := mustErr(t, b, "test.panic", 0, "", core.CodeInternal)
	assert.Contains(t, e.Message, "test.panic")
	// The bridge keeps working.
	mustOK(t, b, "ops", 0, "")
	b.RegisterAsync("test.apanic", func(context.Context, *Bridge, int64, []byte) (any, error) { panic("x") })
	out = b.callAsync(context.Background(), "test.apanic", 0, nil)
	assert.Equal(t, byte('1'), out[0])
	assert.Equal(t, byte('1'), b.callAsync(context.Background(), "nope", 0, nil)[0])
}

func TestToolCreateRawAndTyped(t *testing.T) {
	b := New("v")
	add := createTool(t, b, addSpec)
	assert.Equal(t, "add", add.Function)
	assert.Equal(t, []string{"a", "b"}, add.RequiredFields, "lionagi mode: every parameter required")
	assert.Equal(t, []string{"a"}, add.MinimumAcceptableFields)
	require.NotNil(t, add.Signature)
	assert.Len(t, add.Signature.Params, 2)
	assert.Contains(t, string(add.ToolSchema), `"description":"Add."`)

	typed := createTool(t, b, `{"kind":"typed","name":"pay","options":{"parameters":{"type":"object","properties":{"n":{"type":"integer"}}}}}`)
	assert.Nil(t, typed.RequiredFields)
	require.NotNil(t, typed.RequiredFieldsError, "no required: the strict check's KeyError")
	assert.Equal(t, core.CodeInvalidSchema, typed.RequiredFieldsError.Code)
	assert.Equal(t, []string{}, typed.MinimumAcceptableFields)

	noParams := createTool(t, b, `{"kind":"typed","name":"ping","options":{}}`)
	assert.Equal(t, "ping", noParams.Function)

	mustErr(t, b, "tool.create", 0, `{"kind":"typed","options":{}}`, core.CodeInvalidTool)
	mustErr(t, b, "tool.create", 0, `{"kind":"other","name":"x","options":{}}`, core.CodeInvalidTool)
	mustErr(t, b, "tool.create", 0, `{"kind":"function","name":"f","source":"class A {}","options":{}}`, core.CodeInvalidTool)
	mustErr(t, b, "tool.create", 0, `{"kind":"function","name":"f","source":"function f() {}","options":{"bogus":1}}`, core.CodeUnsupportedType)
	mustErr(t, b, "tool.create", 0, `{"kind":"typed","name":"bad","options":{"parameters":{"$ref":"file:///etc/passwd"}}}`, core.CodeInvalidSchema)
}

func TestToolInfoToDictRelease(t *testing.T) {
	b := New("v")
	add := createTool(t, b, addSpec)
	var again toolInfo
	require.NoError(t, json.Unmarshal([]byte(mustOK(t, b, "tool.info", add.ID, "")), &again))
	assert.Equal(t, add.UUID, again.UUID)
	rec := mustOK(t, b, "tool.toDict", add.ID, `{"mode":"db"}`)
	assert.Contains(t, rec, `"node_metadata"`)
	assert.True(t, strings.HasPrefix(mustOK(t, b, "tool.toDict", add.ID, `{}`), `{"id":`))
	mustErr(t, b, "tool.toDict", add.ID, `{"mode":1}`, core.CodeUnsupportedType)
	tools, _ := b.counts()
	mustOK(t, b, "tool.release", add.ID, "")
	after, _ := b.counts()
	assert.Equal(t, tools-1, after)
	mustErr(t, b, "tool.info", add.ID, "", core.CodeUnsupportedType)
	mustErr(t, b, "tool.toDict", add.ID, `{}`, core.CodeUnsupportedType)
}

// TestToolProgram: the evaluator's program is asked for with tool.program,
// not sent with every tool.create; only a typed JS tool has one.
func TestToolProgram(t *testing.T) {
	b := New("v")
	created := mustOK(t, b, "tool.create", 0, typicalSpec)
	assert.NotContains(t, created, `"program"`, "tool.create answers no program")
	var info toolInfo
	require.NoError(t, json.Unmarshal([]byte(created), &info))
	var prog struct {
		V    int    `json:"v"`
		Tool string `json:"tool"`
	}
	require.NoError(t, json.Unmarshal([]byte(mustOK(t, b, "tool.program", info.ID, "")), &prog))
	assert.Equal(t, core.ProgramVersion, prog.V)
	assert.Equal(t, "search", prog.Tool)
	assert.NotContains(t, mustOK(t, b, "tool.info", info.ID, ""), `"program"`)

	add := createTool(t, b, addSpec)
	assert.Equal(t, "null", mustOK(t, b, "tool.program", add.ID, ""), "a raw function has no program")
	pattern := createTool(t, b, `{"kind":"typed","name":"p","options":{"coerce":"none","parameters":{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}}}}}`)
	assert.Equal(t, "null", mustOK(t, b, "tool.program", pattern.ID, ""), "a pattern is not exported")
	mustOK(t, b, "tool.release", add.ID, "")
	mustErr(t, b, "tool.program", add.ID, "", core.CodeUnsupportedType)
}

func TestBranchLifecycle(t *testing.T) {
	b := New("v")
	add := createTool(t, b, addSpec)
	mul := createTool(t, b, `{"kind":"function","name":"mul","source":"(a, b) => a * b","options":{}}`)
	id := mustOK(t, b, "branch.create", 0, `{"items":[{"$tool":`+itoa(add.ID)+`},null]}`)
	h, err := strconv.ParseInt(id, 10, 64)
	require.NoError(t, err)

	mustOK(t, b, "branch.register", h, `{"items":[{"$tool":`+itoa(mul.ID)+`}],"update":false}`)
	mustErr(t, b, "branch.register", h, `{"items":[{"$tool":`+itoa(mul.ID)+`}]}`, core.CodeDuplicateTool)
	mustErr(t, b, "branch.register", h, `{"items":["mul"]}`, core.CodeDuplicateTool)
	mustErr(t, b, "branch.register", h, `{"items":[null]}`, core.CodeUnsupportedType)
	mustErr(t, b, "branch.register", h, `{"items":[7]}`, core.CodeUnsupportedType)
	mustErr(t, b, "branch.register", h, `{"items":[{"$type":"symbol"}]}`, core.CodeUnsupportedType)
	mustErr(t, b, "branch.register", h, `{"items":[{"$mcp":{"s":{"url":"https://x.example/mcp"}}}]}`, core.CodeUnsupported)
	mustErr(t, b, "branch.register", h, `{"items":[{"$tool":99999}]}`, core.CodeUnsupportedType)
	mustErr(t, b, "branch.register", 12345, `{"items":[]}`, core.CodeUnsupportedType)

	assert.Equal(t, "true", mustOK(t, b, "branch.has", h, `"add"`))
	assert.Equal(t, "true", mustOK(t, b, "branch.has", h, `{"$tool":`+itoa(mul.ID)+`}`))
	assert.Equal(t, "false", mustOK(t, b, "branch.has", h, `"nope"`))
	assert.Equal(t, "false", mustOK(t, b, "branch.has", h, `{"bogus":1}`))

	var pairs [][2]json.RawMessage
	version := versionedList(t, mustOK(t, b, "branch.tools", h, ""), &pairs)
	require.Len(t, pairs, 2)
	assert.Equal(t, `"add"`, string(pairs[0][0]))
	assert.Equal(t, itoa(add.ID), string(pairs[0][1]), "a stored tool keeps its handle")
	assert.Equal(t, version, mustOK(t, b, "branch.tools", h, version), "an unchanged registry answers its version only")

	var list []json.RawMessage
	assert.Equal(t, version, versionedList(t, mustOK(t, b, "branch.schemaList", h, ""), &list))
	assert.Len(t, list, 2)
	assert.Equal(t, version, mustOK(t, b, "branch.schemaList", h, version))

	assert.Equal(t, "[]", mustOK(t, b, "branch.getToolSchema", h, `{}`), "omitted selection is LionAGI's False")
	assert.Contains(t, mustOK(t, b, "branch.getToolSchema", h, `{"selection":"mul"}`), `"name":"mul"`)
	mustErr(t, b, "branch.getToolSchema", h, `{"selection":null}`, core.CodeUnsupportedType)
	sub := createTool(t, b, `{"kind":"function","name":"sub","source":"function sub(a, b) { return a - b }","options":{}}`)
	mustErr(t, b, "branch.getToolSchema", h, `{"selection":{"$callable":`+itoa(sub.ID)+`},"autoRegister":false}`, core.CodeToolNotFound)
	assert.Contains(t, mustOK(t, b, "branch.getToolSchema", h, `{"selection":[{"$callable":`+itoa(sub.ID)+`},"add"]}`), `"name":"sub"`)
	assert.Equal(t, "true", mustOK(t, b, "branch.has", h, `"sub"`), "a callable is auto-registered")
	assert.Contains(t, mustOK(t, b, "branch.getToolSchema", h, `{"selection":{"$schema":{"type":"function","function":{"name":"x"}}}}`), `"name":"x"`)

	clone := mustOK(t, b, "branch.clone", h, "")
	ch, _ := strconv.ParseInt(clone, 10, 64)
	assert.NotEqual(t, h, ch)
	assert.Equal(t, "true", mustOK(t, b, "branch.has", ch, `"add"`))
	mustOK(t, b, "branch.release", ch, "")
	mustErr(t, b, "branch.has", ch, `"add"`, core.CodeUnsupportedType)
}

func TestBranchMatchOutput(t *testing.T) {
	b := New("v")
	typed := createTool(t, b, `{"kind":"typed","name":"id","options":{"parameters":{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"},"x":{}},"required":["n"]}}}`)
	h, _ := strconv.ParseInt(mustOK(t, b, "branch.create", 0, `{"items":[{"$tool":`+itoa(typed.ID)+`}]}`), 10, 64)

	res := mustOK(t, b, "branch.match", h, `{"type":"tool_use","id":"toolu_1","name":"id","input":{"s":"a\"b","n":"9007199254740993","x":{"__proto__":[1,-9007199254740993,2.5,true,null]},"extra":1}}`)
	var m struct {
		Tool        int64           `json:"tool"`
		Function    string          `json:"function"`
		Arguments   json.RawMessage `json:"arguments"`
		Bigints     []string        `json:"bigints"`
		Conversions []core.Conversion
		ID          string `json:"id"`
	}
	require.NoError(t, json.Unmarshal([]byte(res), &m))
	assert.Equal(t, typed.ID, m.Tool)
	assert.Equal(t, "id", m.Function)
	assert.Equal(t, "toolu_1", m.ID)
	assert.Equal(t, `{"s":"a\"b","n":"9007199254740993","x":{"__proto__":[1,"-9007199254740993",2.5,true,null]}}`, string(m.Arguments),
		"argument order kept, unknown top-level key dropped, big integers as strings")
	assert.Equal(t, []string{"/n", "/x/__proto__/1"}, m.Bigints)
	require.Len(t, m.Conversions, 1)
	assert.Equal(t, "/n", m.Conversions[0].Path)

	mustErr(t, b, "branch.match", h, `{"function":"nope","arguments":{}}`, core.CodeToolNotFound)
	mustErr(t, b, "branch.match", h, `not json`, core.CodeInvalidRequest)
	e := mustErr(t, b, "branch.match", h, `{"function":"id","arguments":{"n":"x"}}`, core.CodeInvalidArguments)
	assert.NotEmpty(t, e.Issues)
	mustErr(t, b, "branch.match", 777, `{}`, core.CodeUnsupportedType)
}

func TestPointerEscapesAndStrings(t *testing.T) {
	var big []string
	args := &core.Arguments{Keys: []string{"a/b", "é~"}, Values: map[string]any{
		"a/b": json.Number("123456789012345678901234567890"),
		"é~":  []any{map[string]any{"k/": json.Number("-99999999999999999")}},
	}}
	out := appendJSArguments(nil, args, &big)
	assert.Equal(t, `{"a/b":"123456789012345678901234567890","é~":[{"k/":"-99999999999999999"}]}`, string(out))
	assert.Equal(t, []string{"/a~1b", "/é~0/0/k~1"}, big)
	assert.False(t, isBigInteger("9007199254740991"))
	assert.False(t, isBigInteger("1e400"))
	assert.True(t, isBigInteger("-9007199254740992"))
	assert.Equal(t, `"<\n"`, string(jsontext.AppendString(nil, "<\n")), "strings cross without HTML escaping")
	assert.Equal(t, `1`, string(appendJSValue(nil, 1, "", &big)), "other Go values are marshalled")
	assert.Equal(t, `null`, string(appendJSValue(nil, func() {}, "", &big)), "unmarshalable values are null")
}

func TestToolInvokeAsync(t *testing.T) {
	b := New("v")
	c, err := core.Func("add", func(a, b float64) float64 { return a + b }, "a", "b")
	require.NoError(t, err)
	tool, err := core.NewTool(c, nil)
	require.NoError(t, err)
	h := b.addTool(tool)
	out := b.callAsync(context.Background(), "tool.invoke", h, []byte(`{"a":1,"b":2.5}`))
	assert.Equal(t, "03.5", string(out))
	out = b.callAsync(context.Background(), "tool.invoke", h, []byte(`{"a":"x","b":1}`))
	assert.Equal(t, byte('1'), out[0])
	out = b.callAsync(context.Background(), "tool.invoke", h, []byte(`[`))
	assert.Equal(t, byte('1'), out[0])
	js := createTool(t, b, addSpec)
	out = b.callAsync(context.Background(), "tool.invoke", js.ID, []byte(`{"a":1}`))
	assert.Contains(t, string(out), "invoked from JavaScript")
	out = b.callAsync(context.Background(), "tool.invoke", 4242, []byte(`{}`))
	assert.Equal(t, byte('1'), out[0])
	got, err := b.tool(h)
	require.NoError(t, err)
	assert.Same(t, tool, got)
	_, err = b.Branch(h)
	assert.Error(t, err)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// versionedList reads a list op's [version, list] into list and returns the
// version's text.
func versionedList(t *testing.T, res string, list any) string {
	t.Helper()
	var pair [2]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(res), &pair), "got %s, want [version, list]", res)
	require.NoError(t, json.Unmarshal(pair[1], list))
	return string(pair[0])
}

// TestEncodeResultScalars holds the handles and booleans encodeResult
// writes itself to json.Marshal's spelling.
func TestEncodeResultScalars(t *testing.T) {
	for _, v := range []any{int64(0), int64(-5), int64(1) << 62, true, false} {
		want, _ := json.Marshal(v)
		if got := encodeResult(v); string(got) != "0"+string(want) {
			t.Errorf("encodeResult(%v) = %s, want 0%s", v, got, want)
		}
	}
}
