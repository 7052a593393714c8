package jsbridge

import (
	"encoding/json"
	"reflect"
	"strings"
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
			&core.Error{Code: core.CodeTransport, Message: s, Tool: "t", Detail: core.Detail{Transport: &core.TransportDetail{HTTPStatus: 500, RPCCode: &rpcCode, RPCMessage: s}}},
			&core.Error{Code: core.CodeTransport, Message: s, Detail: core.Detail{Transport: &core.TransportDetail{HTTPStatus: 403}}},
			&core.Error{Code: core.CodeTransport, Message: s, Detail: core.Detail{Transport: &core.TransportDetail{RPCCode: new(int)}}},
			&core.Error{Code: core.CodeTransport, Message: s, Detail: core.Detail{Transport: &core.TransportDetail{}}},
			&core.Error{Code: core.CodeAuthFailed, Message: s, Detail: core.Detail{Auth: &core.AuthDetail{Step: "token", OAuthError: s, OAuthErrorDescription: s}}},
			&core.Error{Code: core.CodeAuthFailed, Message: s, CallID: s, Detail: core.Detail{
				Auth: &core.AuthDetail{Step: "step-up"}, Transport: &core.TransportDetail{HTTPStatus: 403}}})
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
// appendError does not write: it writes the fields before Detail by hand,
// then Detail (every group, whatever it holds) through json.Marshal.
func TestAppendErrorKnowsEveryField(t *testing.T) {
	var names []string
	ty := reflect.TypeOf(core.Error{})
	for i := 0; i < ty.NumField(); i++ {
		names = append(names, ty.Field(i).Tag.Get("json"))
	}
	assert.Equal(t, []string{"code", "message", "tool,omitempty", "issues,omitempty", "rule,omitempty", "callId,omitempty", "result,omitempty",
		"", "-"}, names)
	assert.True(t, ty.Field(7).Anonymous && ty.Field(7).Type == reflect.TypeOf(core.Detail{}), "field 7 is the embedded Detail")
	ty = reflect.TypeOf(core.Issue{})
	names = names[:0]
	for i := 0; i < ty.NumField(); i++ {
		names = append(names, ty.Field(i).Tag.Get("json"))
	}
	assert.Equal(t, []string{"path", "keyword", "message"}, names)
}

// TestAppendErrorWritesEveryDetail: every field of every Detail group,
// set, reaches JS as json.Marshal writes it, with no edit of appendError
// for a new group or field.
func TestAppendErrorWritesEveryDetail(t *testing.T) {
	e := &core.Error{Code: core.CodeTransport, Message: "m"}
	groups := reflect.ValueOf(&e.Detail).Elem()
	for i := 0; i < groups.NumField(); i++ {
		g := reflect.New(groups.Field(i).Type().Elem())
		for j := 0; j < g.Elem().NumField(); j++ {
			fillNonZero(t, g.Elem().Field(j))
		}
		groups.Field(i).Set(g)
	}
	want, err := json.Marshal(e)
	require.NoError(t, err)
	got := appendError(nil, e)
	var a, b map[string]any
	require.NoError(t, json.Unmarshal(want, &a))
	require.NoError(t, json.Unmarshal(got[1:], &b), "%s", got)
	assert.Equal(t, a, b)
	for i := 0; i < groups.NumField(); i++ {
		key := strings.Split(groups.Type().Field(i).Tag.Get("json"), ",")[0]
		member, ok := b[key].(map[string]any)
		require.True(t, ok, "group %q missing from %s", key, got)
		assert.Len(t, member, groups.Field(i).Elem().NumField(), "group %q: %v", key, member)
	}
}

// fillNonZero sets v (a string, an int or a pointer to one) to a value
// omitempty keeps.
func fillNonZero(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("<x>")
	case reflect.Int:
		v.SetInt(7)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillNonZero(t, v.Elem())
	default:
		t.Fatalf("a Detail field of kind %s: teach fillNonZero", v.Kind())
	}
}
