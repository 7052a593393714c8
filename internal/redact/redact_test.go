package redact

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestURL(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		{"no secrets", "https://api.example.com/mcp", "https://api.example.com/mcp"},
		{"userinfo", "https://u:p@api.example.com/mcp", "https://[redacted]@api.example.com/mcp"},
		{"userinfo with a port", "https://u:p@host:8443/path", "https://[redacted]@host:8443/path"},
		{"@ in the password", "wss://u:p@ss@host/", "wss://[redacted]@host/"},
		{"@ in the path after userinfo", "https://u:p@host/a@b", "https://[redacted]@host/a@b"},
		{"query token", "https://api.example.com/mcp?t=1", "https://api.example.com/mcp?t=[redacted]"},
		{"query pairs, bare items, empty names", "https://h/p?key=v&flag&=x", "https://h/p?key=[redacted]&[redacted]&=[redacted]"},
		{"query and fragment", "https://h/p?key=v#access_token=y", "https://h/p?key=[redacted]#access_token=[redacted]"},
		{"bare fragment", "https://api.example.com/mcp#t", "https://api.example.com/mcp#[redacted]"},
		{"empty query", "https://h/p?", "https://h/p?"},
		{"@ in the query is not userinfo", "https://a.example/p?q@evil/x", "https://a.example/p?[redacted]"},
		{"@ in the fragment is not userinfo", "https://a.example/p#@evil/x", "https://a.example/p#[redacted]"},
		{"@ in the path is not userinfo", "https://a.example/u@x/y", "https://a.example/u@x/y"},
		{"opaque userinfo", "https:u:pw@a.example/", "https:[redacted]@a.example/"},
		{"no scheme", "user:pw@a.example/mcp", "[redacted]@a.example/mcp"},
		{"a bare token", "TOKEN@a.example", "[redacted]@a.example"},
		{"upper-case scheme", "WSS:u:pw@a.example", "WSS:[redacted]@a.example"},
		{"scheme-relative", "//u:pw@a.example/", "//[redacted]@a.example/"},
		{"backslash a browser reads differently", "https://u:p\\w@a.example\\@evil/", "https://[redacted]@evil/"},
		{"space in the userinfo", "https://u:p w@a.example/", "https://[redacted]@a.example/"},
		{"a token in the path", "https://actions.example/mcp/sk-ak-0123456789abcdef/sse", "https://actions.example/mcp/[redacted]/sse"},
		{"a 15-byte segment is kept", "https://h.example/streamable-http", "https://h.example/streamable-http"},
		{"a name is kept", "https://h.example/github-enterprise.v_x/mcp", "https://h.example/github-enterprise.v_x/mcp"},
		{"a name of 32 bytes is not", "https://h.example/" + strings.Repeat("a", 32), "https://h.example/[redacted]"},
		{"capitals make a token", "https://h.example/AbcdefghijklmnoP/mcp", "https://h.example/[redacted]/mcp"},
		{"a 16-byte segment is not", "https://h.example/0123456789abcdef?k=v", "https://h.example/[redacted]?k=[redacted]"},
		{"a token after a backslash", "https://h.example\\0123456789abcdef", "https://h.example\\[redacted]"},
		{"a path token of a URL that does not parse", "https://h.example/%zz/0123456789abcdef", "https://h.example/%zz/[redacted]"},
		{"a path token without a scheme", "h.example/0123456789abcdef", "h.example/[redacted]"},
		{"the path after userinfo", "https://u:p@h/0123456789abcdef", "https://[redacted]@h/[redacted]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := URL(tc.raw)
			assert.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
			assert.Equal(t, got, URL(got), "redacting twice changes %q", got)
		})
	}
}

