package jsbridge

import (
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/core"
)

// Describe stores t under a handle (keeping the handle it already has) and
// returns what JS caches about it: the same JSON object the "tool.create" and
// "tool.info" operations return (id, uuid, function, toolSchema, required
// fields, signature, metadata, mcp flag). Builds outside jsbridge use it to
// hand Go-made tools, such as discovered MCP tools, to JS.
//
// It never fails: should t's metadata not be JSON-serialisable, it returns
// only the handle and the name, which JS completes through "tool.info".
func (b *Bridge) Describe(t *core.Tool) json.RawMessage {
	var sig *core.Signature
	if t.Callable != nil {
		if s, err := t.Callable.Signature(); err == nil {
			sig = &s
		}
	}
	in := b.info(t, sig)
	data, err := in.appendJSON(nil)
	if err != nil {
		name, _ := json.Marshal(in.Function)
		return json.RawMessage(`{"id":` + strconv.FormatInt(in.ID, 10) + `,"function":` + string(name) + `}`)
	}
	return data
}
