//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/jsbridge/fetch"
	"github.com/toolgate/toolgate/mcp"
)

// registerMCPOps adds the operations behind the JS MCP surface (npm/lib/mcp.js):
//
//	async mcp.registerServer  handle = branch  → ["names"]
//	async mcp.loadMcpConfig   handle = branch  → {"result": {server: names}, "warnings": [...]}
//	async mcp.loadMcpTools                     → {"tools": [toolInfo], "warnings": [...]}
//	async mcp.cleanup                          → true
//	sync  mcp.checkUrl                         → {"allowed", "reason"?}
//	sync  mcp.debugStats, mcp.debugHost        (tests only, through tg[Symbol.for("toolgate.debug")])
//
// Payloads are the JSON the mcp package's *JSON entry points take; every
// refusal is theirs.
func registerMCPOps(b *jsbridge.Bridge, pool *mcp.Pool) {
	b.RegisterAsync("mcp.registerServer", func(ctx context.Context, b *jsbridge.Bridge, handle int64, payload []byte) (any, error) {
		m, err := b.Branch(handle)
		if err != nil {
			return nil, err
		}
		return mcp.RegisterServerJSON(ctx, pool, m, payload)
	})
	b.RegisterAsync("mcp.loadMcpConfig", func(ctx context.Context, b *jsbridge.Bridge, handle int64, payload []byte) (any, error) {
		m, err := b.Branch(handle)
		if err != nil {
			return nil, err
		}
		return mcp.LoadMcpConfigJSON(ctx, pool, m, payload)
	})
	b.RegisterAsync("mcp.loadMcpTools", func(ctx context.Context, b *jsbridge.Bridge, _ int64, payload []byte) (any, error) {
		tools, warnings, err := mcp.LoadMcpToolsJSON(ctx, pool, payload)
		if err != nil {
			return nil, err
		}
		infos := make([]json.RawMessage, len(tools))
		for i, t := range tools {
			infos[i] = b.Describe(t)
		}
		if len(warnings) == 0 {
			warnings = json.RawMessage("[]")
		}
		return struct {
			Tools    []json.RawMessage `json:"tools"`
			Warnings json.RawMessage   `json:"warnings"`
		}{infos, warnings}, nil
	})
	b.RegisterAsync("mcp.cleanup", func(ctx context.Context, _ *jsbridge.Bridge, _ int64, _ []byte) (any, error) {
		if err := pool.Cleanup(ctx); err != nil {
			return nil, err
		}
		return true, nil
	})
	b.Register("mcp.checkUrl", func(_ *jsbridge.Bridge, _ int64, payload []byte) (any, error) {
		return mcp.CheckURLJSON(payload)
	})
	b.Register("mcp.debugStats", func(*jsbridge.Bridge, int64, []byte) (any, error) {
		funcs, inFlight := fetch.Stats()
		return map[string]int64{"fetchLiveFuncs": funcs, "fetchInFlight": inFlight}, nil
	})
	b.Register("mcp.debugHost", opDebugHost)
}

// opDebugHost reports the host Go's url.Parse reads from a URL, lower-cased
// and without IPv6 brackets: the "host Go saw" that the Node tests compare
// with WHATWG's new URL(u).hostname for every URL the policy allows.
func opDebugHost(_ *jsbridge.Bridge, _ int64, payload []byte) (any, error) {
	var raw string
	if err := json.Unmarshal(payload, &raw); err != nil {
		return nil, core.Errorf(core.CodeUnsupportedType, "", "debugHost: want a JSON string: %v", err)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, core.Errorf(core.CodeInvalidRequest, "", "debugHost: the URL does not parse")
	}
	return strings.ToLower(u.Hostname()), nil
}
