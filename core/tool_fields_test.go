package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStringList holds stringList to json.Unmarshal into []string where it
// answers, and checks it answers a plain list.
func TestStringList(t *testing.T) {
	for _, raw := range []string{`["a","b"]`, `[]`, `[ "x" , "é\n" ]`, `["\ud800"]`, `[1]`, `["a",null]`, `null`, `"a"`, `{}`} {
		got, ok := stringList(json.RawMessage(raw))
		var want []string
		err := json.Unmarshal([]byte(raw), &want)
		if ok { // where it declines, json.Unmarshal decides
			require.NoError(t, err, raw)
			require.Equal(t, want, got, raw)
		}
	}
	_, ok := stringList(json.RawMessage(`["a","b"]`))
	require.True(t, ok)
}
