package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namedTool builds a local tool with a given schema name and no parameters.
func namedTool(t *testing.T, name string) *Tool {
	t.Helper()
	return mustTool(t, &fakeCallable{sig: Signature{Name: name}}, &ToolOptions{Schema: schemaFor(name, "")})
}

// fakeMCPFactory builds a proxy tool named after the config key, like the
// full build's factory.
func fakeMCPFactory(name string, config json.RawMessage) (*Tool, error) {
	var cfg map[string]any
	if err := json.Unmarshal(config, &cfg); err != nil {
		return nil, err
	}
	if cfg["fail"] == true {
		return nil, Errorf(CodePolicyDenied, name, "refused")
	}
	if cfg["nil"] == true {
		return nil, nil
	}
	t, err := NewTool(HandlerFunc(name, func(context.Context, *Arguments) (any, error) { return "remote", nil }),
		&ToolOptions{Schema: schemaFor(name, "")})
	if err != nil {
		return nil, err
	}
	t.MCPConfig = map[string]any{name: cfg}
	return t, nil
}

func mcpConfig(name, body string) map[string]json.RawMessage {
	return map[string]json.RawMessage{name: json.RawMessage(body)}
}

func TestRegister(t *testing.T) {
	type step struct {
		x       any
		update  bool
		want    error  // nil for success
		message string // exact message, when set
	}
	a, b := namedTool(t, "a"), namedTool(t, "b")
	a2 := namedTool(t, "a")
	fnA := &fakeCallable{sig: Signature{Name: "a"}}
	fnC := &fakeCallable{sig: Signature{Name: "c"}}
	typeMsg := "Must provide a `Tool` object, a callable function, or an MCP config dict."
	tests := []struct {
		name      string
		factory   bool
		steps     []step
		wantNames []string
	}{
		{"tool", false, []step{{x: a}}, []string{"a"}},
		{"duplicate tool", false, []step{{x: a}, {x: a2, want: ErrDuplicateTool, message: "Tool a is already registered."}}, []string{"a"}},
		{"update keeps position", false, []step{{x: a}, {x: b}, {x: a2, update: true}}, []string{"a", "b"}},
		{"callable", false, []step{{x: fnC}}, []string{"c"}},
		{"callable same name as tool", false, []step{{x: a}, {x: fnA, want: ErrDuplicateTool, message: "Tool a is already registered."}}, []string{"a"}},
		{"callable update", false, []step{{x: a}, {x: b}, {x: fnA, update: true}}, []string{"a", "b"}},
		{"registered string (LionAGI said Tool None)", false, []step{{x: a}, {x: "a", want: ErrDuplicateTool, message: "Tool a is already registered."}}, []string{"a"}},
		{"registered string with update", false, []step{{x: a}, {x: "a", update: true, want: ErrUnsupportedType, message: typeMsg}}, []string{"a"}},
		{"unregistered string", false, []step{{x: "zzz", want: ErrUnsupportedType, message: typeMsg}}, nil},
		{"nil", false, []step{{x: nil, want: ErrUnsupportedType, message: typeMsg}}, nil},
		{"int", false, []step{{x: 5, want: ErrUnsupportedType}}, nil},
		{"list", false, []step{{x: []any{a}, want: ErrUnsupportedType}}, nil},
		{"tool value", false, []step{{x: Tool{ID: "v"}, want: ErrUnsupportedType}}, nil},
		{"nil tool pointer", false, []step{{x: (*Tool)(nil), want: ErrUnsupportedType}}, nil},
		{"nil callable pointer", false, []step{{x: (*fakeCallable)(nil), want: ErrUnsupportedType}}, nil},
		{"bare Go func", false, []step{{x: func() {}, want: ErrUnsupportedType}}, nil},
		{"handler without name", false, []step{{x: Handler(func(context.Context, *Arguments) (any, error) { return nil, nil }), want: ErrUnsupportedType}}, nil},
		{"tool without name", false, []step{{x: &Tool{Schema: json.RawMessage(`{}`)}, want: ErrInvalidTool}}, nil},
		{"callable signature panics", false, []step{{x: panicSignature{}, want: ErrInternal}}, nil},
		{"callable NewTool fails", false, []step{{x: &fakeCallable{sigErr: errors.New("x")}, want: ErrInvalidTool}}, nil},
		{"mcp in core build", false, []step{{x: mcpConfig("m", `{"url":"https://h"}`), want: ErrUnsupported}}, nil},
		{"mcp no entries", true, []step{{x: map[string]json.RawMessage{}, want: ErrInvalidTool, message: "`mcp_config` must contain exactly one entry."}}, nil},
		{"mcp two entries", true, []step{{x: map[string]json.RawMessage{"x": json.RawMessage(`{}`), "y": json.RawMessage(`{}`)}, want: ErrInvalidTool}}, nil},
		{"mcp entry not object", true, []step{{x: mcpConfig("m", `"https://h"`), want: ErrInvalidTool}}, nil},
		{"mcp", true, []step{{x: mcpConfig("m", `{"url":"https://h"}`)}}, []string{"m"}},
		{"mcp map[string]any", true, []step{{x: map[string]any{"m": map[string]any{"url": "https://h"}}}}, []string{"m"}},
		{"mcp map[string]any not JSON", true, []step{{x: map[string]any{"m": make(chan int)}, want: ErrInvalidTool}}, nil},
		{"mcp duplicate key (D3 closed)", true, []step{{x: mcpConfig("m", `{}`)}, {x: mcpConfig("m", `{}`), want: ErrDuplicateTool, message: "Tool m is already registered."}}, []string{"m"}},
		{"mcp over mcp with update", true, []step{{x: mcpConfig("m", `{}`)}, {x: a}, {x: mcpConfig("m", `{"v":2}`), update: true}}, []string{"m", "a"}},
		{"mcp never replaces local", true, []step{{x: a}, {x: mcpConfig("a", `{}`), update: true, want: ErrDuplicateTool, message: "MCP tool 'a' cannot replace an existing local tool."}}, []string{"a"}},
		{"mcp tool never replaces local", true, []step{{x: a}, {x: func() *Tool { m := namedTool(t, "a"); m.MCP = true; return m }(), update: true, want: ErrDuplicateTool}}, []string{"a"}},
		{"local replaces mcp with update", true, []step{{x: mcpConfig("a", `{}`)}, {x: a, update: true}}, []string{"a"}},
		{"mcp factory error", true, []step{{x: mcpConfig("m", `{"fail":true}`), want: ErrPolicyDenied}}, nil},
		{"mcp factory nil tool", true, []step{{x: mcpConfig("m", `{"nil":true}`), want: ErrInvalidTool}}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := &ManagerOptions{}
			if tc.factory {
				opts.MCPFactory = fakeMCPFactory
			}
			m := NewManager(opts)
			for i, s := range tc.steps {
				err := m.Register(s.x, s.update)
				if s.want == nil {
					require.NoError(t, err, "step %d", i)
					continue
				}
				require.ErrorIs(t, err, s.want, "step %d: got %v, want %v", i, err, s.want.(*Error).Code)
				if s.message != "" {
					assert.Equal(t, s.message, AsError(err).Message)
				}
			}
			if tc.wantNames == nil {
				tc.wantNames = []string{}
			}
			assert.Equal(t, tc.wantNames, m.Names())
		})
	}
}

