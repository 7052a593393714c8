package provider

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// argsOf builds Arguments from JSON text, keeping key order.
func argsOf(t *testing.T, s string) *core.Arguments {
	t.Helper()
	a, err := core.DecodeArguments("test", []byte(s))
	require.NoError(t, err, "DecodeArguments(%s)", s)
	return a
}

const bookParams = `{"type":"object","properties":{"room":{"type":"string"},"nights":{"type":"integer"},"guest":{"type":"object","properties":{"name":{"type":"string"},"email":{"type":"string"}},"required":["name"]}},"required":["room"]}`

func exportedBranch(t *testing.T, strict bool) (*core.Manager, string) {
	t.Helper()
	m := core.NewManager(nil)
	require.NoError(t, m.Register(typedTool(t, "book.room", bookParams), false))
	ex, err := ExportManager(m, core.ProviderOpenAIChat, &ExportOptions{Strict: strict})
	require.NoError(t, err)
	for exported, registered := range ex.Report.Names {
		if registered == "book.room" {
			return m, exported
		}
	}
	t.Fatal("the export did not name book.room")
	return nil, ""
}

func TestManagerExportResolvesRewrittenNames(t *testing.T) {
	m, name := exportedBranch(t, false)
	require.NotEqual(t, "book.room", name)
	fc, err := m.Match(&core.Request{Function: name, Arguments: argsOf(t, `{"room":"1"}`)})
	require.NoError(t, err)
	assert.Equal(t, "book.room", fc.Function())
	fc, err = m.Match(&core.Request{Function: "book.room", Arguments: argsOf(t, `{"room":"1"}`)})
	require.NoError(t, err, "the registered name still resolves")
	assert.Equal(t, "book.room", fc.Function())
	_, err = m.Match(&core.Request{Function: "nope", Arguments: argsOf(t, `{}`)})
	assert.True(t, errors.Is(err, core.ErrToolNotFound))
	c := m.Clone()
	fc, err = c.Match(&core.Request{Function: name, Arguments: argsOf(t, `{"room":"1"}`)})
	require.NoError(t, err, "a clone keeps the aliases")
	assert.Equal(t, "book.room", fc.Function())
}

func TestManagerStrictExportRemovesIntroducedNulls(t *testing.T) {
	m, name := exportedBranch(t, true)
	call := []byte(`{"id":"call_1","type":"function","function":{"name":"` + name + `","arguments":"{\"room\":\"101\",\"nights\":null,\"guest\":{\"name\":\"Ada\",\"email\":null}}"}}`)
	for _, match := range []func(*core.Manager, *core.Request) (*core.FunctionCalling, error){(*core.Manager).Match, (*core.Manager).Validate} {
		req, err := core.ParseRequest(call)
		require.NoError(t, err)
		fc, err := match(m, req)
		require.NoError(t, err)
		got, _ := json.Marshal(fc.Arguments)
		assert.JSONEq(t, `{"room":"101","guest":{"name":"Ada"}}`, string(got))
		assert.Equal(t, "call_1", fc.CallID)
	}
	fm, handled, err := m.MatchFast(call, true, func(*core.Tool) bool { return true })
	require.NoError(t, err)
	assert.False(t, handled, "the fast path must leave a tool with a strict restore to Match")
	fm.Release()
	// the restore stays with the branch that exported, and goes with its clone
	req, err := core.ParseRequest(call)
	require.NoError(t, err)
	fc, err := m.Clone().Match(req)
	require.NoError(t, err)
	got, _ := json.Marshal(fc.Arguments)
	assert.JSONEq(t, `{"room":"101","guest":{"name":"Ada"}}`, string(got))
}

// restoredCall matches the strict call of book.room (named name) in m and
// reports the arguments it validated, or the error.
func restoredCall(t *testing.T, m *core.Manager, name string) (string, error) {
	t.Helper()
	req, err := core.ParseRequest([]byte(`{"id":"call_1","type":"function","function":{"name":"` + name + `","arguments":"{\"room\":\"101\",\"nights\":null,\"guest\":{\"name\":\"Ada\",\"email\":null}}"}}`))
	require.NoError(t, err)
	fc, err := m.Match(req)
	if err != nil {
		return "", err
	}
	got, _ := json.Marshal(fc.Arguments)
	return string(got), nil
}

func TestManagerLaterExportsKeepStrictRestores(t *testing.T) {
	for _, target := range []string{core.ProviderAnthropic, core.ProviderOpenAIChat, core.ProviderOpenAIResponses, core.ProviderGemini, MCP} {
		t.Run(target, func(t *testing.T) {
			m, name := exportedBranch(t, true)
			_, err := ExportManager(m, target, nil)
			require.NoError(t, err)
			for _, n := range []string{name, "book.room"} {
				got, err := restoredCall(t, m, n)
				require.NoError(t, err, "a null the strict export asked for, after a %s export, called %s", target, n)
				assert.JSONEq(t, `{"room":"101","guest":{"name":"Ada"}}`, got)
			}
			got, err := restoredCall(t, m.Clone(), name)
			require.NoError(t, err, "a clone keeps every restore")
			assert.JSONEq(t, `{"room":"101","guest":{"name":"Ada"}}`, got)
			// a later strict export replaces the restore with its own
			_, err = ExportManager(m, core.ProviderOpenAIResponses, &ExportOptions{Strict: true})
			require.NoError(t, err)
			got, err = restoredCall(t, m, name)
			require.NoError(t, err)
			assert.JSONEq(t, `{"room":"101","guest":{"name":"Ada"}}`, got)
		})
	}
}

