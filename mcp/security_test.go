package mcp

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

func TestParseSecurity(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want *Security
	}{
		{name: "null is no policy", raw: `null`, want: nil},
		{name: "empty input is no policy", raw: ``, want: nil},
		{name: "whitespace and null", raw: " \n null \t", want: nil},
		{
			name: "empty object gets defaults and allows nothing",
			raw:  `{}`,
			want: &Security{MaxConnectionsPerServer: 5, TimeoutMs: 60000, MaxMessageBytes: 4 << 20},
		},
		{
			name: "every key",
			raw: `{"allowUrls": true, "urlAllowlist": ["API.Example.com", "api.example.com:8443", "10.0.0.7", "[::1]:3000"],
				"allowCommands": true, "commandAllowlist": ["Node"], "maxConnectionsPerServer": 2,
				"allowLoopbackHttp": true, "timeoutMs": 1500, "maxMessageBytes": 1024}`,
			want: &Security{
				AllowURLs:               true,
				URLAllowlist:            []string{"api.example.com", "api.example.com:8443", "10.0.0.7", "[::1]:3000"},
				AllowCommands:           true,
				CommandAllowlist:        []string{"Node"},
				MaxConnectionsPerServer: 2,
				AllowLoopbackHTTP:       true,
				TimeoutMs:               1500,
				MaxMessageBytes:         1024,
			},
		},
		{
			name: "empty allowlist stays empty, not nil",
			raw:  `{"allowUrls": true, "urlAllowlist": []}`,
			want: &Security{AllowURLs: true, URLAllowlist: []string{}, MaxConnectionsPerServer: 5, TimeoutMs: 60000, MaxMessageBytes: 4 << 20},
		},
		{
			name: "null values count as omitted",
			raw:  `{"allowUrls": null, "urlAllowlist": null, "timeoutMs": null}`,
			want: &Security{MaxConnectionsPerServer: 5, TimeoutMs: 60000, MaxMessageBytes: 4 << 20},
		},
		{
			name: "exponent integers and the bounds",
			raw:  `{"timeoutMs": 5e3, "maxConnectionsPerServer": 1024, "maxMessageBytes": 1073741824}`,
			want: &Security{MaxConnectionsPerServer: 1024, TimeoutMs: 5000, MaxMessageBytes: 1 << 30},
		},
		{
			name: "allowLoopbackHttp without allowUrls is accepted",
			raw:  `{"allowLoopbackHttp": true}`,
			want: &Security{AllowLoopbackHTTP: true, MaxConnectionsPerServer: 5, TimeoutMs: 60000, MaxMessageBytes: 4 << 20},
		},
		{
			name: "local names and IPv6 entries",
			raw:  `{"urlAllowlist": ["localhost", "printer.local", "::1", "fd00::1", "[2001:db8::1]"]}`,
			want: &Security{URLAllowlist: []string{"localhost", "printer.local", "::1", "fd00::1", "[2001:db8::1]"},
				MaxConnectionsPerServer: 5, TimeoutMs: 60000, MaxMessageBytes: 4 << 20},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSecurity([]byte(tc.raw))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "got %+v, want %+v", got, tc.want)
		})
	}
}

