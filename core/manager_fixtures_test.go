package core

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fixture"
)

// The fixtures under tests/fixtures/manager are shared with the JS tests:
// both sides replay them and must agree.
const managerFixtures = "manager"

// jsonEqual compares two JSON texts as values (object key order ignored,
// numbers compared by their text).
func jsonEqual(t *testing.T, want, got []byte, msgAndArgs ...any) {
	t.Helper()
	assert.JSONEq(t, string(want), string(got), msgAndArgs...)
}

func noopHandler(name string) Callable {
	return HandlerFunc(name, func(context.Context, *Arguments) (any, error) { return nil, nil })
}

func TestFixtureRequests(t *testing.T) {
	var fx struct {
		Cases []struct {
			Name        string          `json:"name"`
			Request     json.RawMessage `json:"request"`
			RequestText *string         `json:"requestText"`
			Want        *struct {
				Function  string          `json:"function"`
				Arguments json.RawMessage `json:"arguments"`
				ID        string          `json:"id"`
				Provider  string          `json:"provider"`
			} `json:"want"`
			Error Code `json:"error"`
		} `json:"cases"`
	}
	fixture.Load(t, managerFixtures, "requests.json", &fx)
	require.NotEmpty(t, fx.Cases)
	for _, tc := range fx.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			in := []byte(tc.Request)
			if tc.RequestText != nil {
				in = []byte(*tc.RequestText)
			}
			req, err := ParseRequest(in)
			if tc.Error != "" {
				require.Error(t, err)
				assert.Equal(t, tc.Error, AsError(err).Code, "got %v, want %s", err, tc.Error)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, tc.Want, "a case wants a result or an error")
			assert.Equal(t, tc.Want.Function, req.Function)
			assert.Equal(t, tc.Want.ID, req.ID)
			assert.Equal(t, tc.Want.Provider, req.Provider)
			got, err := json.Marshal(req.Arguments)
			require.NoError(t, err)
			var compact bytes.Buffer
			require.NoError(t, json.Compact(&compact, tc.Want.Arguments))
			assert.Equal(t, compact.String(), string(got), "argument key order is kept: got %s, want %s", got, compact.String())
		})
	}
}

// fixtureRef builds what a register step's ref stands for.
func fixtureRef(t *testing.T, ref map[string]json.RawMessage) any {
	t.Helper()
	if raw, ok := ref["tool"]; ok {
		var name string
		require.NoError(t, json.Unmarshal(raw, &name))
		return mustTool(t, noopHandler(name), &ToolOptions{Schema: schemaFor(name, "")})
	}
	if raw, ok := ref["string"]; ok {
		var s string
		require.NoError(t, json.Unmarshal(raw, &s))
		return s
	}
	if raw, ok := ref["mcp"]; ok {
		var cfg map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &cfg))
		return cfg
	}
	if raw, ok := ref["value"]; ok {
		var v any
		require.NoError(t, json.Unmarshal(raw, &v))
		return v
	}
	t.Fatalf("unknown ref %v", ref)
	return nil
}

func TestFixtureRegister(t *testing.T) {
	var fx struct {
		Cases []struct {
			Name  string `json:"name"`
			Build string `json:"build"`
			Steps []struct {
				Register map[string]json.RawMessage `json:"register"`
				Update   bool                       `json:"update"`
				Want     string                     `json:"want"`
				Message  string                     `json:"message"`
			} `json:"steps"`
			Names []string `json:"names"`
		} `json:"cases"`
	}
	fixture.Load(t, managerFixtures, "register.json", &fx)
	require.NotEmpty(t, fx.Cases)
	for _, tc := range fx.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			opts := &ManagerOptions{}
			switch tc.Build {
			case "full":
				opts.MCPFactory = fakeMCPFactory
			case "core":
			default:
				t.Fatalf("unknown build %q", tc.Build)
			}
			m := NewManager(opts)
			for i, s := range tc.Steps {
				err := m.Register(fixtureRef(t, s.Register), s.Update)
				if s.Want == "ok" {
					require.NoError(t, err, "step %d", i)
					continue
				}
				require.Error(t, err, "step %d", i)
				assert.Equal(t, Code(s.Want), AsError(err).Code, "step %d: got %v, want %s", i, err, s.Want)
				if s.Message != "" {
					assert.Equal(t, s.Message, AsError(err).Message, "step %d", i)
				}
			}
			assert.Equal(t, tc.Names, m.Names())
		})
	}
}

