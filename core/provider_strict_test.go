package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStrictSchemaBasic(t *testing.T) {
	in := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","description":"n"},"c":{"type":"object","properties":{"d":{"enum":["x","y"]}}}},"required":["a"]}`
	out, r, ch, err := strictSchema("t", json.RawMessage(in))
	require.NoError(t, err)
	t.Log(string(out))
	for _, c := range ch {
		t.Log(c)
	}
	args, err := DecodeArguments("t", []byte(`{"a":"x","b":null,"c":{"d":null}}`))
	require.NoError(t, err)
	got, _ := r.Apply(args).MarshalJSON()
	require.JSONEq(t, `{"a":"x","c":{}}`, string(got))
}
