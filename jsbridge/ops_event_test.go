package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/core"
)

// A JS event's record is written by core.CallRecord from the state JS sends:
// Go decides the layout, the metadata order and what of the error shows.
func TestEventToDict(t *testing.T) {
	b := New("v")
	got := mustOK(t, b, "event.toDict", 0, `{"mode":"db","id":"u","createdAt":1.5,"metadata":{"z":{"b":1,"a":2},"a":null,"lion_class":"x"},`+
		`"function":"f","arguments":{"q":{"$bigint":"9007199254740993"}},"status":"failed","duration":0.25,"response":null,`+
		`"error":{"name":"ToolgateError","message":"boom","code":"tool-error","issues":[],"result":{"isError":true}},"callId":"c1"}`)
	assert.Equal(t, `{"id":"u","created_at":1.5,"node_metadata":{"a":null,"z":{"b":1,"a":2},"lion_class":"`+core.FunctionCallingClass+`"},`+
		`"execution":{"status":"failed","duration":0.25,"response":null,"error":{"error":"ToolgateError","message":"boom","code":"tool-error","result":{"isError":true}},"retryable":null},`+
		`"function":"f","arguments":{"q":{"$bigint":"9007199254740993"}},"call_id":"c1"}`, got,
		"metadata sorted with lion_class last, a value's own order kept, no empty issues, a tool-error's result")

	pending := mustOK(t, b, "event.toDict", 0, `{"id":"u","createdAt":2,"function":"f","status":"pending","duration":null}`)
	assert.Equal(t, `{"id":"u","created_at":2,"metadata":{"lion_class":"`+core.FunctionCallingClass+`"},`+
		`"execution":{"status":"pending","duration":null,"response":null,"error":null,"retryable":null},"function":"f","arguments":{}}`, pending)

	named := mustOK(t, b, "event.toDict", 0, `{"function":"f","status":"failed","error":{"name":"RangeError","message":"bad","code":"","result":1}}`)
	assert.Contains(t, named, `"error":{"error":"RangeError","message":"bad"}`, "only a toolgate error shows a code or a result")
	invalid := mustOK(t, b, "event.toDict", 0, `{"function":"f","status":"failed","error":{"name":"ToolgateError","message":"m","code":"invalid-arguments","issues":[{"path":"/a"}],"result":1}}`)
	assert.Contains(t, invalid, `"code":"invalid-arguments","issues":[{"path":"/a"}]}`, "issues shown, a result only for tool-error")

	e := mustErr(t, b, "event.toDict", 0, `{"function":"f","metadata":[1]}`, core.CodeUnsupportedType)
	assert.Contains(t, e.Message, "metadata of the call of f must be an object, got array")
	e = mustErr(t, b, "event.toDict", 0, `{"function":"f","status":"finished"}`, core.CodeInvalidRequest)
	assert.Contains(t, e.Message, `status "finished"`)
	mustErr(t, b, "event.toDict", 0, `{"function":"f","mode":"yaml"}`, core.CodeInvalidRequest)
	mustErr(t, b, "event.toDict", 0, `{"function":"f","bogus":1}`, core.CodeUnsupportedType)
	mustErr(t, b, "event.toDict", 0, `{"function":"f","duration":"1"}`, core.CodeUnsupportedType)
}
