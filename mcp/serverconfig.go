package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/internal/redact"
)

// The MCP transports a ServerConfig may name.
const (
	// TransportStreamableHTTP is MCP Streamable HTTP, the default.
	TransportStreamableHTTP = "streamable-http"
	// TransportSSE is the legacy HTTP+SSE transport.
	TransportSSE = "sse"
)

// refuseCommand is the answer to every MCP config with a command (LionAGI's
// stdio transport): code unsupported, whatever the policy says, because this
// runtime has no processes. The message names the server and the command,
// never its arguments or environment.
func refuseCommand(server string, command string) error {
	return core.Errorf(core.CodeUnsupported, server,
		"server %s: stdio MCP transport is not available in this runtime: there are no processes (command %s)",
		strconv.QuoteToASCII(server), strconv.QuoteToASCII(truncate(command, 80)))
}

// ServerConfig is one validated URL MCP server config, as registerMcpServer
// takes it ({name, url, transport?, headers?}) or one entry of a .mcp.json
// "mcpServers" map. Its URL has not been checked against a policy yet: that
// is CheckURL's job, on connect and on every request.
type ServerConfig struct {
	// Name is the server name (the .mcp.json key or the "name" field).
	Name string
	// URL is the endpoint, exactly as configured.
	URL string
	// Transport is TransportStreamableHTTP (the default) or TransportSSE.
	Transport string
	// Headers are sent with every request. Their values are secrets: they
	// appear in no message and in no serialised form.
	Headers map[string]string
	// Env is a configured "env" map. The URL transports ignore it; it is kept
	// so that Redacted shows which keys were set, never their values.
	Env map[string]string
	// Security is the config's own "security" object (one-entry MCP configs),
	// nil when absent.
	Security *Security
	// ProtocolVersion pins the server's protocol era (docs/mcp-eras.md):
	// ProtocolModern (2026-07-28, no probe, no handshake) or ProtocolLegacy
	// (the initialize handshake at 2025-11-25, no probe). Default "": the
	// era is found by a server/discover probe and cached per origin. The
	// SSE transport is always legacy.
	ProtocolVersion string

	configuredURL string   // the URL as configured, when expandConfig expanded variables into URL
	expanded      []string // the values expandConfig put into URL: secrets

	hooks *ClientHooks // the registration's client capabilities (RegisterOptions.Hooks)
	auth  *Auth        // the registration's OAuth (RegisterOptions.Auth)
}

// ValidateServerConfig checks the shape of one MCP server config and returns
// it typed. name is the server name; when it is "" the config's "name" field
// is used. Keys other than name, url, command, args, env, transport, type,
// headers, security and protocolVersion are ignored, as LionAGI ignores them. "type" is read
// as in Claude-style .mcp.json files: "http" and "streamable-http" mean
// Streamable HTTP, "sse" means SSE.
//
// It refuses with code unsupported any config with a non-null "command"
// (refuseCommand), whatever else it holds; with unsupported-type a bad
// "security" object (ParseSecurity); and with invalid-tool: a config that is
// not a JSON object, no server name or one that disagrees with the "name"
// field, a missing, empty or non-string "url", a transport or type other
// than the ones above (or the two disagreeing), "headers" or "env" that are
// not objects of strings, a header name that is not an HTTP token, and a
// header value with a control character, a "protocolVersion" other than
// ProtocolModern or ProtocolLegacy (or ProtocolModern with the SSE
// transport). No message quotes a header or env value.
func ValidateServerConfig(name string, raw json.RawMessage) (*ServerConfig, error) {
	fields, err := decodeConfigObject(name, raw)
	if err != nil {
		return nil, err
	}
	if v, ok := fields["name"]; ok {
		var n string
		if json.Unmarshal(v, &n) != nil {
			return nil, configError(name, `"name" must be a string, got %s`, jsontext.Kind(v))
		}
		if name == "" {
			name = n
		} else if n != "" && n != name {
			return nil, configError(name, `the config's "name" %s differs from the server name`, strconv.QuoteToASCII(n))
		}
	}
	if name == "" {
		return nil, configError(name, "the server has no name")
	}
	if v, ok := fields["command"]; ok {
		var command string
		_ = json.Unmarshal(v, &command) // a non-string command is refused all the same
		return nil, refuseCommand(name, command)
	}
	cfg := &ServerConfig{Name: name}
	v, ok := fields["url"]
	if !ok {
		return nil, configError(name, `the config needs a "url" (a "command" would be refused: there are no processes)`)
	}
	if json.Unmarshal(v, &cfg.URL) != nil || jsontext.Kind(v) != "string" {
		return nil, configError(name, `"url" must be a string, got %s`, jsontext.Kind(v))
	}
	if cfg.URL == "" {
		return nil, configError(name, `"url" is empty`)
	}
	if cfg.Transport, err = configTransport(name, fields); err != nil {
		return nil, err
	}
	if cfg.Headers, err = configStringMap(name, "headers", fields["headers"]); err != nil {
		return nil, err
	}
	for k, val := range cfg.Headers {
		if !isToken(k) {
			return nil, configError(name, "header name %s is not an HTTP token", strconv.QuoteToASCII(k))
		}
		if hasControl(val) {
			return nil, configError(name, "the value of header %s contains a control character", strconv.QuoteToASCII(k))
		}
	}
	if cfg.Env, err = configStringMap(name, "env", fields["env"]); err != nil {
		return nil, err
	}
	if cfg.ProtocolVersion, err = configProtocolVersion(name, fields["protocolVersion"]); err != nil {
		return nil, err
	}
	if err := checkEra(name, cfg.Transport, cfg.ProtocolVersion); err != nil {
		return nil, err
	}
	if v, ok := fields["security"]; ok {
		sec, err := ParseSecurity(v)
		if err != nil {
			e := *err.(*core.Error)
			e.Tool = name
			return nil, &e
		}
		cfg.Security = sec
	}
	return cfg, nil
}

