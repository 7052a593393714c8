package provider_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/provider"
)

// A branch exported in OpenAI strict mode: the tool's dotted name is
// rewritten, its optional field made nullable; the model's call comes back
// under the exported name with null for the field it leaves out, and the
// handler sees the arguments without it.
func ExampleExportManager() {
	search, err := core.NewTool(core.HandlerFunc("docs.search", func(_ context.Context, a *core.Arguments) (any, error) {
		_, hasLimit := a.Get("limit")
		q, _ := a.Get("q")
		return fmt.Sprintf("q=%v limit given: %v", q, hasLimit), nil
	}), &core.ToolOptions{Name: "docs.search", Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer"}},"required":["q"]}`)})
	if err != nil {
		panic(err)
	}
	m := core.NewManager(nil)
	if err := m.Register(search, false); err != nil {
		panic(err)
	}
	ex, err := provider.ExportManager(m, core.ProviderOpenAIChat, &provider.ExportOptions{Strict: true})
	if err != nil {
		panic(err)
	}
	for _, c := range ex.Report.Changes {
		fmt.Printf("%s %q\n", c.Kind, c.Path)
	}
	fmt.Println(ex.Report.Names["docs_search_a7e557a3"])
	fc, err := m.MatchJSON([]byte(`{"id":"call_1","type":"function","function":{"name":"docs_search_a7e557a3","arguments":"{\"q\":\"wasm\",\"limit\":null}"}}`))
	if err != nil {
		panic(err)
	}
	fc.Invoke(context.Background())
	fmt.Println(fc.Function(), fc.Response)
	// Output:
	// name-rewritten ""
	// strict-closed ""
	// strict-required "/properties/limit"
	// docs.search
	// docs.search q=wasm limit given: false
}

// A tool with input examples: Anthropic gets them as input_examples, the
// other targets in the description; an example the tool would refuse is
// refused when the tool is made.
func ExampleExportTools_inputExamples() {
	params := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}`)
	h := core.HandlerFunc("forecast", func(_ context.Context, a *core.Arguments) (any, error) { return "sunny", nil })
	forecast, err := core.NewTool(h, &core.ToolOptions{Description: "Weather ahead.", Parameters: params,
		InputExamples: []json.RawMessage{json.RawMessage(`{"city":"Oslo","days":3}`)}})
	if err != nil {
		panic(err)
	}
	claude, _ := provider.ExportTools([]*core.Tool{forecast}, core.ProviderAnthropic, nil)
	fmt.Println(string(claude.Tools))
	gemini, _ := provider.ExportTools([]*core.Tool{forecast}, core.ProviderGemini, nil)
	fmt.Println(string(gemini.Tools), gemini.Report.Changes[0].Kind)

	_, err = core.NewTool(h, &core.ToolOptions{Parameters: params, InputExamples: []json.RawMessage{json.RawMessage(`{"city":"Oslo","days":"3"}`)}})
	e := core.AsError(err)
	fmt.Println(e.Code, e.Issues[0].Path, e.Issues[0].Keyword)
	// Output:
	// [{"name":"forecast","description":"Weather ahead.","input_schema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]},"input_examples":[{"city":"Oslo","days":3}]}]
	// [{"functionDeclarations":[{"name":"forecast","description":"Weather ahead.\n\nExamples of valid arguments: {\"city\":\"Oslo\",\"days\":3}","parametersJsonSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city"]}}]}] examples-folded
	// invalid-tool /inputExamples/0/days type
}
