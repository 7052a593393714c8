package provider

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// mcpDescribed is a Callable that stands for a discovered MCP tool (the
// mcp package's proxy): MCPTool is its tool.mcp object, TaskRequired
// whether every call of it is refused for needing MCP tasks. provider does
// not import mcp; it finds the methods on the Callable, as jsbridge does.
type mcpDescribed interface {
	MCPTool() json.RawMessage
	TaskRequired() bool
}

// mcpExportKeys are the members of a discovered tool's MCPTool that the mcp
// target writes again beside name, description and inputSchema, in this
// order. "execution" is not among them: a call through toolgate never runs
// as a task, so announcing task support would be false (a tool that
// requires tasks is left out of every export: leftOutOfExport).
var mcpExportKeys = []struct{ key, kind string }{
	{"title", jsontext.String},
	{"outputSchema", jsontext.Object},
	{"annotations", jsontext.Object},
	{"icons", jsontext.Array},
	{"_meta", jsontext.Object},
}

// leftOutOfExport reports whether t is left out of every export, with the
// report's entry for it: an MCP tool whose execution.taskSupport is
// "required", as no call of it can succeed.
func leftOutOfExport(t *core.Tool) (Change, bool) {
	if t == nil {
		return Change{}, false
	}
	d, ok := t.Callable.(mcpDescribed)
	if !ok || !d.TaskRequired() {
		return Change{}, false
	}
	return Change{Tool: t.Function(), Kind: ChangeToolLeftOut, Keyword: "execution",
		Message: fmt.Sprintf("the MCP tool %s requires task-augmented execution (execution.taskSupport \"required\"), which toolgate does not support yet: every call would fail, so it is not exported", t.Function())}, true
}

// writeMCPMeta writes, for the mcp target, the members of a discovered MCP
// tool that a server sent beside its inputSchema (title, outputSchema,
// annotations, icons, _meta: mcpExportKeys), each as the server sent it (an
// outputSchema only when its "type" is "object", as MCP wants); a local tool
// gets none.
func writeMCPMeta(b *bytes.Buffer, t *core.Tool) {
	d, ok := t.Callable.(mcpDescribed)
	if !ok {
		return
	}
	fields, ok := jsontext.Members(d.MCPTool())
	if !ok {
		return
	}
	for _, k := range mcpExportKeys {
		if v, ok := fields[k.key]; ok && jsontext.Kind(v) == k.kind {
			if k.key == "outputSchema" && !objectSchema(v) {
				continue // MCP's outputSchema is an object schema; another one is not written again
			}
			b.WriteByte(',')
			b.Write(jsontext.AppendString(nil, k.key))
			b.WriteByte(':')
			b.Write(v)
		}
	}
}

// objectSchema reports whether the schema says "type": "object".
func objectSchema(schema json.RawMessage) bool {
	t, ok := jsontext.Lookup(schema, "type")
	return ok && jsontext.Kind(t) == jsontext.String && jsontext.Unquote(t) == "object"
}