// fixtureSelection turns a JSON selection into what ToolSchema takes: an
// object is a schema (json.RawMessage), an array a []any.
func fixtureSelection(raw json.RawMessage) any {
	r := bytes.TrimSpace(raw)
	switch {
	case len(r) == 0:
		return nil
	case r[0] == '{':
		return json.RawMessage(r)
	case r[0] == '[':
		var items []json.RawMessage
		_ = json.Unmarshal(r, &items)
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = fixtureSelection(it)
		}
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v)
	return v
}

// expandPlaceholders replaces "$name" strings with the named schema.
func expandPlaceholders(v any, schemas map[string]any) any {
	switch x := v.(type) {
	case string:
		if s, ok := schemas[strings.TrimPrefix(x, "$")]; ok && strings.HasPrefix(x, "$") {
			return s
		}
	case []any:
		for i := range x {
			x[i] = expandPlaceholders(x[i], schemas)
		}
	case map[string]any:
		for k := range x {
			x[k] = expandPlaceholders(x[k], schemas)
		}
	}
	return v
}

func TestFixtureToolSchema(t *testing.T) {
	var fx struct {
		Tools []json.RawMessage `json:"tools"`
		Cases []struct {
			Name         string          `json:"name"`
			Select       json.RawMessage `json:"select"`
			AutoRegister *bool           `json:"autoRegister"`
			Want         json.RawMessage `json:"want"`
			Error        Code            `json:"error"`
			Message      string          `json:"message"`
		} `json:"cases"`
	}
	fixture.Load(t, managerFixtures, "tool_schema.json", &fx)
	require.NotEmpty(t, fx.Cases)
	m := NewManager(nil)
	schemas := map[string]any{}
	var names []string
	for _, s := range fx.Tools {
		tool := mustTool(t, noopHandler("x"), &ToolOptions{Schema: s})
		require.NoError(t, m.Register(tool, false))
		var v any
		require.NoError(t, json.Unmarshal(s, &v))
		schemas[tool.Function()] = v
		names = append(names, tool.Function())
	}
	for _, tc := range fx.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			auto := true
			if tc.AutoRegister != nil {
				auto = *tc.AutoRegister
			}
			got, err := m.ToolSchema(fixtureSelection(tc.Select), auto, false)
			assert.Equal(t, names, m.Names())
			if tc.Error != "" {
				require.Error(t, err)
				assert.Equal(t, tc.Error, AsError(err).Code, "got %v, want %s", err, tc.Error)
				if tc.Message != "" {
					assert.Equal(t, tc.Message, AsError(err).Message)
				}
				return
			}
			require.NoError(t, err)
			var want any
			require.NoError(t, json.Unmarshal(tc.Want, &want))
			wantJSON, err := json.Marshal(expandPlaceholders(want, schemas))
			require.NoError(t, err)
			jsonEqual(t, wantJSON, got, "got %s, want %s", got, wantJSON)
		})
	}
}

func TestFixtureMatch(t *testing.T) {
	var fx struct {
		Tools []struct {
			Name           string          `json:"name"`
			Parameters     json.RawMessage `json:"parameters"`
			StrictFuncCall bool            `json:"strictFuncCall"`
		} `json:"tools"`
		Cases []struct {
			Name    string          `json:"name"`
			Request json.RawMessage `json:"request"`
			Want    *struct {
				Function  string          `json:"function"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"want"`
			Error Code `json:"error"`
		} `json:"cases"`
	}
	fixture.Load(t, managerFixtures, "match.json", &fx)
	require.NotEmpty(t, fx.Cases)
	m := NewManager(nil)
	for _, tl := range fx.Tools {
		tool := mustTool(t, noopHandler(tl.Name), &ToolOptions{Parameters: tl.Parameters, StrictFuncCall: tl.StrictFuncCall})
		require.NoError(t, m.Register(tool, false))
	}
	for _, tc := range fx.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			fc, err := m.MatchJSON(tc.Request)
			if tc.Error != "" {
				require.Error(t, err)
				assert.Equal(t, tc.Error, AsError(err).Code, "got %v, want %s", err, tc.Error)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.Want.Function, fc.Function())
			got, err := json.Marshal(fc.Arguments)
			require.NoError(t, err)
			jsonEqual(t, tc.Want.Arguments, got, "got %s, want %s", got, tc.Want.Arguments)
		})
	}
}