func TestRegisterUpdateReplaces(t *testing.T) {
	m := NewManager(nil)
	a, b, a2 := namedTool(t, "a"), namedTool(t, "b"), namedTool(t, "a")
	require.NoError(t, m.RegisterAll([]any{a, b}, false))
	require.NoError(t, m.Register(a2, true))
	got, ok := m.Get("a")
	require.True(t, ok)
	assert.Same(t, a2, got)
	assert.Equal(t, []*Tool{a2, b}, m.Tools())

	mm := NewManager(&ManagerOptions{MCPFactory: fakeMCPFactory})
	require.NoError(t, mm.Register(mcpConfig("m", `{"url":"https://h"}`), false))
	mt, _ := mm.Get("m")
	assert.True(t, mt.MCP, "a factory's tool is marked MCP")
}

func TestRegisterAll(t *testing.T) {
	m := NewManager(nil)
	a, b, c := namedTool(t, "a"), namedTool(t, "b"), namedTool(t, "c")
	err := m.RegisterAll([]any{a, nil, b, namedTool(t, "a"), c}, false)
	assert.ErrorIs(t, err, ErrDuplicateTool)
	assert.Equal(t, []string{"a", "b"}, m.Names(), "registration stops at the first error and keeps what came before")
	require.NoError(t, m.RegisterAll([]any{namedTool(t, "a"), c}, true))
	assert.Equal(t, []string{"a", "b", "c"}, m.Names())
	require.NoError(t, m.RegisterAll(nil, false))
}