func TestConfig(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"alias and tool name kept", `{"server":"gh","_original_tool_name":"search"}`, `{"server":"gh","_original_tool_name":"search"}`},
		{"header values", `{"url":"https://h/rpc","headers":{"Authorization":"Bearer x","X-Api-Key":"k"}}`,
			`{"url":"https://h/rpc","headers":{"Authorization":"[redacted]","X-Api-Key":"[redacted]"}}`},
		{"env values", `{"command":"npx","env":{"GITHUB_TOKEN":"ghp_1","HOME":"/root"}}`,
			`{"command":"npx","env":{"GITHUB_TOKEN":"[redacted]","HOME":"[redacted]"}}`},
		{"headers not an object", `{"Headers":"Authorization: x"}`, `{"Headers":"[redacted]"}`},
		{"null headers kept", `{"headers":null,"env":{"A":null}}`, `{"headers":null,"env":{"A":null}}`},
		{"sensitive keys", `{"token":"t","clientSecret":"s","PASSWORD":"p","api_key":"k","apiKey":"k","Api-Key":"k","cookie":"c","auth":{"Authorization":"a"},"refresh_token":{"x":1}}`,
			`{"token":"[redacted]","clientSecret":"[redacted]","PASSWORD":"[redacted]","api_key":"[redacted]","apiKey":"[redacted]","Api-Key":"[redacted]","cookie":"[redacted]","auth":{"Authorization":"[redacted]"},"refresh_token":"[redacted]"}`},
		{"url userinfo", `{"url":"https://u:p@host:8443/path"}`, `{"url":"https://[redacted]@host:8443/path"}`},
		{"url query token and fragment", `{"url":"https://h/p?key=v&flag&=x#access_token=y"}`, `{"url":"https://h/p?key=[redacted]&[redacted]&=[redacted]#access_token=[redacted]"}`},
		{"not a url", `{"name":"a://"}`, `{"name":"a://"}`},
		{"nested url", `{"servers":[{"endpoint":"https://a:b@h"}]}`, `{"servers":[{"endpoint":"https://[redacted]@h"}]}`},
		{"command-line flags", `{"args":["--token","abc","--api-key=xyz","-v","SECRET_KEY=1","plain","--password"]}`,
			`{"args":["--token","[redacted]","--api-key=[redacted]","-v","SECRET_KEY=[redacted]","plain","--password"]}`},
		{"flag before a non-string", `{"args":["--token",5,"x"]}`, `{"args":["--token",5,"x"]}`},
		{"numbers and booleans kept", `{"port":8080,"debug":true,"ratio":1.5}`, `{"port":8080,"debug":true,"ratio":1.5}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.in), &in))
			got, err := Config(in)
			require.NoError(t, err)
			data, err := json.Marshal(got)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(data))
			again, err := Config(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "redaction is idempotent")
		})
	}
	got, err := Config(nil)
	assert.NoError(t, err)
	assert.Nil(t, got)
	_, err = Config(map[string]any{"x": make(chan int)})
	assert.Error(t, err, "a config that is not JSON is refused")
}

func TestText(t *testing.T) {
	s := Secrets{
		URL:     "https://alice:p%40ssw0rd@api.example.com/mcp?api_key=QK-123456&x=1",
		Headers: []string{"Bearer tok_ABCDEFGH", "abc"},
		Values:  []string{"env-secret-value"},
	}
	tests := []struct {
		name, msg, want string
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
			got := Text(tc.msg, s)
			assert.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
	assert.Equal(t, "m", Text("m", Secrets{}), "got a change with no secrets, want none")
	assert.Equal(t, "m", Text("m", Secrets{URL: "https://x.example/"}), "got a change with no secrets, want none")
	assert.Equal(t, "q [redacted]", Text("q abc=1234", Secrets{URL: "https://x.example/?abc=1234"}), "query of a URL that parses")
	assert.Equal(t, "q [redacted]", Text("q abc=1234", Secrets{URL: "https://x.example/%zz?abc=1234"}), "query of a URL that does not parse")
}

func TestTextURLParts(t *testing.T) {
	tests := []struct {
		name, url, msg, want string
	}{
		{"a path token", "https://h.example/mcp/sk-0123456789abcdef/sse", "GET /mcp/sk-0123456789abcdef/sse: 500", "GET /mcp/[redacted]/sse: 500"},
		{"a decoded path token", "https://h.example/mcp/tok%2F0123456789abcdef", "no tok/0123456789abcdef here", "no [redacted] here"},
		{"a short segment stays", "https://h.example/servers/mcp", "servers and mcp", "servers and mcp"},
		{"a name stays", "https://h.example/github-enterprise/mcp", `server "github-enterprise"`, `server "github-enterprise"`},
		{"a query value of a URL that does not parse", "https://h.example/%zz?key=QK-99887766&x=1", "key QK-99887766 revoked", "key [redacted] revoked"},
		{"a password of a URL that does not parse", "https://alice:p%40ssw0rd@h.example/%zz", "login p@ssw0rd failed", "login [redacted] failed"},
		{"a path token of a URL that does not parse", "https://h.example/%zz/0123456789abcdef", "at 0123456789abcdef", "at [redacted]"},
		{"a fragment value", "https://h.example/mcp#access_token=frag-1234", "frag-1234 expired", "[redacted] expired"},
		{"a path token in a URL without a scheme", "h.example/0123456789abcdef", "0123456789abcdef", "[redacted]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Text(tc.msg, Secrets{URL: tc.url})
			assert.Equal(t, tc.want, got, "got %q, want %q", got, tc.want)
		})
	}
}

// TestTextAroundCuts puts tokens with JSON-special characters at every
// offset around each cut a message makes, and checks that no 4 bytes of
// the token, in any spelling, survive Cut or Quote, nor Text over the
// message's JSON or Go-quoted spelling.
func TestTextAroundCuts(t *testing.T) {
	tokens := []string{
		"Tok3nPlainQ9K7",
		`Tok"3n"Q9K7`,
		`Tok\3n\Q9K7`,
		"Tok\n3n\x01Q9\x7fK7\t",
		"T\u00f8k\u20acn\U0001F642Q9K7",
		`T<o>k&"\n`,
	}
	cuts := []int{60, 80, 140, 200, 300, 500}
	for _, token := range tokens {
		secrets := Secrets{Headers: []string{"Bearer " + token}, Values: []string{token}}
		spelled := spellings(token)
		for _, n := range cuts {
			for off := n - len(token) - 8; off <= n+2; off++ {
				if off < 0 {
					continue
				}
				msg := strings.Repeat("x", off) + token + strings.Repeat(" y", 40)
				js, err := json.Marshal(msg)
				require.NoError(t, err)
				outs := map[string]string{
					"Cut":               Cut(msg, n, secrets),
					"Quote":             Quote(msg, n, secrets),
					"Text(JSON)":        Text(string(js), secrets),
					"Text(Quote)":       Text(strconv.Quote(msg), secrets),
					"Text(ASCII)":       Text(strconv.QuoteToASCII(msg), secrets),
					"Text(Quote(JSON))": Text(strconv.QuoteToASCII(string(js)), secrets),
				}
				for how, out := range outs {
					for _, sp := range spelled {
						if leak := sharedRun(out, sp, 4); leak != "" {
							t.Fatalf("%s: token %q at offset %d, cut %d: %q of its spelling %q survived in %q", how, token, off, n, leak, sp, out)
						}
					}
				}
			}
		}
	}
}

