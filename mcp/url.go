package mcp

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/jsontext"
	"github.com/toolgate/toolgate/internal/redact"
)

// Rule names one rule of the URL policy. A refusal carries it as data: in
// Verdict.Rule, and in the Rule field of the policy-denied *core.Error; the
// sentence beside it is for people.
type Rule string

// The rules of the URL check. A URL gets the first rule that refuses it, in
// the order checkURL applies them (docs/security.md, "The rules", lists
// that order: the loopback-only scheme refusal, for one, comes after the
// host rules). tests/fixtures/policy/urls.json names the same rules.
const (
	RuleNoPolicy    Rule = "no-policy"    // sec is nil: fail-closed
	RuleAllowURLs   Rule = "allow-urls"   // AllowURLs is false
	RuleLength      Rule = "length"       // longer than 2048 bytes
	RuleCharacters  Rule = "characters"   // a byte outside 0x21–0x7E, or a backslash
	RuleParse       Rule = "parse"        // net/url refuses it
	RuleScheme      Rule = "scheme"       // not https/wss (http/ws: loopback opt-in only)
	RuleOpaque      Rule = "opaque"       // "https:host" with no "//"
	RuleUserinfo    Rule = "userinfo"     // user:password@
	RuleHostEmpty   Rule = "host-empty"   // no host
	RuleHostPercent Rule = "host-percent" // "%" (or a percent-decoded byte) in the host
	RuleIPForbidden Rule = "ip-forbidden" // link-local, metadata, … even when listed
	RuleIPLiteral   Rule = "ip-literal"   // an IP literal that is not listed exactly
	RuleHostname    Rule = "hostname"     // bad label, trailing dot, too long
	RuleNumericHost Rule = "numeric-host" // last label a number: WHATWG reads IPv4
	RuleLocalName   Rule = "local-name"   // localhost, *.localhost, *.local not listed
	RulePort        Rule = "port"         // empty, leading zero, out of 1–65535
	RuleAllowlist   Rule = "allowlist"    // host or host:port not in urlAllowlist
	RuleOrigin      Rule = "origin"       // a request leaves the configured server's origin
	// RuleApproval is not a URL rule: a call of a tool that requireApproval
	// selects was not approved by the approve hook (approval.go).
	RuleApproval Rule = "approval"
)

// Rules lists every Rule (RuleOrigin is the transport's, applied after the
// URL check; RuleApproval the approval gate's, applied to each call;
// RuleElicitationURL and RuleElicitationDeclined URL-mode elicitation's). The TypeScript PolicyRule union is generated from it.
var Rules = []Rule{
	RuleNoPolicy, RuleAllowURLs, RuleLength, RuleCharacters, RuleParse, RuleScheme, RuleOpaque,
	RuleUserinfo, RuleHostEmpty, RuleHostPercent, RuleIPForbidden, RuleIPLiteral, RuleHostname,
	RuleNumericHost, RuleLocalName, RulePort, RuleAllowlist, RuleOrigin, RuleApproval,
	RuleElicitationURL, RuleElicitationDeclined,
}

