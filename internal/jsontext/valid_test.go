package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
)

var validSeeds = []string{`{"a":[1,2.5e3,"x",true,false,null,{}]}`, ` {"a":1} `, `{"a":1,"a":2}`, `{"\u0061":1}`, "\"\xff\"",
	`[1,]`, `{} {}`, `tru`, ``, `-`, `01`, `1.`, `"\x"`, strings.Repeat("[", 1001) + strings.Repeat("]", 1001)}

// TestValid holds Valid to json.Valid on the seeds.
func TestValid(t *testing.T) {
	for _, s := range validSeeds {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("%.40q: got %v, want %v", s, got, want)
		}
	}
}

// FuzzValid holds Valid to json.Valid on any text.
func FuzzValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("%q: got %v, want %v", data, got, want)
		}
	})
}
