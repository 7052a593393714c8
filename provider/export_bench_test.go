package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
	"testing"
)

// BenchmarkExportTools exports 100 typed tools with a nested optional
// object each.
func BenchmarkExportTools(b *testing.B) {
	tools := make([]*core.Tool, 100)
	params := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"object","properties":{"d":{"type":"string"}}}},"required":["a"]}`)
	for i := range tools {
		name := fmt.Sprintf("tool.%d", i)
		t, err := core.NewTool(core.HandlerFunc(name, func(context.Context, *core.Arguments) (any, error) { return nil, nil }), &core.ToolOptions{Name: name, Parameters: params})
		if err != nil {
			b.Fatal(err)
		}
		tools[i] = t
	}
	for _, variant := range []string{"openai-chat", "openai-chat+strict", "gemini+legacy", "mcp"} {
		target, opts := variantTarget(variant)
		b.Run(variant, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := ExportTools(tools, target, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