func TestParseSecurityRefuses(t *testing.T) {
	tests := []struct {
		name      string
		raw       string
		inMessage string
	}{
		{"unknown key", `{"allowUrls": true, "allowHosts": []}`, `unknown key "allowHosts"`},
		{"key in another case", `{"AllowUrls": true}`, `unknown key "AllowUrls"`},
		{"snake_case key", `{"allow_urls": true}`, `unknown key "allow_urls"`},
		{"key with a NUL", `{"allowUrls\u0000": true}`, `unknown key "allowUrls\x00"`},
		{"Kelvin sign key", `{"ma\u212aMessageBytes": 1}`, `unknown key "ma\u212aMessageBytes"`},
		{"duplicate key", `{"allowUrls": false, "allowUrls": true}`, "security.allowUrls: the key appears more than once"},
		{"string for a boolean", `{"allowUrls": "true"}`, "security.allowUrls: got string, want boolean"},
		{"number for a boolean", `{"allowLoopbackHttp": 1}`, "security.allowLoopbackHttp: got number, want boolean"},
		{"object for a boolean", `{"allowCommands": {}}`, "security.allowCommands: got object, want boolean"},
		{"string for a list", `{"urlAllowlist": "api.example.com"}`, "security.urlAllowlist: got string, want an array of strings"},
		{"object for a list", `{"commandAllowlist": {"node": true}}`, "security.commandAllowlist: got object, want an array of strings"},
		{"number in a list", `{"urlAllowlist": ["a.example", 5]}`, "security.urlAllowlist[1]: got number, want string"},
		{"null in a list", `{"commandAllowlist": [null]}`, "security.commandAllowlist[0]: got null, want string"},
		{"string for a cap", `{"timeoutMs": "100"}`, "security.timeoutMs: got string, want an integer from 1 to 2147483647"},
		{"zero cap", `{"maxConnectionsPerServer": 0}`, "security.maxConnectionsPerServer: got 0, want an integer from 1 to 1024"},
		{"negative cap", `{"timeoutMs": -1}`, "security.timeoutMs: got -1, want"},
		{"fractional cap", `{"maxMessageBytes": 1.5}`, "security.maxMessageBytes: got 1.5, want"},
		{"cap above its bound", `{"timeoutMs": 2147483648}`, "security.timeoutMs: got 2147483648, want"},
		{"cap out of float range", `{"timeoutMs": 1e400}`, "security.timeoutMs: got 1e400, want"},
		{"URL as entry", `{"urlAllowlist": ["https://api.example.com"]}`, `security.urlAllowlist[0]: "https://api.example.com" is not a host, host:port or IP literal`},
		{"wildcard entry", `{"urlAllowlist": ["*.example.com"]}`, `"*.example.com" is not a host`},
		{"trailing dot entry", `{"urlAllowlist": ["api.example.com."]}`, "ends with a dot"},
		{"underscore entry", `{"urlAllowlist": ["a_b.example"]}`, "is not a host"},
		{"numeric entry", `{"urlAllowlist": ["2130706433"]}`, "ends in a number"},
		{"empty entry", `{"urlAllowlist": [""]}`, `"" is not a host`},
		{"entry with a space", `{"urlAllowlist": ["api.example.com "]}`, "byte 15 is 0x20"},
		{"Kelvin sign entry", `{"urlAllowlist": ["\u212aey.example"]}`, "byte 0 is 0xe2"},
		{"entry with port 0", `{"urlAllowlist": ["api.example.com:0"]}`, "not a number from 1 to 65535"},
		{"entry with empty port", `{"urlAllowlist": ["api.example.com:"]}`, "the port is empty"},
		{"entry with leading-zero port", `{"urlAllowlist": ["api.example.com:0443"]}`, "leading zero"},
		{"entry with signed port", `{"urlAllowlist": ["api.example.com:+443"]}`, "not a number"},
		{"bracketed IPv4 entry", `{"urlAllowlist": ["[1.2.3.4]"]}`, "brackets must hold an IPv6 address"},
		{"unclosed bracket entry", `{"urlAllowlist": ["[::1"]}`, `"[" without "]"`},
		{"junk after bracket entry", `{"urlAllowlist": ["[::1]x"]}`, `only ":port" may follow "]"`},
		{"zoned IPv6 entry", `{"urlAllowlist": ["fe80::1%eth0"]}`, "zone is not allowed"},
		{"zoned bracketed entry", `{"urlAllowlist": ["[fe80::1%eth0]"]}`, "without a zone"},
		{"bad IPv6 entry", `{"urlAllowlist": ["1:2:3"]}`, "not an IPv6 address"},
		{"array", `[]`, "security must be an object, got array"},
		{"string", `"allowUrls"`, "security must be an object, got string"},
		{"boolean", `true`, "security must be an object, got boolean"},
		{"number", `1`, "security must be an object, got number"},
		{"invalid JSON", `{"allowUrls": tru}`, "security is not valid JSON"},
		{"unterminated", `{"allowUrls": true`, "security is not valid JSON"},
		{"bad key token", `{1: true}`, "security is not valid JSON"},
		{"trailing data", `{"allowUrls": true} {}`, "unexpected data after the object"},
		{"not JSON at all", `allowUrls`, "security is not valid JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSecurity([]byte(tc.raw))
			assert.Nil(t, got, "got %+v, want no policy", got)
			var ce *core.Error
			require.True(t, errors.As(err, &ce), "got %v, want a *core.Error", err)
			assert.Equal(t, core.CodeUnsupportedType, ce.Code, "got code %q, want unsupported-type", ce.Code)
			assert.ErrorIs(t, err, core.ErrUnsupportedType)
			assert.Contains(t, ce.Message, tc.inMessage, "got message %q, want it to contain %q", ce.Message, tc.inMessage)
		})
	}
}

