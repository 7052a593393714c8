package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func exampleTool(t *testing.T, description string) *core.Tool {
	t.Helper()
	params := `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`
	h := core.HandlerFunc("forecast", func(_ context.Context, a *core.Arguments) (any, error) { return a, nil })
	tool, err := core.NewTool(h, &core.ToolOptions{Description: description, Parameters: json.RawMessage(params),
		InputExamples: []json.RawMessage{json.RawMessage(`{"city":"Oslo","days":3}`), json.RawMessage(`{"city": "Paris"}`)}})
	require.NoError(t, err)
	return tool
}

// Anthropic gets the examples in input_examples with nothing to report;
// every other target gets them folded into the description, reported
// once per tool; strict mode leaves them as they are (they are text).
func TestExportInputExamples(t *testing.T) {
	const folded = "Weather ahead.\n\nExamples of valid arguments: {\"city\":\"Oslo\",\"days\":3}; {\"city\":\"Paris\"}"
	cases := []struct {
		target      string
		opts        *ExportOptions
		description string // the exported description, read at descPath
	}{
		{core.ProviderOpenAIChat, nil, folded},
		{core.ProviderOpenAIChat, &ExportOptions{Strict: true}, folded},
		{core.ProviderOpenAIResponses, nil, folded},
		{core.ProviderGemini, nil, folded},
		{core.ProviderGemini, &ExportOptions{GeminiLegacy: true}, folded},
		{MCP, nil, folded},
		{core.ProviderAnthropic, nil, "Weather ahead."},
	}
	for _, tc := range cases {
		t.Run(tc.target, func(t *testing.T) {
			tool := exampleTool(t, "Weather ahead.")
			ex, err := ExportTools([]*core.Tool{tool}, tc.target, tc.opts)
			require.NoError(t, err)
			decl := declarationOf(t, tc.target, ex.Tools)
			assert.Equal(t, tc.description, decl["description"])
			var kinds []ChangeKind
			for _, c := range ex.Report.Changes {
				kinds = append(kinds, c.Kind)
			}
			if tc.target == core.ProviderAnthropic {
				assert.JSONEq(t, `[{"city":"Oslo","days":3},{"city":"Paris"}]`, mustJSON(t, decl["input_examples"]))
				assert.NotContains(t, kinds, ChangeExamplesFolded)
			} else {
				assert.NotContains(t, decl, "input_examples")
				assert.Equal(t, 1, count(kinds, ChangeExamplesFolded), "one report entry for the tool")
				for _, c := range ex.Report.Changes {
					if c.Kind == ChangeExamplesFolded {
						assert.Equal(t, Change{Tool: "forecast", Kind: ChangeExamplesFolded, Keyword: "inputExamples", Message: c.Message}, c)
					}
				}
			}
			var v any
			require.NoError(t, json.Unmarshal(ex.Tools, &v))
			assert.Empty(t, checkProviderTools(tc.target, v, &ex.Report))
			assert.NotContains(t, string(tool.Schema), "Oslo", "the tool's own schema is unchanged")
		})
	}
}

// A tool without a description gets the examples sentence alone.
func TestExportInputExamplesWithoutDescription(t *testing.T) {
	ex, err := ExportTools([]*core.Tool{exampleTool(t, "")}, MCP, nil)
	require.NoError(t, err)
	decl := declarationOf(t, MCP, ex.Tools)
	assert.Equal(t, "Examples of valid arguments: {\"city\":\"Oslo\",\"days\":3}; {\"city\":\"Paris\"}", decl["description"])
}

// declarationOf returns the one tool declaration of an export.
func declarationOf(t *testing.T, target string, tools json.RawMessage) map[string]any {
	t.Helper()
	var list []map[string]any
	require.NoError(t, json.Unmarshal(tools, &list))
	require.Len(t, list, 1)
	d := list[0]
	switch target {
	case core.ProviderGemini:
		decls, _ := d["functionDeclarations"].([]any)
		require.Len(t, decls, 1)
		d, _ = decls[0].(map[string]any)
	case core.ProviderOpenAIChat:
		d, _ = d["function"].(map[string]any)
	}
	return d
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func count[T comparable](xs []T, x T) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// For the OpenAI targets a description that fits 1,024 characters stays
// within it: the examples past it are left out and reported; one already
// longer gets them all, as do the other targets.
func TestExportInputExamplesOpenAIDescriptionLimit(t *testing.T) {
	kinds := func(r ExportReport) []ChangeKind {
		var out []ChangeKind
		for _, c := range r.Changes {
			out = append(out, c.Kind)
		}
		return out
	}
	near := strings.Repeat("é", 960) // 960 characters, 1,920 bytes: the limit counts characters
	for _, target := range []string{core.ProviderOpenAIChat, core.ProviderOpenAIResponses} {
		ex, err := ExportTools([]*core.Tool{exampleTool(t, near)}, target, nil)
		require.NoError(t, err)
		desc := declarationOf(t, target, ex.Tools)["description"].(string)
		assert.Equal(t, near+"\n\nExamples of valid arguments: {\"city\":\"Oslo\",\"days\":3}", desc, target)
		assert.LessOrEqual(t, utf16Len(desc), openAIDescriptionChars)
		assert.Equal(t, []ChangeKind{ChangeExamplesFolded, ChangeExamplesLeftOut}, kinds(ex.Report), target)
	}

	full := near + "\n\nExamples of valid arguments: {\"city\":\"Oslo\",\"days\":3}; {\"city\":\"Paris\"}"
	ex, err := ExportTools([]*core.Tool{exampleTool(t, near)}, core.ProviderGemini, nil)
	require.NoError(t, err)
	assert.Equal(t, full, declarationOf(t, core.ProviderGemini, ex.Tools)["description"])

	long := strings.Repeat("a", 1100)
	ex, err = ExportTools([]*core.Tool{exampleTool(t, long)}, core.ProviderOpenAIChat, nil)
	require.NoError(t, err)
	assert.Equal(t, long+"\n\nExamples of valid arguments: {\"city\":\"Oslo\",\"days\":3}; {\"city\":\"Paris\"}", declarationOf(t, core.ProviderOpenAIChat, ex.Tools)["description"])
	assert.Equal(t, []ChangeKind{ChangeExamplesFolded}, kinds(ex.Report))

	tiny := strings.Repeat("a", 1020)
	ex, err = ExportTools([]*core.Tool{exampleTool(t, tiny)}, core.ProviderOpenAIChat, nil)
	require.NoError(t, err)
	assert.Equal(t, tiny, declarationOf(t, core.ProviderOpenAIChat, ex.Tools)["description"], "no room for any example")
	assert.Equal(t, []ChangeKind{ChangeExamplesLeftOut}, kinds(ex.Report))
}
