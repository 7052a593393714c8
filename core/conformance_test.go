package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// suiteDir holds the JSON-Schema-Test-Suite's draft 2020-12 tests, under
// tests/json-schema-test-suite.
const suiteDir = "draft2020-12"

// suiteGroup is one group of a suite file.
type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// knownSuiteFailures lists the suite cases where toolgate's verdict differs
// from the suite's, keyed "file / group / test", with the reason. Each must
// still differ (so the list cannot go stale).
var knownSuiteFailures = map[string]string{
	"dynamicRef / $dynamicRef skips over intermediate resources - direct reference / integer property passes": dynamicRefScope,
	"dynamicRef / $dynamicRef skips over intermediate resources - direct reference / string property fails":   dynamicRefScope,
}

// dynamicRefScope is why the two dynamicRef cases above fail.
const dynamicRefScope = "jsonschema v5.3.1 counts the lexically enclosing resource \"bar\" in the dynamic scope " +
	"of a $dynamicRef reached through a plain $ref, so bar's string anchor wins; the suite skips that resource and " +
	"wants the integer anchor. Fixing it means patching the library; Pydantic and MCP schemas do not use $dynamicRef."

// needsRemote reports whether compiling schema makes the validator ask for a
// document from outside it, using the library's compiler with a loader that
// only records (the suite's remotes are served from localhost:1234).
func needsRemote(schema json.RawMessage) bool {
	asked := false
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(string) (io.ReadCloser, error) {
		asked = true
		return nil, errors.New("not served")
	}
	if err := c.AddResource(schemaBaseURL, bytes.NewReader(schema)); err != nil {
		return false
	}
	_, _ = c.Compile(schemaBaseURL)
	return asked
}

// TestConformanceSuite runs every group of the draft 2020-12 suite through
// CompileSchema and validation without coercion, and asserts the suite's
// verdicts. Groups that need a remote document must be refused with
// invalid-schema, and are asserted to be.
func TestConformanceSuite(t *testing.T) {
	files := fixture.SchemaSuite.Files(t, suiteDir)
	seen := map[string]bool{}
	var passed, refused int
	for _, file := range files {
		name := strings.TrimSuffix(file, ".json")
		var groups []suiteGroup
		fixture.SchemaSuite.Load(t, suiteDir, file, &groups)
		t.Run(name, func(t *testing.T) {
			for _, g := range groups {
				t.Run(g.Description, func(t *testing.T) {
					cs, err := CompileSchema("suite", g.Schema)
					if needsRemote(g.Schema) {
						require.Error(t, err, "got a schema that needs a remote document compiled, want it refused")
						assert.ErrorIs(t, err, ErrInvalidSchema, "got %v, want invalid-schema", err)
						assert.True(t, errors.Is(err, errRefRefused), "got %v, want the remote-load refusal", err)
						refused++
						t.Logf("refused as expected: needs a remote document (%v)", err)
						return
					}
					require.NoError(t, err, "got %v, want the schema to compile", err)
					for _, tc := range g.Tests {
						key := name + " / " + g.Description + " / " + tc.Description
						dec := json.NewDecoder(bytes.NewReader(tc.Data))
						dec.UseNumber()
						var v any
						require.NoError(t, dec.Decode(&v))
						verr := cs.validateValue("suite", v)
						got := verr == nil
						if reason, known := knownSuiteFailures[key]; known {
							seen[key] = true
							assert.NotEqual(t, tc.Valid, got, "%s: listed as a known failure (%s) but now passes; remove it", key, reason)
							continue
						}
						if assert.Equal(t, tc.Valid, got, "%s: got valid=%v, want %v (%v)", key, got, tc.Valid, verr) {
							passed++
						}
					}
				})
			}
		})
	}
	for key := range knownSuiteFailures {
		assert.True(t, seen[key], "known failure %q matches no suite case", key)
	}
	t.Logf("%d suite cases agree, %d groups refused for needing remote documents, %d known failures", passed, refused, len(knownSuiteFailures))
}

// TestConformanceSuiteFastPath runs the same suite through the fast path:
// wherever it covers a schema (and can read the instance on a tape), its
// verdict and issues must be today's path's, case by case. It logs how many
// cases it covers.
func TestConformanceSuiteFastPath(t *testing.T) {
	var total, covered int
	for _, file := range fixture.SchemaSuite.Files(t, suiteDir) {
		var groups []suiteGroup
		fixture.SchemaSuite.Load(t, suiteDir, file, &groups)
		for _, g := range groups {
			cs, err := CompileSchema("suite", g.Schema)
			total += len(g.Tests)
			if err != nil || cs.parts().fast == nil {
				continue
			}
			for _, tc := range g.Tests {
				key := strings.TrimSuffix(file, ".json") + " / " + g.Description + " / " + tc.Description
				dec := json.NewDecoder(bytes.NewReader(tc.Data))
				dec.UseNumber()
				var v any
				require.NoError(t, dec.Decode(&v))
				want := cs.validateValue("suite", v)
				got, handled := fastValidateValue(cs, tc.Data)
				if !handled {
					continue
				}
				covered++
				if want == nil || got == nil {
					assert.Equal(t, want == nil, got == nil, "%s: full path %v, fast path %v", key, want, got)
					continue
				}
				assert.Equal(t, want.Issues, got.Issues, "%s: issues", key)
				assert.Equal(t, want.Message, got.Message, "%s: message", key)
			}
		}
	}
	t.Logf("the fast path covers %d of the suite's %d cases (%.1f%%) and agrees with the full path on each", covered, total, 100*float64(covered)/float64(total))
}
