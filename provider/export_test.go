package provider

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func typedTool(t *testing.T, name, params string) *core.Tool {
	t.Helper()
	opts := &core.ToolOptions{Name: name}
	if params != "" {
		opts.Parameters = json.RawMessage(params)
	}
	tool, err := core.NewTool(core.HandlerFunc(name, func(_ context.Context, a *core.Arguments) (any, error) { return a, nil }), opts)
	require.NoError(t, err)
	return tool
}

func TestProviderCheckerRefusesWhatProvidersRefuse(t *testing.T) {
	cases := []struct {
		name, target, tools string
	}{
		{"a null description (LionAGI's schemaList)", core.ProviderOpenAIChat, `[{"type":"function","function":{"name":"a","description":null,"parameters":{"type":"object","properties":{}}}}]`},
		{"a dotted name for OpenAI", core.ProviderOpenAIChat, `[{"type":"function","function":{"name":"a.b","parameters":{"type":"object","properties":{}}}}]`},
		{"a 65-character name for Anthropic", core.ProviderAnthropic, `[{"name":"` + strings.Repeat("a", 65) + `","input_schema":{"type":"object"}}]`},
		{"a leading digit for Gemini", core.ProviderGemini, `[{"functionDeclarations":[{"name":"1a","parametersJsonSchema":{"type":"object"}}]}]`},
		{"a colon for MCP", MCP, `[{"name":"a:b","inputSchema":{"type":"object"}}]`},
		{"a root anyOf for Anthropic", core.ProviderAnthropic, `[{"name":"a","input_schema":{"type":"object","anyOf":[{}]}}]`},
		{"a root without type object", MCP, `[{"name":"a","inputSchema":{"properties":{}}}]`},
		{"an open object under strict", core.ProviderOpenAIChat, `[{"type":"function","function":{"name":"a","strict":true,"parameters":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}}}]`},
		{"an optional property under strict", core.ProviderOpenAIResponses, `[{"type":"function","name":"a","strict":true,"parameters":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}}]`},
		{"a Responses tool without strict", core.ProviderOpenAIResponses, `[{"type":"function","name":"a","parameters":{"type":"object"}}]`},
		{"a boolean property schema for MCP", MCP, `[{"name":"a","inputSchema":{"type":"object","properties":{"x":true}}}]`},
		{"two tools of one name", MCP, `[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]`},
		{"a JSON Schema type in Gemini's legacy parameters", core.ProviderGemini, `[{"functionDeclarations":[{"name":"a","parameters":{"type":"object","properties":{"x":{"type":"STRING"}}}}]}]`},
		{"a $ref in Gemini's legacy parameters", core.ProviderGemini, `[{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","properties":{"x":{"$ref":"#/$defs/x"}}}}]}]`},
		{"a numeric enum in Gemini's legacy parameters", core.ProviderGemini, `[{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","properties":{"x":{"type":"INTEGER","enum":[1]}}}}]}]`},
		{"a property name with a space for Anthropic", core.ProviderAnthropic, `[{"name":"a","input_schema":{"type":"object","properties":{"o":{"type":"object","properties":{"first name":{}}}}}}]`},
		{"a dotted parameter name for Gemini's legacy parameters", core.ProviderGemini, `[{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","properties":{"geo.lat":{"type":"NUMBER"}}}}]}]`},
		{"an empty object for Gemini's legacy parameters", core.ProviderGemini, `[{"functionDeclarations":[{"name":"a","parameters":{"type":"object","properties":{}}}]}]`},
		{"an unknown key", core.ProviderAnthropic, `[{"name":"a","input_schema":{"type":"object"},"parameters":{}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := decodeTools(json.RawMessage(tc.tools))
			require.NoError(t, err)
			assert.NotEmpty(t, checkProviderTools(tc.target, v), "got no problem, want the checker to refuse it")
		})
	}
}

func TestExportRefusesBadInput(t *testing.T) {
	ok := typedTool(t, "ok", "")
	cases := []struct {
		name   string
		tools  []*core.Tool
		target string
		opts   *ExportOptions
		code   core.Code
		rule   string
	}{
		{"an unknown target", []*core.Tool{ok}, "cohere", nil, core.CodeInvalidRequest, "target"},
		{"strict for Anthropic", []*core.Tool{ok}, core.ProviderAnthropic, &ExportOptions{Strict: true}, core.CodeInvalidRequest, "strict"},
		{"geminiLegacy for MCP", []*core.Tool{ok}, MCP, &ExportOptions{GeminiLegacy: true}, core.CodeInvalidRequest, "geminiLegacy"},
		{"a nil tool", []*core.Tool{ok, nil}, MCP, nil, core.CodeInvalidTool, ""},
		{"two tools of one name", []*core.Tool{ok, ok}, MCP, nil, core.CodeDuplicateTool, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ExportTools(tc.tools, tc.target, tc.opts)
			var e *core.Error
			require.True(t, errors.As(err, &e), "got %v, want a *Error", err)
			assert.Equal(t, tc.code, e.Code)
			if tc.rule != "" {
				require.Len(t, e.Issues, 1)
				assert.Equal(t, tc.rule, e.Issues[0].Keyword)
			}
		})
	}
}

func TestExportRefusesASchemaThatIsNoObject(t *testing.T) {
	tool := typedTool(t, "s", "")
	tool.Schema = json.RawMessage(`{"type":"function","function":{"name":"s","parameters":{"type":"string"}}}`)
	_, err := ExportTools([]*core.Tool{tool}, core.ProviderOpenAIChat, nil)
	var e *core.Error
	require.True(t, errors.As(err, &e))
	assert.Equal(t, core.CodeInvalidSchema, e.Code)
	assert.Equal(t, "s", e.Tool)
	require.Len(t, e.Issues, 1)
	assert.Equal(t, "/type", e.Issues[0].Path)
	assert.Equal(t, "type", e.Issues[0].Keyword)
}

func TestExportLeavesTheToolUntouched(t *testing.T) {
	add, err := core.Func("add", func(a, b int) int { return a + b }, "a", "b")
	require.NoError(t, err)
	tool, err := core.NewTool(add, nil)
	require.NoError(t, err)
	before := string(tool.Schema)
	for _, target := range Targets {
		_, err := ExportTools([]*core.Tool{tool}, target, nil)
		require.NoError(t, err)
	}
	assert.Equal(t, before, string(tool.Schema), "the LionAGI-exact schema changed")
	assert.Contains(t, before, `"description":null`)
}

func TestExportRewritesNamesDeterministically(t *testing.T) {
	tools := []*core.Tool{typedTool(t, "docs.search", ""), typedTool(t, "docs_search", "")}
	a, err := ExportTools(tools, core.ProviderOpenAIChat, nil)
	require.NoError(t, err)
	b, err := ExportTools(tools, core.ProviderOpenAIChat, nil)
	require.NoError(t, err)
	assert.Equal(t, a.Report.Names, b.Report.Names)
	assert.Len(t, a.Report.Names, 2)
	assert.Equal(t, "docs_search", a.Report.Names["docs_search"], "a name that fits is kept")
	for exported, registered := range a.Report.Names {
		if registered == "docs.search" {
			assert.True(t, strings.HasPrefix(exported, "docs_search_"), "got %q, want the readable part kept", exported)
		}
	}
	gem, err := ExportTools(tools, core.ProviderGemini, nil)
	require.NoError(t, err)
	assert.Equal(t, "docs.search", gem.Report.Names["docs.search"], "Gemini allows the dot")
}

func TestNameRules(t *testing.T) {
	long := "mcp__" + strings.Repeat("server", 20) + "__browser_navigate"
	for _, rule := range []NameRule{OpenAINames, AnthropicNames, GeminiNames, MCPNames} {
		for _, name := range []string{"ok", "a.b", "with space", "9lives", "", strings.Repeat("x", 300), long, "ünïcode"} {
			got := rule.Rewrite(name)
			assert.True(t, rule.Valid(got), "rule %+v: Rewrite(%q) = %q, which breaks it", rule, name, got)
			assert.Equal(t, got, rule.Rewrite(name), "not deterministic")
		}
	}
	got := OpenAINames.Rewrite(long)
	assert.True(t, strings.HasPrefix(got, "mcp__"), got)
	assert.Contains(t, got, "__browser_navigate_", "the tool part is kept whole")
	assert.Equal(t, "ok", OpenAINames.Rewrite("ok"))
	assert.Equal(t, "a.b", GeminiNames.Rewrite("a.b"))
	assert.NotEqual(t, "a.b", OpenAINames.Rewrite("a.b"))
	for target, rule := range map[string]NameRule{core.ProviderOpenAIChat: OpenAINames, core.ProviderGemini: GeminiNames, MCP: MCPNames} {
		r, ok := NameRuleOf(target)
		assert.True(t, ok)
		assert.Equal(t, rule, r)
	}
	_, ok := NameRuleOf("cohere")
	assert.False(t, ok)
}

func TestChangeKindsListsEveryKind(t *testing.T) {
	src, err := os.ReadFile("report.go")
	require.NoError(t, err)
	declared := regexp.MustCompile(`(?m)^\t(Change[A-Za-z]+) ChangeKind = `).FindAllStringSubmatch(string(src), -1)
	require.Len(t, ChangeKinds, len(declared), "got %d ChangeKinds, want one for each of the %d declared", len(ChangeKinds), len(declared))
	seen := map[ChangeKind]bool{}
	for _, k := range ChangeKinds {
		assert.False(t, seen[k], "%s listed twice", k)
		seen[k] = true
	}
}

func TestExportHonoursAToolsOwnStrictFlag(t *testing.T) {
	tool, err := core.NewTool(core.HandlerFunc("s", func(context.Context, *core.Arguments) (any, error) { return nil, nil }),
		&core.ToolOptions{Name: "s", Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`), Strict: true})
	require.NoError(t, err)
	ex, err := ExportTools([]*core.Tool{tool}, core.ProviderOpenAIResponses, nil)
	require.NoError(t, err)
	var got []struct {
		Strict     bool `json:"strict"`
		Parameters struct {
			Required             []string `json:"required"`
			AdditionalProperties *bool    `json:"additionalProperties"`
		} `json:"parameters"`
	}
	require.NoError(t, json.Unmarshal(ex.Tools, &got))
	require.Len(t, got, 1)
	assert.True(t, got[0].Strict, "a tool built with Strict is exported strict, and so transformed")
	assert.Equal(t, []string{"a"}, got[0].Parameters.Required)
	require.NotNil(t, got[0].Parameters.AdditionalProperties)
	assert.False(t, *got[0].Parameters.AdditionalProperties)
	assert.False(t, ex.Report.Strict, "the report says what was asked")
	anth, err := ExportTools([]*core.Tool{tool}, core.ProviderAnthropic, nil)
	require.NoError(t, err)
	assert.NotContains(t, string(anth.Tools), "strict", "only OpenAI's formats carry strict")
}

