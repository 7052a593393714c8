package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
)

// maxURLBytes is the longest URL CheckURL accepts (SECURITY.md §1.4 step 2).
const maxURLBytes = 2048

// The rules CheckURL applies, in order. A refusal names its rule in the
// message as `rule "<name>"`; tests/fixtures/policy/urls.json uses the same
// names.
const (
	ruleNoPolicy    = "no-policy"    // sec is nil: fail-closed
	ruleAllowURLs   = "allow-urls"   // AllowURLs is false
	ruleLength      = "length"       // longer than 2048 bytes
	ruleCharacters  = "characters"   // a byte outside 0x21–0x7E, or a backslash
	ruleParse       = "parse"        // net/url refuses it
	ruleScheme      = "scheme"       // not https/wss (http/ws: loopback opt-in only)
	ruleOpaque      = "opaque"       // "https:host" with no "//"
	ruleUserinfo    = "userinfo"     // user:password@
	ruleHostEmpty   = "host-empty"   // no host
	ruleHostPercent = "host-percent" // "%" (or a percent-decoded byte) in the host
	ruleIPForbidden = "ip-forbidden" // link-local, metadata, … even when listed
	ruleIPLiteral   = "ip-literal"   // an IP literal that is not listed exactly
	ruleHostname    = "hostname"     // bad label, trailing dot, too long
	ruleNumericHost = "numeric-host" // last label a number: WHATWG reads IPv4
	ruleLocalName   = "local-name"   // localhost, *.localhost, *.local not listed
	rulePort        = "port"         // empty, leading zero, out of 1–65535
	ruleAllowlist   = "allowlist"    // host or host:port not in urlAllowlist
)

// CheckURL reports whether sec lets an MCP transport send a request to raw:
// nil, or a *core.Error with code policy-denied whose message names the rule
// that refused and quotes the URL with userinfo, query and fragment replaced
// by "[redacted]". The same check runs on connect and on every request
// (SECURITY.md §1.4).
//
// It refuses: a nil sec (fail-closed); AllowURLs false; more than 2048 bytes;
// any byte outside 0x21–0x7E or a backslash (so no whitespace, control or
// non-ASCII byte, nothing the WHATWG parser would clean up); what net/url
// cannot parse; a scheme other than https or wss (http and ws only to a
// loopback host under AllowLoopbackHTTP); an opaque URL ("https:host");
// userinfo; an empty host; "%" in the host; link-local, unspecified,
// multicast, broadcast, 0.0.0.0/8 and cloud-metadata addresses
// (169.254.169.254, 100.100.100.200, fd00:ec2::254), also in 4-in-6,
// IPv4-compatible and NAT64 forms, even when listed; any other IP literal
// unless listed exactly (127.0.0.1 and ::1 are also allowed by
// AllowLoopbackHTTP); a hostname with a trailing dot, an empty label, a label
// outside [a-z0-9-] (so "_" is refused), a label longer than 63 or a name
// longer than 253; a last label that is all digits or 0x-hex (WHATWG would read
// an IPv4 address); localhost, *.localhost and *.local unless listed exactly
// ("localhost" also under AllowLoopbackHTTP); an empty port after ":", a
// leading zero, a port outside 1–65535; with an allowlist, a host not listed
// exactly, or a port other than 443 without a "host:port" entry.
func CheckURL(raw string, sec *Security) error {
	rule, detail := checkURL(raw, sec)
	if rule == "" {
		return nil
	}
	return &core.Error{
		Code:    core.CodePolicyDenied,
		Message: fmt.Sprintf("URL %s refused by rule %q: %s", displayURL(raw), rule, detail),
	}
}

// CheckURLVerdict is CheckURL as tg.mcp.checkUrl returns it: allowed, or not
// allowed with the refusal message as reason.
func CheckURLVerdict(raw string, sec *Security) (allowed bool, reason string) {
	if err := CheckURL(raw, sec); err != nil {
		return false, err.(*core.Error).Message
	}
	return true, ""
}

