package core

import (
	"encoding/json"
	"testing"
)

// benchSchema is a typical tool's parameters: five fields of common types.
const benchSchema = `{"type":"object","properties":{
	"query":{"type":"string","description":"What to search for","minLength":1},
	"limit":{"type":"integer","minimum":1,"maximum":100},
	"threshold":{"type":"number"},
	"exact":{"type":"boolean"},
	"tags":{"type":"array","items":{"type":"string"}}
},"required":["query","limit"]}`

// BenchmarkDecodeAndNormalize measures one tool call's hot path: decode the
// arguments JSON, validate and normalise them, and marshal the result.
func BenchmarkDecodeAndNormalize(b *testing.B) {
	cs, err := CompileSchema("search", json.RawMessage(benchSchema))
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		args string
		mode CoerceMode
	}{
		{"valid/none", `{"query":"go wasm","limit":10,"threshold":0.5,"exact":false,"tags":["a","b"]}`, CoerceNone},
		{"valid/lax", `{"query":"go wasm","limit":10,"threshold":0.5,"exact":false,"tags":["a","b"]}`, CoerceLax},
		{"conversions/lax", `{"query":"go wasm","limit":"10","threshold":1,"exact":"no","tags":["a","b"]}`, CoerceLax},
	}
	for _, tc := range cases {
		data := []byte(tc.args)
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				args, err := DecodeArguments("search", data)
				if err != nil {
					b.Fatal(err)
				}
				out, _, err := cs.Normalize("search", args, tc.mode)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := out.MarshalJSON(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompileSchema measures the one-time cost per tool.
func BenchmarkCompileSchema(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompileSchema("search", json.RawMessage(benchSchema)); err != nil {
			b.Fatal(err)
		}
	}
}
