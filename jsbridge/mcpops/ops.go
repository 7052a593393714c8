package mcpops

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/jsbridge"
	"github.com/toolgate/toolgate/mcp"
)

// Register adds to b the operations behind the JS MCP surface, over pool:
//
//	async mcp.registerServer  handle = branch  → ["names"]
//	async mcp.loadMcpConfig   handle = branch  → {"result": {server: names}, "warnings": [...]}
//	async mcp.loadMcpTools                     → {"tools": [toolInfo], "warnings": [...]}
//	async mcp.invoke          handle = tool    → the response (tool.invoke with onProgress)
//	async mcp.cleanup                          → true
//	async mcp.finishAuth                       → true (auth.go)
//	sync  mcp.checkUrl                         → {"allowed", "rule"?, "reason"?}
//	sync  mcp.debugStats, mcp.debugHost        (tests only, through tg[Symbol.for("toolgate.debug")])
//
// mcp.debugStats reports the fetch transport's live js.Funcs and requests
// in flight (fetchStats; nil reports zeros) and the pool's Stats: answers
// dropped for their id, server requests answered and dropped, SSE streams
// resumed and resumes refused. Every refusal is the payload decoder's or
// the mcp package's.
func Register(b *jsbridge.Bridge, pool *mcp.Pool, fetchStats func() (liveFuncs, inFlight int64)) {
	b.RegisterAsync("mcp.registerServer", func(ctx context.Context, b *jsbridge.Bridge, handle int64, payload []byte) (any, error) {
		m, err := b.Branch(handle)
		if err != nil {
			return nil, err
		}
		return registerServer(ctx, pool, m, payload)
	})
	b.RegisterAsync("mcp.loadMcpConfig", func(ctx context.Context, b *jsbridge.Bridge, handle int64, payload []byte) (any, error) {
		m, err := b.Branch(handle)
		if err != nil {
			return nil, err
		}
		return loadMcpConfig(ctx, pool, m, payload)
	})
	b.RegisterAsync("mcp.loadMcpTools", func(ctx context.Context, b *jsbridge.Bridge, _ int64, payload []byte) (any, error) {
		return describeTools(ctx, b, pool, payload)
	})
	b.RegisterAsync("mcp.invoke", invokeTool) // hooks.go
	b.RegisterAsync("mcp.cleanup", func(ctx context.Context, _ *jsbridge.Bridge, _ int64, _ []byte) (any, error) {
		if err := pool.Cleanup(ctx); err != nil {
			return nil, err
		}
		return true, nil
	})
	b.RegisterAsync("mcp.finishAuth", func(ctx context.Context, _ *jsbridge.Bridge, _ int64, payload []byte) (any, error) {
		return finishAuth(ctx, pool, payload)
	})
	b.Register("mcp.checkUrl", func(_ *jsbridge.Bridge, _ int64, payload []byte) (any, error) {
		return checkURL(payload)
	})
	b.Register("mcp.debugStats", func(*jsbridge.Bridge, int64, []byte) (any, error) {
		return debugStats(pool, fetchStats), nil
	})
	b.Register("mcp.debugHost", opDebugHost)
}

// debugStats is mcp.debugStats' answer: the fetch transport's counters, the
// process's pace pauses (mcp.PacePauses) and
// the pool's Stats (every field, by its JSON name), in one object.
func debugStats(pool *mcp.Pool, fetchStats func() (liveFuncs, inFlight int64)) map[string]int64 {
	var funcs, inFlight int64
	if fetchStats != nil {
		funcs, inFlight = fetchStats()
	}
	out := map[string]int64{}
	b, _ := json.Marshal(pool.Stats()) // int64 fields: always marshals
	_ = json.Unmarshal(b, &out)
	out["fetchLiveFuncs"], out["fetchInFlight"] = funcs, inFlight
	out["pacePauses"] = mcp.PacePauses() // process-wide (mcp/pace.go)
	return out
}

// describeTools is loadMcpTools with each tool handed to JS by handle.
func describeTools(ctx context.Context, b *jsbridge.Bridge, pool *mcp.Pool, payload []byte) (any, error) {
	tools, warnings, err := loadMcpTools(ctx, pool, payload)
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
