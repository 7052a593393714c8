package mcp

import (
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// RuleTaskRequired is the Rule of the unsupported error that refuses a call
// of a tool whose execution.taskSupport is "required": such a tool answers
// only task-augmented calls (MCP tasks), which toolgate does not make yet.
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

// taskRequired reports whether a tool descriptor (compacted JSON; nil for a
// declared tool) says "execution": {"taskSupport": "required"}.
func taskRequired(raw json.RawMessage) bool {
	ex, ok := jsontext.Lookup(raw, "execution")
	if !ok || jsontext.Kind(ex) != jsontext.Object {
		return false
	}
	ts, ok := jsontext.Lookup(ex, "taskSupport")
	return ok && jsontext.Kind(ts) == jsontext.String && jsontext.Unquote(ts) == "required"
}

// refuseTask is the error of every call of a task-required tool.
func (p *proxy) refuseTask() error {
	e := core.Errorf(core.CodeUnsupported, p.name,
		"MCP tool %s of server %s requires task-augmented execution (execution.taskSupport \"required\"), which toolgate does not support yet; it was not called",
		strconv.QuoteToASCII(p.wire), strconv.QuoteToASCII(p.cfg.Name))
	e.Rule = RuleTaskRequired
	return e
}

// TaskRequired reports whether the tool answers only task-augmented calls
// (execution.taskSupport "required"): its calls are refused, and the
// provider exports leave it out with a report entry (provider finds this
// method on the Callable, as jsbridge finds MCPTool).
func (p *proxy) TaskRequired() bool { return p.taskRequired }

// MCPTool describes the MCP tool behind a proxy for JS's read-only
// tool.mcp and for the mcp export target: {"server": name, "tool": wire
// name, "annotations": the object as the server sent it, or null,
// "protocolVersion": the version it was discovered with, or null for a
// declared tool}, then, as the server sent them, each of "title",
// "outputSchema", "execution", "icons" and "_meta" it gave (of the right
// kind), and "taskRequired": true for a tool whose calls are refused
// (RuleTaskRequired). jsbridge finds it on any Callable that has the
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
