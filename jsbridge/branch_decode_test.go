package jsbridge

import (
	"reflect"
	"testing"
)

var branchSeeds = []string{
	`{"items":[{"$tool":1},{"$tool":2}],"update":true}`, `{"items":[],"update":false}`, `{"items":[{"$callable":3}]}`,
	`{"items":[null]}`, `{"items":["name", true, [1, {"$tool":1}], {"$schema":{"type":"object"}}]}`,
	`{"items":null}`, `{"update":null}`, `{"Items":[]}`, `{"items":[],"items":[]}`, `{"bogus":1}`, `[1]`, `{"items":[1]} x`,
	`{"$tool":1}`, `{"$callable":2}`, `{"$tool":1.0}`, `{"$tool":-0}`, `{"$tool":99999999999999999999}`, `{"$tool":"1"}`,
	`{"$tool":null}`, `{"$TOOL":1}`, `{"$tool":1,"$callable":2}`, `{}`, `{"$mcp":{"s":{}}}`, `{"$type":"symbol"}`, `{"\u0024tool":1}`,
}

// checkBranchDecode holds the branch payload's and a reference's tape
// readers to decodeStrict: when a tape answers, decodeStrict takes the
// text and fills the same value.
func checkBranchDecode(t *testing.T, payload []byte) {
	var got registerPayload
	if decodeRegisterTape(payload, &got) {
		var want registerPayload
		if err := decodeStrict(payload, &want, "branch options"); err != nil {
			t.Fatalf("%q: the tape accepts what decodeStrict refuses: %v", payload, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\ngot  %#v\nwant %#v", payload, got, want)
		}
	}
	var gotRef ref
	if decodeRefTape(payload, &gotRef) {
		var want ref
		if err := decodeStrict(payload, &want, "reference"); err != nil {
			t.Fatalf("%q: the tape accepts a reference decodeStrict refuses: %v", payload, err)
		}
		if !reflect.DeepEqual(gotRef, want) {
			t.Fatalf("%q:\ngot  %#v\nwant %#v", payload, gotRef, want)
		}
	}
}

// TestBranchDecoders runs the comparison on the seeds, and checks the
// tapes answer what JS sends.
func TestBranchDecoders(t *testing.T) {
	for _, s := range branchSeeds {
		checkBranchDecode(t, []byte(s))
	}
	var p registerPayload
	for _, s := range branchSeeds[:3] {
		if !decodeRegisterTape([]byte(s), &p) {
			t.Fatalf("%s: the tape declined a payload JS sends", s)
		}
	}
	var r ref
	for _, s := range []string{`{"$tool":1}`, `{"$callable":2}`} {
		if !decodeRefTape([]byte(s), &r) {
			t.Fatalf("%s: the tape declined a reference JS sends", s)
		}
	}
}

// FuzzBranchDecode runs it on any payload.
func FuzzBranchDecode(f *testing.F) {
	for _, s := range branchSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkBranchDecode)
}
