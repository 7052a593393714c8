// Package mcp holds toolgate's MCP security policy: the Security object
// (LionAGI's MCPSecurityConfig), the URL check every MCP request passes,
// the refusal of command (stdio) configs, and the validation and redaction
// of server configs. It is pure Go (no net/http, no syscall/js), so it is
// fuzzed natively and runs unchanged in the WASM build.
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
