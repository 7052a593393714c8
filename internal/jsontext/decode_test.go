package jsontext

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzParseValid checks ParseValid against encoding/json (UseNumber)
// on every valid JSON text: the fast path must build exactly the same value.
func FuzzParseValid(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1,"a":2}`, `{"a":[1,-0,1e5,2.5E-3,true,false,null,"x"]}`,
		`{"\u00e9\ud800\n":"\ud83d\ude00","k":{"n":{"m":[[]]}}}`, ` { "a" : [ 1 , { } ] } `,
		`"str"`, `12345678901234567890123`, `{"__proto__":{"x":1}}`, "{\"\xc3\xa9\":\"\xe2\x82\xac\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json refused valid %q: %v", data, err)
		}
		got := ParseValid(data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseValid(%q) = %#v, want %#v", data, got, want)
		}
	})
}
