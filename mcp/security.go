package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
)

// Defaults of the Security caps (docs/contract.md, "MCP (full build)").
const (
	// DefaultMaxConnectionsPerServer is the session cap per server identity.
	DefaultMaxConnectionsPerServer = 5
	// DefaultTimeoutMs is the per-request timeout (TS SDK DEFAULT_REQUEST_TIMEOUT_MSEC).
	DefaultTimeoutMs = 60_000
	// DefaultMaxMessageBytes caps one JSON-RPC message (go-sdk DefaultMaxRequestBodyBytes).
	DefaultMaxMessageBytes = 4 << 20
)

// Upper bounds of the caps: beyond them a value is a mistake, not a policy.
const (
	// maxTimeoutMs is the largest delay JS setTimeout honours (2^31−1 ms);
	// larger values fire immediately there.
	maxTimeoutMs = math.MaxInt32
	// maxMessageBytesLimit keeps one message far below wasm32's 4 GiB memory
	// and V8's largest string.
	maxMessageBytesLimit = 1 << 30
	// maxConnectionsLimit bounds the per-server pool.
	maxConnectionsLimit = 1024
)

// Security is LionAGI's MCPSecurityConfig in Go, with toolgate's additions
// (loopback opt-in, timeout, message cap). The zero value allows nothing. A
// nil *Security is not "default": every check refuses it (fail-closed).
//
// Go callers may build one directly; zero caps then mean the default, and
// Validate reports negative caps and unusable allowlist entries. JS callers
// go through ParseSecurity, which is stricter (see there).
type Security struct {
	// AllowURLs enables the URL transports at all (default false).
	AllowURLs bool `json:"allowUrls"`
	// URLAllowlist lists the hosts that may be reached: "host", "host:port",
	// an IP literal ("10.0.0.7", "::1" or "[::1]:8443"). nil means any public
	// hostname; an empty non-nil list means none. Entries match the whole
	// host exactly, case-insensitively (ASCII only); a port other than 443
	// needs its own "host:port" entry. Lower-cased by ParseSecurity.
	URLAllowlist []string `json:"urlAllowlist"`
	// AllowCommands is LionAGI's allow_commands. Kept for fidelity: this
	// runtime has no processes, so a command config is refused whatever it
	// says (see RefuseCommand).
	AllowCommands bool `json:"allowCommands"`
	// CommandAllowlist is LionAGI's command_allowlist (case-sensitive). Kept
	// for fidelity and in the fingerprint; never consulted.
	CommandAllowlist []string `json:"commandAllowlist"`
	// MaxConnectionsPerServer caps live sessions per server (default 5);
	// one session carries concurrent calls, so calls never wait for it.
	MaxConnectionsPerServer int `json:"maxConnectionsPerServer"`
	// AllowLoopbackHTTP permits http and ws (besides https and wss) to
	// localhost, 127.0.0.1 and [::1]. Without an allowlist (URLAllowlist
	// nil) it also allows those three hosts on any port; with one, they
	// must be listed like any host: the opt-in never widens URLAllowlist.
	// It takes effect only together with AllowURLs: alone it allows nothing.
	AllowLoopbackHTTP bool `json:"allowLoopbackHttp"`
	// TimeoutMs is the per-request timeout in milliseconds (default 60000,
	// at most 2147483647).
	TimeoutMs int `json:"timeoutMs"`
	// MaxMessageBytes caps one JSON-RPC message or SSE event (default 4 MiB,
	// at most 1 GiB).
	MaxMessageBytes int `json:"maxMessageBytes"`
}

// Trusted returns the explicit allow-all-URLs policy (LionAGI v0.35
// MCPSecurityConfig.trusted(), JS tg.mcp.trusted()): any public https/wss
// hostname, default caps. Every parser rule of CheckURL still applies, IP
// literals and local names are still refused, and commands stay unsupported.
func Trusted() *Security {
	return (&Security{AllowURLs: true}).withDefaults()
}

// securityKeys are the JSON names ParseSecurity accepts, exactly (no case
// folding: "AllowUrls" is an unknown key): Security's JSON names.
var securityKeys = func() []string {
	t := reflect.TypeFor[Security]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return keys
}()

// SecurityKeys returns the keys of a security object, in Security's field
// order. cmd/gen-contract writes them into the npm package's types.
func SecurityKeys() []string { return slices.Clone(securityKeys) }

