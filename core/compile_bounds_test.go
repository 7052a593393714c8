package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// joinN writes n comma-separated items made by item(i).
func joinN(n int, item func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = item(i)
	}
	return strings.Join(parts, ",")
}

// refBomb is the fuzzer's $ref bomb: b_i is allOf (or anyOf, oneOf) of two
// references to b_{i-1}, so b_levels expands to 2^levels copies of b_0 in
// about 60 bytes a level. With atRoot the root refers to b_levels, otherwise
// the property "x" does. The root's value visits 2^(levels+2)-2 subschemas.
func refBomb(levels int, kw string, atRoot bool) string {
	var b strings.Builder
	b.WriteString(`{"$defs":{"b0":{"type":"integer"}`)
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, `,"b%d":{"%s":[{"$ref":"#/$defs/b%d"},{"$ref":"#/$defs/b%d"}]}`, i, kw, i-1, i-1)
	}
	if atRoot {
		fmt.Fprintf(&b, `},"$ref":"#/$defs/b%d"}`, levels)
	} else {
		fmt.Fprintf(&b, `},"properties":{"x":{"$ref":"#/$defs/b%d"}}}`, levels)
	}
	return b.String()
}

// anchorBomb is refBomb(levels, "allOf", false) written with anchors, or with
// an "$id" per definition: references only the validator resolves.
func anchorBomb(levels int, ids bool) string {
	name := func(i int) (decl, ref string) {
		if ids {
			return fmt.Sprintf(`"$id":"b%d.json"`, i), fmt.Sprintf("b%d.json", i)
		}
		return fmt.Sprintf(`"$anchor":"b%d"`, i), fmt.Sprintf("#b%d", i)
	}
	decl, _ := name(0)
	defs := []string{`"b0":{` + decl + `,"type":"integer"}`}
	for i := 1; i <= levels; i++ {
		decl, _ := name(i)
		_, prev := name(i - 1)
		defs = append(defs, fmt.Sprintf(`"b%d":{%s,"allOf":[{"$ref":%q},{"$ref":%q}]}`, i, decl, prev, prev))
	}
	_, top := name(levels)
	return fmt.Sprintf(`{"$defs":{%s},"properties":{"x":{"$ref":%q}}}`, strings.Join(defs, ","), top)
}

// refChain is a root that refers to d_n, each d_i allOf a reference to
// d_{i-1}: one value under a chain of 2n+2 subschemas.
func refChain(n int) string {
	defs := joinN(n+1, func(i int) string {
		if i == 0 {
			return `"d0":{"type":"object"}`
		}
		return fmt.Sprintf(`"d%d":{"allOf":[{"$ref":"#/$defs/d%d"}]}`, i, i-1)
	})
	return fmt.Sprintf(`{"$defs":{%s},"$ref":"#/$defs/d%d"}`, defs, n)
}

// wrapRecursion is a tree node whose child "c" reaches the node again under
// k nested allOf: every level of the arguments adds k+2 links to the
// validator's chain.
func wrapRecursion(k int) string {
	inner := `{"$ref":"#"}`
	for i := 0; i < k; i++ {
		inner = `{"allOf":[` + inner + `]}`
	}
	return `{"type":"object","properties":{"c":` + inner + `,"v":{"type":"integer"}}}`
}

// repeatJSON is n copies of item, comma-separated.
func repeatJSON(item string, n int) string {
	return joinN(n, func(int) string { return item })
}

// enumOf is an enum of n distinct strings.
func enumOf(n int) string {
	return `{"enum":[` + joinN(n, func(i int) string { return fmt.Sprintf(`"v%d"`, i) }) + `]}`
}

