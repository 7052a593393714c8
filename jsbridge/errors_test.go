package jsbridge

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// TestAppendErrorReadsAsMarshal: JS reads the hand-written error JSON as it
// would read json.Marshal's, for every field and awkward strings.
func TestAppendErrorReadsAsMarshal(t *testing.T) {
	odd := []string{"", "plain", `<a href="x">&amp;</a>`, "line\u2028sep\u2029", "ctl\x00\x01\t\n\"\\", "bad utf8 \xff\xfe", "ünïcødé 日本 😀"}
	var cases []*core.Error
	rpcCode := -32603
	for _, s := range odd {
		cases = append(cases,
			&core.Error{Code: core.CodeInvalidArguments, Message: s},
			&core.Error{Code: core.CodePolicyDenied, Message: "m " + s, Tool: s, Rule: s},
			&core.Error{Code: core.CodeInvalidArguments, Message: s, Tool: "t", CallID: s},
			&core.Error{Code: core.CodeInvalidSchema, Message: s, Tool: "t", Issues: []core.Issue{{Path: s, Keyword: "minimum", Message: s}, {Path: "/a", Keyword: s, Message: ""}}},
			&core.Error{Code: core.Code(s), Message: s, Issues: []core.Issue{}},
			&core.Error{Code: core.CodeToolError, Message: s, Tool: "t", Result: json.RawMessage(`{"content":[{"type":"text","text":"<&>"}],"isError":true}`)},
			&core.Error{Code: core.CodeTransport, Message: s, Tool: "t", HTTPStatus: 500, RPCCode: &rpcCode, RPCMessage: s},
			&core.Error{Code: core.CodeTransport, Message: s, HTTPStatus: 403},
			&core.Error{Code: core.CodeTransport, Message: s, RPCCode: new(int)},
			&core.Error{Code: core.CodeAuthFailed, Message: s, AuthStep: "token", OAuthError: s, OAuthErrorDescription: s})
	}
	for _, e := range cases {
		want, err := json.Marshal(e)
		require.NoError(t, err)
		got := appendError(nil, e)
		require.Equal(t, byte('1'), got[0])
		var a, b any
		require.NoError(t, json.Unmarshal(want, &a))
		require.NoError(t, json.Unmarshal(got[1:], &b), "%s", got)
		assert.Equal(t, a, b, "%+v", e)
	}
}

// TestAppendErrorKnowsEveryField fails when core.Error gains a field that
// appendError does not write.
func TestAppendErrorKnowsEveryField(t *testing.T) {
	var names []string
	ty := reflect.TypeOf(core.Error{})
	for i := 0; i < ty.NumField(); i++ {
		names = append(names, ty.Field(i).Tag.Get("json"))
	}
	assert.Equal(t, []string{"code", "message", "tool,omitempty", "issues,omitempty", "rule,omitempty", "callId,omitempty", "result,omitempty",
		"httpStatus,omitempty", "rpcCode,omitempty", "rpcMessage,omitempty",
		"authStep,omitempty", "oauthError,omitempty", "oauthErrorDescription,omitempty", "-"}, names)
	ty = reflect.TypeOf(core.Issue{})
	names = names[:0]
	for i := 0; i < ty.NumField(); i++ {
		names = append(names, ty.Field(i).Tag.Get("json"))
	}
	assert.Equal(t, []string{"path", "keyword", "message"}, names)
}