// decodeConfigObject decodes raw as a JSON object and drops null members
// (a null value counts as absent).
func decodeConfigObject(name string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed[0] != '{' || json.Unmarshal(raw, &fields) != nil {
		return nil, configError(name, "an MCP server config must be a JSON object")
	}
	for k, v := range fields {
		if string(v) == "null" {
			delete(fields, k)
		}
	}
	return fields, nil
}

// configTransport reads "transport" and its alias "type".
func configTransport(name string, fields map[string]json.RawMessage) (string, error) {
	read := func(key string, known map[string]string) (string, error) {
		v, ok := fields[key]
		if !ok {
			return "", nil
		}
		var s string
		if json.Unmarshal(v, &s) != nil || jsontext.Kind(v) != "string" {
			return "", configError(name, "%q must be a string, got %s", key, jsontext.Kind(v))
		}
		t, ok := known[s]
		if !ok {
			return "", configError(name, "%q is %s; want %q or %q", key, strconv.QuoteToASCII(truncate(s, 40)),
				TransportStreamableHTTP, TransportSSE)
		}
		return t, nil
	}
	transport, err := read("transport", map[string]string{
		TransportStreamableHTTP: TransportStreamableHTTP, TransportSSE: TransportSSE,
	})
	if err != nil {
		return "", err
	}
	typ, err := read("type", map[string]string{
		"http": TransportStreamableHTTP, TransportStreamableHTTP: TransportStreamableHTTP, TransportSSE: TransportSSE,
	})
	if err != nil {
		return "", err
	}
	switch {
	case transport != "" && typ != "" && transport != typ:
		return "", configError(name, `"transport" and "type" name different transports`)
	case transport != "":
		return transport, nil
	case typ != "":
		return typ, nil
	}
	return TransportStreamableHTTP, nil
}

// configProtocolVersion reads an optional "protocolVersion": ProtocolModern
// or ProtocolLegacy; absent gives "" (found by probing).
func configProtocolVersion(name string, v json.RawMessage) (string, error) {
	if v == nil {
		return "", nil
	}
	var s string
	if jsontext.Kind(v) != jsontext.String || json.Unmarshal(v, &s) != nil {
		return "", configError(name, `"protocolVersion" must be a string, got %s`, jsontext.Kind(v))
	}
	if s != ProtocolModern && s != ProtocolLegacy {
		return "", configError(name, `"protocolVersion" is %s; want %q, %q, or none (toolgate finds the era itself)`,
			strconv.QuoteToASCII(truncate(s, 40)), ProtocolModern, ProtocolLegacy)
	}
	return s, nil
}