func TestCompileSchemaBoundsRefused(t *testing.T) {
	longKey := strings.Repeat("k", MaxSchemaKeyLength+1)
	tests := []struct {
		name    string
		schema  string
		keyword string
		path    string
	}{
		{"values past the limit", `{"examples":[` + repeatJSON("0", MaxSchemaValues-1) + `]}`, "maxValues", ""},
		{"invalid required names past the value limit", `{"required":[` + repeatJSON("1", MaxSchemaValues) + `]}`, "maxValues", ""},
		{"a long property name", `{"properties":{"` + longKey + `":{"type":"string"}}}`, "maxKeyLength", "/properties"},
		{"a long key anywhere", `{"$defs":{"` + longKey + `":{}}}`, "maxKeyLength", "/$defs"},
		{"a long keyword", `{"` + longKey + `":1}`, "maxKeyLength", ""},
		{"a long name in required", `{"required":["a","` + longKey + `"]}`, "maxKeyLength", "/required/1"},
		{"a long name in dependentRequired", `{"dependentRequired":{"a":["` + longKey + `"]}}`, "maxKeyLength", "/dependentRequired/a/0"},
		{"the fuzzer's long key over many errors", `{"properties":{"` + strings.Repeat("k", 200_000) + `":{"required":[` + repeatJSON("1", 1000) + `]}}}`, "maxKeyLength", "/properties"},
		{"one enum past the limit", `{"properties":{"a":` + enumOf(MaxSchemaEnumValues+1) + `}}`, "maxEnum", fmt.Sprintf("/properties/a/enum/%d", MaxSchemaEnumValues)},
		{"enums past the limit together", `{"properties":{"a":` + enumOf(MaxSchemaEnumValues/2) + `,"b":` + enumOf(MaxSchemaEnumValues/2+1) + `}}`, "maxEnum", fmt.Sprintf("/properties/b/enum/%d", MaxSchemaEnumValues/2)},
		{"the fuzzer's 20,000-entry enum in oneOf and allOf", `{"oneOf":[{"allOf":[` + enumOf(20000) + `]}]}`, "maxEnum", fmt.Sprintf("/oneOf/0/allOf/0/enum/%d", MaxSchemaEnumValues)},
		{"the fuzzer's $ref bomb, 16 levels of allOf", refBomb(16, "allOf", false), "maxRefExpansion", "/$defs/b16"},
		{"a $ref bomb of anyOf at the root", refBomb(12, "anyOf", true), "maxRefExpansion", "/$defs/b12"},
		{"a $ref bomb of oneOf, 8 levels", refBomb(8, "oneOf", false), "maxRefExpansion", "/$defs/b8"},
		{"a $ref bomb through anchors", anchorBomb(16, false), "maxRefExpansion", "/$defs/b16"},
		{"a $ref bomb across $id resources", anchorBomb(16, true), "maxRefExpansion", "/$defs/b16"},
		{"one anyOf branch too many", `{"anyOf":[` + repeatJSON("true", MaxRefExpansion) + `]}`, "maxRefExpansion", ""},
		{"recursion that doubles at every level", `{"type":"object","properties":{"a":{"allOf":[{"$ref":"#"},{"$ref":"#"}]}}}`, "maxRefExpansion", "/properties/a"},
		{"two union branches recursing through the same name",
			`{"$defs":{"e":{"oneOf":[{"$ref":"#/$defs/add"},{"$ref":"#/$defs/mul"}]},` +
				`"add":{"properties":{"op":{"const":"add"},"l":{"$ref":"#/$defs/e"},"r":{"$ref":"#/$defs/e"}}},` +
				`"mul":{"properties":{"op":{"const":"mul"},"l":{"$ref":"#/$defs/e"},"r":{"$ref":"#/$defs/e"}}}},"$ref":"#/$defs/e"}`,
			"maxRefExpansion", "/$defs/e"},
		{"a $ref chain one link too long", refChain((MaxRefDepth-2)/2 + 1), "maxRefDepth", ""},
		{"recursion adding five links a level", wrapRecursion(3), "maxRefDepth", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := compileErr(t, tc.schema)
			assert.Equal(t, CodeInvalidSchema, e.Code, "got %v, want invalid-schema", e)
			require.Len(t, e.Issues, 1, "got issues %v, want one naming the limit", e.Issues)
			assert.Equal(t, tc.keyword, e.Issues[0].Keyword, "got %v, want keyword %s", e.Issues[0], tc.keyword)
			assert.Equal(t, tc.path, e.Issues[0].Path, "got %v, want path %q", e.Issues[0], tc.path)
			assert.LessOrEqual(t, len(e.Message), MaxErrorMessageBytes+len("…"), "got a message of %d bytes", len(e.Message))
		})
	}
}

