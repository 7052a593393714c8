package core

import (
	"context"
	"encoding/json"
	"testing"
)

// jsTool is a typed tool as the bridge builds one: a callable the bridge
// never calls from Go, taking any keyword.
type jsTool struct{}

func (jsTool) Signature() (Signature, error) {
	return Signature{Name: "search", Params: []Param{{Name: "kwargs", Kind: ParamKeywords}}}, nil
}
func (jsTool) Call(_ context.Context, _ *Arguments) (any, error) { return nil, nil }

// BenchmarkMatchFast measures b.validate's Go side on the typical schema:
// the fast path against ParseRequest and Validate.
func BenchmarkMatchFast(b *testing.B) {
	tool, err := NewTool(jsTool{}, &ToolOptions{Name: "search", Parameters: json.RawMessage(typicalSchema)})
	if err != nil {
		b.Fatal(err)
	}
	m := NewManager(nil)
	if err := m.Register(tool, false); err != nil {
		b.Fatal(err)
	}
	args := `{"query":"go wasm","limit":10,"units":"metric","tags":["a","b"],"filter":{"field":"lang","value":"go"}}`
	text, _ := json.Marshal(args)
	payloads := map[string][]byte{
		"object": []byte(`{"function":"search","arguments":` + args + `}`),
		"text":   []byte(`{"function":"search","arguments":` + string(text) + `}`),
	}
	all := func(*Tool) bool { return true }
	for _, name := range []string{"object", "text"} {
		payload := payloads[name]
		b.Run("fast/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				fm, handled, err := m.MatchFast(payload, true, all)
				if !handled || err != nil {
					b.Fatal(handled, err)
				}
				fm.Release()
			}
		})
		b.Run("full/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, err := ParseRequest(payload)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Validate(req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFastPathParts measures the fast path's stages on the typical
// call, each including the ones before it where it needs them: reading
// the request, then validating, then all of MatchFast's work.
func BenchmarkFastPathParts(b *testing.B) {
	tool, err := NewTool(jsTool{}, &ToolOptions{Name: "search", Parameters: json.RawMessage(typicalSchema)})
	if err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"function":"search","arguments":{"query":"go wasm","limit":10,"units":"metric","tags":["a","b"],"filter":{"field":"lang","value":"go"}}}`)
	r := new(fastRun)
	b.Run("request", func(b *testing.B) {
		for b.Loop() {
			r.reset()
			r.request(payload)
		}
	})
	b.Run("normalize", func(b *testing.B) {
		for b.Loop() {
			r.reset()
			r.request(payload)
			_, _ = tool.compiled.fastNormalize(r, "search", CoerceLax)
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			r.reset()
			r.request(payload)
			_, _ = tool.fastValidate(r, true)
		}
	})
}
