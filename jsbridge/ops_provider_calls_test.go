package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/core"
)

func TestOpProviderParseToolCalls(t *testing.T) {
	b := New("")
	got := mustOK(t, b, "provider.parseToolCalls", 0, `{"type":"message","content":[
		{"type":"text","text":"x"},
		{"type":"tool_use","id":"toolu_1","name":"big","input":{"n":12345678901234567890,"m":[1,-9007199254740993]}}]}`)
	assert.JSONEq(t, `[{"id":"toolu_1","function":"big","arguments":{"n":"12345678901234567890","m":[1,"-9007199254740993"]},"provider":"anthropic","bigints":["/n","/m/1"]}]`, got)
	got = mustOK(t, b, "provider.parseToolCalls", 0, `[{"functionCall":{"name":"now"}},{"type":"function_call","call_id":"c","name":"f","arguments":"{\"a\":"}]`)
	assert.JSONEq(t, `[{"id":null,"function":"now","arguments":{},"provider":"gemini"},{"id":"c","function":"f","arguments":"{\"a\":","provider":"openai-responses"}]`, got)
	mustErr(t, b, "provider.parseToolCalls", 0, `7`, core.CodeInvalidRequest)
}

func TestOpProviderToolResult(t *testing.T) {
	b := New("")
	got := mustOK(t, b, "provider.toolResult", 0, `{"target":"anthropic","list":false,"results":[{"callId":"t1","function":"f","status":"completed","output":12345678901234567890}]}`)
	assert.Equal(t, `{"type":"tool_result","tool_use_id":"t1","content":"12345678901234567890"}`, got)
	got = mustOK(t, b, "provider.toolResult", 0, `{"target":"gemini","list":true,"results":[{"function":"f","status":"completed","output":{"n":12345678901234567890}}]}`)
	assert.Equal(t, `{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":{"n":"12345678901234567890"}}}}]}`, got)
	e := mustErr(t, b, "provider.toolResult", 0, `{"target":"openai-chat","list":false,"results":[{"function":"f","status":"completed","output":1}]}`, core.CodeInvalidRequest)
	assert.Equal(t, "f", e.Tool)
	mustErr(t, b, "provider.toolResult", 0, `{"target":"openai-chat","list":false,"results":[]}`, core.CodeInvalidRequest)
	mustErr(t, b, "provider.toolResult", 0, `{"target":"mcp","results":[],"extra":1}`, core.CodeUnsupportedType)
}
