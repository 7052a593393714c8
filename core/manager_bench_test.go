package core

import "testing"

// BenchmarkManagerMatch measures the path behind b.validate/b.match for a raw
// two-parameter tool: parse the envelope, find the tool, check the keys.
func BenchmarkManagerMatch(b *testing.B) {
	c, err := Func("add", func(a, b float64) float64 { return a + b }, "a", "b")
	if err != nil {
		b.Fatal(err)
	}
	m := NewManager(nil)
	if err := m.Register(c, false); err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"function":"add","arguments":{"a":1,"b":2}}`)
	b.ReportAllocs()
	for b.Loop() {
		req, err := ParseRequest(payload)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Match(req); err != nil {
			b.Fatal(err)
		}
	}
}
