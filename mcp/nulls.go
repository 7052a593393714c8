package mcp

import (
	"encoding/json"
	"slices"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// optionalNonNull names the top-level properties of schema (a tool's
// inputSchema, or the requestOptions that validate it instead) that are
// optional (not in "required") and whose own "type" does not allow null:
// for those a null argument means "not given" (core.ToolOptions.AbsentNulls),
// as models send null for an optional parameter and MCP's header rules
// treat a null and an absent value alike (docs/mcp-headers.md). A property
// without a "type" of its own (a $ref, a union) is not named: its schema
// decides what a null means. nil for a schema without such properties.
func optionalNonNull(schema json.RawMessage) []string {
	fields, ok := jsontext.Members(schema)
	if !ok {
		return nil
	}
	var required []string
	_ = json.Unmarshal(fields["required"], &required)
	props, ok := jsontext.Split(fields["properties"])
	if !ok {
		return nil
	}
	var out []string
	for _, p := range props {
		if slices.Contains(required, p.Key) {
			continue
		}
		pf, ok := jsontext.Members(p.Value)
		if !ok {
			continue
		}
		if types := typeNames(pf["type"]); len(types) > 0 && !slices.Contains(types, "null") {
			out = append(out, p.Key)
		}
	}
	return out
}

// typeNames reads a "type" keyword: a name, or a list of names.
func typeNames(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var list []string
	_ = json.Unmarshal(raw, &list)
	return list
}
