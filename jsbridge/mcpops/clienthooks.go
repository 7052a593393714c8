package mcpops

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/mcp"
)

// hooksOption reads the client capability options roots, sampling,
// samplingTools (a boolean), elicitation, elicitationUrl and the
// onElicitationComplete listener (docs/security.md, "Client
// capabilities"): each a host
// function id, the number npm/lib/mcp.js got for the JS function from
// ctx.inst.hostFunction, and roots also a fixed array of {uri, name?}.
// None given gives nil. It refuses with unsupported-type, naming the
// call and the option, any other value (npm/lib/mcp.js checks only that a
// function is one, and sends the rest as it is); the roots' URIs are
// checked by mcp.RegisterServer.
func hooksOption(call string, opts map[string]json.RawMessage) (*mcp.ClientHooks, error) {
	var h mcp.ClientHooks
	var err error
	if raw, ok := opts["roots"]; ok {
		if jsontext.Kind(raw) == jsontext.Array {
			roots, err := rootList(call, raw)
			if err != nil {
				return nil, err
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
	if raw, ok := opts["elicitationUrl"]; ok {
		if h.ElicitationURL, err = hostHook(call, "elicitationUrl", raw); err != nil {
			return nil, err
		}
	}
	if raw, ok := opts["onElicitationComplete"]; ok {
		if h.ElicitationComplete, err = hostListener(call, "onElicitationComplete", raw); err != nil {
			return nil, err
		}
	}
	if raw, ok := opts["samplingTools"]; ok {
		if jsontext.Kind(raw) != jsontext.Boolean {
			return nil, optionTypeError(call, "samplingTools", "a boolean", raw)
		}
		h.SamplingTools = string(raw) == "true"
	}
	if h.Roots == nil && h.Sampling == nil && h.Elicitation == nil && h.ElicitationURL == nil && h.ElicitationComplete == nil && !h.SamplingTools {
		return nil, nil
	}
	return &h, nil
}

// hostListener is the hook that notifies host function id raw
// (jsbridge.HostNotify: fire-and-forget, its answer ignored); its pool id
// is "js:" and the number.
func hostListener(call, key string, raw json.RawMessage) (*mcp.Hook, error) {
	id, err := hookID(call, key, raw)
	if err != nil {
		return nil, err
	}
	return &mcp.Hook{
		ID: "js:" + strconv.FormatInt(id, 10),
		Func: func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
			jsbridge.HostNotify(id, params)
			return nil, nil
		},
	}, nil
}

// rootList decodes a fixed roots list, an array of {uri: string, name?:
// string} (other members are ignored); it refuses any other entry with
// unsupported-type naming its index.
func rootList(call string, raw json.RawMessage) ([]mcp.Root, error) {
	var items []json.RawMessage
	_ = json.Unmarshal(raw, &items) // an array: always decodes
	roots := make([]mcp.Root, len(items))
	for i, item := range items {
		var ok bool
		if roots[i], ok = readRoot(item); !ok {
			return nil, optionTypeError(call, "roots["+strconv.Itoa(i)+"]", "{uri: string, name?: string}", item)
		}
	}
	return roots, nil
}

// readRoot decodes one root, {uri: string, name?: string} (name null counts
// as absent).
func readRoot(item json.RawMessage) (mcp.Root, bool) {
	var r mcp.Root
	m, ok := jsontext.Members(item)
	if !ok || jsontext.Kind(m["uri"]) != jsontext.String || json.Unmarshal(m["uri"], &r.URI) != nil {
		return r, false
	}
	switch name := m["name"]; jsontext.Kind(name) {
	case jsontext.Nothing, jsontext.Null:
		return r, true
	case jsontext.String:
		return r, json.Unmarshal(name, &r.Name) == nil
	}
	return r, false
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