func TestSecurityUnmarshalJSON(t *testing.T) {
	var holder struct {
		Security *Security `json:"security"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"security": {"allowUrls": true}}`), &holder))
	assert.Equal(t, Trusted(), holder.Security, "got %+v, want the trusted policy", holder.Security)

	err := json.Unmarshal([]byte(`{"security": {"allowURLs": true}}`), &holder)
	assert.ErrorIs(t, err, core.ErrUnsupportedType, "got %v, want unsupported-type for a case-folded key", err)

	s := Security{AllowURLs: true}
	require.NoError(t, s.UnmarshalJSON([]byte("null")))
	assert.True(t, s.AllowURLs, "got %+v, want null to leave the value unchanged", s)

	round, err := json.Marshal(Trusted())
	require.NoError(t, err)
	back, err := ParseSecurity(round)
	require.NoError(t, err)
	assert.Equal(t, Trusted(), back, "got %+v after a JSON round trip, want the same policy", back)
}

func TestTrusted(t *testing.T) {
	want := &Security{AllowURLs: true, MaxConnectionsPerServer: 5, TimeoutMs: 60000, MaxMessageBytes: 4 << 20}
	got := Trusted()
	assert.Equal(t, want, got, "got %+v, want %+v", got, want)
	got.AllowURLs = false
	assert.True(t, Trusted().AllowURLs, "got a shared value, want a fresh policy per call")
}

func TestSecurityValidate(t *testing.T) {
	tests := []struct {
		name      string
		sec       *Security
		inMessage string
	}{
		{"nil is valid", nil, ""},
		{"zero caps are defaults", &Security{AllowURLs: true}, ""},
		{"negative cap", &Security{TimeoutMs: -5}, "security.timeoutMs: got -5"},
		{"cap above bound", &Security{MaxConnectionsPerServer: 5000}, "security.maxConnectionsPerServer: got 5000"},
		{"bad entry", &Security{URLAllowlist: []string{"ok.example", "not a host"}}, "security.urlAllowlist[1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.sec.Validate()
			if tc.inMessage == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, core.ErrUnsupportedType)
			assert.ErrorContains(t, err, tc.inMessage)
		})
	}
}

func TestWithDefaultsCopies(t *testing.T) {
	list := []string{"API.example.com"}
	cmds := []string{"node"}
	s := &Security{AllowURLs: true, URLAllowlist: list, CommandAllowlist: cmds, TimeoutMs: -3}
	c := s.withDefaults()
	list[0] = "evil.example"
	cmds[0] = "sh"
	assert.Equal(t, []string{"api.example.com"}, c.URLAllowlist, "got %v, want a lower-cased copy", c.URLAllowlist)
	assert.Equal(t, []string{"node"}, c.CommandAllowlist, "got %v, want a copy", c.CommandAllowlist)
	assert.Equal(t, DefaultTimeoutMs, c.TimeoutMs, "got %d, want the default for a negative value", c.TimeoutMs)
	assert.Nil(t, (*Security)(nil).withDefaults(), "got a policy from nil, want nil")
}