// sharedRun returns a substring of spelling of at least k bytes that out
// contains, or "".
func sharedRun(out, spelling string, k int) string {
	for i := 0; i+k <= len(spelling); i++ {
		if strings.Contains(out, spelling[i:i+k]) {
			return spelling[i : i+k]
		}
	}
	return ""
}

func TestPathSecret(t *testing.T) {
	for seg, want := range map[string]bool{
		"mcp": false, "0123456789abcde": false, "0123456789abcdef": true, "github-enterprise": false,
		"ping_flood.silent": false, "Github-Enterprise": true, "sk-ak-0123456789": true,
		strings.Repeat("a", 31): false, strings.Repeat("a", 32): true, "550e8400-e29b-41d4-a716-446655440000": true,
	} {
		assert.Equal(t, want, PathSecret(seg), "PathSecret(%q)", seg)
	}
}

func TestCutAndQuote(t *testing.T) {
	s := Secrets{Values: []string{"s3cr3t-\"-value"}}
	assert.Equal(t, "short", Cut("short", 10, s))
	assert.Equal(t, "0123456789...", Cut("0123456789abc", 10, s))
	assert.Equal(t, "a [redacted] b", Cut("a s3cr3t-\"-value b", 100, s))
	assert.Equal(t, "xxxxx[reda...", Cut("xxxxxs3cr3t-\"-value", 10, s), "the cut comes after redaction")
	assert.Equal(t, `"\u00e9 [redacted]"`, Quote("é s3cr3t-\"-value", 100, s))
}

