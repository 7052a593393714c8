package core

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolNameRules(t *testing.T) {
	cases := []struct {
		name, tool, keyword string
	}{
		{"NUL", "get\x00weather", "controlCharacter"},
		{"newline", "get\nweather", "controlCharacter"},
		{"tab", "\tget", "controlCharacter"},
		{"DEL", "get\x7f", "controlCharacter"},
		{"C1", "get\u0085weather", "controlCharacter"},
		{"not UTF-8", "get\xffweather", "utf8"},
		{"too long", strings.Repeat("a", MaxToolNameBytes+1), "maxLength"},
		{"normal", "get_weather", ""},
		{"dots and spaces", "docs.search v2", ""},
		{"other scripts", "météo_天気", ""},
		{"at the length limit", strings.Repeat("a", MaxToolNameBytes), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fn, err := Func(tc.tool, func(a int) int { return a }, "a")
			require.NoError(t, err)
			_, err = NewTool(fn, nil)
			checkNameVerdict(t, err, tc.keyword)
			// The same name given as an option, and inside a provider schema.
			fn, _ = Func("f", func(a int) int { return a }, "a")
			_, err = NewTool(fn, &ToolOptions{Name: tc.tool})
			checkNameVerdict(t, err, tc.keyword)
			schema, _ := json.Marshal(map[string]any{"type": "function", "function": map[string]any{"name": tc.tool, "parameters": map[string]any{"type": "object"}}})
			_, err = NewTool(fn, &ToolOptions{Schema: schema})
			if tc.keyword != "utf8" { // encoding/json writes invalid UTF-8 as U+FFFD
				checkNameVerdict(t, err, tc.keyword)
			}
		})
	}
}

func checkNameVerdict(t *testing.T, err error, keyword string) {
	t.Helper()
	if keyword == "" {
		require.NoError(t, err, "got %v, want the name accepted", err)
		return
	}
	require.Error(t, err, "got the name accepted, want invalid-tool %s", keyword)
	assert.True(t, errors.Is(err, ErrInvalidTool), "got %v, want invalid-tool", err)
	var e *Error
	require.True(t, errors.As(err, &e))
	require.Len(t, e.Issues, 1, "got issues %v, want one", e.Issues)
	assert.Equal(t, keyword, e.Issues[0].Keyword, "got keyword %q, want %q", e.Issues[0].Keyword, keyword)
	assert.Equal(t, "/function/name", e.Issues[0].Path)
	assert.NotEmpty(t, e.Tool, "got no tool named, want the name")
}
