package core

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// invalidLookalikes are schemas that look valid but that the metaschema (or
// the validator's compile) refuses: sureValid must never be sure of them.
var invalidLookalikes = []string{
	`{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}`,
	`{"type":"object","properties":{"a":{"type":"string","minLength":1.5}}}`,
	`{"type":"object","properties":{"a":{"type":"string","maxLength":"3"}}}`,
	`{"type":"object","required":["a","a"]}`,
	`{"type":"object","required":[1]}`,
	`{"type":"object","required":"a"}`,
	`{"type":[]}`,
	`{"type":["string","string"]}`,
	`{"type":"text"}`,
	`{"allOf":[]}`,
	`{"anyOf":[]}`,
	`{"prefixItems":[]}`,
	`{"properties":{"a":{"type":"string","pattern":"(?=a)"}}}`,
	`{"properties":{"a":{"pattern":"["}}}`,
	`{"$defs":{"x":5},"type":"object"}`,
	`{"definitions":{"x":"s"},"type":"object"}`,
	`{"title":3,"type":"object"}`,
	`{"description":false}`,
	`{"properties":{"a":{"deprecated":"yes"}}}`,
	`{"examples":{"a":1}}`,
	`{"enum":"a"}`,
	`{"multipleOf":0}`,
	`{"multipleOf":-2}`,
	`{"minimum":"1"}`,
	`{"uniqueItems":1}`,
	`{"properties":5}`,
	`{"properties":{"a":3}}`,
	`{"items":[{"type":"string"}]}`,
	`{"additionalProperties":"no"}`,
	`{"$ref":"#/$defs/missing"}`,
	`{"$ref":"#/$defs/x/enum/0","$defs":{"x":{"enum":[{"type":"string"}]}}}`,
	`{"$ref":5}`,
	`{"$ref":"#/a b"}`,
	`{"$ref":"https://example.com/s.json"}`,
	`{"$defs":{"a":{"$schema":"http://json-schema.org/draft-07/schema#"}}}`,
	`{"$defs":{"a":{"not":{"minLength":-1}}}}`,
	`{"$comment":1}`,
	`{"format":2}`,
	`{"contentSchema":3}`,
	`{"contentEncoding":[]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","enum":[]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","enum":["a","a"]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","items":[]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"minLength":-1}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","required":["a","a"]}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}`,
}

// decodeForCheck decodes a schema as CompileSchema does before it compiles
// with the validator; false when CompileSchema refuses it before then.
func decodeForCheck(schema []byte) (doc any, local, ok bool) {
	if len(schema) > MaxSchemaBytes || !utf8.Valid(schema) || jsontext.Scan(schema, MaxSchemaDepth, false).TooDeep {
		return nil, false, false
	}
	doc, _, err := decodeSchema(schema)
	if err != nil {
		return nil, false, false
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, false, false
	}
	refs, local := localRefs(doc)
	if local && checkWalk(doc, refs) != nil {
		return nil, false, false
	}
	return doc, local, true
}

// checkSure fails t when sureValid is sure of a schema the validator does
// not compile, or when CompileSchema deferred a compile that fails. It
// reports whether sureValid was sure and whether the compile was deferred.
func checkSure(t testing.TB, schema []byte) (sure, deferred bool) {
	t.Helper()
	doc, local, ok := decodeForCheck(schema)
	if !ok || !local {
		return false, false
	}
	sure = sureValid(doc)
	tracked := &metaWalk{schemas: map[string]bool{}, inPlace: map[string][]string{}}
	if m, ok := doc.(map[string]any); ok {
		tracked.draft7 = isDraft07(m["$schema"])
	}
	trackedSure := tracked.schema(doc, "", true) && !tracked.loops()
	for _, r := range tracked.refs {
		trackedSure = trackedSure && tracked.schemas[r]
	}
	require.Equal(t, trackedSure, sure, "sureValid's untracked walk disagrees with the tracked one on %s", schema)
	_, cerr := compileValidator("t", schema, doc, local)
	if sure {
		require.Nil(t, cerr, "sureValid is sure of %s, which the validator refuses", schema)
	}
	cs, err := CompileSchema("t", schema)
	if err != nil {
		require.NotNil(t, cerr, "CompileSchema refuses %s, which the validator compiles: %v", schema, err)
		return sure, false
	}
	require.Nil(t, cerr, "CompileSchema accepts %s, which the validator refuses: %v", schema, cerr)
	deferred = cs.full.ready.Load() == nil
	if deferred {
		require.True(t, sure, "a compile is deferred only for a schema sureValid is sure of")
		_, verr := cs.validator("t")
		require.Nil(t, verr, "deferred compile of %s", schema)
	}
	return sure, deferred
}

