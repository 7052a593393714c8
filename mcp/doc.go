// Package mcp is toolgate's MCP over URLs: remote tools discovered into
// ordinary core tools, behind a fail-closed security policy.
//
//   - Policy (security.go, url.go, allowlist.go): the Security object
//     (LionAGI's MCPSecurityConfig), the URL check every request passes and
//     the rules it applies, the allowlist entries it matches.
//   - Server configs (serverconfig.go): their validation, the refusal of
//     command (stdio) configs, their redacted form for records.
//   - Transport (transport.go): a RoundTripper guard that applies the policy
//     to every request (the SSE endpoint a server sends back included),
//     refuses redirects and foreign origins, caps each message at
//     MaxMessageBytes and each request at TimeoutMs. It speaks
//     internal/wire's types, never net/http's: natively it wraps net/http's
//     transport (base_native.go); the WASM build passes a fetch-backed one
//     and links no net/http.
//   - Traffic a server drives (answers.go, serverrequests.go, resume.go,
//     stats.go): answers matched to requests by id, the rest dropped; the
//     server's own requests (pings) answered by the guard within the
//     connection cap and a rate; resumed SSE streams backed off and
//     bounded; what was dropped or refused counted in Pool.Stats.
//   - Protocol eras (era.go, modern.go, mrtr.go, listen.go, listcache.go,
//     mcpheader.go; docs/mcp-eras.md): a server's era found by a
//     server/discover probe and cached per origin, or pinned by the config;
//     the 2026-07-28 wire (per-request _meta and headers, no session, no
//     resume), its input_required rounds answered by the client hooks, its
//     subscriptions/listen stream, its tools/list pages cached by ttlMs, its
//     x-mcp-header annotations mirrored into Mcp-Param-* headers.
//   - Tasks (task.go, task_legacy.go, task_modern.go; docs/mcp-tasks.md):
//     a tool call the server runs as a task, on either era, driven to its
//     result inside the one call: polled within a floor and a ceiling, its
//     input answered by the client hooks, cancelled with tasks/cancel when
//     the caller gives up or a bound (time, polls, input rounds) is passed.
//   - Client, discovery, naming (client.go, discovery.go, naming.go):
//     our own session layer (session.go, jsonrpc.go) over Streamable HTTP
//     or SSE; paginated tools/list with
//     a repeated-cursor guard and a 64-page cap; every descriptor validated
//     before the registry changes; names mcp__{server}__{tool}, provider-safe
//     and collision-checked.
//   - Pool and proxy (pool.go, proxy.go): clients keyed by server and policy
//     fingerprint, one session per key carrying concurrent calls (within
//     MaxConnectionsPerServer, which bounds sessions), dead clients
//     replaced; a proxy core.Callable per remote tool.
//   - Registration and loaders (register.go, loader.go): RegisterServer,
//     LoadMcpConfig, LoadMcpTools, all-or-nothing per server. Their JSON
//     forms for the JS bridge are jsbridge/mcpops'.
//
// Go's net/url validates a URL, but the browser's WHATWG parser decides
// where fetch sends it, so the check rejects every URL on which the two
// could disagree instead of normalising it: anything outside printable
// ASCII, backslashes, percent-escapes in the host, hosts that end in a
// number, opaque or host-less URLs (docs/security.md, "The URL check"). An
// omitted policy (nil) refuses everything; Trusted is the explicit
// allow-all-hosts choice (docs/lionagi.md, "D5: loaders trust implicitly").
//
// A refusal is a *core.Error with code policy-denied whose Rule names the
// rule that refused (one of Rules: "no-policy", "allow-urls", …) and whose
// message quotes the URL redacted (internal/redact). CheckURLVerdict gives
// the same as data. tests/fixtures/policy/urls.json pins each rule for Go
// and JS.
//
//	sec, err := mcp.ParseSecurity([]byte(`{"allowUrls": true, "urlAllowlist": ["api.example.com"]}`))
//	if err != nil {
//		return err // unsupported-type: unknown key, wrong type, bad entry
//	}
//	if err := mcp.CheckURL("https://api.example.com/mcp", sec); err != nil {
//		return err // policy-denied, with its Rule
//	}
package mcp