func TestHas(t *testing.T) {
	m := NewManager(&ManagerOptions{MCPFactory: fakeMCPFactory})
	a := namedTool(t, "a")
	require.NoError(t, m.Register(a, false))
	require.NoError(t, m.Register(mcpConfig("m", `{}`), false))
	tests := []struct {
		name string
		ref  any
		want bool
	}{
		{"tool", a, true},
		{"other tool same name", namedTool(t, "a"), true},
		{"unregistered tool", namedTool(t, "z"), false},
		{"nil tool", (*Tool)(nil), false},
		{"string", "a", true},
		{"unknown string", "z", false},
		{"callable by name", &fakeCallable{sig: Signature{Name: "a"}}, true},
		{"callable unknown", &fakeCallable{sig: Signature{Name: "z"}}, false},
		{"callable signature error", &fakeCallable{sigErr: errors.New("x")}, false},
		{"callable signature panic", panicSignature{}, false},
		{"nil callable", (*fakeCallable)(nil), false},
		{"mcp config by key", mcpConfig("m", `{}`), true},
		{"mcp config any by key", map[string]any{"a": map[string]any{}}, true},
		{"mcp config unknown", mcpConfig("z", `{}`), false},
		{"mcp config two entries", map[string]json.RawMessage{"a": nil, "m": nil}, false},
		{"mcp config any two entries", map[string]any{"a": nil, "m": nil}, false},
		{"nil", nil, false},
		{"int", 1, false},
		{"list", []any{"a"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, m.Has(tc.ref))
		})
	}
}

func TestSchemaListAndCopies(t *testing.T) {
	m := NewManager(nil)
	assert.Empty(t, m.SchemaList())
	assert.Equal(t, []string{}, m.Names())
	a, b := namedTool(t, "a"), namedTool(t, "b")
	require.NoError(t, m.RegisterAll([]any{b, a}, false))
	list := m.SchemaList()
	require.Len(t, list, 2)
	assert.Equal(t, string(b.Schema), string(list[0]))
	assert.Equal(t, string(a.Schema), string(list[1]))
	list[0][0] = 'X'
	assert.Equal(t, byte('{'), b.Schema[0], "SchemaList hands out copies")
	names := m.Names()
	names[0] = "changed"
	assert.Equal(t, []string{"b", "a"}, m.Names())
	_, ok := m.Get("zzz")
	assert.False(t, ok)
}

