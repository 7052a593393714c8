package core

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// schemaDecodeSeeds are texts at the edges the two decoders must agree on.
var schemaDecodeSeeds = []string{
	`{"type":"object","properties":{"a":{"type":"string"},"b":{"enum":[1,"x",null,true,false]}},"required":["a"]}`,
	`{"properties":{"z":{},"a":{}, "m" : {}}}`, `true`, `[1,2]`, `"s"`, `1e5`, `{"a":1e1001}`, `{"a":1e-1001}`,
	`{"a":` + strings.Repeat("9", 1001) + `}`, `{"a":0.` + strings.Repeat("0", 1000) + `1}`,
	`{"a":1,"a":2}`, `{"\u0061":1,"a":2}`, `{"a":"\ud800"}`, `{"d":"\n\u00e9\"é"}`, `{} x`, `{}  `, `{"a":[}`,
	`{"dependentRequired":{"x":["` + strings.Repeat("k", MaxSchemaKeyLength+1) + `"]}}`,
	`{"dependencies":{"x":[["` + strings.Repeat("k", MaxSchemaKeyLength+1) + `"]]}}`,
	`{"required":["` + strings.Repeat("k", MaxSchemaKeyLength+1) + `"]}`,
	`{"` + strings.Repeat("k", MaxSchemaKeyLength+1) + `":1}`,
	`{"enum":[` + strings.Repeat(`1,`, MaxSchemaEnumValues) + `1]}`,
	`{"properties":{"properties":{"x":{}}}}`,
}

// checkSchemaDecoders holds decodeSchemaTape to decodeSchemaTokens: when the
// tape answers, the tokens accept the text with the same tree and the same
// root property names.
func checkSchemaDecoders(t *testing.T, data []byte) {
	doc, props, ok := decodeSchemaTape(data)
	if !ok {
		return
	}
	want, wantProps, err := decodeSchemaTokens(data)
	if err != nil {
		t.Fatalf("%.200q: the tape accepts what the tokens refuse: %v", data, err)
	}
	if !reflect.DeepEqual(doc, want) || !reflect.DeepEqual(props, wantProps) {
		t.Fatalf("%.200q: got %v %v, want %v %v", data, doc, props, want, wantProps)
	}
}

// TestSchemaDecodersAgree runs the differential on the seeds and on every
// JSON file of the fixtures.
func TestSchemaDecodersAgree(t *testing.T) {
	for _, s := range schemaDecodeSeeds {
		checkSchemaDecoders(t, []byte(s))
	}
	answered := 0
	for _, root := range []string{"testdata", "../tests/fixtures"} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
				data, _ := os.ReadFile(path)
				checkSchemaDecoders(t, data)
				answered++
			}
			return nil
		})
	}
	if answered == 0 {
		t.Fatal("no fixture files read")
	}
	// the tape must answer the common case, or the fast way is dead code
	if _, _, ok := decodeSchemaTape([]byte(schemaDecodeSeeds[0])); !ok {
		t.Fatal("the tape declined a plain schema")
	}
}

// FuzzSchemaDecode is the differential on any text.
func FuzzSchemaDecode(f *testing.F) {
	for _, s := range schemaDecodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSchemaDecoders(t, data)
	})
}