// checkEra refuses a config pinned to the modern era on the SSE transport,
// which only the legacy revisions define.
func checkEra(name, transport, version string) error {
	if transport == TransportSSE && version == ProtocolModern {
		return configError(name, `"protocolVersion" %q needs the Streamable HTTP transport (transport %q is legacy only)`,
			ProtocolModern, TransportSSE)
	}
	return nil
}

// configStringMap decodes an optional object of strings; absent gives nil.
func configStringMap(name, key string, v json.RawMessage) (map[string]string, error) {
	if v == nil {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if jsontext.Kind(v) != "object" || json.Unmarshal(v, &m) != nil {
		return nil, configError(name, "%q must be an object of strings, got %s", key, jsontext.Kind(v))
	}
	out := make(map[string]string, len(m))
	for k, item := range m {
		var s string
		if jsontext.Kind(item) != "string" || json.Unmarshal(item, &s) != nil {
			return nil, configError(name, "%s.%s must be a string, got %s", key, strconv.QuoteToASCII(k), jsontext.Kind(item))
		}
		out[k] = s
	}
	return out, nil
}

// configError is the invalid-tool error of a bad server config.
func configError(name, format string, args ...any) *core.Error {
	msg := fmt.Sprintf(format, args...)
	if name != "" {
		msg = fmt.Sprintf("server %s: %s", strconv.QuoteToASCII(name), msg)
	}
	return &core.Error{Code: core.CodeInvalidTool, Tool: name, Message: msg}
}

// isToken reports whether s is an HTTP field name (RFC 9110 token).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// hasControl reports whether s holds a control byte other than tab (CR and
// LF would split the header).
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

// Redacted returns the config as a map for serialisation (toDict, logs)
// with every secret replaced by "[redacted]" (internal/redact): each header
// value, each env value, and the userinfo and the query and fragment values
// of the URL (docs/lionagi.md, "D6: mcp_config is not redacted"). Keys: name, url,
// transport, and headers, env, security when set. nil gives nil.
func (c *ServerConfig) Redacted() map[string]any {
	if c == nil {
		return nil
	}
	out := map[string]any{
		"name":      c.Name,
		"url":       c.recordURL(), // configenv.go
		"transport": c.Transport,
	}
	hide := func(m map[string]string) map[string]any {
		h := make(map[string]any, len(m))
		for k := range m {
			h[k] = redact.Mark
		}
		return h
	}
	if c.Headers != nil {
		out["headers"] = hide(c.Headers)
	}
	if c.Env != nil {
		out["env"] = hide(c.Env)
	}
	if c.ProtocolVersion != "" {
		out["protocolVersion"] = c.ProtocolVersion
	}
	if c.Security != nil {
		var m map[string]any
		b, _ := json.Marshal(c.Security) // bools, ints and strings always marshal
		_ = json.Unmarshal(b, &m)
		out["security"] = m
	}
	return out
}

// secrets are the values of c no message may show: header values, env
// values and the URL (its userinfo, query, fragment and long path
// segments). A nil c has none.
func (c *ServerConfig) secrets() redact.Secrets {
	if c == nil {
		return redact.Secrets{}
	}
	return redact.Secrets{Headers: slices.Collect(maps.Values(c.Headers)),
		Values: append(slices.Collect(maps.Values(c.Env)), c.expanded...), URL: c.URL}
}

// scrub returns msg with every secret of c replaced by "[redacted]"
// (redact.Text). A nil c returns msg unchanged.
func (c *ServerConfig) scrub(msg string) string {
	return redact.Text(msg, c.secrets())
}

// quote is how a message shows text the server chose (an error message, a
// name, a cursor, a header): redacted whole, then cut to n bytes, then
// quoted (redact.Quote), so a cut never leaves part of a secret and an
// escape never hides one (docs/security.md, "Secrets").
func (c *ServerConfig) quote(s string, n int) string {
	return redact.Quote(s, n, c.secrets())
}

// cut is quote without the quotes, for text that is already a sentence (a
// network error).
func (c *ServerConfig) cut(s string, n int) string {
	return redact.Cut(s, n, c.secrets())
}

// truncate cuts s to at most n bytes, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