func TestToolSchema(t *testing.T) {
	a, b := namedTool(t, "a"), namedTool(t, "b")
	A, B := string(a.Schema), string(b.Schema)
	unregistered := namedTool(t, "u")
	fnA := &fakeCallable{sig: Signature{Name: "a"}}
	tests := []struct {
		name         string
		sel          any
		autoRegister bool
		want         string
		wantErr      error
		message      string
	}{
		{"true", true, true, `{"tools":[` + A + `,` + B + `]}`, nil, ""},
		{"false is a list", false, true, `[]`, nil, ""},
		{"one-item true", []any{true}, true, `{"tools":[` + A + `,` + B + `]}`, nil, ""},
		{"one-item false", []any{false}, true, `[]`, nil, ""},
		{"name", "a", true, `{"tools":` + A + `}`, nil, ""},
		{"one-item name unwrapped", []any{"b"}, true, `{"tools":` + B + `}`, nil, ""},
		{"names", []any{"b", "a"}, true, `{"tools":[` + B + `,` + A + `]}`, nil, ""},
		{"typed names", []string{"a", "b"}, true, `{"tools":[` + A + `,` + B + `]}`, nil, ""},
		{"typed one name", []string{"a"}, true, `{"tools":` + A + `}`, nil, ""},
		{"nested stays nested", []any{"a", []any{"b"}}, true, `{"tools":[` + A + `,[` + B + `]]}`, nil, ""},
		{"one-item nested", []any{[]any{"a"}}, true, `{"tools":[` + A + `]}`, nil, ""},
		{"empty list", []any{}, true, `{"tools":[]}`, nil, ""},
		{"tool", a, true, `{"tools":` + A + `}`, nil, ""},
		{"tools", []*Tool{b, a}, true, `{"tools":[` + B + `,` + A + `]}`, nil, ""},
		{"callable by name", fnA, false, `{"tools":` + A + `}`, nil, ""},
		{"callables", []Callable{fnA}, false, `{"tools":` + A + `}`, nil, ""},
		{"raw schema as is", json.RawMessage(` {"x": 1} `), true, `{"tools":{"x": 1}}`, nil, ""},
		{"raw schemas", []json.RawMessage{json.RawMessage(`{"x":1}`), json.RawMessage(`{"y":2}`)}, true, `{"tools":[{"x":1},{"y":2}]}`, nil, ""},
		{"map schema", map[string]any{"x": "<1>"}, true, `{"tools":{"x":"<1>"}}`, nil, ""},
		{"unregistered tool never auto-registered", unregistered, true, "", ErrToolNotFound, "Tool u is not registered."},
		{"unknown name", "zzz", true, "", ErrToolNotFound, "Tool zzz is not registered."},
		{"unknown in list", []any{"a", "zzz"}, true, "", ErrToolNotFound, ""},
		{"nil", nil, true, "", ErrUnsupportedType, "Unsupported type <nil>."},
		{"int", 5, true, "", ErrUnsupportedType, "Unsupported type int."},
		{"bool in list", []any{"a", true}, true, "", ErrUnsupportedType, "Unsupported type bool."},
		{"nil in list", []any{"a", nil}, true, "", ErrUnsupportedType, ""},
		{"raw non-object", json.RawMessage(`[1]`), true, "", ErrUnsupportedType, ""},
		{"nil tool", (*Tool)(nil), true, "", ErrUnsupportedType, ""},
		{"nil callable", (*fakeCallable)(nil), true, "", ErrUnsupportedType, ""},
		{"map not JSON", map[string]any{"x": make(chan int)}, true, "", ErrUnsupportedType, ""},
		{"callable signature error", &fakeCallable{sigErr: Errorf(CodeInvalidTool, "", "no")}, true, "", ErrInvalidTool, ""},
		{"unregistered callable without auto-register", &fakeCallable{sig: Signature{Name: "new"}}, false, "", ErrToolNotFound, "Tool new is not registered."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := NewManager(nil)
			require.NoError(t, m.RegisterAll([]any{a, b}, false))
			got, err := m.ToolSchema(tc.sel, tc.autoRegister, false)
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr, "got %v, want %v", err, tc.wantErr.(*Error).Code)
				if tc.message != "" {
					assert.Equal(t, tc.message, AsError(err).Message)
				}
				assert.Equal(t, []string{"a", "b"}, m.Names(), "a failed selection registers nothing")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
			assert.True(t, json.Valid(got))
			assert.Equal(t, []string{"a", "b"}, m.Names(), "selection by name or schema registers nothing")
		})
	}
}

func TestToolSchemaAutoRegisters(t *testing.T) {
	m := NewManager(nil)
	require.NoError(t, m.Register(namedTool(t, "a"), false))
	c := HandlerFunc("auto", func(context.Context, *Arguments) (any, error) { return nil, nil })
	got, err := m.ToolSchema(c, true, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "auto"}, m.Names(), "an unregistered callable is registered at the end")
	tool, _ := m.Get("auto")
	assert.Equal(t, `{"tools":`+string(tool.Schema)+`}`, string(got))

	got2, err := m.ToolSchema([]any{"a", HandlerFunc("auto2", func(context.Context, *Arguments) (any, error) { return nil, nil })}, true, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "auto", "auto2"}, m.Names(), "callables inside a list are auto-registered too")
	assert.True(t, json.Valid(got2))

	sameName := &fakeCallable{sig: Signature{Name: "a"}, sigErr: nil}
	before := m.Names()
	got3, err := m.ToolSchema(sameName, true, true)
	require.NoError(t, err)
	aTool, _ := m.Get("a")
	assert.Equal(t, `{"tools":`+string(aTool.Schema)+`}`, string(got3), "a same-named registered tool wins")
	assert.Equal(t, before, m.Names())

	bad := &fakeCallable{sig: Signature{Name: "bad", Doc: "Bad.\n\nArgs:\n    no colon\n"}}
	_, err = m.ToolSchema(bad, true, false)
	assert.ErrorIs(t, err, ErrInvalidTool, "a registration error of auto-registration is returned")
}

