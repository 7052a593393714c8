package mcp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// sep1034Schema is the conformance suite's elicitation-sep1034-client-defaults schema.
const sep1034Schema = `{"type":"object","properties":{
	"name":{"type":"string","default":"John Doe"},
	"age":{"type":"integer","default":30},
	"score":{"type":"number","default":95.5},
	"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},
	"verified":{"type":"boolean","default":true},
	"nickname":{"type":"string"}},"required":[]}`

func TestElicitationAnswers(t *testing.T) {
	all := `{"action":"accept","content":{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}}`
	cases := []struct {
		name, answer, want, fail string
	}{
		{"accept without content gets every default", `{"action":"accept"}`, all, ""},
		{"accept with empty content gets every default", `{"action":"accept","content":{}}`, all, ""},
		{"a null counts as left out", `{"action":"accept","content":{"age":null}}`, all, ""},
		{"what the hook gave is kept", `{"action":"accept","content":{"name":"Ada","nickname":"a"}}`,
			`{"action":"accept","content":{"age":30,"name":"Ada","nickname":"a","score":95.5,"status":"active","verified":true}}`, ""},
		{"decline drops content", `{"action":"decline","content":{"name":"x"}}`, `{"action":"decline"}`, ""},
		{"cancel keeps _meta", `{"action":"cancel","_meta":{"k":1}}`, `{"action":"cancel","_meta":{"k":1}}`, ""},
		{"an unknown action", `{"action":"ok"}`, "", `invalid elicitation result: action must be "accept", "decline" or "cancel"`},
		{"not an object", `"accept"`, "", "invalid elicitation result: the client's hook returned string, not {action, content?} with content an object"},
		{"a nested value", `{"action":"accept","content":{"name":{"first":"x"}}}`, "", `invalid elicitation result: content "name" must be a string, number, boolean or array of strings`},
		{"a value the schema refuses", `{"action":"accept","content":{"age":"old","status":"gone"}}`, "",
			"invalid elicitation result: the content does not match the requested schema: /age (type), /status (enum)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, f := elicitationAnswer(json.RawMessage(tc.answer), json.RawMessage(sep1034Schema))
			if tc.fail != "" {
				if assert.NotNil(t, f) {
					assert.Equal(t, rpcInvalidParams, f.code)
					assert.Equal(t, tc.fail, f.msg)
				}
				return
			}
			if assert.Nil(t, f) {
				assert.JSONEq(t, tc.want, string(got))
			}
		})
	}
}

func TestElicitationRequestsAreChecked(t *testing.T) {
	for params, want := range map[string]string{
		`{"mode":"other","requestedSchema":{}}`: `invalid elicitation request: mode must be "form" or "url"`,
		`{"message":"m"}`:                       "invalid elicitation request: requestedSchema must be an object",
		`null`:                                  "invalid elicitation request: params must be an object",
	} {
		_, f := elicitationSchema(json.RawMessage(params))
		if assert.NotNil(t, f, params) {
			assert.Equal(t, rpcInvalidParams, f.code)
			assert.Equal(t, want, f.msg)
		}
	}
	schema, f := elicitationSchema(json.RawMessage(`{"mode":"form","message":"m","requestedSchema":{"type":"object"}}`))
	assert.Nil(t, f)
	assert.JSONEq(t, `{"type":"object"}`, string(schema))
}

func TestSamplingAnswersAreChecked(t *testing.T) {
	for answer, want := range map[string]string{
		`{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`:   "",
		`{"role":"assistant","content":[{"type":"text","text":"x"}],"model":"m"}`: "",
		`{"role":"assistant","content":{"type":"text","text":"x"}}`:               "invalid sampling result: model must be a string",
		`{"role":"robot","content":{"type":"text","text":"x"},"model":"m"}`:       `invalid sampling result: role must be "user" or "assistant"`,
		`{"role":"user","content":"x","model":"m"}`:                               "invalid sampling result: content must be a content block {type, ...} or an array of them",
		`{"role":"user","content":[],"model":"m"}`:                                "invalid sampling result: content must be a content block {type, ...} or an array of them",
		`[]`: "invalid sampling result: the client's hook returned array, not {role, content, model}",
	} {
		_, f := samplingAnswer(json.RawMessage(answer), nil)
		if want == "" {
			assert.Nil(t, f, answer)
			continue
		}
		if assert.NotNil(t, f, answer) {
			assert.Equal(t, want, f.msg)
		}
	}
}