func TestFingerprint(t *testing.T) {
	base := Trusted().Fingerprint()
	assert.Len(t, base, 64, "got %q, want 64 hex digits", base)

	same := []struct {
		name string
		a, b *Security
	}{
		{"defaults implicit or explicit", &Security{AllowURLs: true}, Trusted()},
		{"allowlist order and case", &Security{URLAllowlist: []string{"B.example", "a.example"}}, &Security{URLAllowlist: []string{"a.example", "b.example"}}},
		{"duplicate entries", &Security{URLAllowlist: []string{"a.example", "a.example"}}, &Security{URLAllowlist: []string{"a.example"}}},
		{"port 443 is the default", &Security{URLAllowlist: []string{"a.example:443"}}, &Security{URLAllowlist: []string{"a.example"}}},
		{"IPv6 spelling", &Security{URLAllowlist: []string{"[2001:DB8:0::1]"}}, &Security{URLAllowlist: []string{"2001:db8::1"}}},
		{"command order", &Security{CommandAllowlist: []string{"uv", "node"}}, &Security{CommandAllowlist: []string{"node", "uv"}}},
	}
	for _, tc := range same {
		t.Run("same: "+tc.name, func(t *testing.T) {
			assert.Equal(t, tc.a.Fingerprint(), tc.b.Fingerprint(), "got different fingerprints, want equal")
		})
	}

	different := []struct {
		name string
		a, b *Security
	}{
		{"nil and the zero policy", nil, &Security{}},
		{"no allowlist and an empty one", &Security{AllowURLs: true}, &Security{AllowURLs: true, URLAllowlist: []string{}}},
		{"allowUrls", &Security{}, &Security{AllowURLs: true}},
		{"allowlist entry", &Security{URLAllowlist: []string{"a.example"}}, &Security{URLAllowlist: []string{"b.example"}}},
		{"allowlist port", &Security{URLAllowlist: []string{"a.example"}}, &Security{URLAllowlist: []string{"a.example:8443"}}},
		{"allowCommands", &Security{}, &Security{AllowCommands: true}},
		{"command case", &Security{CommandAllowlist: []string{"node"}}, &Security{CommandAllowlist: []string{"Node"}}},
		{"connections", &Security{}, &Security{MaxConnectionsPerServer: 6}},
		{"loopback", &Security{}, &Security{AllowLoopbackHTTP: true}},
		{"timeout", &Security{}, &Security{TimeoutMs: 1}},
		{"message cap", &Security{}, &Security{MaxMessageBytes: 1}},
		{"unusable entries stay distinct", &Security{URLAllowlist: []string{"*.a.example"}}, &Security{URLAllowlist: []string{"*.b.example"}}},
	}
	for _, tc := range different {
		t.Run("different: "+tc.name, func(t *testing.T) {
			assert.NotEqual(t, tc.a.Fingerprint(), tc.b.Fingerprint(), "got equal fingerprints, want different")
		})
	}
}

// TestFingerprintStable pins the encoding: a change to it changes every pool
// key, which must be deliberate (bump fingerprintVersion).
func TestFingerprintStable(t *testing.T) {
	assert.Equal(t, "43c623e09fd0a5ae9eb5a6f15f5bc6df508c39cc724b015fb8b5d3f38b89d06f", Trusted().Fingerprint())
	assert.Equal(t, "11df4b3b681692fdab409a4cd28f18031ba7ec5b4bea590c9bf32d44d8f59ea7",
		(&Security{AllowURLs: true, URLAllowlist: []string{"B.example:443", "a.example"}, CommandAllowlist: []string{"uv", "node"}}).Fingerprint())
}

// TestFingerprintCoversEveryField changes each field of Security in turn,
// found by reflection, so a field added later cannot drop out of the pool
// key unnoticed.
func TestFingerprintCoversEveryField(t *testing.T) {
	base := Trusted()
	typ := reflect.TypeOf(*base)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			changed := *base
			v := reflect.ValueOf(&changed).Elem().Field(i)
			switch v.Kind() {
			case reflect.Bool:
				v.SetBool(!v.Bool())
			case reflect.Int:
				v.SetInt(v.Int() + 1)
			case reflect.Slice:
				v.Set(reflect.ValueOf([]string{"x.example"}))
			default:
				t.Fatalf("field %s has kind %s: teach this test to change it", f.Name, v.Kind())
			}
			assert.NotEqual(t, base.Fingerprint(), changed.Fingerprint(), "changing %s does not change the fingerprint", f.Name)
		})
	}
}
