package mcpops

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/mcp"
)

// The listener options of the MCP calls, onProgress and onToolsChanged: JS
// hands Go the number of its function (jsbridge's host calls), and Go
// notifies it with each event as JSON, fire-and-forget
// (jsbridge.HostNotify).

// hookID decodes an optional hook number: absent gives 0; anything but a
// positive integer is unsupported-type.
func hookID(call, key string, raw json.RawMessage) (int64, error) {
	if raw == nil {
		return 0, nil
	}
	id, err := strconv.ParseInt(string(raw), 10, 64)
	if jsontext.Kind(raw) != jsontext.Number || err != nil || id <= 0 {
		return 0, optionTypeError(call, key, "a function", raw)
	}
	return id, nil
}

// progressHook is the mcp.ProgressFunc that notifies hook id (nil for 0).
func progressHook(id int64) mcp.ProgressFunc {
	if id == 0 {
		return nil
	}
	return func(ev mcp.ProgressEvent) {
		if b, err := json.Marshal(ev); err == nil {
			jsbridge.HostNotify(id, b)
		}
	}
}

// toolsChangedHook is the mcp.ToolsChangedFunc that notifies hook id (nil
// for 0).
func toolsChangedHook(id int64) mcp.ToolsChangedFunc {
	if id == 0 {
		return nil
	}
	return func(ev mcp.ToolsChangedEvent) {
		if b, err := json.Marshal(ev); err == nil {
			jsbridge.HostNotify(id, b)
		}
	}
}

// listenerOptions reads onProgress (and, when tools is true,
// onToolsChanged) from opts.
func listenerOptions(call string, opts map[string]json.RawMessage, tools bool) (mcp.ProgressFunc, mcp.ToolsChangedFunc, error) {
	p, err := hookID(call, "onProgress", opts["onProgress"])
	if err != nil {
		return nil, nil, err
	}
	if !tools {
		return progressHook(p), nil, nil
	}
	c, err := hookID(call, "onToolsChanged", opts["onToolsChanged"])
	if err != nil {
		return nil, nil, err
	}
	return progressHook(p), toolsChangedHook(c), nil
}

// invokeTool is mcp.invoke: tool.invoke with a per-call progress hook.
// payload: {"arguments": {...}, "onProgress": id}. The tool's call
// delivers its progress to the hook (mcp.WithProgress) as well as to its
// registration's; it refuses what tool.invoke refuses, and with
// invalid-request a payload of another shape.
func invokeTool(ctx context.Context, b *jsbridge.Bridge, handle int64, payload []byte) (any, error) {
	const call = "invoke"
	top, err := payloadObject(call, payload, "arguments", "onProgress")
	if err != nil {
		return nil, err
	}
	id, err := hookID(call, "onProgress", top["onProgress"])
	if err != nil {
		return nil, err
	}
	args := top["arguments"]
	if args == nil {
		args = json.RawMessage("{}")
	}
	return b.InvokeGo(mcp.WithProgress(ctx, progressHook(id)), handle, args)
}
