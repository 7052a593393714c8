package provider

import (
	"bytes"
	"fmt"

	"github.com/toolgate/toolgate/core"
)

// ToolSearchNative is ExportOptions.ToolSearch asking for the provider's
// own tool search (Anthropic's).
const ToolSearchNative = "native"

// AnthropicToolSearch is the entry of Anthropic's BM25 tool search tool,
// written after the tools when a native anthropic export has deferred
// tools; OpenAIToolSearch is OpenAI Responses' (executed by OpenAI).
const (
	AnthropicToolSearch = `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`
	OpenAIToolSearch    = `{"type":"tool_search"}`
)

// nativeToolSearch returns the native search entry of target, or "" when
// toolgate knows none (see ExportOptions.ToolSearch).
func nativeToolSearch(target string) string {
	switch target {
	case core.ProviderAnthropic:
		return AnthropicToolSearch
	case core.ProviderOpenAIResponses:
		return OpenAIToolSearch
	}
	return ""
}

// deferredTools returns the tools of m an export writes, in insertion
// order, with a report entry for each tool left out because it is
// deferred and hidden, and sets o.deferLoading for a native export (every
// deferred tool written with defer_loading; toolgate's search tool left
// out).
func deferredTools(m *core.Manager, o *ExportOptions) ([]*core.Tool, []Change) {
	all := m.Tools()
	search := m.SearchToolName()
	native := o.ToolSearch == ToolSearchNative
	out := make([]*core.Tool, 0, len(all))
	var changes []Change
	for _, t := range all {
		name := t.Function()
		switch {
		case native && search != "" && name == search:
			changes = append(changes, Change{Tool: name, Kind: ChangeToolDeferred, Keyword: "toolSearch",
				Message: fmt.Sprintf("%s is toolgate's tool search; the provider's native tool search stands in for it", name)})
		case native && m.IsDeferred(t):
			if o.deferLoading == nil {
				o.deferLoading = map[*core.Tool]bool{}
			}
			o.deferLoading[t] = true
			changes = append(changes, Change{Tool: name, Kind: ChangeToolDeferred, Keyword: "defer_loading",
				Message: fmt.Sprintf("%s is deferred: it is exported with defer_loading for the provider's tool search", name)})
			out = append(out, t)
		case !native && m.IsHidden(t):
			changes = append(changes, Change{Tool: name, Kind: ChangeToolDeferred, Keyword: "defer",
				Message: fmt.Sprintf("%s is deferred: it is left out until a tool search reveals it", name)})
		default:
			out = append(out, t)
		}
	}
	return out, changes
}

// writeDeferLoading adds "defer_loading": true to the tool object just
// written (its closing brace is the buffer's last byte).
func writeDeferLoading(b *bytes.Buffer) {
	b.Truncate(b.Len() - 1)
	b.WriteString(`,"defer_loading":true}`)
}

// anyDefers reports whether an item is written with defer_loading.
func anyDefers(items []exported) bool {
	for _, it := range items {
		if it.defers {
			return true
		}
	}
	return false
}
