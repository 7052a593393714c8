package jsontext

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanDepth pins the deepest nesting Scan sees: within want levels it is
// not too deep, within want-1 it is.
func TestScanDepth(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{`1`, 0}, {`{}`, 1}, {`[[1],{"a":[2]}]`, 3}, {`"[[[["`, 0}, {`"\"[[["`, 0}, {`{"a":"\\"}`, 1}, {`[[[`, 3},
		{`{"a":"[{"}`, 1}, {`  [ [ ] ]  `, 2},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			assert.False(t, Scan([]byte(tc.in), tc.want, false).TooDeep, "too deep at %d", tc.want)
			if tc.want > 0 {
				assert.True(t, Scan([]byte(tc.in), tc.want-1, false).TooDeep, "not too deep at %d", tc.want-1)
			}
		})
	}
}

func TestScan(t *testing.T) {
	in := []byte(` {"a":1, "b\"":{"c":[{"d":2}]}, "e":"f"} x`)
	sc := Scan(in, 8, true)
	assert.Equal(t, byte('{'), sc.First)
	assert.Equal(t, len(in)-2, sc.End, "the end of the first value")
	var keys []string
	for _, k := range sc.Keys {
		keys = append(keys, string(in[k.Start:k.End]))
	}
	assert.Equal(t, []string{`"a"`, `"b\""`, `"e"`}, keys, "top-level keys only, quotes included")

	assert.Equal(t, -1, Scan([]byte(`{"a":"x`), 8, true).End, "an unterminated string never closes")
	assert.Equal(t, -1, Scan([]byte(`{"a":[`), 8, true).End, "an unclosed object never closes")
	assert.Equal(t, ScanResult{End: -1}, Scan([]byte("  "), 8, true), "nothing to scan")
	assert.Equal(t, 5, Scan([]byte(`"abc"`), 8, true).End, "a scalar ends at the end")
	assert.Empty(t, Scan([]byte(`[{"a":1}]`), 8, true).Keys, "an array has no top-level keys")
}

func TestObjects(t *testing.T) {
	ms, ok := Split(json.RawMessage(`{"a":1,"b":2,"a":3}`))
	require.True(t, ok)
	assert.Equal(t, []Member{{"a", json.RawMessage("3")}, {"b", json.RawMessage("2")}}, ms, "a repeated key keeps its first place and last value")
	for _, bad := range []string{``, `[]`, `{"a"}`, `{"a":}`, `{"a":1`, `{1:2}`} {
		_, ok := Split(json.RawMessage(bad))
		assert.False(t, ok, "Split(%s)", bad)
	}
	for _, valid := range []string{`{"a":1,"b":2,"a":3}`, ` { "x" : [ {"y":null} ] } `, `{}`} {
		want, _ := Split(json.RawMessage(valid))
		got, ok := SplitValid(json.RawMessage(valid))
		require.True(t, ok, "SplitValid(%s)", valid)
		assert.Equal(t, want, got, "SplitValid(%s) differs from Split", valid)
	}
	for _, notObject := range []string{``, `  `, `[]`, `1`, `"a"`} {
		_, ok := SplitValid(json.RawMessage(notObject))
		assert.False(t, ok, "SplitValid(%s)", notObject)
	}
	out, ok := Replace(json.RawMessage(`{"a":1}`), "b", json.RawMessage(`"x"`))
	require.True(t, ok)
	assert.Equal(t, `{"a":1,"b":"x"}`, string(out))
	out, ok = Replace(json.RawMessage(`{"a" : [1, 2] ,"b":0}`), "b", json.RawMessage(`"<&>"`))
	require.True(t, ok)
	assert.Equal(t, `{"a":[1, 2],"b":"<&>"}`, string(out), "other values keep their bytes")
	_, ok = Replace(json.RawMessage(`[]`), "b", json.RawMessage(`1`))
	assert.False(t, ok)

	v, ok := Lookup(json.RawMessage(`{"x":{"y":true}}`), "x")
	assert.True(t, ok)
	assert.Equal(t, `{"y":true}`, string(v))
	_, ok = Lookup(json.RawMessage(`{"x":1}`), "y")
	assert.False(t, ok)

	m, ok := Members(json.RawMessage(" {\"s\":\"t\",\"n\":1} "))
	require.True(t, ok)
	assert.Equal(t, "t", StringMember(m, "s"))
	assert.Equal(t, "", StringMember(m, "n"), "not a string")
	assert.Equal(t, "", StringMember(m, "none"))
	_, ok = Members(json.RawMessage(`[1]`))
	assert.False(t, ok)

	for _, s := range []string{"", "  ", "null", " null "} {
		assert.True(t, Absent([]byte(s)), "Absent(%q)", s)
	}
	assert.False(t, Absent([]byte("{}")))
}