// checkURL applies the rules in order and returns the first that refuses
// with a detail for the message, or "" when raw is allowed.
func checkURL(raw string, sec *Security) (rule, detail string) {
	if sec == nil {
		return ruleNoPolicy, "no security policy was given, so MCP URLs are refused (fail-closed); pass one, e.g. {allowUrls: true}"
	}
	if !sec.AllowURLs {
		if sec.AllowLoopbackHTTP {
			return ruleAllowURLs, "allowUrls is false; allowLoopbackHttp takes effect only together with allowUrls"
		}
		return ruleAllowURLs, "the MCP URL transport is disabled (allowUrls is false)"
	}
	if len(raw) > maxURLBytes {
		return ruleLength, fmt.Sprintf("the URL is %d bytes long; at most %d are allowed", len(raw), maxURLBytes)
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 0x21 || c > 0x7e || c == '\\' {
			return ruleCharacters, fmt.Sprintf("byte %d is 0x%02x; only printable ASCII without spaces or backslashes is allowed, because browsers would rewrite anything else", i, c)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ruleParse, "the URL does not parse: " + parseReason(err)
	}
	loopbackOnly := false
	switch u.Scheme {
	case "https", "wss":
	case "http", "ws":
		if !sec.AllowLoopbackHTTP {
			return ruleScheme, fmt.Sprintf("scheme %q is allowed only to localhost, 127.0.0.1 or [::1] with allowLoopbackHttp; use https or wss", u.Scheme)
		}
		loopbackOnly = true
	case "":
		return ruleScheme, "the URL has no scheme; use https or wss"
	default:
		return ruleScheme, fmt.Sprintf("scheme %s is not allowed; use https or wss", strconv.QuoteToASCII(u.Scheme))
	}
	if u.Opaque != "" {
		return ruleOpaque, `the URL has no "//" after the scheme; browsers would read a host out of it that Go does not see`
	}
	if u.User != nil {
		return ruleUserinfo, "credentials in the URL (user:password@) are not allowed; send them as headers"
	}
	hostname := u.Hostname()
	if hostname == "" {
		return ruleHostEmpty, "the URL has no host"
	}
	if strings.ContainsRune(hostname, '%') || !isASCII(hostname) {
		return ruleHostPercent, `the host contains "%" (an escape or an IPv6 zone); browsers would decode it differently`
	}
	h := asciiLower(hostname)
	port, portWhy := checkPort(u)
	entries := parseAllowlist(sec.URLAllowlist)

	if addr, err := netip.ParseAddr(h); err == nil {
		return checkIPHost(u, addr, port, portWhy, loopbackOnly, sec, entries)
	}
	if rule, detail := checkHostname(h); rule != "" {
		return rule, detail
	}
	if portWhy != "" {
		return rulePort, portWhy
	}
	if h == "localhost" && sec.AllowLoopbackHTTP {
		return "", ""
	}
	if loopbackOnly {
		return ruleScheme, fmt.Sprintf("scheme %q is allowed only to localhost, 127.0.0.1 or [::1]; use https or wss", u.Scheme)
	}
	local := isLocalName(h)
	if entries == nil {
		if local {
			return ruleLocalName, fmt.Sprintf("%q is a local name; list it in urlAllowlist (or use allowLoopbackHttp for localhost)", h)
		}
		return "", ""
	}
	matched, hostListed := matchAllowlist(entries, allowEntry{host: h, port: port})
	switch {
	case matched:
		return "", ""
	case hostListed:
		want := allowEntry{host: h, port: port}
		return ruleAllowlist, fmt.Sprintf("%s of %q is not listed; add %q to urlAllowlist", portName(port), h, want.String())
	case local:
		return ruleLocalName, fmt.Sprintf("%q is a local name and is not in urlAllowlist", h)
	}
	return ruleAllowlist, fmt.Sprintf("host %q is not in urlAllowlist (entries match the whole host exactly)", h)
}

// checkIPHost applies the IP-literal rules: never a forbidden address, then
// the loopback opt-in, then an exact allowlist entry.
func checkIPHost(u *url.URL, addr netip.Addr, port, portWhy string, loopbackOnly bool, sec *Security, entries []allowEntry) (rule, detail string) {
	if strings.HasPrefix(u.Host, "[") != addr.Is6() {
		return ruleIPLiteral, "brackets must hold an IPv6 address, and an IPv6 address needs brackets"
	}
	if why := forbiddenIP(addr); why != "" {
		return ruleIPForbidden, fmt.Sprintf("%s is %s and is refused even when listed", addr, why)
	}
	if portWhy != "" {
		return rulePort, portWhy
	}
	if sec.AllowLoopbackHTTP && (addr == netip.AddrFrom4([4]byte{127, 0, 0, 1}) || addr == netip.IPv6Loopback()) {
		return "", ""
	}
	if loopbackOnly {
		return ruleScheme, fmt.Sprintf("scheme %q is allowed only to localhost, 127.0.0.1 or [::1]; use https or wss", u.Scheme)
	}
	matched, hostListed := matchAllowlist(entries, allowEntry{addr: addr, port: port})
	switch {
	case matched:
		return "", ""
	case hostListed:
		want := allowEntry{addr: addr, port: port}
		return ruleAllowlist, fmt.Sprintf("%s of %s is not listed; add %q to urlAllowlist", portName(port), addr, want.String())
	case entries == nil:
		return ruleIPLiteral, fmt.Sprintf("IP literal %s is refused unless listed exactly in urlAllowlist; name the server instead", addr)
	}
	return ruleIPLiteral, fmt.Sprintf("IP literal %s is not in urlAllowlist", addr)
}

// matchAllowlist reports whether want (host or address, and port) equals an
// entry, and whether its host or address is listed with some port at all.
func matchAllowlist(entries []allowEntry, want allowEntry) (matched, hostListed bool) {
	for _, e := range entries {
		sameHost := e.host == want.host && e.addr == want.addr
		if !sameHost {
			continue
		}
		hostListed = true
		if e.port == want.port {
			return true, true
		}
	}
	return false, hostListed
}

// portName names a normalised port for messages.
func portName(port string) string {
	if port == "" {
		return "the default port (443)"
	}
	return "port " + port
}

// checkPort validates u's port and returns it normalised ("" for the default
// 443), or a reason it is refused. net/url has already required digits.
func checkPort(u *url.URL) (port, why string) {
	if strings.HasSuffix(u.Host, ":") {
		return "", `the URL has ":" after the host but no port`
	}
	p := u.Port()
	if p == "" {
		return "", ""
	}
	return normalisePort(p)
}

// normalisePort validates a port text: digits, no leading zero, 1–65535.
// "443" becomes "" (the https/wss default).
func normalisePort(p string) (port, why string) {
	if p == "" {
		return "", "the port is empty"
	}
	if len(p) > 1 && p[0] == '0' {
		return "", fmt.Sprintf("port %q has a leading zero, which browsers would drop", p)
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 || strings.ContainsAny(p, "+-") {
		return "", fmt.Sprintf("port %s is not a number from 1 to 65535", strconv.QuoteToASCII(p))
	}
	if n == 443 {
		return "", ""
	}
	return p, ""
}

// checkHostname applies the hostname syntax rules to a lower-cased name:
// at most 253 bytes, no trailing dot, no empty label, each label
// ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$, and a last label that WHATWG would
// not read as an IPv4 number.
func checkHostname(h string) (rule, detail string) {
	if len(h) > 253 {
		return ruleHostname, fmt.Sprintf("the host is %d bytes long; at most 253 are allowed", len(h))
	}
	if strings.HasSuffix(h, ".") {
		return ruleHostname, fmt.Sprintf("host %q ends with a dot", h)
	}
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if l == "" {
			return ruleHostname, fmt.Sprintf("host %s has an empty label", strconv.QuoteToASCII(h))
		}
		if !validLabel(l) {
			return ruleHostname, fmt.Sprintf("label %s is not 1–63 letters, digits or inner hyphens", strconv.QuoteToASCII(l))
		}
	}
	if last := labels[len(labels)-1]; isNumericLabel(last) {
		return ruleNumericHost, fmt.Sprintf("host %q ends in a number, which browsers read as an IPv4 address", h)
	}
	return "", ""
}

// validLabel reports whether l matches ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$.
func validLabel(l string) bool {
	if len(l) == 0 || len(l) > 63 {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		alnum := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(l)-1) {
			return false
		}
	}
	return true
}

