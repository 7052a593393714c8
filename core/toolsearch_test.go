package core

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func searchTool(t *testing.T, name, description, params string) *Tool {
	t.Helper()
	tool, err := NewTool(HandlerFunc(name, func(context.Context, *Arguments) (any, error) { return nil, nil }),
		&ToolOptions{Name: name, Description: description, Parameters: json.RawMessage(params)})
	require.NoError(t, err)
	return tool
}

func hitNames(hits []SearchHit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Name)
	}
	return out
}

func TestSearchToolsRanksNameDescriptionAndParameters(t *testing.T) {
	m := NewManager(nil)
	require.NoError(t, m.Register(searchTool(t, "getWeather", "Current conditions for a city.", `{"type":"object","properties":{"city":{"type":"string"}}}`), false))
	require.NoError(t, m.Register(searchTool(t, "send_mail", "Sends an e-mail.", `{"type":"object","properties":{"recipientAddress":{"type":"string"}}}`), false))
	require.NoError(t, m.Register(searchTool(t, "forecast.daily", "The weather for the next days.", `{"type":"object","properties":{"city":{"type":"string"}}}`), false))
	require.NoError(t, m.Register(searchTool(t, "visible", "weather everywhere", `{"type":"object","properties":{}}`), false))
	m.Defer(DeferOptions{Names: []string{"getWeather", "send_mail", "forecast.daily"}})

	cases := []struct {
		query string
		want  []string
	}{
		{"weather", []string{"getWeather", "forecast.daily"}},
		{"recipient address", []string{"send_mail"}},
		{"city", []string{"getWeather", "forecast.daily"}}, // the shorter entry first
		{"nothing matches", []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			hits, err := m.SearchTools(tc.query, 0, false)
			require.NoError(t, err)
			assert.Equal(t, tc.want, hitNames(hits))
		})
	}
	hits, err := m.SearchTools("mail", 1, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"recipientAddress"}, hits[0].Parameters)
	assert.False(t, m.IsHidden(m.tools["send_mail"]), "a revealed hit is no longer hidden")
	assert.True(t, m.IsHidden(m.tools["getWeather"]))

	_, err = m.SearchTools(" ", 0, false)
	assert.Equal(t, "query", AsError(err).Issues[0].Keyword)
	_, err = m.SearchTools("x", -1, false)
	assert.Equal(t, "limit", AsError(err).Issues[0].Keyword)
}

func TestSearchToolsOrdersEqualScoresByName(t *testing.T) {
	m := NewManager(nil)
	for _, name := range []string{"zeta", "alpha", "mid"} {
		require.NoError(t, m.Register(searchTool(t, name, "Reads the ledger.", `{"type":"object","properties":{}}`), false))
	}
	m.Defer(DeferOptions{Names: []string{"zeta", "alpha", "mid"}})
	hits, err := m.SearchTools("ledger", 0, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"alpha", "mid", "zeta"}, hitNames(hits))
}

func TestSearchWords(t *testing.T) {
	assert.Equal(t, []string{"get", "http", "server", "v2", "name"}, searchWords("getHTTPServer_v2.name"))
}

func TestSearchToolsOverManyToolsIsDeterministic(t *testing.T) {
	m := NewManager(nil)
	var names []string
	for i := range 2000 {
		name := fmt.Sprintf("tool_%04d", i)
		names = append(names, name)
		require.NoError(t, m.Register(searchTool(t, name, fmt.Sprintf("Does task %d with widgets", i%7), `{"type":"object","properties":{"widget":{"type":"string"}}}`), false))
	}
	m.Defer(DeferOptions{Names: names})
	a, err := m.SearchTools("task 3 widgets", 10, false)
	require.NoError(t, err)
	b, err := m.Clone().SearchTools("task 3 widgets", 10, false)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Equal(t, "tool_0003", a[0].Name)
}
