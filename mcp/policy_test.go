package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// urlCase is one row of tests/fixtures/policy/urls.json.
type urlCase struct {
	Name     string          `json:"name"`
	URL      string          `json:"url"`
	Security json.RawMessage `json:"security"`
	Allowed  bool            `json:"allowed"`
	Rule     string          `json:"rule"`
}

// loadURLCases reads the shared URL fixture.
func loadURLCases(tb testing.TB) []urlCase {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "tests", "fixtures", "policy", "urls.json"))
	require.NoError(tb, err)
	var doc struct {
		Cases []urlCase `json:"cases"`
	}
	require.NoError(tb, json.Unmarshal(data, &doc))
	return doc.Cases
}

// allRules lists every rule checkURL can return.
var allRules = []string{
	ruleNoPolicy, ruleAllowURLs, ruleLength, ruleCharacters, ruleParse, ruleScheme,
	ruleOpaque, ruleUserinfo, ruleHostEmpty, ruleHostPercent, ruleIPForbidden,
	ruleIPLiteral, ruleHostname, ruleNumericHost, ruleLocalName, rulePort, ruleAllowlist,
}

func TestCheckURLFixture(t *testing.T) {
	cases := loadURLCases(t)
	require.GreaterOrEqual(t, len(cases), 60, "got %d fixture cases, want at least 60", len(cases))
	covered := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			sec, err := ParseSecurity(tc.Security)
			require.NoError(t, err, "fixture security %s must parse", tc.Security)

			rule, _ := checkURL(tc.URL, sec)
			covered[rule] = true
			assert.Equal(t, tc.Rule, rule, "got rule %q, want %q", rule, tc.Rule)

			err = CheckURL(tc.URL, sec)
			allowed, reason := CheckURLVerdict(tc.URL, sec)
			assert.Equal(t, tc.Allowed, allowed, "got allowed %v, want %v (reason %s)", allowed, tc.Allowed, reason)
			if tc.Allowed {
				assert.NoError(t, err)
				assert.Empty(t, reason, "got reason %q for an allowed URL, want none", reason)
				return
			}
			var ce *core.Error
			require.True(t, errors.As(err, &ce), "got %T, want *core.Error", err)
			assert.Equal(t, core.CodePolicyDenied, ce.Code, "got code %q, want policy-denied", ce.Code)
			assert.ErrorIs(t, err, core.ErrPolicyDenied)
			assert.Equal(t, ce.Message, reason, "got reason %q, want the error message %q", reason, ce.Message)
			assert.Contains(t, reason, fmt.Sprintf("rule %q", tc.Rule), "got reason %q, want it to name rule %q", reason, tc.Rule)
		})
	}
	for _, r := range allRules {
		assert.True(t, covered[r], "rule %q has no fixture case", r)
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
			want: `URL "https://api.example.com:8443/mcp?[redacted]" refused by rule "allowlist": port 8443 of "api.example.com" is not listed; add "api.example.com:8443" to urlAllowlist`,
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
			url:  "https://api.example.com/" + strings.Repeat("a", 3000),
			sec:  Trusted(),
			want: `URL "https://api.example.com/` + strings.Repeat("a", 176) + `..." refused by rule "length": the URL is 3024 bytes long; at most 2048 are allowed`,
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
			assert.Contains(t, err.Error(), redactedMark, "got %q, want %q in it", err.Error(), redactedMark)
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
			allowed, reason := CheckURLVerdict(tc.url, tc.sec)
			assert.Equal(t, tc.allowed, allowed, "got allowed %v (%s), want %v", allowed, reason, tc.allowed)
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

func TestRefuseCommand(t *testing.T) {
	err := RefuseCommand("files", "npx")
	var ce *core.Error
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, core.CodeUnsupported, ce.Code, "got code %q, want unsupported", ce.Code)
	assert.Equal(t, "files", ce.Tool, "got tool %q, want the server name", ce.Tool)
	assert.Equal(t, `server "files": stdio MCP transport is not available in this runtime: there are no processes (command "npx")`, ce.Message)
}

