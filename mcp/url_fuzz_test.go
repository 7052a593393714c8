package mcp

import (
	"errors"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/fixture"
)

// fuzzPolicies are the policies every fuzzed URL is checked against: open,
// an allowlist with a hostname, a port, local names and IP literals, and
// the loopback opt-in without and with an allowlist.
var fuzzPolicies = map[string]*Security{
	"open": Trusted(),
	"allowlist": {AllowURLs: true, URLAllowlist: []string{
		"api.example.com", "api.example.com:8443", "localhost", "printer.local",
		"1.2.3.4", "127.0.0.1", "10.0.0.7", "::1", "2001:db8::1", "169.254.169.254", "fd00:ec2::254",
	}},
	"loopback": {AllowURLs: true, AllowLoopbackHTTP: true},
	"loopback under an allowlist": {AllowURLs: true, AllowLoopbackHTTP: true, URLAllowlist: []string{
		"api.example.com", "localhost:3000", "127.0.0.1",
	}},
}

// FuzzCheckURL checks the URL check's properties (docs/security.md, "The
// URL check") on every input: no panic; an allowed URL is printable ASCII without a backslash,
// has scheme https or wss (http or ws only to a loopback host under the
// opt-in), re-parses from u.String() to the same lower-cased host and port,
// and under an allowlist names a listed host (a loopback host too, under the
// opt-in); a refusal is a policy-denied
// *core.Error naming its rule; the verdict is deterministic.
func FuzzCheckURL(f *testing.F) {
	var fx urlFixture
	fixture.Load(f, "policy", "urls.json", &fx)
	for _, tc := range fx.Cases {
		f.Add(tc.URL)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for name, sec := range fuzzPolicies {
			err := CheckURL(raw, sec)
			again := CheckURL(raw, sec)
			if (err == nil) != (again == nil) || err != nil && err.Error() != again.Error() {
				t.Fatalf("%s: got %v then %v for %q, want the same verdict", name, err, again, raw)
			}
			if err != nil {
				var ce *core.Error
				if !errors.As(err, &ce) || ce.Code != core.CodePolicyDenied || !strings.Contains(ce.Message, `refused by rule "`) {
					t.Fatalf("%s: got %#v for %q, want a policy-denied *core.Error naming its rule", name, err, raw)
				}
				continue
			}
			checkAllowedOracles(t, name, raw, sec)
		}
	})
}

// checkAllowedOracles asserts what every allowed URL must satisfy.
func checkAllowedOracles(t *testing.T, name, raw string, sec *Security) {
	t.Helper()
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 0x21 || c > 0x7e || c == '\\' {
			t.Fatalf("%s: allowed %q, which has byte 0x%02x", name, raw, c)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s: allowed %q, which does not parse: %v", name, raw, err)
	}
	host := strings.ToLower(u.Hostname())
	loopback := host == "localhost" || host == "127.0.0.1" || isIPv6Loopback(host)
	switch u.Scheme {
	case "https", "wss":
	case "http", "ws":
		if !sec.AllowLoopbackHTTP || !loopback {
			t.Fatalf("%s: allowed %q: scheme %q to host %q without the loopback opt-in", name, raw, u.Scheme, host)
		}
	default:
		t.Fatalf("%s: allowed %q with scheme %q", name, raw, u.Scheme)
	}
	if u.User != nil || u.Opaque != "" || host == "" {
		t.Fatalf("%s: allowed %q with userinfo, opaque part or no host", name, raw)
	}
	back, err := url.Parse(u.String())
	if err != nil {
		t.Fatalf("%s: allowed %q, whose String() %q does not parse: %v", name, raw, u.String(), err)
	}
	if got := strings.ToLower(back.Hostname()); got != host || back.Port() != u.Port() {
		t.Fatalf("%s: allowed %q: re-parsed host %q port %q, want %q %q", name, raw, got, back.Port(), host, u.Port())
	}
	if a, err := netip.ParseAddr(host); err == nil && forbiddenIP(a) != "" {
		t.Fatalf("%s: allowed %q, a forbidden address", name, raw)
	}
	if sec.AllowLoopbackHTTP && loopback && sec.URLAllowlist == nil {
		return // the opt-in alone; with an allowlist, loopback must be listed too
	}
	if sec.URLAllowlist == nil {
		if isLocalName(host) || strings.Trim(host, "0123456789.") == "" || strings.Contains(host, ":") {
			t.Fatalf("%s: allowed %q: a local name or IP literal without an allowlist", name, raw)
		}
		return
	}
	entry := host
	if strings.Contains(host, ":") {
		entry = mustAddr(t, host).String()
	}
	if p := u.Port(); p != "" && p != "443" {
		if strings.Contains(entry, ":") {
			entry = "[" + entry + "]"
		}
		entry += ":" + p
	}
	if !slices.Contains(sec.URLAllowlist, entry) {
		t.Fatalf("%s: allowed %q, whose host %q is not in the allowlist", name, raw, entry)
	}
}

// isIPv6Loopback reports whether h spells ::1.
func isIPv6Loopback(h string) bool {
	a, err := netip.ParseAddr(h)
	return err == nil && a == netip.IPv6Loopback()
}
