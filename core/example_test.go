package core_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/core"
)

// A Go function becomes a tool; a branch registry matches a provider's call
// to it and runs it.
func ExampleFunc() {
	add, err := core.Func("add", func(a, b int) int { return a + b }, "a", "b")
	if err != nil {
		panic(err)
	}
	m := core.NewManager(nil)
	if err := m.Register(add, false); err != nil {
		panic(err)
	}
	fc, err := m.MatchJSON([]byte(`{"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}`))
	if err != nil {
		panic(err)
	}
	fc.Invoke(context.Background())
	fmt.Println(fc.Function(), fc.CallID, fc.Status, fc.Response)
	// Output: add call_1 completed 3
}

// The raw path derives LionAGI's schema: every parameter required, Go kinds
// mapped through LionAGI's type map.
func ExampleNewTool() {
	add, _ := core.Func("add", func(a, b float64) float64 { return a + b }, "a", "b")
	tool, err := core.NewTool(add, &core.ToolOptions{
		Description:           "Add two numbers.",
		ParameterDescriptions: map[string]string{"a": "first number", "b": "second number"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(tool.Schema))
	fmt.Println(tool.MinimumAcceptableFields())
	// Output:
	// {"type":"function","function":{"name":"add","description":"Add two numbers.","parameters":{"type":"object","properties":{"a":{"type":"number","description":"first number"},"b":{"type":"number","description":"second number"}},"required":["a","b"]},"strict":null}}
	// [a b]
}

// getToolSchema's selections: true, false, a name, a list.
func ExampleManager_ToolSchema() {
	m := core.NewManager(nil)
	for _, name := range []string{"a", "b"} {
		h := core.HandlerFunc(name, func(context.Context, *core.Arguments) (any, error) { return nil, nil })
		t, _ := core.NewTool(h, &core.ToolOptions{Schema: json.RawMessage(`{"type":"function","function":{"name":"` + name + `"}}`)})
		_ = m.Register(t, false)
	}
	all, _ := m.ToolSchema(true, true, false)
	none, _ := m.ToolSchema(false, true, false)
	one, _ := m.ToolSchema("b", true, false)
	_, err := m.ToolSchema("c", true, false)
	fmt.Println(string(all))
	fmt.Println(string(none))
	fmt.Println(string(one))
	fmt.Println(errors.Is(err, core.ErrToolNotFound), err)
	// Output:
	// {"tools":[{"type":"function","function":{"name":"a"}},{"type":"function","function":{"name":"b"}}]}
	// []
	// {"tools":{"type":"function","function":{"name":"b"}}}
	// true tool-not-found (tool c): Tool c is not registered.
}

// Every provider's call shape reads the same way.
func ExampleParseRequest() {
	for _, s := range []string{
		`{"function":"add","arguments":{"a":1}}`,
		`{"type":"tool_use","id":"toolu_1","name":"add","input":{"a":1}}`,
		`{"functionCall":{"name":"add","args":{"a":1}}}`,
		`[1]`,
	} {
		req, err := core.ParseRequest([]byte(s))
		if err != nil {
			fmt.Println(core.AsError(err).Code)
			continue
		}
		args, _ := json.Marshal(req.Arguments)
		fmt.Println(req.Provider, req.Function, string(args))
	}
	// Output:
	// lionagi add {"a":1}
	// anthropic add {"a":1}
	// gemini add {"a":1}
	// invalid-request
}

// A record of the call, in LionAGI's shape.
func ExampleFunctionCalling_ToDict() {
	div, _ := core.Func("div", func(a, b int) (int, error) {
		if b == 0 {
			return 0, errors.New("division by zero")
		}
		return a / b, nil
	}, "a", "b")
	m := core.NewManager(nil)
	_ = m.Register(div, false)
	fc, _ := m.Invoke(context.Background(), &core.Request{Function: "div", Arguments: mustArgs(`{"a":1,"b":0}`)})
	rec, _ := fc.ToDict("json")
	var v struct {
		Execution struct {
			Status string          `json:"status"`
			Error  json.RawMessage `json:"error"`
		} `json:"execution"`
		Function  string          `json:"function"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(rec, &v)
	fmt.Println(v.Execution.Status, string(v.Execution.Error), v.Function, string(v.Arguments))
	// Output: failed {"error":"errorString","message":"division by zero"} div {"a":1,"b":0}
}

func mustArgs(s string) *core.Arguments {
	a, err := core.DecodeArguments("example", []byte(s))
	if err != nil {
		panic(err)
	}
	return a
}