// Verdict is the URL policy's answer for one URL, as tg.mcp.checkUrl
// returns it: allowed, or the rule that refused and a sentence saying why
// (the URL quoted redacted).
type Verdict struct {
	Allowed bool   `json:"allowed"`
	Rule    Rule   `json:"rule,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// maxURLBytes is the longest URL CheckURL accepts (docs/security.md, "The URL check").
const maxURLBytes = 2048

// CheckURL reports whether sec lets an MCP transport send a request to raw:
// nil, or a *core.Error with code policy-denied whose message names the rule
// that refused and quotes the URL with userinfo, query and fragment replaced
// by "[redacted]". The same check runs on connect and on every request
// (docs/security.md, "The URL check").
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
// AllowLoopbackHTTP when there is no allowlist); a hostname with a trailing
// dot, an empty label, a label outside [a-z0-9-] (so "_" is refused), a
// label longer than 63 or a name longer than 253; a last label that is all
// digits or 0x-hex (WHATWG would read an IPv4 address); localhost,
// *.localhost and *.local unless listed exactly ("localhost" also under
// AllowLoopbackHTTP when there is no allowlist); an empty port after ":", a
// leading zero, a port outside 1–65535; with an allowlist, a host not listed
// exactly, or a port other than 443 without a "host:port" entry.
// AllowLoopbackHTTP never widens an allowlist: with one, a loopback host
// must be listed, and the opt-in only lets http and ws reach it.
func CheckURL(raw string, sec *Security) error {
	if e := checkURLError(raw, sec); e != nil {
		return e
	}
	return nil
}

// checkURLError is CheckURL with a typed result.
func checkURLError(raw string, sec *Security) *core.Error {
	rule, detail := checkURL(raw, sec)
	if rule == "" {
		return nil
	}
	return &core.Error{
		Code:    core.CodePolicyDenied,
		Rule:    string(rule),
		Message: policyMessage(raw, rule, detail, redact.Secrets{}),
	}
}

// policyMessage is the sentence of a refusal: the URL shown with s removed
// before it is cut (displayURL), the rule and why.
func policyMessage(raw string, rule Rule, detail string, s redact.Secrets) string {
	return fmt.Sprintf("URL %s refused by rule %q: %s", displayURL(raw, s), rule, detail)
}

// CheckURLVerdict is CheckURL as tg.mcp.checkUrl returns it: allowed, or not
// allowed with the rule that refused and the refusal message as the reason.
func CheckURLVerdict(raw string, sec *Security) Verdict {
	if e := checkURLError(raw, sec); e != nil {
		return Verdict{Rule: Rule(e.Rule), Reason: e.Message}
	}
	return Verdict{Allowed: true}
}

// checkServerURL is CheckURL for a server's URL (or one of its requests'):
// nil, or a policy-denied error whose message names the server and carries
// no secret of cfg (removed from the URL before it is cut), with its Rule.
func checkServerURL(raw string, sec *Security, server string, cfg *ServerConfig) *core.Error {
	rule, detail := checkURL(raw, sec)
	if rule == "" {
		return nil
	}
	e := serverError(core.CodePolicyDenied, server, cfg, "%s", policyMessage(raw, rule, detail, cfg.secrets()))
	e.Rule = string(rule)
	return e
}

// checkURL applies the rules in order and returns the first that refuses
// with a detail for the message, or "" when raw is allowed.
func checkURL(raw string, sec *Security) (rule Rule, detail string) {
	if sec == nil {
		return RuleNoPolicy, "no security policy was given, so MCP URLs are refused (fail-closed); pass one, e.g. {allowUrls: true}"
	}
	if !sec.AllowURLs {
		if sec.AllowLoopbackHTTP {
			return RuleAllowURLs, "allowUrls is false; allowLoopbackHttp takes effect only together with allowUrls"
		}
		return RuleAllowURLs, "the MCP URL transport is disabled (allowUrls is false)"
	}
	if len(raw) > maxURLBytes {
		return RuleLength, fmt.Sprintf("the URL is %d bytes long; at most %d are allowed", len(raw), maxURLBytes)
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 0x21 || c > 0x7e || c == '\\' {
			return RuleCharacters, fmt.Sprintf("byte %d is 0x%02x; only printable ASCII without spaces or backslashes is allowed, because browsers would rewrite anything else", i, c)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return RuleParse, "the URL does not parse: " + parseReason(err)
	}
	loopbackOnly, rule, detail := checkScheme(u.Scheme, sec)
	if rule != "" {
		return rule, detail
	}
	if u.Opaque != "" {
		return RuleOpaque, `the URL has no "//" after the scheme; browsers would read a host out of it that Go does not see`
	}
	if u.User != nil {
		return RuleUserinfo, "credentials in the URL (user:password@) are not allowed; send them as headers"
	}
	hostname := u.Hostname()
	if hostname == "" {
		return RuleHostEmpty, "the URL has no host"
	}
	if strings.ContainsRune(hostname, '%') || !isASCII(hostname) {
		return RuleHostPercent, `the host contains "%" (an escape or an IPv6 zone); browsers would decode it differently`
	}
	h := jsontext.LowerASCII(hostname)
	port, portWhy := checkPort(u)
	entries := parseAllowlist(sec.URLAllowlist)

	if addr, err := netip.ParseAddr(h); err == nil {
		return checkIPHost(u, addr, port, portWhy, loopbackOnly, sec, entries)
	}
	return checkNamedHost(u, h, port, portWhy, loopbackOnly, sec, entries)
}

// checkScheme applies the scheme rule: https and wss; http and ws only
// under AllowLoopbackHTTP, and then only to a loopback host (loopbackOnly).
func checkScheme(scheme string, sec *Security) (loopbackOnly bool, rule Rule, detail string) {
	switch scheme {
	case "https", "wss":
		return false, "", ""
	case "http", "ws":
		if !sec.AllowLoopbackHTTP {
			return false, RuleScheme, fmt.Sprintf("scheme %q is allowed only to localhost, 127.0.0.1 or [::1] with allowLoopbackHttp; use https or wss", scheme)
		}
		return true, "", ""
	case "":
		return false, RuleScheme, "the URL has no scheme; use https or wss"
	}
	return false, RuleScheme, fmt.Sprintf("scheme %s is not allowed; use https or wss", strconv.QuoteToASCII(scheme))
}

// checkNamedHost applies the rules of a host that is a name, not an IP
// literal: its syntax, the port, the loopback opt-in, the local names and
// the allowlist. The opt-in lets http and ws reach localhost; it allows
// localhost on its own only without an allowlist, and never widens one.
func checkNamedHost(u *url.URL, h, port, portWhy string, loopbackOnly bool, sec *Security, entries []allowEntry) (rule Rule, detail string) {
	if rule, detail := checkHostname(h); rule != "" {
		return rule, detail
	}
	if portWhy != "" {
		return RulePort, portWhy
	}
	loopback := h == "localhost" && sec.AllowLoopbackHTTP
	if loopback && entries == nil {
		return "", "" // the opt-in allows loopback when no allowlist narrows the hosts
	}
	if loopbackOnly && !loopback {
		return notLoopback(u.Scheme)
	}
	local := isLocalName(h)
	if entries == nil {
		if local {
			return RuleLocalName, fmt.Sprintf("%q is a local name; list it in urlAllowlist (or use allowLoopbackHttp for localhost)", h)
		}
		return "", ""
	}
	matched, hostListed := matchAllowlist(entries, allowEntry{host: h, port: port})
	switch {
	case matched:
		return "", ""
	case hostListed:
		return portNotListed(allowEntry{host: h, port: port}, strconv.Quote(h))
	case local:
		return RuleLocalName, fmt.Sprintf("%q is a local name and is not in urlAllowlist", h)
	}
	return RuleAllowlist, fmt.Sprintf("host %q is not in urlAllowlist (entries match the whole host exactly)", h)
}

// notLoopback is the refusal of http or ws to a host that is not loopback.
func notLoopback(scheme string) (Rule, string) {
	return RuleScheme, fmt.Sprintf("scheme %q is allowed only to localhost, 127.0.0.1 or [::1]; use https or wss", scheme)
}

// portNotListed is the refusal of a host the allowlist names with other
// ports only; shown is the host as the message quotes it.
func portNotListed(want allowEntry, shown string) (Rule, string) {
	return RuleAllowlist, fmt.Sprintf("%s of %s is not listed; add %q to urlAllowlist", portName(want.port), shown, want.String())
}

// checkIPHost applies the IP-literal rules: never a forbidden address, then
// the loopback opt-in (127.0.0.1 and ::1 on their own only without an
// allowlist; with one, they must be listed, over http and ws too), then an
// exact allowlist entry.
func checkIPHost(u *url.URL, addr netip.Addr, port, portWhy string, loopbackOnly bool, sec *Security, entries []allowEntry) (rule Rule, detail string) {
	if strings.HasPrefix(u.Host, "[") != addr.Is6() {
		return RuleIPLiteral, "brackets must hold an IPv6 address, and an IPv6 address needs brackets"
	}
	if why := forbiddenIP(addr); why != "" {
		return RuleIPForbidden, fmt.Sprintf("%s is %s and is refused even when listed", addr, why)
	}
	if portWhy != "" {
		return RulePort, portWhy
	}
	loopback := sec.AllowLoopbackHTTP && (addr == netip.AddrFrom4([4]byte{127, 0, 0, 1}) || addr == netip.IPv6Loopback())
	if loopback && entries == nil {
		return "", "" // the opt-in allows loopback when no allowlist narrows the hosts
	}
	if loopbackOnly && !loopback {
		return notLoopback(u.Scheme)
	}
	matched, hostListed := matchAllowlist(entries, allowEntry{addr: addr, port: port})
	switch {
	case matched:
		return "", ""
	case hostListed:
		return portNotListed(allowEntry{addr: addr, port: port}, addr.String())
	case entries == nil:
		return RuleIPLiteral, fmt.Sprintf("IP literal %s is refused unless listed exactly in urlAllowlist; name the server instead", addr)
	}
	return RuleIPLiteral, fmt.Sprintf("IP literal %s is not in urlAllowlist", addr)
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
func checkHostname(h string) (rule Rule, detail string) {
	if len(h) > 253 {
		return RuleHostname, fmt.Sprintf("the host is %d bytes long; at most 253 are allowed", len(h))
	}
	if strings.HasSuffix(h, ".") {
		return RuleHostname, fmt.Sprintf("host %q ends with a dot", h)
	}
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if l == "" {
			return RuleHostname, fmt.Sprintf("host %s has an empty label", strconv.QuoteToASCII(h))
		}
		if !validLabel(l) {
			return RuleHostname, fmt.Sprintf("label %s is not 1–63 letters, digits or inner hyphens", strconv.QuoteToASCII(l))
		}
	}
	if last := labels[len(labels)-1]; isNumericLabel(last) {
		return RuleNumericHost, fmt.Sprintf("host %q ends in a number, which browsers read as an IPv4 address", h)
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

// maxShownURL bounds how much of a URL a message quotes.
const maxShownURL = 200

// displayURL is raw redacted (redact.URL), stripped of the secrets s, cut
// to maxShownURL bytes and quoted with every non-ASCII or control byte
// escaped, for messages.
func displayURL(raw string, s redact.Secrets) string {
	return redact.Quote(redact.URL(raw), maxShownURL, s)
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
