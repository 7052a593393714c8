package provider

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/fixture"
)

// updateExport rewrites the expectations of tests/fixtures/providers/export
// from the export's output: go test ./provider -run TestExportFixtures -update-export.
// Review the diff: the checker still runs on what it writes.
var updateExport = flag.Bool("update-export", false, "rewrite the export fixtures' expectations")

const exportFixtures = "providers/export"

// exportFixture is one file: tools (as the JS typed path or a whole schema
// builds them) and, per export variant, what the export writes.
type exportFixture struct {
	About   string                   `json:"about"`
	Tools   []json.RawMessage        `json:"tools"`
	Exports map[string]*exportExpect `json:"exports"`
}

// exportFixtureTool is the spec of one tool: {name, description,
// parameters} (the typed path), {schema} (a whole provider schema) or
// {raw: {source, name, params}} (a raw function: Node builds it from its
// source, Go from its name and parameter names).
type exportFixtureTool struct {
	Raw *struct {
		Name   string   `json:"name"`
		Params []string `json:"params"`
	} `json:"raw"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Schema      json.RawMessage `json:"schema"`
}

// exportExpect is one variant's expected export: the tools, and the report
// without its messages (which are prose).
type exportExpect struct {
	Tools   json.RawMessage   `json:"tools"`
	Strict  bool              `json:"strict"`
	Changes []fixtureChange   `json:"changes"`
	Names   map[string]string `json:"names"`
}

// fixtureChange is a Change without its message.
type fixtureChange struct {
	Tool    string     `json:"tool"`
	Path    string     `json:"path"`
	Kind    ChangeKind `json:"kind"`
	Keyword string     `json:"keyword,omitempty"`
}

// exportVariants are the exports each fixture is replayed in: a target,
// "+strict" for OpenAI's strict mode, "+legacy" for Gemini's legacy subset.
var exportVariants = []string{
	"openai-chat", "openai-chat+strict", "openai-responses", "openai-responses+strict",
	"anthropic", "gemini", "gemini+legacy", "mcp",
}

// variantTarget splits a variant into its target and options.
func variantTarget(v string) (string, *ExportOptions) {
	target, opt, _ := strings.Cut(v, "+")
	return target, &ExportOptions{Strict: opt == "strict", GeminiLegacy: opt == "legacy"}
}

// buildFixtureTool builds a tool as the JS typed path does.
func buildFixtureTool(t *testing.T, raw json.RawMessage) *core.Tool {
	t.Helper()
	var spec exportFixtureTool
	require.NoError(t, json.Unmarshal(raw, &spec))
	if spec.Raw != nil {
		sig := core.Signature{Name: spec.Raw.Name}
		for _, p := range spec.Raw.Params {
			sig.Params = append(sig.Params, core.Param{Name: p})
		}
		tool, err := core.NewTool(rawFixtureCallable{sig}, nil)
		require.NoError(t, err)
		return tool
	}
	opts := &core.ToolOptions{Name: spec.Name, Description: spec.Description, Parameters: spec.Parameters, Schema: spec.Schema}
	if spec.Parameters == nil && spec.Schema == nil {
		opts.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	name := spec.Name
	if name == "" {
		name = "tool"
	}
	tool, err := core.NewTool(core.HandlerFunc(name, func(context.Context, *core.Arguments) (any, error) { return nil, nil }), opts)
	require.NoError(t, err)
	return tool
}

// rawFixtureCallable is a raw function of a fixture: its signature alone.
type rawFixtureCallable struct{ sig core.Signature }

func (c rawFixtureCallable) Signature() (core.Signature, error)                 { return c.sig, nil }
func (c rawFixtureCallable) Call(context.Context, *core.Arguments) (any, error) { return nil, nil }

func TestExportFixtures(t *testing.T) {
	for _, file := range fixture.Files(t, exportFixtures) {
		t.Run(file, func(t *testing.T) {
			var fx exportFixture
			fixture.Load(t, exportFixtures, file, &fx)
			tools := make([]*core.Tool, len(fx.Tools))
			for i, raw := range fx.Tools {
				tools[i] = buildFixtureTool(t, raw)
			}
			if *updateExport {
				fx.Exports = map[string]*exportExpect{}
			}
			for _, variant := range exportVariants {
				target, opts := variantTarget(variant)
				ex, err := ExportTools(tools, target, opts)
				require.NoError(t, err, variant)
				got := &exportExpect{Tools: ex.Tools, Strict: ex.Report.Strict, Changes: withoutMessages(ex.Report.Changes), Names: ex.Report.Names}
				decoded, err := decodeTools(ex.Tools)
				require.NoError(t, err, variant)
				assert.Empty(t, checkProviderTools(target, decoded, &ex.Report), "%s: the export breaks %s's documented rules", variant, target)
				if *updateExport {
					fx.Exports[variant] = got
					continue
				}
				want := fx.Exports[variant]
				require.NotNil(t, want, "%s: no expectation in %s (run with -update-export)", variant, file)
				assert.JSONEq(t, string(want.Tools), string(got.Tools), "%s: tools", variant)
				assert.Equal(t, want.Changes, got.Changes, "%s: changes", variant)
				assert.Equal(t, want.Names, got.Names, "%s: names", variant)
				assert.Equal(t, want.Strict, got.Strict, "%s: strict", variant)
			}
			if *updateExport {
				writeExportFixture(t, file, &fx)
			}
		})
	}
}

func withoutMessages(changes []Change) []fixtureChange {
	out := make([]fixtureChange, len(changes))
	for i, c := range changes {
		out[i] = fixtureChange{Tool: c.Tool, Path: c.Path, Kind: c.Kind, Keyword: c.Keyword}
	}
	return out
}

func writeExportFixture(t *testing.T, file string, fx *exportFixture) {
	t.Helper()
	data, err := json.MarshalIndent(fx, "", "  ")
	require.NoError(t, err)
	path := filepath.Join(fixture.Root(t), "tests", "fixtures", filepath.FromSlash(exportFixtures), file)
	require.NoError(t, os.WriteFile(path, append(data, '\n'), 0o644))
}
