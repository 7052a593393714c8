package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/fixture"
	"github.com/toolgate/toolgate/internal/redact"
)

// urlCase is one row of tests/fixtures/policy/urls.json.
type urlCase struct {
	Name     string          `json:"name"`
	URL      string          `json:"url"`
	Security json.RawMessage `json:"security"`
	Allowed  bool            `json:"allowed"`
	Rule     string          `json:"rule"`
}

// urlFixture is tests/fixtures/policy/urls.json, shared with the JS side.
type urlFixture struct {
	Cases []urlCase `json:"cases"`
}

func TestCheckURLFixture(t *testing.T) {
	var fx urlFixture
	fixture.Load(t, "policy", "urls.json", &fx)
	cases := fx.Cases
	require.GreaterOrEqual(t, len(cases), 60, "got %d fixture cases, want at least 60", len(cases))
	covered := map[Rule]bool{}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			sec, err := ParseSecurity(tc.Security)
			require.NoError(t, err, "fixture security %s must parse", tc.Security)

			rule, _ := checkURL(tc.URL, sec)
			covered[rule] = true
			assert.Equal(t, tc.Rule, string(rule), "got rule %q, want %q", rule, tc.Rule)

			err = CheckURL(tc.URL, sec)
			v := CheckURLVerdict(tc.URL, sec)
			assert.Equal(t, tc.Allowed, v.Allowed, "got allowed %v, want %v (reason %s)", v.Allowed, tc.Allowed, v.Reason)
			if tc.Allowed {
				assert.NoError(t, err)
				assert.Equal(t, Verdict{Allowed: true}, v, "got rule or reason for an allowed URL, want none")
				return
			}
			var ce *core.Error
			require.True(t, errors.As(err, &ce), "got %T, want *core.Error", err)
			assert.Equal(t, core.CodePolicyDenied, ce.Code, "got code %q, want policy-denied", ce.Code)
			assert.ErrorIs(t, err, core.ErrPolicyDenied)
			assert.Equal(t, tc.Rule, ce.Rule, "got error rule %q, want %q", ce.Rule, tc.Rule)
			assert.Equal(t, Rule(tc.Rule), v.Rule, "got verdict rule %q, want %q", v.Rule, tc.Rule)
			assert.Equal(t, ce.Message, v.Reason, "got reason %q, want the error message %q", v.Reason, ce.Message)
		})
	}
	for _, r := range Rules {
		if r != RuleOrigin && r != RuleApproval && r != RuleElicitationURL && r != RuleElicitationDeclined { // the transport's, the approval gate's and URL elicitation's rules, tested there
			assert.True(t, covered[r], "rule %q has no fixture case", r)
		}
	}
	assert.True(t, covered[""], "the fixture has no allowed case")
}

func TestCheckURLMessage(t *testing.T) {
	tests := []struct {
		name string
		url  string
		sec  *Security
		want string
	}{
		{
			name: "scheme",
			url:  "ftp://api.example.com/x",
			sec:  Trusted(),
			want: `URL "ftp://api.example.com/x" refused by rule "scheme": scheme "ftp" is not allowed; use https or wss`,
		},
		{
			name: "allowlist port names the entry to add",
			url:  "https://api.example.com:8443/mcp?token=abc",
			sec:  &Security{AllowURLs: true, URLAllowlist: []string{"api.example.com"}},
			want: `URL "https://api.example.com:8443/mcp?token=[redacted]" refused by rule "allowlist": port 8443 of "api.example.com" is not listed; add "api.example.com:8443" to urlAllowlist`,
		},
		{
			name: "allowlist default port",
			url:  "https://api.example.com/",
			sec:  &Security{AllowURLs: true, URLAllowlist: []string{"api.example.com:8443"}},
			want: `URL "https://api.example.com/" refused by rule "allowlist": the default port (443) of "api.example.com" is not listed; add "api.example.com" to urlAllowlist`,
		},
		{
			name: "listed IPv6 on another port",
			url:  "https://[2001:db8::1]:8443/",
			sec:  &Security{AllowURLs: true, URLAllowlist: []string{"2001:db8::1"}},
			want: `URL "https://[2001:db8::1]:8443/" refused by rule "allowlist": port 8443 of 2001:db8::1 is not listed; add "[2001:db8::1]:8443" to urlAllowlist`,
		},
		{
			name: "non-ASCII is escaped in the quote",
			url:  "https://api\u3002example.com/",
			sec:  Trusted(),
			want: `URL "https://api\u3002example.com/" refused by rule "characters": byte 11 is 0xe3; only printable ASCII without spaces or backslashes is allowed, because browsers would rewrite anything else`,
		},
		{
			name: "allowLoopbackHttp alone explains itself",
			url:  "http://localhost/",
			sec:  &Security{AllowLoopbackHTTP: true},
			want: `URL "http://localhost/" refused by rule "allow-urls": allowUrls is false; allowLoopbackHttp takes effect only together with allowUrls`,
		},
		{
			name: "long URL is cut",
			url:  "https://api.example.com/" + strings.Repeat("a/", 1500),
			sec:  Trusted(),
			want: `URL "https://api.example.com/` + strings.Repeat("a/", 88) + `..." refused by rule "length": the URL is 3024 bytes long; at most 2048 are allowed`,
		},
		{
			name: "a long path segment is redacted",
			url:  "ftp://api.example.com/mcp/sk-0123456789abcdef/sse",
			sec:  Trusted(),
			want: `URL "ftp://api.example.com/mcp/[redacted]/sse" refused by rule "scheme": scheme "ftp" is not allowed; use https or wss`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckURL(tc.url, tc.sec)
			require.Error(t, err)
			got := err.(*core.Error).Message
			assert.Equal(t, tc.want, got, "got message %q, want %q", got, tc.want)
			assert.Empty(t, err.(*core.Error).Tool, "got tool %q, want none", err.(*core.Error).Tool)
		})
	}
}