// isNumericLabel reports whether l is all digits or matches 0x[0-9a-f]*: the
// WHATWG "ends in a number" test that turns a host into an IPv4 address.
func isNumericLabel(l string) bool {
	digits := strings.TrimLeft(l, "0123456789")
	if digits == "" {
		return true
	}
	if rest, ok := strings.CutPrefix(l, "0x"); ok {
		return strings.Trim(rest, "0123456789abcdef") == ""
	}
	return false
}

// isLocalName reports whether h is localhost, *.localhost or *.local, names
// browsers and mDNS resolve to the local machine or network.
func isLocalName(h string) bool {
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".local")
}

// Addresses that are refused even when listed.
var (
	metadataAddrs = []netip.Addr{
		netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack
		netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
		netip.MustParseAddr("fd00:ec2::254"),   // AWS IMDS over IPv6
	}
	nat64Prefix = netip.MustParsePrefix("64:ff9b::/96")
	ipv4Compat  = netip.MustParsePrefix("::/96")
	broadcast   = netip.MustParseAddr("255.255.255.255")
	thisNetwork = netip.MustParsePrefix("0.0.0.0/8")
)

// forbiddenIP names why addr may never be reached, or returns "". 4-in-6
// addresses are unmapped first; IPv4-compatible (::a.b.c.d) addresses are
// refused outright (deprecated by RFC 4291); NAT64 (64:ff9b::/96) addresses
// are judged by the IPv4 address they embed.
func forbiddenIP(addr netip.Addr) string {
	a := addr.Unmap()
	if a.Is6() && nat64Prefix.Contains(a) {
		b := a.As16()
		if why := forbiddenIP(netip.AddrFrom4([4]byte(b[12:]))); why != "" {
			return why + " (through NAT64)"
		}
	}
	for _, m := range metadataAddrs {
		if a == m {
			return "a cloud metadata address"
		}
	}
	switch {
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case a.IsMulticast():
		return "a multicast address"
	case a == broadcast:
		return "the broadcast address"
	case thisNetwork.Contains(a):
		return `in 0.0.0.0/8 ("this network")`
	case a.Is6() && ipv4Compat.Contains(a) && a != netip.IPv6Loopback():
		return "an IPv4-compatible IPv6 address"
	}
	return ""
}

