// Package core is toolgate's function-tool layer, a Go port of LionAGI's:
// tools (a provider schema next to the callable it describes), schema
// derivation from signatures and docstrings, argument validation, the
// FunctionCalling event and the branch registry (Manager, LionAGI's
// ActionManager). It imports only the standard library and the two JSON
// Schema libraries, so it builds natively and for js/wasm alike; the JS glue
// and MCP live in other packages.
//
// Every failure is an *Error with a Code from a closed set; compare with
// errors.Is against the sentinels (ErrDuplicateTool, …).
//
// A short tour:
//
//	add, _ := core.Func("add", func(a, b int) int { return a + b }, "a", "b")
//	tool, _ := core.NewTool(add, &core.ToolOptions{Description: "Add two numbers."})
//
//	m := core.NewManager(nil)
//	_ = m.Register(tool, false)
//	schemas, _ := m.ToolSchema(true, true, false) // {"tools":[...]} for the provider
//
//	fc, err := m.MatchJSON([]byte(`{"function":"add","arguments":{"a":1,"b":2}}`))
//	if err != nil { /* invalid-request, tool-not-found, invalid-arguments */ }
//	fc.Invoke(ctx) // fc.Status == core.StatusCompleted, fc.Response == 3
//	record, _ := fc.ToDict("json")
package core
