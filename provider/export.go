package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// Targets lists the export and result targets, in the order
// docs/providers.md describes them; cmd/gen-contract writes it as the JS
// PROVIDER_TARGETS and the TypeScript ProviderTarget.
var Targets = []string{core.ProviderOpenAIChat, core.ProviderOpenAIResponses, core.ProviderAnthropic, core.ProviderGemini, MCP}

// ChangeKinds lists every ChangeKind, in the order report.go
// declares them; cmd/gen-contract writes it as the TypeScript ChangeKind.
var ChangeKinds = []ChangeKind{
	ChangeNameRewritten, ChangeNullRemoved, ChangeKeywordDropped, ChangeKeywordDescribed, ChangeRefInlined,
	ChangeUnionFlattened, ChangeEnumStringified, ChangeStrictClosed, ChangeStrictRequired, ChangeStrictRefused,
	ChangeSchemaRefused, ChangeTypeSet, ChangeBooleanSchema, ChangeKeywordRewritten, ChangePropertyNameRefused,
	ChangeToolLeftOut, ChangeExamplesFolded, ChangeExamplesLeftOut, ChangeToolDeferred,
}

// ExportOptions are the knobs of ExportTools and ExportManager. A nil
// *ExportOptions means every default; the struct is copied on entry.
type ExportOptions struct {
	// Strict asks for OpenAI's strict mode (openai-chat and
	// openai-responses only; another target refuses it): every object
	// closed, every property required, optional ones nullable. A schema
	// strict mode cannot express is exported without strict, with a
	// ChangeStrictRefused change. Default false; a tool whose own schema
	// says "strict": true is exported strict either way.
	Strict bool
	// GeminiLegacy writes Gemini's legacy "parameters" (the OpenAPI subset)
	// instead of "parametersJsonSchema" (gemini only; another target
	// refuses it). Default false.
	GeminiLegacy bool
	// ToolSearch is "" (toolgate's search: ExportManager leaves a branch's
	// hidden deferred tools out) or ToolSearchNative (anthropic and
	// openai-responses; another target refuses it): every deferred tool is
	// exported with "defer_loading": true, followed by the provider's own
	// search tool (AnthropicToolSearch, OpenAIToolSearch), and toolgate's
	// own search tool is left out.
	ToolSearch string

	deferLoading map[*core.Tool]bool // ExportManager's: the tools written with defer_loading
}

// Export is the result of an export: the tools in the target's format and
// the report of every change made so they fit it.
type Export struct {
	// Tools is the JSON array to hand the provider as its tools.
	Tools json.RawMessage
	// Report lists the changes and maps each exported name back.
	Report ExportReport
}

// exported is one tool's export, before it is written in the target's
// shape.
type exported struct {
	tool        *core.Tool
	name        string // the exported name
	description string
	parameters  json.RawMessage
	strict      bool
	restore     *StrictRestore
	examples    []json.RawMessage // Anthropic's input_examples (export_examples.go)
	defers      bool              // written with the native tool search's defer_loading
}

// ExportTools writes tools in the format of target (one of Targets)
// with a report of every change made so they fit it: names rewritten to
// the target's NameRule (ExportReport.Names maps every exported name to the
// registered one), null-valued keys left out, a parameters schema that is
// always an object schema, root keywords the target refuses rewritten,
// and with opts.Strict OpenAI's strict transform. The tools' own schemas
// are never changed. It refuses an unknown target and an option the target
// does not have (invalid-request, its Issue's Keyword "target", "strict" or
// "geminiLegacy"), a nil tool or a tool without a name
// (invalid-tool), two tools of the same name (duplicate-tool), and a
// parameters schema that is no object schema or is broken (invalid-schema,
// naming the tool, with the path and keyword in Issues).
func ExportTools(tools []*core.Tool, target string, opts *ExportOptions) (*Export, error) {
	ex, _, err := exportTools(tools, target, opts)
	return ex, err
}

