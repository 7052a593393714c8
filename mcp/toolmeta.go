package mcp

import (
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// RuleTaskRequired is the Rule of the unsupported error that refuses a call
// of a tool whose execution.taskSupport is "required" when its 2025-11-25
// server did not declare task-augmented tools/call: MCP forbids asking
// such a server for a task, and the tool answers nothing else.
const RuleTaskRequired = "task-required"

// metaKeys are the members of a tool descriptor that tool.mcp shows beside
// the server, the wire name and the annotations, in this order; each is
// shown only when the server sent it with the right JSON kind.
var metaKeys = []struct{ key, kind string }{
	{"title", jsontext.String},
	{"outputSchema", jsontext.Object},
	{"execution", jsontext.Object},
	{"icons", jsontext.Array},
	{"_meta", jsontext.Object},
}

// refuseTask is the error of a call of a task-required tool on a server
// that runs no tasks.
func (p *proxy) refuseTask() error {
	e := core.Errorf(core.CodeUnsupported, p.name,
		"MCP tool %s of server %s requires task-augmented execution (execution.taskSupport \"required\"), but the server does not declare tasks for tools/call (capabilities.tasks.requests.tools.call); it was not called",
		strconv.QuoteToASCII(p.wire), strconv.QuoteToASCII(p.cfg.Name))
	e.Rule = RuleTaskRequired
	return e
}

// MCPTool describes the MCP tool behind a proxy for JS's read-only
// tool.mcp and for the mcp export target: {"server": name, "tool": wire
// name, "annotations": the object as the server sent it, or null,
// "protocolVersion": the version it was discovered with, or null for a
// declared tool}, then, as the server sent them, each of "title",
// "outputSchema", "execution", "icons" and "_meta" it gave (of the right
// kind), and "taskRequired": true for a tool whose execution.taskSupport
// is "required" (its calls run as MCP tasks: docs/mcp-tasks.md). jsbridge finds it on any Callable that has the
// method, so core needs no MCP fields.
func (p *proxy) MCPTool() json.RawMessage {
	ms := make([]jsontext.Member, 0, 4+len(metaKeys)+1)
	ann := p.annotations
	if ann == nil {
		ann = json.RawMessage("null")
	}
	version := json.RawMessage("null")
	if p.version != "" {
		version = jsontext.AppendString(nil, p.version)
	}
	ms = append(ms,
		jsontext.Member{Key: "server", Value: jsontext.AppendString(nil, p.cfg.Name)},
		jsontext.Member{Key: "tool", Value: jsontext.AppendString(nil, p.wire)},
		jsontext.Member{Key: "annotations", Value: ann},
		jsontext.Member{Key: "protocolVersion", Value: version})
	if fields, ok := jsontext.Members(p.raw); ok {
		for _, k := range metaKeys {
			if v, ok := fields[k.key]; ok && jsontext.Kind(v) == k.kind {
				ms = append(ms, jsontext.Member{Key: k.key, Value: v})
			}
		}
	}
	if p.taskRequired {
		ms = append(ms, jsontext.Member{Key: "taskRequired", Value: json.RawMessage("true")})
	}
	return jsontext.WriteObject(ms)
}
