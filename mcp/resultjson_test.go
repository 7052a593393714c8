package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// TestResultKeepsKeyOrder: a result comes back with its keys where the
// server put them (a model reads the JSON text), in both modes and in a
// tool-error's result, numbers keeping their spelling.
func TestResultKeepsKeyOrder(t *testing.T) {
	cfg := &ServerConfig{Name: "s", Headers: map[string]string{"Authorization": "Bearer tg-planted-secret-77"}}
	raw := json.RawMessage(`{"structuredContent":{"zeta":1,"alpha":{"y":2.50,"b":[{"k":1,"a":0}]},"mid":"x"},` +
		`"content":[{"type":"text","text":"t","annotations":{"priority":1,"audience":["user"]}},{"type":"image","mimeType":"image/png","data":"aGk="}],` +
		`"_meta":{"z":true,"a":null}}`)
	full, err := readResult(cfg, "t", "t", raw, ResultFull, nil)
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(full.(json.RawMessage)))
	list, err := readResult(cfg, "t", "t", raw, ResultLionAGI, nil)
	require.NoError(t, err)
	content, _ := json.Marshal(list)
	assert.Equal(t, `[{"type":"text","text":"t","annotations":{"priority":1,"audience":["user"]}},{"type":"image","mimeType":"image/png","data":"aGk="}]`, string(content))

	_, err = readResult(cfg, "t", "t", json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"no: tg-planted-secret-77","annotations":{"z":1,"a":2}}],"_meta":{"b":1,"a":2}}`), ResultFull, nil)
	var ce *core.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, `{"isError":true,"content":[{"type":"text","text":"no: [redacted]","annotations":{"z":1,"a":2}}],"_meta":{"b":1,"a":2}}`, string(ce.Result))
}

// TestRewriteJSON: what the rewrite keeps and what it normalises.
func TestRewriteJSON(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"space dropped, order kept", ` { "b" : [ 1 , { "d" : 1e3 , "c" : -0 } ] , "a" : "x" } `, `{"b":[1,{"d":1e3,"c":-0}],"a":"x"}`},
		{"a repeated key: first place, last value", `{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"escapes decoded and written as Go writes them", `{"\u0061":"\u00e9\ud800<"}`, "{\"a\":\"é\ufffd<\"}"},
		{"empty containers", `{"a":[],"b":{}}`, `{"a":[],"b":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rewriteJSON(json.RawMessage(tc.in), nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
	_, err := rewriteJSON(json.RawMessage(strings.Repeat("[", maxResultDepth+1)+strings.Repeat("]", maxResultDepth+1)), nil)
	assert.ErrorIs(t, err, errResultDepth)
}
