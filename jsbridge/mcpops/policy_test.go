package mcpops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// fakeHost stands in for the JS host: it answers every host call with
// answer (or err) and records the payloads.
type fakeHost struct {
	mu       sync.Mutex
	payloads []string
	ids      []int64
	answer   string
	err      error
}

func (h *fakeHost) install(t *testing.T) {
	old := callHost
	callHost = func(_ context.Context, id int64, payload []byte) (json.RawMessage, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.ids = append(h.ids, id)
		h.payloads = append(h.payloads, string(payload))
		return json.RawMessage(h.answer), h.err
	}
	t.Cleanup(func() { callHost = old })
}

func TestRegisterServerFilterJSON(t *testing.T) {
	url := serveFixture(t)
	p := newPool()
	defer p.Cleanup(context.Background())
	m := core.NewManager(nil)
	out, err := registerServer(context.Background(), p, m, []byte(fmt.Sprintf(
		`{"config": {"name": "fx", "url": %q}, "options": {"security": %s, "filter": {"allow": ["*"], "block": ["a?d"], "readOnlyHint": null}}}`, url, loopbackJSON)))
	require.NoError(t, err)
	assert.JSONEq(t, `{"names":["mcp__fx__echo"],"warnings":[]}`, string(out))

	out, err = registerServer(context.Background(), p, core.NewManager(nil), []byte(fmt.Sprintf(
		`{"config": {"name": "fx", "url": %q}, "options": {"security": %s, "filter": {"allow": []}}}`, url, loopbackJSON)))
	require.NoError(t, err)
	assert.JSONEq(t, `{"names":[],"warnings":[]}`, string(out), "allow: [] keeps no tool")

	cases := []struct {
		name, filter string
		code         core.Code
	}{
		{"not an object", `[]`, core.CodeUnsupportedType},
		{"unknown member", `{"only": ["x"]}`, core.CodeUnsupportedType},
		{"allow not strings", `{"allow": [1]}`, core.CodeUnsupportedType},
		{"hint not a boolean", `{"readOnlyHint": "yes"}`, core.CodeUnsupportedType},
		{"bad pattern", `{"block": ["a b"]}`, core.CodeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := registerServer(context.Background(), p, m, []byte(fmt.Sprintf(
				`{"config": {"name": "fx", "url": %q}, "options": {"security": %s, "filter": %s}}`, url, loopbackJSON, tc.filter)))
			var ce *core.Error
			require.True(t, errors.As(err, &ce), "got %v", err)
			assert.Equal(t, tc.code, ce.Code, "%s", ce.Message)
			assert.Contains(t, ce.Message, "filter")
		})
	}
}

func TestRegisterServerApprovalJSON(t *testing.T) {
	url := serveFixture(t)
	p := newPool()
	defer p.Cleanup(context.Background())
	host := &fakeHost{answer: `{"approved": false, "reason": "no"}`}
	host.install(t)
	m := core.NewManager(nil)
	_, err := registerServer(context.Background(), p, m, []byte(fmt.Sprintf(
		`{"config": {"name": "fx", "url": %q}, "options": {"security": %s, "requireApproval": ["destructive"], "approve": 7}}`, url, loopbackJSON)))
	require.NoError(t, err)
	args := core.NewArguments()
	args.Set("a", "2")
	args.Set("b", 3)
	fc, err := m.Invoke(context.Background(), &core.Request{Function: "mcp__fx__add", Arguments: args})
	require.NoError(t, err)
	require.ErrorIs(t, fc.Err, core.ErrPolicyDenied)
	assert.Contains(t, fc.Err.Error(), `the approve hook refused it: "no"`)
	require.Len(t, host.payloads, 1)
	assert.Equal(t, int64(7), host.ids[0])
	assert.JSONEq(t, `{"server":"fx","tool":"add","name":"mcp__fx__add","arguments":{"a":2,"b":3},"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true},"rules":["destructive"]}`,
		host.payloads[0], "the hook gets the coerced arguments and the annotations as sent")

	for answer, want := range map[string]string{
		`true`: "", `{"approved": true}`: "", `false`: "the approve hook refused it",
		`"yes"`: "the approve hook answered string", `{"approved": 1}`: `without a boolean "approved"`, `null`: "the approve hook answered null",
	} {
		host.answer = answer
		fc, err := m.Invoke(context.Background(), &core.Request{Function: "mcp__fx__add", Arguments: args})
		require.NoError(t, err)
		if want == "" {
			assert.Equal(t, core.StatusCompleted, fc.Status, "answer %s: %v", answer, fc.Err)
			assert.Equal(t, "5", fc.Response)
			continue
		}
		require.ErrorIs(t, fc.Err, core.ErrPolicyDenied, "answer %s", answer)
		assert.Contains(t, fc.Err.Error(), want, "answer %s", answer)
	}

	for name, opts := range map[string]string{
		"requireApproval without approve": `"requireApproval": ["all"]`,
		"approve not a number":            `"requireApproval": ["all"], "approve": "f"`,
		"unknown rule":                    `"requireApproval": ["sometimes"], "approve": 1`,
		"timeout not an integer":          `"requireApproval": ["all"], "approve": 1, "approvalTimeoutMs": 1.5`,
	} {
		_, err := registerServer(context.Background(), p, core.NewManager(nil), []byte(fmt.Sprintf(
			`{"config": {"name": "fx", "url": %q}, "options": {"security": %s, %s}}`, url, loopbackJSON, opts)))
		require.Error(t, err, name)
	}
}
