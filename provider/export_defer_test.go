package provider

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// deferredBranch holds a visible tool, two deferred ones and a search tool.
func deferredBranch(t *testing.T) *core.Manager {
	t.Helper()
	m := core.NewManager(nil)
	for _, name := range []string{"visible", "get_weather", "send_mail", "tool_search"} {
		require.NoError(t, m.Register(typedTool(t, name, `{"type":"object","properties":{"city":{"type":"string"}}}`), false))
	}
	m.Defer(core.DeferOptions{Names: []string{"get_weather", "send_mail"}, SearchTool: "tool_search"})
	return m
}

func exportedNames(t *testing.T, tools json.RawMessage) []string {
	t.Helper()
	var list []map[string]any
	require.NoError(t, json.Unmarshal(tools, &list))
	var names []string
	for _, x := range list {
		names = append(names, x["name"].(string))
	}
	return names
}

func TestExportManagerLeavesHiddenDeferredToolsOut(t *testing.T) {
	m := deferredBranch(t)
	ex, err := ExportManager(m, core.ProviderAnthropic, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"visible", "tool_search"}, exportedNames(t, ex.Tools))
	require.Len(t, ex.Report.Changes, 2)
	assert.Equal(t, ChangeToolDeferred, ex.Report.Changes[0].Kind)
	assert.Equal(t, "get_weather", ex.Report.Changes[0].Tool)

	m.Defer(core.DeferOptions{Reveal: []string{"send_mail"}})
	again, err := ExportManager(m, core.ProviderAnthropic, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"visible", "send_mail", "tool_search"}, exportedNames(t, again.Tools), "a revealed tool keeps its registration position")
}

func TestExportManagerNativeToolSearch(t *testing.T) {
	m := deferredBranch(t)
	ex, err := ExportManager(m, core.ProviderAnthropic, &ExportOptions{ToolSearch: ToolSearchNative})
	require.NoError(t, err)
	var list []map[string]any
	require.NoError(t, json.Unmarshal(ex.Tools, &list))
	require.Len(t, list, 4, "visible, two deferred, Anthropic's search tool; toolgate's left out")
	assert.Nil(t, list[0]["defer_loading"])
	assert.Equal(t, true, list[1]["defer_loading"])
	assert.Equal(t, true, list[2]["defer_loading"])
	assert.Equal(t, map[string]any{"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}, list[3])

	responses, err := ExportManager(m, core.ProviderOpenAIResponses, &ExportOptions{ToolSearch: ToolSearchNative})
	require.NoError(t, err)
	list = nil
	require.NoError(t, json.Unmarshal(responses.Tools, &list))
	require.Len(t, list, 4)
	assert.Equal(t, true, list[1]["defer_loading"])
	assert.Equal(t, map[string]any{"type": "tool_search"}, list[3])

	_, err = ExportManager(m, core.ProviderOpenAIChat, &ExportOptions{ToolSearch: ToolSearchNative})
	require.Error(t, err)
	assert.Equal(t, "toolSearch", core.AsError(err).Issues[0].Keyword)
}

func TestExportManagerIsByteIdenticalAcrossExports(t *testing.T) {
	m := deferredBranch(t)
	for _, target := range Targets {
		a, err := ExportManager(m, target, nil)
		require.NoError(t, err)
		b, err := ExportManager(m, target, nil)
		require.NoError(t, err)
		assert.Equal(t, string(a.Tools), string(b.Tools), target)
	}
}