// parseReason is the part of a net/url error that names the problem
// ("invalid port", "invalid URL escape"), without the URL or any piece of it
// that net/url quotes: a "port" or an "escape" may be part of a password.
func parseReason(err error) string {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return "invalid URL"
	}
	msg := ue.Err.Error()
	if i := strings.IndexAny(msg, "\":("); i >= 0 {
		msg = msg[:i]
	}
	if msg = strings.TrimSpace(msg); msg == "" {
		return "invalid URL"
	}
	return msg
}

// isASCII reports whether s holds only ASCII bytes. A percent-escape in a
// host is decoded by net/url, so a non-ASCII byte there came from one.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// redactedMark replaces every secret-bearing part.
const redactedMark = "[redacted]"

// redactURL replaces the userinfo, the query and the fragment of raw by
// "[redacted]". Unless raw parses with a host and without userinfo,
// everything from the authority start to the last "@" counts as
// userinfo: that also covers an "@" a browser would read differently
// ("https://a\@b") and "user:pw@host" written without a scheme.
func redactURL(raw string) string {
	s := raw
	if u, err := url.Parse(raw); err != nil || u.User != nil || u.Host == "" {
		s = redactUserinfo(s)
	}
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i+1] + redactedMark
	}
	return s
}

// redactUserinfo replaces everything from the authority start to the last
// "@". The authority starts after "//", else after a web scheme's ":"
// ("https:u:pw@host"), else at the beginning: in "user:pw@host" the "user"
// may be the token.
func redactUserinfo(s string) string {
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return s
	}
	start := 0
	if i := strings.Index(s, "//"); i >= 0 && i < at {
		start = i + 2
	} else if scheme, _, ok := strings.Cut(s[:at], ":"); ok {
		switch asciiLower(scheme) {
		case "http", "https", "ws", "wss":
			start = len(scheme) + 1
		}
	}
	return s[:start] + redactedMark + s[at:]
}

