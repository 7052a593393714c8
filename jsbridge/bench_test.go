package jsbridge

import (
	"strconv"
	"testing"
)

// typicalSpec is issue 9's typical schema as a JS typed tool (coerce "none").
const typicalSpec = `{"kind":"typed","name":"search","options":{"coerce":"none","parameters":{"type":"object","properties":{"query":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1},"order":{"enum":["asc","desc","relevance"]},"tags":{"type":"array","items":{"type":"string"}},"filter":{"type":"object","properties":{"field":{"type":"string"},"exact":{"type":"boolean"}},"required":["field"],"additionalProperties":false}},"required":["query","limit"]}}}`

const typicalCall = `{"function":"search","arguments":{"query":"oslo weather","limit":20,"order":"asc","tags":["a","b"],"filter":{"field":"x","exact":true}}}`

// benchBranch is a bridge with one branch holding the typical tool.
func benchBranch(b *testing.B) (*Bridge, int64) {
	br := New("v")
	info := createToolB(b, br, typicalSpec)
	out := br.callName("branch.create", 0, []byte(`{"items":[{"$tool":`+strconv.FormatInt(info, 10)+`}]}`))
	h, err := strconv.ParseInt(string(out[1:]), 10, 64)
	if err != nil {
		b.Fatal(string(out))
	}
	return br, h
}

func createToolB(b *testing.B, br *Bridge, spec string) int64 {
	out := br.callName("tool.create", 0, []byte(spec))
	if out[0] != '0' {
		b.Fatal(string(out))
	}
	var id int64
	for i := len(`0{"id":`); i < len(out) && out[i] >= '0' && out[i] <= '9'; i++ {
		id = id*10 + int64(out[i]-'0')
	}
	return id
}

func benchOp(b *testing.B, op, payload string) {
	br, h := benchBranch(b)
	i := br.opIndex(op)
	p := []byte(payload)
	if out := br.call(i, h, p); out[0] != '0' {
		b.Fatal(string(out))
	}
	b.ReportAllocs()
	for b.Loop() {
		br.call(i, h, p)
	}
}

func BenchmarkBranchValidateTypical(b *testing.B) { benchOp(b, "branch.validate", typicalCall) }
func BenchmarkBranchMatchTypical(b *testing.B)    { benchOp(b, "branch.match", typicalCall) }
func BenchmarkBranchHas(b *testing.B)             { benchOp(b, "branch.has", `"search"`) }

func (b *Bridge) opIndex(name string) int {
	for i, n := range b.names {
		if n == name {
			return i
		}
	}
	return -1
}