func TestExportReportsWhatATransformCannotTake(t *testing.T) {
	deep := strings.Repeat(`{"anyOf":[{"type":"object","properties":{"a":`, 50) + `{}` + strings.Repeat(`}}]}`, 50)
	tool := &core.Tool{Schema: json.RawMessage(`{"type":"function","function":{"name":"deep","parameters":{"type":"object","properties":{"p":` + deep + `}}}}`)}
	for _, variant := range []string{"openai-chat+strict", "gemini+legacy"} {
		target, opts := variantTarget(variant)
		ex, err := ExportTools([]*core.Tool{tool}, target, opts)
		require.NoError(t, err, "%s: a transform's limit is reported, never an error", variant)
		var kinds []ChangeKind
		for _, c := range ex.Report.Changes {
			kinds = append(kinds, c.Kind)
		}
		want := ChangeStrictRefused
		if target == core.ProviderGemini {
			want = ChangeSchemaRefused
			assert.NotContains(t, string(ex.Tools), `"parameters"`)
		} else {
			assert.NotContains(t, string(ex.Tools), `"strict"`)
		}
		assert.Contains(t, kinds, want, variant)
		v, err := decodeTools(ex.Tools)
		require.NoError(t, err)
		assert.Empty(t, checkProviderTools(target, v, &ex.Report))
	}
}
