package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// treeKeys is the docKeys of a decoded document, found by walking it.
func treeKeys(v any) docKeys {
	var d docKeys
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			d |= keyKinds(k) | treeKeys(c)
		}
	case []any:
		for _, c := range v {
			d |= treeKeys(c)
		}
	}
	return d
}

// checkShortcuts holds the walks a compile skips to what they would find:
// the tape's docKeys are the document's, checkWalk refuses nothing in a
// document without a walk keyword, and every reference is local in one
// without a reference keyword.
func checkShortcuts(t *testing.T, schema []byte) {
	t.Helper()
	tp := parseSchemaTape(schema)
	if tp == nil {
		return
	}
	d, ok := buildSchemaTape(schema, tp.Tokens)
	schemaTapes.Put(tp)
	if !ok {
		return
	}
	require.Equal(t, treeKeys(d.doc), d.keys, "%.200s", schema)
	if d.keys&keysRef == 0 {
		require.True(t, onlyLocalRefs(d.doc, true), "%.200s", schema)
	}
	refs, local := localRefs(d.doc)
	if local && d.keys&keysWalk == 0 {
		require.Nil(t, checkWalk(d.doc, refs), "%.200s", schema)
	}
}

// TestCompileShortcuts runs checkShortcuts over generated schemas, the
// JSON-Schema-Test-Suite and schemas at the limits of nesting and width.
func TestCompileShortcuts(t *testing.T) {
	require.GreaterOrEqual(t, MaxRefExpansion, 1)
	require.GreaterOrEqual(t, MaxRefDepth, MaxArgumentDepth+1, "one subschema a level: the chain walkKeyword promises")
	for i := 0; i < 2000; i++ {
		g := &schemaGen{fixture.Choices{Seed: uint64(i)*0x9e3779b97f4a7c15 + 1}}
		checkShortcuts(t, g.schema())
	}
	for _, file := range fixture.SchemaSuite.Files(t, suiteDir) {
		var groups []suiteGroup
		fixture.SchemaSuite.Load(t, suiteDir, file, &groups)
		for _, g := range groups {
			checkShortcuts(t, g.Schema)
		}
	}
	deep := strings.Repeat(`{"items":`, 31) + `{"type":"string"}` + strings.Repeat(`}`, 31)
	wide := `{"$schema":"http://json-schema.org/draft-07/schema#","items":[` + strings.Repeat(`true,`, 3000) + `true],"additionalItems":{"properties":{"a":` + deep + `}}}`
	names := `{"propertyNames":{"maxLength":3},"additionalProperties":` + deep + `,"properties":{"id":{"type":"string"}}}`
	for _, s := range []string{deep, wide, names} {
		checkShortcuts(t, []byte(s))
		_, err := CompileSchema("t", []byte(s))
		assert.NoError(t, err)
	}
}