func TestValidateServerConfig(t *testing.T) {
	tests := []struct {
		name      string
		server    string
		raw       string
		want      *ServerConfig
		code      core.Code
		inMessage string
	}{
		{
			name:   "minimal",
			server: "docs",
			raw:    `{"url": "https://api.example.com/mcp"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://api.example.com/mcp", Transport: TransportStreamableHTTP},
		},
		{
			name: "name from the config",
			raw:  `{"name": "docs", "url": "https://api.example.com/mcp", "transport": "sse"}`,
			want: &ServerConfig{Name: "docs", URL: "https://api.example.com/mcp", Transport: TransportSSE},
		},
		{
			name:   "same name in both places",
			server: "docs",
			raw:    `{"name": "docs", "url": "https://x.example/"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP},
		},
		{
			name:   "headers, env, unknown keys ignored, null counts as absent",
			server: "docs",
			raw:    `{"url": "https://x.example/", "headers": {"Authorization": "Bearer t"}, "env": {"K": "v"}, "args": null, "description": "x", "timeout": 5}`,
			want: &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP,
				Headers: map[string]string{"Authorization": "Bearer t"}, Env: map[string]string{"K": "v"}},
		},
		{
			name:   "type http",
			server: "docs",
			raw:    `{"type": "http", "url": "https://x.example/"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP},
		},
		{
			name:   "type sse agreeing with transport",
			server: "docs",
			raw:    `{"type": "sse", "transport": "sse", "url": "https://x.example/"}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportSSE},
		},
		{
			name:   "own security",
			server: "docs",
			raw:    `{"url": "https://x.example/", "security": {"allowUrls": true}}`,
			want:   &ServerConfig{Name: "docs", URL: "https://x.example/", Transport: TransportStreamableHTTP, Security: Trusted()},
		},
		{name: "command", server: "fs", raw: `{"command": "npx", "args": ["-y", "server"]}`, code: core.CodeUnsupported, inMessage: "there are no processes"},
		{name: "command and url", server: "fs", raw: `{"command": "npx", "url": "https://x.example/"}`, code: core.CodeUnsupported, inMessage: `(command "npx")`},
		{name: "non-string command", server: "fs", raw: `{"command": ["npx"]}`, code: core.CodeUnsupported},
		{name: "neither url nor command", server: "fs", raw: `{"args": []}`, code: core.CodeInvalidTool, inMessage: `needs a "url"`},
		{name: "url null", server: "fs", raw: `{"url": null}`, code: core.CodeInvalidTool, inMessage: `needs a "url"`},
		{name: "url not a string", server: "fs", raw: `{"url": 5}`, code: core.CodeInvalidTool, inMessage: `"url" must be a string, got number`},
		{name: "url empty", server: "fs", raw: `{"url": ""}`, code: core.CodeInvalidTool, inMessage: `"url" is empty`},
		{name: "unknown transport", server: "fs", raw: `{"url": "https://x.example/", "transport": "stdio"}`, code: core.CodeInvalidTool, inMessage: `"transport" is "stdio"`},
		{name: "transport not a string", server: "fs", raw: `{"url": "https://x.example/", "transport": 1}`, code: core.CodeInvalidTool, inMessage: `"transport" must be a string`},
		{name: "unknown type", server: "fs", raw: `{"url": "https://x.example/", "type": "websocket"}`, code: core.CodeInvalidTool, inMessage: `"type" is "websocket"`},
		{name: "type and transport disagree", server: "fs", raw: `{"url": "https://x.example/", "type": "http", "transport": "sse"}`, code: core.CodeInvalidTool, inMessage: "different transports"},
		{name: "not an object", server: "fs", raw: `["https://x.example/"]`, code: core.CodeInvalidTool, inMessage: "must be a JSON object"},
		{name: "empty", server: "fs", raw: ``, code: core.CodeInvalidTool, inMessage: "must be a JSON object"},
		{name: "invalid JSON", server: "fs", raw: `{"url": `, code: core.CodeInvalidTool, inMessage: "must be a JSON object"},
		{name: "no name", raw: `{"url": "https://x.example/"}`, code: core.CodeInvalidTool, inMessage: "the server has no name"},
		{name: "name not a string", raw: `{"name": 1, "url": "https://x.example/"}`, code: core.CodeInvalidTool, inMessage: `"name" must be a string`},
		{name: "names disagree", server: "a", raw: `{"name": "b", "url": "https://x.example/"}`, code: core.CodeInvalidTool, inMessage: "differs from the server name"},
		{name: "headers not an object", server: "fs", raw: `{"url": "https://x.example/", "headers": ["a"]}`, code: core.CodeInvalidTool, inMessage: `"headers" must be an object of strings, got array`},
		{name: "header value not a string", server: "fs", raw: `{"url": "https://x.example/", "headers": {"X-Key": 12345}}`, code: core.CodeInvalidTool, inMessage: `headers."X-Key" must be a string, got number`},
		{name: "bad header name", server: "fs", raw: `{"url": "https://x.example/", "headers": {"X Key": "v"}}`, code: core.CodeInvalidTool, inMessage: `header name "X Key" is not an HTTP token`},
		{name: "empty header name", server: "fs", raw: `{"url": "https://x.example/", "headers": {"": "v"}}`, code: core.CodeInvalidTool, inMessage: "is not an HTTP token"},
		{name: "header value with CRLF", server: "fs", raw: `{"url": "https://x.example/", "headers": {"X-Key": "secretvalue\r\nHost: evil"}}`, code: core.CodeInvalidTool, inMessage: `the value of header "X-Key" contains a control character`},
		{name: "env not an object", server: "fs", raw: `{"url": "https://x.example/", "env": "K=v"}`, code: core.CodeInvalidTool, inMessage: `"env" must be an object of strings, got string`},
		{name: "bad security", server: "fs", raw: `{"url": "https://x.example/", "security": {"allowUrls": "true"}}`, code: core.CodeUnsupportedType, inMessage: "security.allowUrls: got string, want boolean"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ValidateServerConfig(tc.server, json.RawMessage(tc.raw))
			if tc.want != nil {
				require.NoError(t, err)
				assert.Equal(t, tc.want, got, "got %+v, want %+v", got, tc.want)
				return
			}
			var ce *core.Error
			require.True(t, errors.As(err, &ce), "got %v, want a *core.Error", err)
			assert.Equal(t, tc.code, ce.Code, "got code %q, want %q (%s)", ce.Code, tc.code, ce.Message)
			assert.Contains(t, ce.Message, tc.inMessage, "got message %q, want it to contain %q", ce.Message, tc.inMessage)
			assert.NotContains(t, ce.Message, "secretvalue", "got message %q, want no header value", ce.Message)
			if ce.Message != "" && tc.server != "" {
				assert.Equal(t, tc.server, ce.Tool, "got tool %q, want the server name", ce.Tool)
			}
		})
	}
}