func TestCompileSchemaBoundsAccepted(t *testing.T) {
	key := strings.Repeat("k", MaxSchemaKeyLength)
	tests := []struct {
		name   string
		schema string
	}{
		{"values at the limit", `{"examples":[` + repeatJSON("0", MaxSchemaValues-2) + `]}`},
		{"a property name at the limit", `{"properties":{"` + key + `":{"type":"string"}},"required":["` + key + `"]}`},
		{"enums at the limit together", `{"properties":{"a":` + enumOf(MaxSchemaEnumValues/2) + `,"b":` + enumOf(MaxSchemaEnumValues/2) + `}}`},
		{"a $ref bomb small enough", refBomb(7, "allOf", false)},
		{"a $ref bomb through anchors small enough", anchorBomb(7, false)},
		{"a $ref bomb across $id resources small enough", anchorBomb(7, true)},
		{"references from odd property names, resolved by the validator",
			`{"$defs":{"x":{"$id":"x.json","type":"integer"}},"properties":{"a b/c~d%":{"$ref":"x.json"},"é":{"$ref":"#/$defs/x"}}}`},
		{"anyOf branches at the limit", `{"anyOf":[` + repeatJSON("true", MaxRefExpansion-1) + `]}`},
		{"a union referred to from every property", `{"$defs":{"u":{"anyOf":[` + repeatJSON(`{"type":"object","properties":{"n":{"type":"integer"}}}`, 30) +
			`]}},"properties":{` + joinN(800, func(i int) string { return fmt.Sprintf(`"p%d":{"$ref":"#/$defs/u"}`, i) }) + `}}`},
		{"a $ref chain at the limit", refChain((MaxRefDepth - 2) / 2)},
		{"recursion adding four links a level", wrapRecursion(2)},
		{"the 2020-12 metaschema", `{"$ref":"https://json-schema.org/draft/2020-12/schema"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CompileSchema("t", json.RawMessage(tc.schema))
			assert.NoError(t, err, "got %v, want the schema accepted", err)
		})
	}
}

// TestCompileSchemaRecursiveStillValidates: self-referencing schemas (a tree
// node, a Pydantic model through $defs, zod's JSON value) are within every
// bound, and validate arguments nested as deep as arguments may be.
func TestCompileSchemaRecursiveStillValidates(t *testing.T) {
	deep := func(inner string, wrap func(string) string) string {
		for i := 0; i < MaxArgumentDepth-2; i++ {
			inner = wrap(inner)
		}
		return inner
	}
	tests := []struct {
		name    string
		schema  string
		valid   string
		invalid string
		path    string // of the invalid arguments' issue
	}{
		{"tree node referring to the root",
			`{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}}}`,
			`{"name":"a","children":[{"name":"b","children":[{"name":"c"}]},{"name":"d"}]}`,
			`{"name":"a","children":[{"name":"b","children":[{"name":3}]}]}`, "/children/0/children/0/name"},
		{"Pydantic model through $defs",
			`{"$defs":{"Node":{"type":"object","properties":{"value":{"type":"integer"},"next":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}},"required":["value"]}},` +
				`"type":"object","properties":{"head":{"$ref":"#/$defs/Node"}},"required":["head"]}`,
			`{"head":` + deep(`{"value":1,"next":null}`, func(s string) string { return `{"value":1,"next":` + s + `}` }) + `}`,
			`{"head":{"value":1,"next":{"next":null}}}`, "/head/next/value"},
		{"zod JSON value",
			`{"$ref":"#/definitions/J","definitions":{"J":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"},` +
				`{"type":"array","items":{"$ref":"#/definitions/J"}},{"type":"object","additionalProperties":{"$ref":"#/definitions/J"}}]}}}`,
			`{"a":[1,"x",{"b":[null,true]}]}`,
			``, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := CompileSchema("tree", json.RawMessage(tc.schema))
			require.NoError(t, err, "got %v, want the recursive schema accepted", err)
			_, _, err = cs.Normalize("tree", mustDecode(t, tc.valid), CoerceNone)
			assert.NoError(t, err, "got %v, want the nested arguments valid", err)
			if tc.invalid == "" {
				return
			}
			_, _, err = cs.Normalize("tree", mustDecode(t, tc.invalid), CoerceNone)
			require.ErrorIs(t, err, ErrInvalidArguments)
			paths := issuePKs(AsError(err).Issues)
			assert.Contains(t, fmt.Sprint(paths), tc.path, "got %v, want an issue at %s", paths, tc.path)
		})
	}
}

