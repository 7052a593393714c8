package core

import (
	"bytes"
	"encoding/json"
	"testing"
)

// checkCompact holds compactJSON to json.Compact: the same text, the same
// refusal.
func checkCompact(t *testing.T, src []byte) {
	var got, want bytes.Buffer
	gotErr, wantErr := compactJSON(&got, src), json.Compact(&want, src)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%q: got error %v, want %v", src, gotErr, wantErr)
	}
	if gotErr == nil && !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%q: got %q, want %q", src, got.Bytes(), want.Bytes())
	}
}

var compactSeeds = []string{`{"a":[1,2,{"b":"x y"}]}`, `{ "a" : 1 }`, `{"a":"\" "}`, `[1,]`, `{"a":1,"a":2}`, `{"\u0061":1}`,
	`"\u2028"`, "\"\xff\"", `{"a":1} `, `{} {}`, `1e5`, `tru`, ``}

// TestCompactJSON runs the comparison on the seeds.
func TestCompactJSON(t *testing.T) {
	for _, s := range compactSeeds {
		checkCompact(t, []byte(s))
	}
}

// FuzzCompactJSON runs it on any text.
func FuzzCompactJSON(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkCompact)
}