func TestMatch(t *testing.T) {
	m := NewManager(nil)
	sig := Signature{Name: "add", Params: plain("a", "b")}
	add := mustTool(t, &fakeCallable{sig: sig}, &ToolOptions{Schema: schemaFor("add", `{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}`)})
	typed := mustTool(t, &fakeCallable{sig: Signature{Name: "n"}}, &ToolOptions{Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)})
	require.NoError(t, m.RegisterAll([]any{add, typed}, false))

	fc, err := m.Match(&Request{ID: "call_1", Function: "add", Arguments: argsOf(t, `{"b":2,"a":1}`)})
	require.NoError(t, err)
	assert.Equal(t, StatusPending, fc.Status)
	assert.Same(t, add, fc.Tool)
	assert.Equal(t, "add", fc.Function())
	assert.Equal(t, "call_1", fc.CallID)
	assert.Equal(t, []string{"b", "a"}, fc.Arguments.Keys)
	assert.Nil(t, fc.Duration)
	assert.NotEmpty(t, fc.ID)
	assert.NotNil(t, fc.Metadata)

	fc, err = m.Match(&Request{Function: "n", Arguments: argsOf(t, `{"n":"5"}`)})
	require.NoError(t, err)
	assert.Equal(t, json.Number("5"), fc.Arguments.Values["n"])
	assert.Len(t, fc.Conversions, 1)

	tests := []struct {
		name    string
		req     *Request
		want    error
		message string
	}{
		{"nil request", nil, ErrInvalidRequest, ""},
		{"unknown function", &Request{Function: "zzz", Arguments: argsOf(t, `{}`)}, ErrToolNotFound, "Function zzz is not registered."},
		{"missing argument", &Request{Function: "add", Arguments: argsOf(t, `{"a":1}`)}, ErrInvalidArguments, ""},
		{"nil arguments", &Request{Function: "add"}, ErrInvalidRequest, ""},
		{"typed invalid", &Request{Function: "n", Arguments: argsOf(t, `{"n":"x"}`)}, ErrInvalidArguments, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fc, err := m.Match(tc.req)
			assert.Nil(t, fc)
			require.ErrorIs(t, err, tc.want, "got %v, want %v", err, tc.want.(*Error).Code)
			if tc.message != "" {
				assert.Equal(t, tc.message, AsError(err).Message)
			}
		})
	}
}

func TestMatchJSONAndInvoke(t *testing.T) {
	m := NewManager(nil)
	add, err := Func("add", func(a, b int) (int, error) {
		if a < 0 {
			return 0, errors.New("negative")
		}
		return a + b, nil
	}, "a", "b")
	require.NoError(t, err)
	require.NoError(t, m.Register(add, false))

	fc, err := m.MatchJSON([]byte(`{"type":"tool_use","id":"toolu_1","name":"add","input":{"a":1,"b":2}}`))
	require.NoError(t, err)
	assert.Equal(t, "toolu_1", fc.CallID)
	fc.Invoke(context.Background())
	assert.Equal(t, StatusCompleted, fc.Status)
	assert.Equal(t, 3, fc.Response)

	_, err = m.MatchJSON([]byte(`[1]`))
	assert.ErrorIs(t, err, ErrInvalidRequest)

	req, err := ParseRequest([]byte(`{"function":"add","arguments":{"a":-1,"b":2}}`))
	require.NoError(t, err)
	fc, err = m.Invoke(context.Background(), req)
	require.NoError(t, err, "a failing tool is data, not an error")
	assert.Equal(t, StatusFailed, fc.Status)
	assert.EqualError(t, fc.Err, "negative")

	req, err = ParseRequest([]byte(`{"function":"add","arguments":{"a":1,"b":2,"c":3}}`))
	require.NoError(t, err)
	fc, err = m.Invoke(context.Background(), req)
	require.NoError(t, err, "extra keys pass the non-strict check")
	assert.Equal(t, StatusFailed, fc.Status, "and fail at call time")
	assert.ErrorIs(t, fc.Err, ErrInvalidArguments)

	fc, err = m.Invoke(context.Background(), &Request{Function: "nope", Arguments: argsOf(t, `{}`)})
	assert.Nil(t, fc)
	assert.ErrorIs(t, err, ErrToolNotFound)
}