// TestReportBounds: however many problems a schema or arguments have, and
// however long their names, an error lists at most MaxIssues issues plus one
// saying how many were left out, each message and the summary clipped.
func TestReportBounds(t *testing.T) {
	// Two bytes a rune, so clipping must not split one; room for a number.
	key := strings.Repeat("é", (MaxSchemaKeyLength-8)/2)
	many := func(n int, item func(i int) string) string { return joinN(n, item) }
	schemaErr := func(t *testing.T, schema string) *Error { return compileErr(t, schema) }
	argsErr := func(t *testing.T, schema, args string) *Error {
		cs, err := CompileSchema("mytool", json.RawMessage(schema))
		require.NoError(t, err)
		_, _, err = cs.Normalize("mytool", mustDecode(t, args), CoerceNone)
		require.Error(t, err)
		return AsError(err)
	}
	tests := []struct {
		name    string
		err     func(t *testing.T) *Error
		total   int // issues before the cut
		code    Code
		longest bool // some message would be longer than the limit
	}{
		{"invalid schema, many properties under a long key", func(t *testing.T) *Error {
			return schemaErr(t, strings.Repeat(`{"properties":{"`+key+`":`, 3)+`{"properties":{`+many(300, func(i int) string { return fmt.Sprintf(`"p%d":{"minimum":"x"}`, i) })+`}}`+strings.Repeat(`}}`, 3))
		}, 300, CodeInvalidSchema, true},
		{"invalid schema, many invalid names", func(t *testing.T) *Error {
			return schemaErr(t, `{"required":[`+many(5000, func(i int) string { return fmt.Sprint(i) })+`]}`)
		}, 5000, CodeInvalidSchema, false},
		{"arguments missing many required keys", func(t *testing.T) *Error {
			return argsErr(t, `{"required":[`+many(400, func(i int) string { return fmt.Sprintf(`"%s%d"`, key, i) })+`]}`, `{}`)
		}, 400, CodeInvalidArguments, false},
		{"an argument outside a large enum", func(t *testing.T) *Error {
			return argsErr(t, `{"properties":{"a":{"enum":[`+many(MaxSchemaEnumValues, func(i int) string { return fmt.Sprintf(`"%s%d"`, key, i) })+`]}}}`, `{"a":"nope"}`)
		}, 1, CodeInvalidArguments, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.err(t)
			assert.Equal(t, tc.code, e.Code)
			want := min(tc.total, MaxIssues)
			if tc.total > MaxIssues {
				want++
				last := e.Issues[len(e.Issues)-1]
				assert.Equal(t, "maxIssues", last.Keyword, "got %v, want the last issue to say the list was cut", last)
				assert.Contains(t, last.Message, fmt.Sprintf("%d more issues", tc.total-MaxIssues))
				assert.Contains(t, e.Message, fmt.Sprintf("%d more issues", tc.total-MaxIssues), "got %q, want the summary to say so", e.Message)
			}
			assert.Len(t, e.Issues, want, "got %d issues, want %d", len(e.Issues), want)
			clipped := false
			for _, is := range e.Issues {
				assert.LessOrEqual(t, len(is.Message), MaxIssueMessageBytes+len("…"), "got a message of %d bytes", len(is.Message))
				assert.True(t, utf8.ValidString(is.Message), "got a message cut inside a rune: %q", is.Message)
				clipped = clipped || strings.HasSuffix(is.Message, "…")
			}
			assert.Equal(t, tc.longest, clipped, "got clipped messages %v, want %v", clipped, tc.longest)
			assert.LessOrEqual(t, len(e.Message), MaxErrorMessageBytes+len("…"))
			blob, err := json.Marshal(e)
			require.NoError(t, err)
			limit := (MaxIssues+1)*(MaxIssueMessageBytes+MaxSchemaDepth*(MaxSchemaKeyLength+1)+100) + MaxErrorMessageBytes
			assert.Less(t, len(blob), limit, "got a report of %d bytes", len(blob))
		})
	}
}
