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