func TestClone(t *testing.T) {
	m := NewManager(&ManagerOptions{MCPFactory: fakeMCPFactory})
	a, b := namedTool(t, "a"), namedTool(t, "b")
	require.NoError(t, m.RegisterAll([]any{a, b}, false))
	c := m.Clone()
	assert.Equal(t, m.Names(), c.Names())
	ca, _ := c.Get("a")
	assert.Same(t, a, ca, "a clone shares the same tools")
	require.NoError(t, c.Register(namedTool(t, "c"), false))
	require.NoError(t, c.Register(namedTool(t, "a"), true))
	assert.Equal(t, []string{"a", "b"}, m.Names(), "the original registry is unchanged")
	ma, _ := m.Get("a")
	assert.Same(t, a, ma)
	require.NoError(t, c.Register(mcpConfig("m", `{}`), false), "a clone keeps the options")
}

func TestManagerConcurrent(t *testing.T) {
	m := NewManager(nil)
	add, err := Func("add", func(a, b int) int { return a + b }, "a", "b")
	require.NoError(t, err)
	addTool := mustTool(t, add, &ToolOptions{Schema: schemaFor("add", `{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}`)})
	require.NoError(t, m.Register(addTool, false))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				name := fmt.Sprintf("t%d_%d", i, j)
				assert.NoError(t, m.Register(namedTool(t, name), false))
				assert.True(t, m.Has(name))
				_, err := m.ToolSchema(true, true, false)
				assert.NoError(t, err)
				fc, err := m.Invoke(context.Background(), &Request{Function: "add", Arguments: argsOf(t, `{"a":1,"b":2}`)})
				assert.NoError(t, err)
				assert.Equal(t, 3, fc.Response)
				_ = m.Clone().Names()
			}
		}()
	}
	wg.Wait()
	assert.Len(t, m.Names(), 1+8*20)
}

func TestValidateRefusesWhatTheCallableRefuses(t *testing.T) {
	add, err := Func("add", func(a, b int) int { return a + b }, "a", "b")
	require.NoError(t, err)
	tool, err := NewTool(add, nil)
	require.NoError(t, err)
	anyKeys, err := NewTool(HandlerFunc("any", func(_ context.Context, args *Arguments) (any, error) { return args.Len(), nil }), nil)
	require.NoError(t, err)
	m := NewManager(nil)
	require.NoError(t, m.RegisterAll([]any{tool, anyKeys}, false))

	extra := &Request{Function: "add", Arguments: argsOf(t, `{"a":1,"b":2,"c":3}`)}
	fc, err := m.Match(extra)
	require.NoError(t, err, "match keeps LionAGI's non-strict check: extra keys pass")
	fc.Invoke(context.Background())
	assert.Equal(t, StatusFailed, fc.Status, "and the call then fails")

	_, err = m.Validate(extra)
	var e *Error
	require.ErrorAs(t, err, &e, "validate predicts it")
	assert.Equal(t, CodeInvalidArguments, e.Code)
	assert.Equal(t, []Issue{{Path: "/c", Keyword: "signature", Message: e.Issues[0].Message}}, e.Issues)

	_, err = m.Validate(&Request{Function: "add", Arguments: argsOf(t, `{"a":1,"b":2}`)})
	assert.NoError(t, err)
	_, err = m.Validate(&Request{Function: "any", Arguments: argsOf(t, `{"x":1,"y":2}`)})
	assert.NoError(t, err, "a keywords parameter takes any key")
	_, err = m.Validate(&Request{Function: "nope", Arguments: argsOf(t, `{}`)})
	assert.ErrorIs(t, err, ErrToolNotFound)
}
