package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The schema families below grow with n and stay within every bound, so the
// benchmarks show how compile and validation time grow with schema size:
// run `go test -run '^$' -bench 'CompileSchema|ValidateGrowing' ./core/` and
// compare n with 2n.

// benchSizes are the sizes each family is measured at.
var benchSizes = []int{125, 250, 500, 1000}

// propertiesSchema has n-2 integer properties at the root: n objects.
func propertiesSchema(n int) string {
	return `{"type":"object","properties":{` + joinN(n-2, func(i int) string {
		return fmt.Sprintf(`"p%d":{"type":"integer"}`, i)
	}) + `}}`
}

// longKeysSchema puts n-18 properties under eight nested properties whose
// names are as long as MaxSchemaKeyLength allows, so every pointer into it is
// over 2 KB long: n objects.
func longKeysSchema(n int) string {
	key := strings.Repeat("k", MaxSchemaKeyLength)
	return strings.Repeat(`{"properties":{"`+key+`":`, 8) +
		`{"properties":{` + joinN(n-18, func(i int) string { return fmt.Sprintf(`"p%d":{"minimum":%d}`, i, i) }) + `}}` +
		strings.Repeat(`}}`, 8)
}

// enumSchema is one enum of 2n strings (at most MaxSchemaEnumValues) below
// oneOf and allOf, under a long property name.
func enumSchema(n int) string {
	key := strings.Repeat("e", MaxSchemaKeyLength)
	return `{"properties":{"` + key + `":{"oneOf":[{"allOf":[{"enum":[` +
		joinN(2*n, func(i int) string { return fmt.Sprintf(`"value-%d"`, i) }) + `]}]},{"type":"null"}]}}}`
}

// unionSchema nests allOf, oneOf and anyOf about n objects deep in total:
// each level holds two copies of the level below.
func unionSchema(n int) string {
	levels := 0
	for size := 7; size*2+5 <= n; size = size*2 + 5 {
		levels++
	}
	var level func(d int) string
	level = func(d int) string {
		if d == 0 {
			return `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"boolean"}}}`
		}
		c := level(d - 1)
		return `{"allOf":[{"oneOf":[` + c + `,{"type":"null"}]},{"anyOf":[` + c + `,{"type":"string"}]}]}`
	}
	return `{"properties":{"u":` + level(levels) + `}}`
}

// sharedDefSchema has n/4 properties that each refer to one union of eight
// object shapes, so each property's value meets about 25 subschemas.
func sharedDefSchema(n int) string {
	shape := func(i int) string {
		return fmt.Sprintf(`{"type":"object","properties":{"kind":{"const":"k%d"},"size":{"type":"integer"}}}`, i)
	}
	return `{"$defs":{"u":{"anyOf":[` + joinN(8, shape) + `]}},"type":"object","properties":{` +
		joinN(n/4, func(i int) string { return fmt.Sprintf(`"p%d":{"$ref":"#/$defs/u"}`, i) }) + `}}`
}

// refChainSchema is a chain of n/8 definitions, each one allOf the previous,
// each adding a property: the root's value meets every one, in a chain of
// n/4 subschemas. n/2 objects.
func refChainSchema(n int) string {
	defs := joinN(n/8, func(i int) string {
		if i == 0 {
			return `"d0":{"properties":{"f0":true}}`
		}
		return fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"}],"properties":{"f%d":{"type":"integer"}}}`, i, i-1, i)
	})
	return fmt.Sprintf(`{"$defs":{%s},"$ref":"#/$defs/d%d"}`, defs, n/8-1)
}

// invalidSchema has n-2 properties whose every "minimum" is a string: n
// objects, n-2 metaschema issues.
func invalidSchema(n int) string {
	return `{"properties":{` + joinN(n-2, func(i int) string { return fmt.Sprintf(`"p%d":{"minimum":"x"}`, i) }) + `}}`
}