func TestServerConfigRedacted(t *testing.T) {
	cfg, err := ValidateServerConfig("docs", json.RawMessage(`{
		"url": "https://user:pw-secret@api.example.com/mcp?key=q-secret#f-secret",
		"transport": "sse",
		"headers": {"Authorization": "Bearer h-secret"},
		"env": {"API_KEY": "e-secret"},
		"security": {"allowUrls": true, "urlAllowlist": ["api.example.com"]}
	}`))
	require.NoError(t, err)
	got := cfg.Redacted()
	want := map[string]any{
		"name":      "docs",
		"url":       "https://[redacted]@api.example.com/mcp?[redacted]",
		"transport": "sse",
		"headers":   map[string]any{"Authorization": "[redacted]"},
		"env":       map[string]any{"API_KEY": "[redacted]"},
		"security": map[string]any{
			"allowUrls": true, "urlAllowlist": []any{"api.example.com"}, "allowCommands": false,
			"commandAllowlist": nil, "maxConnectionsPerServer": float64(5), "allowLoopbackHttp": false,
			"timeoutMs": float64(60000), "maxMessageBytes": float64(4 << 20),
		},
	}
	assert.Equal(t, want, got)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "secret", "got %s, want no secret", b)

	plain := (&ServerConfig{Name: "p", URL: "https://api.example.com/mcp", Transport: TransportStreamableHTTP}).Redacted()
	assert.Equal(t, map[string]any{"name": "p", "url": "https://api.example.com/mcp", "transport": TransportStreamableHTTP}, plain)
	assert.Nil(t, (*ServerConfig)(nil).Redacted(), "got a map for a nil config, want nil")
}