// maxShownURL bounds how much of a URL a message quotes.
const maxShownURL = 200

// displayURL is raw redacted, cut to maxShownURL bytes and quoted with every
// non-ASCII or control byte escaped, for messages.
func displayURL(raw string) string {
	s := redactURL(raw)
	if len(s) > maxShownURL {
		s = s[:maxShownURL] + "..."
	}
	return strconv.QuoteToASCII(s)
}

// The MCP transports a ServerConfig may name.
const (
	// TransportStreamableHTTP is MCP Streamable HTTP, the default.
	TransportStreamableHTTP = "streamable-http"
	// TransportSSE is the legacy HTTP+SSE transport.
	TransportSSE = "sse"
)

// RefuseCommand is the answer to every MCP config with a command (LionAGI's
// stdio transport): code unsupported, whatever the policy says, because this
// runtime has no processes. The message names the server and the command,
// never its arguments or environment.
func RefuseCommand(server string, command string) error {
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
}

// ValidateServerConfig checks the shape of one MCP server config and returns
// it typed. name is the server name; when it is "" the config's "name" field
// is used. Keys other than name, url, command, args, env, transport, type,
// headers and security are ignored, as LionAGI ignores them. "type" is read
// as in Claude-style .mcp.json files: "http" and "streamable-http" mean
// Streamable HTTP, "sse" means SSE.
//
// It refuses with code unsupported any config with a non-null "command"
// (RefuseCommand), whatever else it holds; with unsupported-type a bad
// "security" object (ParseSecurity); and with invalid-tool: a config that is
// not a JSON object, no server name or one that disagrees with the "name"
// field, a missing, empty or non-string "url", a transport or type other
// than the ones above (or the two disagreeing), "headers" or "env" that are
// not objects of strings, a header name that is not an HTTP token, and a
// header value with a control character. No message quotes a header or env
// value.
func ValidateServerConfig(name string, raw json.RawMessage) (*ServerConfig, error) {
	fields, err := decodeConfigObject(name, raw)
	if err != nil {
		return nil, err
	}
	if v, ok := fields["name"]; ok {
		var n string
		if json.Unmarshal(v, &n) != nil {
			return nil, configError(name, `"name" must be a string, got %s`, jsonKind(v))
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
		return nil, RefuseCommand(name, command)
	}
	cfg := &ServerConfig{Name: name}
	v, ok := fields["url"]
	if !ok {
		return nil, configError(name, `the config needs a "url" (a "command" would be refused: there are no processes)`)
	}
	if json.Unmarshal(v, &cfg.URL) != nil || jsonKind(v) != "string" {
		return nil, configError(name, `"url" must be a string, got %s`, jsonKind(v))
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
		if json.Unmarshal(v, &s) != nil || jsonKind(v) != "string" {
			return "", configError(name, "%q must be a string, got %s", key, jsonKind(v))
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

// configStringMap decodes an optional object of strings; absent gives nil.
func configStringMap(name, key string, v json.RawMessage) (map[string]string, error) {
	if v == nil {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if jsonKind(v) != "object" || json.Unmarshal(v, &m) != nil {
		return nil, configError(name, "%q must be an object of strings, got %s", key, jsonKind(v))
	}
	out := make(map[string]string, len(m))
	for k, item := range m {
		var s string
		if jsonKind(item) != "string" || json.Unmarshal(item, &s) != nil {
			return nil, configError(name, "%s.%s must be a string, got %s", key, strconv.QuoteToASCII(k), jsonKind(item))
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
// with every secret replaced by "[redacted]": each header value, each env
// value, and the userinfo, query and fragment of the URL (LIONAGI.md §10 D6).
// Keys: name, url, transport, and headers, env, security when set. nil gives
// nil.
func (c *ServerConfig) Redacted() map[string]any {
	if c == nil {
		return nil
	}
	out := map[string]any{
		"name":      c.Name,
		"url":       redactURL(c.URL),
		"transport": c.Transport,
	}
	hide := func(m map[string]string) map[string]any {
		h := make(map[string]any, len(m))
		for k := range m {
			h[k] = redactedMark
		}
		return h
	}
	if c.Headers != nil {
		out["headers"] = hide(c.Headers)
	}
	if c.Env != nil {
		out["env"] = hide(c.Env)
	}
	if c.Security != nil {
		var m map[string]any
		b, _ := json.Marshal(c.Security) // bools, ints and strings always marshal
		_ = json.Unmarshal(b, &m)
		out["security"] = m
	}
	return out
}

// minSecretLen is the shortest value Redact treats as a secret: shorter
// ones would shred ordinary words of a message and guard nothing.
const minSecretLen = 4

// minTokenLen is the shortest whitespace-separated part of a header value
// ("Bearer abc…" → "abc…") that Redact also removes on its own.
const minTokenLen = 8

// Redact returns msg with every secret of cfg replaced by "[redacted]":
// header values (whole, and each part of at least 8 bytes, so a bearer
// token echoed without "Bearer " goes too), env values, the URL's userinfo
// (raw and decoded), its query (whole and each value) and fragment. Values
// shorter than 4 bytes are left alone. A nil cfg returns msg unchanged.
func Redact(msg string, cfg *ServerConfig) string {
	if cfg == nil || msg == "" {
		return msg
	}
	var secrets []string
	add := func(s string, min int) {
		if len(s) >= min {
			secrets = append(secrets, s)
		}
	}
	for _, v := range cfg.Headers {
		add(v, minSecretLen)
		for _, f := range strings.Fields(v) {
			add(f, minTokenLen)
		}
	}
	for _, v := range cfg.Env {
		add(v, minSecretLen)
	}
	for _, s := range urlSecrets(cfg.URL) {
		add(s, minSecretLen)
	}
	if len(secrets) == 0 {
		return msg
	}
	// Longest first, so a secret containing another is replaced whole.
	slices.SortFunc(secrets, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	secrets = slices.Compact(secrets)
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, redactedMark)
	}
	return strings.NewReplacer(pairs...).Replace(msg)
}

// urlSecrets lists the secret-bearing parts of a configured URL: userinfo,
// query and fragment, raw and decoded.
func urlSecrets(raw string) []string {
	var out []string
	if at := strings.LastIndexByte(raw, '@'); at >= 0 {
		start := 0
		if i := strings.Index(raw, "//"); i >= 0 && i < at {
			start = i + 2
		}
		out = append(out, raw[start:at])
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		out = append(out, raw[i+1:])
	}
	u, err := url.Parse(raw)
	if err != nil {
		return out
	}
	if u.User != nil {
		out = append(out, u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	out = append(out, u.RawQuery, u.Fragment)
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	return out
}

// truncate cuts s to at most n bytes, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