func TestSureValidLookalikes(t *testing.T) {
	for _, s := range invalidLookalikes {
		doc, local, ok := decodeForCheck([]byte(s))
		if ok && local {
			assert.False(t, sureValid(doc), "sureValid is sure of %s", s)
		}
		checkSure(t, []byte(s))
	}
	for _, s := range []string{
		typicalSchema,
		`true`, `false`, `{}`,
		`{"type":["string","null"],"minLength":0,"maxLength":123456789}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"T","x-extra":{"$ref":5}}`,
		`{"$defs":{"n":{"properties":{"c":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`,
		`{"properties":{"a~b/c":{"type":"string"}},"$ref":"#/properties/a~0b~1c"}`,
		`{"examples":[1],"default":{"a":1},"deprecated":true,"enum":[],"const":{"x":[1]}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"m":{"type":"string","enum":["a","b"],"description":"d"}},"required":["m"],"additionalProperties":false}`,
	} {
		sure, deferred := checkSure(t, []byte(s))
		assert.True(t, sure, "sureValid is sure of %s", s)
		assert.True(t, deferred, "the compile of %s waits", s)
	}
}

// FuzzSureValid: whenever sureValid is sure of a schema, the validator
// compiles it; whenever CompileSchema defers a compile, it succeeds later.
func FuzzSureValid(f *testing.F) {
	for _, s := range invalidLookalikes {
		f.Add([]byte(s))
	}
	f.Add([]byte(typicalSchema))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSure(t, data)
	})
}

// TestSureValidCorpora runs checkSure over the fast path's generated
// schemas, the JSON-Schema-Test-Suite and the validation fixtures, and
// counts how many compiles wait.
func TestSureValidCorpora(t *testing.T) {
	var total, sure, deferred int
	count := func(schema []byte) {
		total++
		s, d := checkSure(t, schema)
		if s {
			sure++
		}
		if d {
			deferred++
		}
	}
	for i := 0; i < 3000; i++ {
		g := &schemaGen{fixture.Choices{Seed: uint64(i) * 0x2545f4914f6cdd1d}}
		count(g.schema())
	}
	for _, file := range fixture.SchemaSuite.Files(t, suiteDir) {
		var groups []suiteGroup
		fixture.SchemaSuite.Load(t, suiteDir, file, &groups)
		for _, g := range groups {
			count(g.Schema)
			for _, tc := range g.Tests {
				if bytes.HasPrefix(bytes.TrimSpace(tc.Data), []byte("{")) {
					count(tc.Data) // instances are often schema-like objects
				}
			}
		}
	}
	for _, file := range fixture.Files(t, validationFixtures) {
		var doc struct {
			Cases []validationCase `json:"cases"`
		}
		fixture.Load(t, validationFixtures, file, &doc)
		for _, tc := range doc.Cases {
			schema := []byte(tc.Schema)
			var text string
			if json.Unmarshal(tc.Schema, &text) == nil {
				schema = []byte(text)
			}
			count(schema)
		}
	}
	t.Logf("%d schemas: sureValid sure of %d, compile deferred for %d", total, sure, deferred)
}

// TestDeferredCompileConcurrent: many goroutines validating through the
// full validator of a deferred schema compile it once and agree.
func TestDeferredCompileConcurrent(t *testing.T) {
	cs, err := CompileSchema("search", json.RawMessage(typicalSchema))
	require.NoError(t, err)
	require.Nil(t, cs.full.ready.Load(), "the typical schema's compile waits")
	args, err := DecodeArguments("search", []byte(`{"query":"","limit":"0"}`))
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = cs.Normalize("search", args, CoerceLax)
		}()
	}
	wg.Wait()
	for _, e := range errs {
		require.Error(t, e)
		assert.Equal(t, errs[0].Error(), e.Error())
	}
	assert.NotNil(t, cs.full.ready.Load())
}
