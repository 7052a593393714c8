package provider

import (
	"context"
	"encoding/json"

	"github.com/toolgate/toolgate/core"
	"testing"
)

// FuzzExportTools exports a tool of any name and any parameters schema NewTool
// accepts to
// every target, strict and legacy included: it never panics, refuses only
// with a *Error, and what it writes is JSON that passes the providers'
// documented rules (checkProviderTools).
func FuzzExportTools(f *testing.F) {
	f.Add("add", []byte(`{"type":"object","properties":{"a":{"type":"number","description":null}},"required":["a"]}`))
	f.Add("a.b c", []byte(`{"anyOf":[{"properties":{"x":{"type":"string"}}},{"properties":{"y":true}}]}`))
	f.Add("mcp__server__tool", []byte(`{"$ref":"#/$defs/a","$defs":{"a":{"type":"object","properties":{"n":{"$ref":"#/$defs/a"}}}}}`))
	f.Add("9", []byte(`null`))
	f.Add("x", []byte(`{"type":["object","null"],"properties":{"e":{"enum":[1,"a",null]}},"allOf":[{"required":["e"]}]}`))
	f.Fuzz(func(t *testing.T, name string, params []byte) {
		if name == "" || !json.Valid(params) {
			return
		}
		fn, _ := json.Marshal(map[string]any{"name": name, "parameters": json.RawMessage(params)})
		// through NewTool, as every registered tool: a schema that is no JSON Schema is refused there
		tool, err := core.NewTool(core.HandlerFunc(name, func(context.Context, *core.Arguments) (any, error) { return nil, nil }), &core.ToolOptions{Schema: json.RawMessage(`{"type":"function","function":` + string(fn) + `}`)})
		if err != nil {
			return
		}
		for _, variant := range exportVariants {
			target, opts := variantTarget(variant)
			ex, err := ExportTools([]*core.Tool{tool}, target, opts)
			if err != nil {
				if _, ok := err.(*core.Error); !ok {
					t.Fatalf("%s: got %T %v, want a *Error", variant, err, err)
				}
				continue
			}
			v, err := decodeTools(ex.Tools)
			if err != nil {
				t.Fatalf("%s: the export is not JSON: %v\n%s", variant, err, ex.Tools)
			}
			if bad := checkProviderTools(target, v, &ex.Report); len(bad) > 0 {
				t.Fatalf("%s: the export breaks the rules: %v\n%s", variant, bad, ex.Tools)
			}
		}
	})
}