// ParseSecurity decodes a security object as JS sends it (docs/contract.md,
// "MCP (full build)") and returns it with defaults applied and urlAllowlist
// lower-cased.
// Empty input or JSON null returns (nil, nil): no policy, which every check
// treats as fail-closed. A key whose value is null counts as omitted.
//
// It refuses with code unsupported-type, naming the key: input that is not
// one JSON object; an unknown key (matched exactly, so "AllowUrls" is
// unknown); a key given twice; a value of the wrong type ("allowUrls": "true",
// a number that is not an integer); a cap of zero, below zero or above its
// bound; a urlAllowlist entry that is not a host, host:port or IP literal
// (such an entry could never match; wildcards are not supported).
// allowLoopbackHttp without allowUrls is accepted and allows nothing.
func ParseSecurity(data []byte) (*Security, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, securityError("security is not valid JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, securityError("security must be an object, got %s", jsontext.Kind(data))
	}
	var s Security
	seen := make(map[string]bool, len(securityKeys))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, securityError("security is not valid JSON: %v", err)
		}
		key, _ := tok.(string) // inside an object the decoder only yields string keys
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, securityError("security is not valid JSON: %v", err)
		}
		if !slices.Contains(securityKeys, key) {
			return nil, securityError("security: unknown key %s; known keys are %s",
				strconv.QuoteToASCII(key), strings.Join(securityKeys, ", "))
		}
		if seen[key] {
			return nil, securityError("security.%s: the key appears more than once", key)
		}
		seen[key] = true
		if err := s.setField(key, raw); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, securityError("security is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, securityError("security: unexpected data after the object")
	}
	return s.withDefaults(), nil
}

// UnmarshalJSON decodes exactly as ParseSecurity does, so json.Unmarshal into
// a Security gets the same strictness. JSON null leaves s unchanged.
func (s *Security) UnmarshalJSON(data []byte) error {
	p, err := ParseSecurity(data)
	if err != nil {
		return err
	}
	if p != nil {
		*s = *p
	}
	return nil
}

// setField decodes one key's raw JSON value into s.
func (s *Security) setField(key string, raw json.RawMessage) error {
	if string(raw) == "null" {
		return nil
	}
	var err error
	switch key {
	case "allowUrls":
		s.AllowURLs, err = decodeBool(key, raw)
	case "allowCommands":
		s.AllowCommands, err = decodeBool(key, raw)
	case "allowLoopbackHttp":
		s.AllowLoopbackHTTP, err = decodeBool(key, raw)
	case "urlAllowlist":
		s.URLAllowlist, err = decodeStrings(key, raw)
		if err == nil {
			err = checkURLAllowlist(s.URLAllowlist)
		}
		for i, e := range s.URLAllowlist {
			s.URLAllowlist[i] = jsontext.LowerASCII(e) // lower-cased on load (docs/contract.md)
		}
	case "commandAllowlist":
		s.CommandAllowlist, err = decodeStrings(key, raw)
	case "maxConnectionsPerServer":
		s.MaxConnectionsPerServer, err = decodeCap(key, raw, maxConnectionsLimit)
	case "timeoutMs":
		s.TimeoutMs, err = decodeCap(key, raw, maxTimeoutMs)
	case "maxMessageBytes":
		s.MaxMessageBytes, err = decodeCap(key, raw, maxMessageBytesLimit)
	}
	return err
}

// Validate reports, as unsupported-type, what ParseSecurity would refuse in a
// Security built in Go: a negative cap, a cap above its bound, or an unusable
// urlAllowlist entry. Zero caps are fine here (they mean the default).
// A nil *Security is valid: it is the fail-closed policy.
func (s *Security) Validate() error {
	if s == nil {
		return nil
	}
	caps := []struct {
		key   string
		value int
		max   int
	}{
		{"maxConnectionsPerServer", s.MaxConnectionsPerServer, maxConnectionsLimit},
		{"timeoutMs", s.TimeoutMs, maxTimeoutMs},
		{"maxMessageBytes", s.MaxMessageBytes, maxMessageBytesLimit},
	}
	for _, c := range caps {
		if c.value < 0 || c.value > c.max {
			return securityError("security.%s: got %d, want an integer from 1 to %d (0 means the default)",
				c.key, c.value, c.max)
		}
	}
	return checkURLAllowlist(s.URLAllowlist)
}

