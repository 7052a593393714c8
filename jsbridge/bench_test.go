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

// benchMatchMany is branch.match of one call in a branch of n small typed tools.
func benchMatchMany(b *testing.B, n int) {
	br := New("v")
	items := make([]byte, 0, n*24)
	items = append(items, `{"items":[`...)
	for i := 0; i < n; i++ {
		id := createToolB(b, br, `{"kind":"typed","name":"tool_`+strconv.Itoa(i)+`","options":{"coerce":"none","parameters":{"type":"object","properties":{"id":{"type":"integer","minimum":0},"label":{"type":"string"}},"required":["id"]}}}`)
		if i > 0 {
			items = append(items, ',')
		}
		items = append(items, `{"$tool":`+strconv.FormatInt(id, 10)+`}`...)
	}
	out := br.callName("branch.create", 0, append(items, `]}`...))
	h, err := strconv.ParseInt(string(out[1:]), 10, 64)
	if err != nil {
		b.Fatal(string(out))
	}
	op := br.opIndex("branch.match")
	p := []byte(`{"function":"tool_` + strconv.Itoa(n/2) + `","arguments":{"id":7,"label":"x"}}`)
	if out := br.call(op, h, p); out[0] != '0' {
		b.Fatal(string(out))
	}
	b.ReportAllocs()
	for b.Loop() {
		br.call(op, h, p)
	}
}

func BenchmarkBranchMatch10(b *testing.B)    { benchMatchMany(b, 10) }
func BenchmarkBranchMatch10000(b *testing.B) { benchMatchMany(b, 10000) }

// BenchmarkToolCreateTypical is tool.create of a typed JS tool on the typical schema, then its release.
func BenchmarkToolCreateTypical(b *testing.B) {
	br := New("v")
	create, release := br.opIndex("tool.create"), br.opIndex("tool.release")
	p := []byte(typicalSpec)
	b.ReportAllocs()
	for b.Loop() {
		out := br.call(create, 0, p)
		if out[0] != '0' {
			b.Fatal(string(out))
		}
		var id int64
		for i := len(`0{"id":`); i < len(out) && out[i] >= '0' && out[i] <= '9'; i++ {
			id = id*10 + int64(out[i]-'0')
		}
		br.call(release, id, nil)
	}
}

// BenchmarkToolColdTypical is one tool of the cold workload: tool.create
// of the typical tool, a branch holding it, one branch.validate (which
// builds what the create left for first need), then the releases.
func BenchmarkToolColdTypical(b *testing.B) {
	br := New("v")
	create, release := br.opIndex("tool.create"), br.opIndex("tool.release")
	branch, validate, drop := br.opIndex("branch.create"), br.opIndex("branch.validate"), br.opIndex("branch.release")
	p, call := []byte(typicalSpec), []byte(typicalCall)
	b.ReportAllocs()
	for b.Loop() {
		out := br.call(create, 0, p)
		var id int64
		for i := len(`0{"id":`); i < len(out) && out[i] >= '0' && out[i] <= '9'; i++ {
			id = id*10 + int64(out[i]-'0')
		}
		out = br.call(branch, 0, []byte(`{"items":[{"$tool":`+strconv.FormatInt(id, 10)+`}]}`))
		h, err := strconv.ParseInt(string(out[1:]), 10, 64)
		if err != nil {
			b.Fatal(string(out))
		}
		if out := br.call(validate, h, call); out[0] != '0' {
			b.Fatal(string(out))
		}
		br.call(drop, h, nil)
		br.call(release, id, nil)
	}
}

// BenchmarkBranchValidateInvalid is branch.validate of a call that breaks two rules of the typical schema.
func BenchmarkBranchValidateInvalid(b *testing.B) {
	br, h := benchBranch(b)
	i := br.opIndex("branch.validate")
	p := []byte(`{"function":"search","arguments":{"query":"","limit":0,"order":"asc"}}`)
	if out := br.call(i, h, p); out[0] != '1' {
		b.Fatal(string(out))
	}
	b.ReportAllocs()
	for b.Loop() {
		br.call(i, h, p)
	}
}
