package jsbridge

import (
	"reflect"
	"testing"
)

var specSeeds = []string{
	`{"kind":"typed","name":"search","source":"","options":{"name":"search","description":"d\n\"é","parameters":{"type":"object","properties":{"q":{"type":"string"}}},"coerce":"none","strict":false,"strictFuncCall":true,"timeoutMs":1500.5,"metadata":{"a":[1,2.5,"x",{"b":null}],"c":1e400},"parameterDescriptions":{"q":"the query"},"inputExamples":[{"q":"wasm"},{"q":"go"}]}}`,
	`{"kind":"function","name":"f","source":"function f(a, b = 1) {}","options":{}}`,
	`{"kind":"typed","options":{"schema":{"type":"function"},"parameters":null}}`,
	`{"kind":"typed","options":{"timeoutMs":1e400}}`, `{"kind":"typed","options":{"timeoutMs":"1"}}`,
	`{"kind":"typed","Name":"x"}`, `{"kind":"typed","bogus":1}`, `{"kind":1}`, `{"kind":"a","kind":"b"}`,
	`{"kind":"typed","options":{"metadata":null}}`, `{"kind":"typed","options":{"parameterDescriptions":{"a":1}}}`,
	`{"kind":"typed"} x`, `[1]`, `{"kind":"typed","options":{"strict":null}}`, `{"kind":"typed","options":{"inputExamples":null}}`, `{"kind":"typed","options":{"inputExamples":{"q":1}}}`, `{"\u006bind":"typed"}`,
}

// checkSpec holds decodeSpecTape to decodeStrict: when the tape answers,
// decodeStrict takes the payload and fills the same spec.
func checkSpec(t *testing.T, payload []byte) {
	var got toolSpec
	if !decodeSpecTape(payload, &got) {
		return
	}
	var want toolSpec
	if err := decodeStrict(payload, &want, "tool options"); err != nil {
		t.Fatalf("%q: the tape accepts what decodeStrict refuses: %v", payload, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\ngot  %#v\nwant %#v", payload, got, want)
	}
}

// TestToolSpecDecoders runs the comparison on the seeds, and checks the
// tape answers what JS sends.
func TestToolSpecDecoders(t *testing.T) {
	for _, s := range specSeeds {
		checkSpec(t, []byte(s))
	}
	var spec toolSpec
	for _, s := range specSeeds[:3] {
		if !decodeSpecTape([]byte(s), &spec) {
			t.Fatalf("%s: the tape declined a payload JS sends", s)
		}
	}
}

// FuzzToolSpecDecode runs it on any payload.
func FuzzToolSpecDecode(f *testing.F) {
	for _, s := range specSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkSpec)
}
