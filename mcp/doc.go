// Package mcp is toolgate's MCP over URLs: remote tools discovered into
// ordinary core tools, behind a fail-closed security policy.
//
//   - Policy (security.go, policy.go): the Security object (LionAGI's
//     MCPSecurityConfig), the URL check every request passes, the refusal of
//     command (stdio) configs, the validation and redaction of server configs.
//   - Transport (transport.go): a RoundTripper guard that applies the policy
//     to every request (the SSE endpoint a server sends back included),
//     refuses redirects and foreign origins, caps each message at
//     MaxMessageBytes and each request at TimeoutMs. Natively it wraps
//     net/http's transport; the WASM build passes a fetch-backed one.
//   - Client, discovery, naming (client.go, discovery.go, naming.go):
//     mark3labs/mcp-go over Streamable HTTP or SSE; paginated tools/list with
//     a repeated-cursor guard and a 64-page cap; every descriptor validated
//     before the registry changes; names mcp__{server}__{tool}, provider-safe
//     and collision-checked.
//   - Pool and proxy (pool.go, proxy.go): clients keyed by server and policy
//     fingerprint, MaxConnectionsPerServer enforced (callers wait), dead
//     clients replaced; a proxy core.Callable per remote tool.
//   - Registration and loaders (register.go, loader.go, bridgeops.go):
//     RegisterServer, LoadMcpConfig, LoadMcpTools, all-or-nothing per server,
//     and their JSON forms for the JS bridge.
//
// The URL check follows SECURITY.md §1.4. Go's net/url validates the URL,
// but the browser's WHATWG parser decides where fetch sends it, so the check
// rejects every URL on which the two could disagree instead of normalising
// it: anything outside printable ASCII, backslashes, percent-escapes in the
// host, hosts that end in a number, opaque or host-less URLs. An omitted
// policy (nil) refuses everything; Trusted is the explicit allow-all-hosts
// choice (LIONAGI.md §10 D5).
//
// A refusal is a *core.Error with code policy-denied whose message names the
// rule that refused ("no-policy", "allow-urls", "length", "characters",
// "parse", "scheme", "opaque", "userinfo", "host-empty", "host-percent",
// "ip-forbidden", "ip-literal", "hostname", "numeric-host", "local-name",
// "port", "allowlist") and quotes the URL with userinfo, query and fragment
// redacted. tests/fixtures/policy/urls.json pins each rule for Go and JS.
//
//	sec, err := mcp.ParseSecurity([]byte(`{"allowUrls": true, "urlAllowlist": ["api.example.com"]}`))
//	if err != nil {
//		return err // unsupported-type: unknown key, wrong type, bad entry
//	}
//	if err := mcp.CheckURL("https://api.example.com/mcp", sec); err != nil {
//		return err // policy-denied
//	}
package mcp