func TestCheckURLNeverQuotesSecrets(t *testing.T) {
	const secret = "s3cr3tT0ken"
	tests := []struct {
		name string
		url  string
	}{
		{"userinfo password", "https://user:" + secret + "@api.example.com/"},
		{"userinfo user", "https://" + secret + "@api.example.com/"},
		{"query", "https://api.example.com:0/mcp?token=" + secret},
		{"fragment", "ftp://api.example.com/#" + secret},
		{"query before @", "https://api.example.com/?t=" + secret + "@evil.example/"},
		{"userinfo with backslash", "https://u:" + secret + "@api.example.com\\@evil/"},
		{"userinfo with question mark", "https://u:" + secret + "?x@api.example.com/"},
		{"userinfo that does not parse", "https://u:" + secret + "@[::1/"},
		{"userinfo with space", "https://u:" + secret + " @api.example.com/"},
		{"over-long with query", "https://api.example.com/?k=" + secret + strings.Repeat("a", 3000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckURL(tc.url, &Security{AllowURLs: true, URLAllowlist: []string{"other.example.com"}})
			require.Error(t, err)
			assert.NotContains(t, err.Error(), secret, "got %q, want no secret in it", err.Error())
			assert.Contains(t, err.Error(), redact.Mark, "got %q, want %q in it", err.Error(), redact.Mark)
		})
	}
}

func TestCheckURLGoBuiltSecurity(t *testing.T) {
	tests := []struct {
		name    string
		url     string
		sec     *Security
		allowed bool
	}{
		{"uppercase entry built in Go", "https://api.example.com/", &Security{AllowURLs: true, URLAllowlist: []string{"API.Example.com"}}, true},
		{"Kelvin sign entry never matches k", "https://key.example.com/", &Security{AllowURLs: true, URLAllowlist: []string{"\u212aey.example.com"}}, false},
		{"unusable entry is skipped", "https://api.example.com/", &Security{AllowURLs: true, URLAllowlist: []string{"https://api.example.com", "api.example.com"}}, true},
		{"only unusable entries allow nothing", "https://api.example.com/", &Security{AllowURLs: true, URLAllowlist: []string{"*.example.com"}}, false},
		{"zero value allows nothing", "https://api.example.com/", &Security{}, false},
		{"trusted allows a public host", "wss://api.example.com/", Trusted(), true},
		{"trusted refuses an IP literal", "https://8.8.8.8/", Trusted(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := CheckURLVerdict(tc.url, tc.sec)
			assert.Equal(t, tc.allowed, v.Allowed, "got allowed %v (%s), want %v", v.Allowed, v.Reason, tc.allowed)
		})
	}
}

func TestForbiddenIPForms(t *testing.T) {
	tests := []struct {
		addr      string
		forbidden bool
	}{
		{"169.254.169.254", true},
		{"::ffff:169.254.169.254", true},
		{"64:ff9b::169.254.169.254", true},
		{"64:ff9b::8.8.8.8", false},
		{"::a9fe:a9fe", true},
		{"::1", false},
		{"127.0.0.1", false},
		{"10.0.0.1", false},
		{"100.100.100.200", true},
		{"100.100.100.201", false},
		{"fd00:ec2::254", true},
		{"fd00:ec2::253", false},
		{"ff05::1", true},
		{"0.255.255.255", true},
		{"2001:db8::1", false},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			why := forbiddenIP(mustAddr(t, tc.addr))
			assert.Equal(t, tc.forbidden, why != "", "got %q, want forbidden=%v", why, tc.forbidden)
		})
	}
}

// mustAddr parses an IP address for a test.
func mustAddr(t *testing.T, s string) netip.Addr {
	t.Helper()
	a, err := netip.ParseAddr(s)
	require.NoError(t, err)
	return a
}

func ExampleCheckURL() {
	sec, _ := ParseSecurity([]byte(`{"allowUrls": true, "urlAllowlist": ["api.example.com"]}`))
	fmt.Println(CheckURL("https://api.example.com/mcp", sec))
	fmt.Println(CheckURL("https://api.example.com.evil.org/mcp", sec))
	fmt.Println(CheckURL("https://api.example.com/mcp", nil))
	// Output:
	// <nil>
	// policy-denied: URL "https://api.example.com.evil.org/mcp" refused by rule "allowlist": host "api.example.com.evil.org" is not in urlAllowlist (entries match the whole host exactly)
	// policy-denied: URL "https://api.example.com/mcp" refused by rule "no-policy": no security policy was given, so MCP URLs are refused (fail-closed); pass one, e.g. {allowUrls: true}
}