// FuzzConfig plants a secret in the places a config carries one and checks
// it never survives, and that redaction is idempotent.
func FuzzConfig(f *testing.F) {
	f.Add("s3cr3t-value", "https://h/rpc")
	f.Add("a b", "wss://x:y@h/?q=1")
	f.Add("[redacted]", "")
	f.Fuzz(func(t *testing.T, secret, url string) {
		cfg := map[string]any{"srv": map[string]any{
			"url":     url,
			"headers": map[string]any{"Authorization": secret},
			"env":     map[string]any{"X": secret},
			"token":   secret,
			"userurl": "https://" + "u:" + strings.ReplaceAll(secret, "/", "") + "@h/?k=" + secret,
		}}
		got, err := Config(cfg)
		require.NoError(t, err)
		inner := got["srv"].(map[string]any)
		for what, v := range map[string]any{
			"header": inner["headers"].(map[string]any)["Authorization"],
			"env":    inner["env"].(map[string]any)["X"],
			"token":  inner["token"],
		} {
			if v != Mark {
				t.Fatalf("the %s secret survived: %#v", what, v)
			}
		}
		again, err := Config(got)
		require.NoError(t, err)
		require.Equal(t, got, again)
	})
}

// FuzzURL checks that URL is idempotent and that a planted password and
// query value never survive.
func FuzzURL(f *testing.F) {
	f.Add("https://api.example.com/mcp?t=1", "pw-1234")
	f.Add("https:u:pw@a.example/", "s3cr3t")
	f.Add("https://u:p\\w@a.example\\@evil/", "x")
	f.Fuzz(func(t *testing.T, raw, secret string) {
		got := URL(raw)
		require.Equal(t, got, URL(got), "not idempotent for %q", raw)
		if len(secret) < 6 || strings.ContainsAny(secret, "@/?#&=\\%") {
			return
		}
		planted := "https://user:" + secret + "@h.example/p?k=" + secret + "#f=" + secret
		if out := URL(planted); strings.Contains(out, secret) {
			t.Fatalf("secret %q survived in %q", secret, out)
		}
		if PathSecret(secret) {
			inPath := "https://h.example/mcp/" + secret + "/sse"
			if out := URL(inPath); strings.Contains(out, secret) {
				t.Fatalf("path secret %q survived in %q", secret, out)
			}
		}
	})
}

func TestConfigs(t *testing.T) {
	got, err := Configs(map[string]any{
		"get_token": map[string]any{"url": "https://u:p@h.example/mcp", "headers": map[string]any{"Authorization": "Bearer x"}, "_original_tool_name": "get_token"},
		"odd":       "not an object",
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"get_token": map[string]any{"url": "https://[redacted]@h.example/mcp", "headers": map[string]any{"Authorization": "[redacted]"}, "_original_tool_name": "get_token"},
		"odd":       "[redacted]",
	}, got, "an alias is kept whatever it says; what it holds is redacted")
	got, err = Configs(nil)
	assert.NoError(t, err)
	assert.Nil(t, got)
}
