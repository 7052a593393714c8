package mcpops

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/mcp"
)

// hooksOption reads the client capability options roots, sampling and
// elicitation (docs/security.md, "Client capabilities"): each a host
// function id, the number npm/lib/mcp.js got for the JS function from
// ctx.inst.hostFunction, and roots also a fixed array of {uri, name?}.
// None given gives nil. It refuses with unsupported-type, naming the
// call and the option, any other value (the package refuses a JS value of
// the wrong type before it gets here); the roots' URIs are checked by
// mcp.RegisterServer.
func hooksOption(call string, opts map[string]json.RawMessage) (*mcp.ClientHooks, error) {
	var h mcp.ClientHooks
	var err error
	if raw, ok := opts["roots"]; ok {
		if jsontext.Kind(raw) == jsontext.Array {
			var roots []mcp.Root
			if json.Unmarshal(raw, &roots) != nil {
				return nil, optionTypeError(call, "roots", "an array of {uri, name?} or a function", raw)
			}
			h.Roots = mcp.RootList(roots)
		} else if h.Roots, err = hostHook(call, "roots", raw); err != nil {
			return nil, err
		}
	}
	if raw, ok := opts["sampling"]; ok {
		if h.Sampling, err = hostHook(call, "sampling", raw); err != nil {
			return nil, err
		}
	}
	if raw, ok := opts["elicitation"]; ok {
		if h.Elicitation, err = hostHook(call, "elicitation", raw); err != nil {
			return nil, err
		}
	}
	if h.Roots == nil && h.Sampling == nil && h.Elicitation == nil {
		return nil, nil
	}
	return &h, nil
}

// hostHook is the hook that calls host function id raw through
// jsbridge.CallHost; its pool id is "js:" and the number, so registrations
// given the same JS function share connections.
func hostHook(call, key string, raw json.RawMessage) (*mcp.Hook, error) {
	var id int64
	if jsontext.Kind(raw) != jsontext.Number || json.Unmarshal(raw, &id) != nil || id <= 0 {
		return nil, optionTypeError(call, key, "a function", raw)
	}
	return &mcp.Hook{
		ID: "js:" + strconv.FormatInt(id, 10),
		Func: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
			return jsbridge.CallHost(ctx, id, params)
		},
	}, nil
}