// withDefaults returns a copy of s with every zero or negative cap replaced
// by its default and urlAllowlist entries lower-cased (ASCII only). The
// slices are copied, so later changes by the caller do not leak in. nil stays
// nil (fail-closed).
func (s *Security) withDefaults() *Security {
	if s == nil {
		return nil
	}
	c := *s
	if s.URLAllowlist != nil {
		c.URLAllowlist = make([]string, len(s.URLAllowlist))
		for i, e := range s.URLAllowlist {
			c.URLAllowlist[i] = jsontext.LowerASCII(e)
		}
	}
	if s.CommandAllowlist != nil {
		c.CommandAllowlist = slices.Clone(s.CommandAllowlist)
	}
	if c.MaxConnectionsPerServer <= 0 {
		c.MaxConnectionsPerServer = DefaultMaxConnectionsPerServer
	}
	if c.TimeoutMs <= 0 {
		c.TimeoutMs = DefaultTimeoutMs
	}
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = DefaultMaxMessageBytes
	}
	return &c
}

// fingerprintVersion prefixes the hashed encoding, so a change of the
// canonical form changes every fingerprint.
const fingerprintVersion = "toolgate/mcp.Security/v1\n"

// Fingerprint returns the hex SHA-256 of a canonical encoding of the
// effective policy: defaults applied, urlAllowlist entries lower-cased,
// normalised ("host:443" is "host", IPv6 in canonical form) and sorted,
// commandAllowlist sorted, duplicates dropped. Two policies that decide every
// URL and cap the same way have the same fingerprint; nil (no policy) and an
// empty allowlist ([]) each have their own. Used as a connection-pool key.
//
// The encoding is Security's own JSON, so every field, a future one too,
// takes part (TestFingerprintCoversEveryField changes each one).
func (s *Security) Fingerprint() string {
	body := []byte("null")
	if s != nil {
		c := s.withDefaults()
		c.URLAllowlist = canonicalSet(c.URLAllowlist, canonicalEntry)
		c.CommandAllowlist = canonicalSet(c.CommandAllowlist, nil)
		body, _ = json.Marshal(c) // bools, ints and strings always marshal
	}
	sum := sha256.Sum256(append([]byte(fingerprintVersion), body...))
	return hex.EncodeToString(sum[:])
}

// canonicalSet maps, sorts and de-duplicates list; nil stays nil and an
// empty list stays empty, because they mean different things.
func canonicalSet(list []string, mapping func(string) string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		if mapping != nil {
			e = mapping(e)
		}
		out = append(out, e)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// decodeBool decodes a JSON boolean, refusing every other type.
func decodeBool(key string, raw json.RawMessage) (bool, error) {
	switch string(raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, securityError("security.%s: got %s, want boolean", key, jsontext.Kind(raw))
}

// decodeStrings decodes a JSON array of strings (a JS Set arrives as one).
func decodeStrings(key string, raw json.RawMessage) ([]string, error) {
	if raw[0] != '[' {
		return nil, securityError("security.%s: got %s, want an array of strings", key, jsontext.Kind(raw))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, securityError("security.%s: %v", key, err)
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		var v string
		if item[0] != '"' || json.Unmarshal(item, &v) != nil {
			return nil, securityError("security.%s[%d]: got %s, want string", key, i, jsontext.Kind(item))
		}
		out = append(out, v)
	}
	return out, nil
}

// decodeCap decodes a positive integer no larger than max. 5000 and 5e3 are
// both integers; 1.5, 0 and -1 are refused.
func decodeCap(key string, raw json.RawMessage, max int) (int, error) {
	refuse := func(got string) (int, error) {
		return 0, securityError("security.%s: got %s, want an integer from 1 to %d", key, got, max)
	}
	if jsontext.Kind(raw) != "number" {
		return refuse(jsontext.Kind(raw))
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || f < 1 || f > float64(max) {
		return refuse(string(raw))
	}
	return int(f), nil
}

// securityError is the unsupported-type error every security decoding
// failure returns.
func securityError(format string, args ...any) *core.Error {
	return core.Errorf(core.CodeUnsupportedType, "", format, args...)
}