func TestManagerForgetsRestoresOfReplacedTools(t *testing.T) {
	m, name := exportedBranch(t, true)
	c := m.Clone()
	require.NoError(t, m.Register(typedTool(t, "book.room", bookParams), true))
	_, err := restoredCall(t, m, name)
	assert.True(t, errors.Is(err, core.ErrInvalidArguments), "got %v, want the new tool, never exported strict, to validate the nulls as sent", err)
	assert.False(t, m.ResolvesDirectly("book.room"), "the alias still stands for the name")
	// the clone still holds the old tool, and its restore
	got, err := restoredCall(t, c, name)
	require.NoError(t, err)
	assert.JSONEq(t, `{"room":"101","guest":{"name":"Ada"}}`, got)
	// a new strict export gives the new tool its restore
	_, err = ExportManager(m, core.ProviderOpenAIChat, &ExportOptions{Strict: true})
	require.NoError(t, err)
	got, err = restoredCall(t, m, name)
	require.NoError(t, err)
	assert.JSONEq(t, `{"room":"101","guest":{"name":"Ada"}}`, got)
}

func TestManagerNeverExportedKeepsLionAGISemantics(t *testing.T) {
	m := core.NewManager(nil)
	require.NoError(t, m.Register(typedTool(t, "book.room", bookParams), false))
	_, err := m.Match(&core.Request{Function: "book_room", Arguments: argsOf(t, `{"room":"1"}`)})
	assert.True(t, errors.Is(err, core.ErrToolNotFound))
	_, err = m.Match(&core.Request{Function: "book.room", Arguments: argsOf(t, `{"room":"1","nights":null}`)})
	assert.True(t, errors.Is(err, core.ErrInvalidArguments), "got %v, want a null refused", err)
	_, err = ExportTools(m.Tools(), core.ProviderOpenAIChat, &ExportOptions{Strict: true})
	require.NoError(t, err)
	_, err = m.Match(&core.Request{Function: "book.room", Arguments: argsOf(t, `{"room":"1","nights":null}`)})
	assert.True(t, errors.Is(err, core.ErrInvalidArguments), "ExportTools remembers nothing in a Manager")
}

func TestManagerResolvesDirectly(t *testing.T) {
	const opt = `{"type":"object","properties":{"a":{"type":"string"}}}`
	const all = `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`
	m := core.NewManager(nil)
	require.NoError(t, m.Register(typedTool(t, "book.room", bookParams), false))
	require.NoError(t, m.Register(typedTool(t, "get.time", all), false))
	require.NoError(t, m.Register(typedTool(t, "optional", opt), false))
	require.NoError(t, m.Register(typedTool(t, "all_required", all), false))
	for _, name := range []string{"book.room", "get.time", "optional", "all_required"} {
		assert.True(t, m.ResolvesDirectly(name), "%s before any export", name)
	}
	_, err := ExportManager(m, core.ProviderOpenAIChat, &ExportOptions{Strict: true})
	require.NoError(t, err)
	rule, _ := NameRuleOf(core.ProviderOpenAIChat)
	cases := []struct {
		name string
		want bool
	}{
		{"book.room", false},               // an alias stands for it, and it has a strict restore
		{rule.Rewrite("book.room"), false}, // the alias itself is not registered
		{"get.time", false},                // an alias stands for it (no restore: every property is required)
		{rule.Rewrite("get.time"), false},  // the alias
		{"optional", false},                // a strict restore
		{"all_required", true},             // the export changed nothing for it
		{"nope", false},                    // not registered
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, m.ResolvesDirectly(tc.name), "after a strict export")
			assert.Equal(t, tc.want, m.Clone().ResolvesDirectly(tc.name), "a clone keeps the memory")
		})
	}
	// a later export without restores keeps them, and the aliases
	_, err = ExportManager(m, core.ProviderAnthropic, nil)
	require.NoError(t, err)
	assert.False(t, m.ResolvesDirectly("optional"), "the strict export's restore stays")
	assert.False(t, m.ResolvesDirectly("book.room"), "its alias stays")
	assert.True(t, m.ResolvesDirectly("all_required"))
	// a replaced tool has no restore: the name resolves directly again
	require.NoError(t, m.Register(typedTool(t, "optional", opt), true))
	assert.True(t, m.ResolvesDirectly("optional"), "the replacement was never exported strict")
}