// exportTools is ExportTools that also returns each tool's export.
func exportTools(tools []*core.Tool, target string, opts *ExportOptions) (*Export, []exported, error) {
	var o ExportOptions
	if opts != nil {
		o = *opts
	}
	rule, err := checkTarget(target, o)
	if err != nil {
		return nil, nil, err
	}
	report := ExportReport{Target: target, Strict: o.Strict, Changes: []Change{}, Names: map[string]string{}}
	items := make([]exported, 0, len(tools))
	perTool := make([][]Change, 0, len(tools))
	for i, t := range tools {
		if t == nil {
			return nil, nil, core.Errorf(core.CodeInvalidTool, "", "tool %d of the export is nil", i)
		}
		it, changes, err := exportOne(t, target, o)
		if err != nil {
			return nil, nil, err
		}
		it.defers = o.deferLoading[t]
		items = append(items, it)
		perTool = append(perTool, changes)
	}
	names, renamed, err := exportNames(items, rule)
	if err != nil {
		return nil, nil, err
	}
	for i := range items {
		items[i].name = names[i]
		report.Names[names[i]] = items[i].tool.Function()
		if c, ok := renamed[i]; ok {
			report.Changes = append(report.Changes, c) // the tool's name first, then its schema
		}
		report.Changes = append(report.Changes, perTool[i]...)
	}
	return &Export{Tools: writeTools(items, target, o), Report: report}, items, nil
}

// checkTarget returns the name rule of target, refusing an unknown target
// and options the target does not have.
func checkTarget(target string, o ExportOptions) (NameRule, error) {
	rule, ok := NameRuleOf(target)
	if !ok {
		return rule, optionError("target", "unknown export target %q: want one of %s", target, strings.Join(Targets, ", "))
	}
	if o.Strict && target != core.ProviderOpenAIChat && target != core.ProviderOpenAIResponses {
		return rule, optionError("strict", "strict mode is OpenAI's (openai-chat, openai-responses); target %s has none", target)
	}
	if o.GeminiLegacy && target != core.ProviderGemini {
		return rule, optionError("geminiLegacy", "geminiLegacy applies to target gemini only, not %s", target)
	}
	if o.ToolSearch != "" && (o.ToolSearch != ToolSearchNative || nativeToolSearch(target) == "") {
		return rule, optionError("toolSearch", "toolSearch %q is not available for target %s: toolSearch \"native\" is Anthropic's and OpenAI Responses' own tool search (targets anthropic, openai-responses)", o.ToolSearch, target)
	}
	return rule, nil
}

// optionError is an invalid-request refusal of an export's target or
// option, named (as data) by the one Issue's Keyword.
func optionError(option, format string, args ...any) *core.Error {
	e := core.Errorf(core.CodeInvalidRequest, "", format, args...)
	e.Issues = []core.Issue{{Path: "", Keyword: option, Message: e.Message}}
	return e
}

// exportOne reads one tool's schema and makes its parameters fit target.
func exportOne(t *core.Tool, target string, o ExportOptions) (exported, []Change, error) {
	name := t.Function()
	if name == "" {
		return exported{}, nil, core.Errorf(core.CodeInvalidTool, "", "a tool of the export has no function name")
	}
	fn, ok := jsontext.Members(functionObject(t.Schema))
	if !ok {
		return exported{}, nil, core.Errorf(core.CodeInvalidTool, name, "the tool's schema has no function object")
	}
	it := exported{tool: t, description: jsontext.StringMember(fn, "description")}
	w := &schemaWalk{tool: name, provider: target != MCP}
	w.propertyNames, w.rootPropertiesOnly = propertyNameRule(target, o)
	params := emptyParameters
	if raw, ok := fn["parameters"]; ok && !jsontext.Absent(raw) {
		params = w.topLevel(w.node(raw, "", 0), target)
	}
	if w.err != nil {
		return exported{}, nil, w.err
	}
	w.propertyNameChanges(params, "", 0)
	it.parameters = params
	it.fit(w, target, o, string(bytes.TrimSpace(fn["strict"])) == "true")
	it.placeExamples(w, target) // export_examples.go
	return it, w.changes, nil
}

// The documented property name rules: Anthropic's for every properties map
// of input_schema, Gemini's for the legacy parameters' own names.
// Each is compiled on first use, not at start-up: their counted
// repetitions make about 1,600 allocations, which every instance paid
// before its first validation.
var (
	anthropicPropertyNames    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`) })
	geminiLegacyPropertyNames = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`) })
)

// propertyNameRule returns the target's property name rule and whether it
// holds for the root's properties only; nil when the target has none.
func propertyNameRule(target string, o ExportOptions) (*regexp.Regexp, bool) {
	switch {
	case target == core.ProviderAnthropic:
		return anthropicPropertyNames(), false
	case target == core.ProviderGemini && o.GeminiLegacy:
		return geminiLegacyPropertyNames(), true
	}
	return nil, false
}

