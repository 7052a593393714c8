package provider

import (
	"bytes"
	"encoding/json"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// mcpDescribed is a Callable that stands for a discovered MCP tool (the
// mcp package's proxy): MCPTool is its tool.mcp object. provider does
// not import mcp; it finds the method on the Callable, as jsbridge does.
type mcpDescribed interface {
	MCPTool() json.RawMessage
}

// mcpExportKeys are the members of a discovered tool's MCPTool that the mcp
// target writes again beside name, description and inputSchema, in this
// order. "execution" is not among them: toolgate runs a tool's MCP tasks
// itself (docs/mcp-tasks.md), so whoever calls the exported tool through
// toolgate makes an ordinary call, whatever the tool's taskSupport.
var mcpExportKeys = []struct{ key, kind string }{
	{"title", jsontext.String},
	{"outputSchema", jsontext.Object},
	{"annotations", jsontext.Object},
	{"icons", jsontext.Array},
	{"_meta", jsontext.Object},
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