func TestRedact(t *testing.T) {
	cfg := &ServerConfig{
		Name:    "docs",
		URL:     "https://alice:p%40ssw0rd@api.example.com/mcp?api_key=QK-123456&x=1",
		Headers: map[string]string{"Authorization": "Bearer tok_ABCDEFGH", "X-Short": "abc"},
		Env:     map[string]string{"TOKEN": "env-secret-value"},
	}
	tests := []struct {
		name string
		msg  string
		want string
	}{
		{"whole header value", "sent Bearer tok_ABCDEFGH to server", "sent [redacted] to server"},
		{"bare bearer token", "server said: invalid token tok_ABCDEFGH", "server said: invalid token [redacted]"},
		{"env value", "env was env-secret-value", "env was [redacted]"},
		{"decoded password", "login p@ssw0rd failed", "login [redacted] failed"},
		{"escaped password", "GET https://alice:p%40ssw0rd@api", "GET https://[redacted]@api"},
		{"query", "url ?api_key=QK-123456&x=1 rejected", "url ?[redacted] rejected"},
		{"query value", "key QK-123456 revoked", "key [redacted] revoked"},
		{"short values stay", "abc and x=1 stay", "abc and x=1 stay"},
		{"nothing to hide", "connection refused", "connection refused"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Redact(tc.msg, cfg)
			assert.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
	assert.Equal(t, "m", Redact("m", nil), "got a change with a nil config, want none")
	assert.Equal(t, "m", Redact("m", &ServerConfig{URL: "https://x.example/"}), "got a change with no secrets, want none")
	assert.Equal(t, "q [redacted]", Redact("q abc=1234", &ServerConfig{URL: "https://x.example/?abc=1234"}), "query of a URL that parses")
	assert.Equal(t, "q [redacted]", Redact("q abc=1234", &ServerConfig{URL: "https://x.example/%zz?abc=1234"}), "query of a URL that does not parse")
}

func TestRedactURL(t *testing.T) {
	tests := []struct {
		raw  string
		want string
	}{
		{"https://api.example.com/mcp", "https://api.example.com/mcp"},
		{"https://u:p@api.example.com/mcp", "https://[redacted]@api.example.com/mcp"},
		{"https://api.example.com/mcp?t=1", "https://api.example.com/mcp?[redacted]"},
		{"https://api.example.com/mcp#t", "https://api.example.com/mcp#[redacted]"},
		{"https://a.example/p?q@evil/x", "https://a.example/p?[redacted]"},
		{"https://a.example/p#@evil/x", "https://a.example/p#[redacted]"},
		{"https://a.example/u@x/y", "https://a.example/u@x/y"},
		{"https:u:pw@a.example/", "https:[redacted]@a.example/"},
		{"user:pw@a.example/mcp", "[redacted]@a.example/mcp"},
		{"TOKEN@a.example", "[redacted]@a.example"},
		{"WSS:u:pw@a.example", "WSS:[redacted]@a.example"},
		{"//u:pw@a.example/", "//[redacted]@a.example/"},
		{"https://u:p\\w@a.example\\@evil/", "https://[redacted]@evil/"},
		{"https://u:p w@a.example/", "https://[redacted]@a.example/"},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			got := redactURL(tc.raw)
			assert.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
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