// fit applies the strict transform or Gemini's legacy subset when asked.
// A schema a transform cannot take is reported, never refused: strict
// falls back to the loose export, the legacy subset to no parameters.
func (it *exported) fit(w *schemaWalk, target string, o ExportOptions, toolStrict bool) {
	switch {
	case (o.Strict || toolStrict) && (target == core.ProviderOpenAIChat || target == core.ProviderOpenAIResponses):
		out, restore, changes, err := strictSchema(w.tool, it.parameters)
		if err != nil { // a schema the transform cannot read (nested past its bound): exported loose
			w.change("", ChangeStrictRefused, "strict", "strict mode cannot take this schema (%v); the tool is exported without strict", err)
			return
		}
		w.changes = append(w.changes, changes...)
		if out != nil {
			it.parameters, it.restore, it.strict = out, restore, true
		}
	case o.GeminiLegacy && target == core.ProviderGemini:
		out, changes, err := geminiLegacySchema(w.tool, it.parameters)
		if err != nil { // a schema the transform cannot read (nested past its bound): no parameters
			w.change("", ChangeSchemaRefused, "parameters", "Gemini's legacy subset cannot take this schema (%v); the parameters are left out", err)
			it.parameters = nil
			return
		}
		w.changes = append(w.changes, changes...)
		it.parameters = out
		if !hasProperties(out) {
			// Gemini refuses an OBJECT without properties ("should be non-empty for OBJECT type")
			w.change("", ChangeKeywordDropped, "parameters", "the tool declares no arguments; its parameters are left out, as Gemini's legacy subset refuses an object without properties")
			it.parameters = nil
		}
	}
}

// hasProperties reports whether a schema has a non-empty "properties".
func hasProperties(schema json.RawMessage) bool {
	props, ok := jsontext.Lookup(bytes.TrimSpace(schema), "properties")
	if !ok {
		return false
	}
	ms, ok := jsontext.Split(bytes.TrimSpace(props))
	return ok && len(ms) > 0
}

// functionObject returns the "function" member of a provider schema.
func functionObject(schema json.RawMessage) json.RawMessage {
	fn, _ := jsontext.Lookup(bytes.TrimSpace(schema), "function")
	return fn
}

// writeTools writes the exported tools in the target's shape.
func writeTools(items []exported, target string, o ExportOptions) json.RawMessage {
	var b bytes.Buffer
	if target == core.ProviderGemini {
		if len(items) == 0 {
			return json.RawMessage("[]")
		}
		b.WriteString(`[{"functionDeclarations":`)
	}
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		writeTool(&b, it, target, o)
		if it.defers {
			writeDeferLoading(&b)
		}
	}
	if anyDefers(items) {
		b.WriteByte(',')
		b.WriteString(nativeToolSearch(target))
	}
	b.WriteByte(']')
	if target == core.ProviderGemini {
		b.WriteString("}]")
	}
	return b.Bytes()
}

// writeTool writes one tool: name, description when there is one, and the
// parameters under the target's key (left out only for a Gemini legacy
// tool without arguments), and for Anthropic the input examples.
func writeTool(b *bytes.Buffer, it exported, target string, o ExportOptions) {
	head := func(key string) {
		fmt.Fprintf(b, `"name":%s`, jsontext.AppendString(nil, it.name))
		if it.description != "" {
			fmt.Fprintf(b, `,"description":%s`, jsontext.AppendString(nil, it.description))
		}
		if it.parameters != nil {
			fmt.Fprintf(b, `,%q:`, key)
			b.Write(it.parameters)
		}
	}
	switch target {
	case core.ProviderOpenAIChat:
		b.WriteString(`{"type":"function","function":{`)
		head("parameters")
		if it.strict {
			b.WriteString(`,"strict":true`)
		}
		b.WriteString("}}")
	case core.ProviderOpenAIResponses:
		b.WriteString(`{"type":"function",`)
		head("parameters")
		fmt.Fprintf(b, `,"strict":%t}`, it.strict)
	case core.ProviderAnthropic:
		b.WriteByte('{')
		head("input_schema")
		writeExamples(b, it.examples) // export_examples.go
		b.WriteByte('}')
	case core.ProviderGemini:
		b.WriteByte('{')
		if o.GeminiLegacy {
			head("parameters")
		} else {
			head("parametersJsonSchema")
		}
		b.WriteByte('}')
	case MCP:
		b.WriteByte('{')
		head("inputSchema")
		writeMCPMeta(b, it.tool) // export_mcp.go
		b.WriteByte('}')
	}
}
