package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegisterDecodeTape holds decodeRegisterTape and toolRefID to
// decodeStrict: where the fast readers answer, encoding/json reads the same.
func TestRegisterDecodeTape(t *testing.T) {
	answered := 0
	for _, s := range []string{
		`{"items":[{"$tool":1},{"$tool":23}],"update":false}`, `{"items":[],"update":true}`, `{"items":[{"$tool":1}]}`,
		`{"items":["name",null,true,[{"$tool":2}],{"$schema":{"a":1}},{"$mcp":{"s":{"url":"x"}}},{"$type":"Date"},5]}`,
		`{"Items":[]}`, `{"items":null}`, `{"items":{}}`, `{"items":[],"update":1}`, `{"items":[],"other":1}`,
		`{"items":[],"items":[]}`, `{"items":[]} x`, `[]`, `{}`, ` { "items" : [ { "$tool" : 1 } ] } `,
	} {
		var fast registerPayload
		if !decodeRegisterTape([]byte(s), &fast) {
			continue
		}
		answered++
		var slow registerPayload
		require.NoError(t, decodeStrict([]byte(s), &slow, "x"), s)
		require.Equal(t, len(slow.Items), len(fast.Items), s)
		for i := range slow.Items {
			require.JSONEq(t, string(slow.Items[i]), string(fast.Items[i]), s)
		}
		require.Equal(t, slow.Update, fast.Update, s)
	}
	require.Equal(t, 6, answered)
	answered = 0
	for _, s := range []string{
		`{"$tool":0}`, `{"$tool":7}`, `{"$tool":123456789012345678}`, `{"$tool":01}`, `{"$tool":-1}`, `{"$tool":1.0}`,
		`{"$tool":1e2}`, `{"$tool":"1"}`, `{"$tool":}`, `{"$tool": 1}`, `{"$tool":1,"$tool":2}`, `{"$tool":1234567890123456789}`,
	} {
		id, ok := toolRefID([]byte(s))
		if !ok {
			continue
		}
		answered++
		var r ref
		require.NoError(t, decodeStrict([]byte(s), &r, "x"), s)
		require.NotNil(t, r.Tool, s)
		require.Equal(t, *r.Tool, id, s)
	}
	require.Equal(t, 3, answered)
}