// benchFamilies are the growing schema families, with arguments that fail
// each (for the validation benchmark).
var benchFamilies = []struct {
	name   string
	schema func(n int) string
	args   string // "" for a schema the metaschema refuses
}{
	{"Properties", propertiesSchema, `{"p0":"x","p1":"y"}`},
	{"LongKeys", longKeysSchema, strings.Repeat(`{"`+strings.Repeat("k", MaxSchemaKeyLength)+`":`, 8) + `{"p1":0}` + strings.Repeat(`}`, 8)},
	{"Enum", enumSchema, `{"` + strings.Repeat("e", MaxSchemaKeyLength) + `":"nope"}`},
	{"Unions", unionSchema, `{"u":{"a":"x","b":1}}`},
	{"SharedDef", sharedDefSchema, `{"p0":{"kind":"k9","size":"big"},"p1":{"kind":1}}`},
	{"RefChain", refChainSchema, `{"f1":"x","f2":"y"}`},
	{"Invalid", invalidSchema, ``},
}

// BenchmarkCompileSchemaGrowing compiles each family at growing sizes
// (schemas that the metaschema refuses included: building the report is part
// of the cost).
func BenchmarkCompileSchemaGrowing(b *testing.B) {
	for _, f := range benchFamilies {
		for _, n := range benchSizes {
			schema := json.RawMessage(f.schema(n))
			b.Run(fmt.Sprintf("%s/n=%d", f.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(schema)))
				for b.Loop() {
					_, _ = CompileSchema("bench", schema)
				}
			})
		}
	}
}

// BenchmarkValidateGrowing validates failing arguments against each family
// at growing sizes.
func BenchmarkValidateGrowing(b *testing.B) {
	for _, f := range benchFamilies {
		if f.args == "" {
			continue
		}
		for _, n := range benchSizes {
			cs, err := CompileSchema("bench", json.RawMessage(f.schema(n)))
			if err != nil {
				b.Fatalf("%s/%d: %v", f.name, n, err)
			}
			args := mustDecode(b, f.args)
			b.Run(fmt.Sprintf("%s/n=%d", f.name, n), func(b *testing.B) {
				for b.Loop() {
					if _, _, err := cs.Normalize("bench", args, CoerceLax); err == nil {
						b.Fatal("want the arguments refused")
					}
				}
			})
		}
	}
}

// wideSharedDefSchema has n/2 properties that each refer to one union of
// n/16 object shapes: the plan builder meets the union once per property.
func wideSharedDefSchema(n int) string {
	shape := func(i int) string {
		return fmt.Sprintf(`{"type":"object","properties":{"k%d":{"type":"integer"}}}`, i)
	}
	return `{"$defs":{"u":{"anyOf":[` + joinN(n/16, shape) + `]}},"type":"object","properties":{` +
		joinN(n/2, func(i int) string { return fmt.Sprintf(`"p%d":{"$ref":"#/$defs/u"}`, i) }) + `}}`
}

// BenchmarkCompileStepsGrowing measures toolgate's own steps of a compile,
// without the validator's: decoding the document (with its limits), building
// the coercion plan and the root's keys, and bounding the validator's walk.
func BenchmarkCompileStepsGrowing(b *testing.B) {
	families := append(benchFamilies[:len(benchFamilies):len(benchFamilies)], struct {
		name   string
		schema func(n int) string
		args   string
	}{"WideSharedDef", wideSharedDefSchema, ""})
	for _, f := range families {
		for _, n := range benchSizes {
			schema := []byte(f.schema(n))
			doc, _, err := decodeSchema(schema)
			if err != nil {
				b.Fatalf("%s/%d: %v", f.name, n, err)
			}
			b.Run(fmt.Sprintf("decode/%s/n=%d", f.name, n), func(b *testing.B) {
				for b.Loop() {
					_, _, _ = decodeSchema(schema)
				}
			})
			b.Run(fmt.Sprintf("plan/%s/n=%d", f.name, n), func(b *testing.B) {
				for b.Loop() {
					pb := newPlanBuilder(doc)
					pb.build([]string{""})
					pb.rootKeys()
				}
			})
			refs, local := localRefs(doc)
			if !local {
				b.Fatalf("%s/%d: want local references only", f.name, n)
			}
			b.Run(fmt.Sprintf("walk/%s/n=%d", f.name, n), func(b *testing.B) {
				for b.Loop() {
					if err := checkWalk(doc, refs); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
