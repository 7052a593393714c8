package provider_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/provider"
)

// Every call of an Anthropic message is run, and the outcomes go back as
// the next user message; a call the registry refuses is answered too, with
// a text the model can act on.
func ExampleFormatToolResults() {
	add, _ := core.Func("add", func(a, b int) int { return a + b }, "a", "b")
	m := core.NewManager(nil)
	if err := m.Register(add, false); err != nil {
		panic(err)
	}
	calls, err := core.ParseToolCalls([]byte(`{"type":"message","role":"assistant","content":[
		{"type":"text","text":"Adding."},
		{"type":"tool_use","id":"toolu_1","name":"add","input":{"a":1,"b":2}},
		{"type":"tool_use","id":"toolu_2","name":"mul","input":{"a":1,"b":2}}]}`))
	if err != nil {
		panic(err)
	}
	var results []*provider.ToolResult
	for _, call := range calls {
		fc, err := m.Invoke(context.Background(), call)
		if err != nil {
			results = append(results, provider.ErrorToolResult(err)) // the refusal of toolu_2, with its id
			continue
		}
		r, _ := provider.ResultOf(fc)
		results = append(results, r)
	}
	next, err := provider.FormatToolResults(core.ProviderAnthropic, results)
	if err != nil {
		panic(err)
	}
	var msg struct {
		Role    string `json:"role"`
		Content []struct {
			ID      string `json:"tool_use_id"`
			IsError bool   `json:"is_error"`
		} `json:"content"`
	}
	_ = json.Unmarshal(next, &msg)
	fmt.Println(msg.Role, msg.Content)
	// Output: user [{toolu_1 false} {toolu_2 true}]
}

// A completed call's output as each target writes it.
func ExampleFormatToolResult() {
	r := &provider.ToolResult{CallID: "call_1", Function: "weather", Status: core.StatusCompleted, Output: []byte(`{"temp":18}`)}
	for _, target := range []string{core.ProviderOpenAIChat, core.ProviderOpenAIResponses, core.ProviderGemini, provider.MCP} {
		msg, _ := provider.FormatToolResult(target, r)
		fmt.Println(string(msg))
	}
	// Output:
	// {"role":"tool","tool_call_id":"call_1","content":"{\"temp\":18}"}
	// {"type":"function_call_output","call_id":"call_1","output":"{\"temp\":18}"}
	// {"functionResponse":{"id":"call_1","name":"weather","response":{"output":{"temp":18}}}}
	// {"content":[{"type":"text","text":"{\"temp\":18}"}]}
}
