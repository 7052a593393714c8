package oauth

import (
	"strings"
	"testing"
)

func TestParseChallenge(t *testing.T) {
	const prm = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	tests := []struct {
		name   string
		values []string
		want   Challenge
	}{
		{"none", nil, Challenge{}},
		{"empty value", []string{""}, Challenge{}},
		{"bare scheme", []string{"Bearer"}, Challenge{Scheme: "Bearer"}},
		{"quoted params (RFC 9728 §5.1)",
			[]string{`Bearer resource_metadata="` + prm + `", scope="files:read files:write"`},
			Challenge{Scheme: "Bearer", ResourceMetadata: prm, Scope: "files:read files:write"}},
		{"unquoted params",
			[]string{`Bearer error=invalid_token, scope=files:read, resource_metadata=` + prm},
			Challenge{Scheme: "Bearer", Error: "invalid_token", Scope: "files:read", ResourceMetadata: prm}},
		{"the TS SDK's 401",
			[]string{`Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="` + prm + `"`},
			Challenge{Scheme: "Bearer", Error: "invalid_token", ErrorDescription: "Missing Authorization header", ResourceMetadata: prm}},
		{"a 403 step-up",
			[]string{`Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="` + prm + `", error_description="Scope upgrade will never succeed"`},
			Challenge{Scheme: "Bearer", Error: "insufficient_scope", Scope: "mcp:basic mcp:write", ResourceMetadata: prm, ErrorDescription: "Scope upgrade will never succeed"}},
		{"escaped quotes and backslashes",
			[]string{`Bearer error_description="say \"hi\" \\ o\k"`},
			Challenge{Scheme: "Bearer", ErrorDescription: `say "hi" \ ok`}},
		{"comma and equals inside quotes",
			[]string{`Bearer error_description="a, b=c", scope="x"`},
			Challenge{Scheme: "Bearer", ErrorDescription: "a, b=c", Scope: "x"}},
		{"scheme and names without regard to case",
			[]string{`bEaReR SCOPE="s", Error="e", Resource_Metadata="` + prm + `"`},
			Challenge{Scheme: "bEaReR", Scope: "s", Error: "e", ResourceMetadata: prm}},
		{"spaces around =", []string{`Bearer scope = "s" ,error= e`}, Challenge{Scheme: "Bearer", Scope: "s", Error: "e"}},
		{"another challenge first", []string{`Basic realm="x", Bearer scope="s"`}, Challenge{Scheme: "Bearer", Scope: "s"}},
		{"another challenge after", []string{`Bearer scope="s", Basic realm="x", charset="UTF-8"`}, Challenge{Scheme: "Bearer", Scope: "s"}},
		{"another challenge without params", []string{`Bearer, Basic`}, Challenge{Scheme: "Bearer"}},
		{"params of the other challenge are not Bearer's",
			[]string{`Basic scope="wrong", Bearer error="e"`}, Challenge{Scheme: "Bearer", Error: "e"}},
		{"a token68 challenge first", []string{`Negotiate YWJj==, Bearer scope="s"`}, Challenge{Scheme: "Bearer", Scope: "s"}},
		{"a token68 that reads Bearer is not a scheme", []string{`Negotiate Bearer`}, Challenge{}},
		{"several values", []string{`Basic realm="x"`, `Bearer scope="s"`}, Challenge{Scheme: "Bearer", Scope: "s"}},
		{"the first Bearer challenge wins", []string{`Bearer scope="one"`, `Bearer scope="two"`}, Challenge{Scheme: "Bearer", Scope: "one"}},
		{"the first of a repeated param wins", []string{`Bearer scope="one", scope="two"`}, Challenge{Scheme: "Bearer", Scope: "one"}},
		{"empty list elements", []string{` , ,Bearer , scope=s,, ,error="e",`}, Challenge{Scheme: "Bearer", Scope: "s", Error: "e"}},
		{"an empty quoted value", []string{`Bearer scope=""`}, Challenge{Scheme: "Bearer"}},
		{"non-ASCII kept", []string{`Bearer error_description="café"`}, Challenge{Scheme: "Bearer", ErrorDescription: "café"}},
		// Malformed values are skipped whole.
		{"unterminated quote", []string{`Bearer scope="s`}, Challenge{}},
		{"malformed value, then a good one", []string{`Bearer scope="s`, `Bearer scope="t"`}, Challenge{Scheme: "Bearer", Scope: "t"}},
		{"missing comma between params", []string{`Bearer scope="s" error="e"`}, Challenge{}},
		{"param without value", []string{`Bearer scope=, error=e`}, Challenge{}},
		{"param without name", []string{`Bearer ="x"`}, Challenge{}},
		{"no space after scheme", []string{`Bearer"x"`}, Challenge{}},
		{"a control byte", []string{"Bearer scope=\"s\x00\""}, Challenge{}},
		{"a newline (header injection)", []string{"Bearer scope=\"s\"\r\nX-Evil: 1"}, Challenge{}},
		{"quote only", []string{`"`}, Challenge{}},
		{"equals only", []string{`=`}, Challenge{}},
		{"over 16 KiB", []string{`Bearer scope="` + strings.Repeat("a", 17<<10) + `"`}, Challenge{}},
		{"trailing backslash in quotes", []string{`Bearer scope="s\`}, Challenge{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseChallenge(tt.values); got != tt.want {
				t.Errorf("ParseChallenge(%q)\n  = %+v\n want %+v", tt.values, got, tt.want)
			}
		})
	}
}

// FuzzParseChallenge: no input panics, a value without "bearer" gives
// the zero Challenge, and no field holds a control byte.
func FuzzParseChallenge(f *testing.F) {
	for _, s := range []string{
		`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`,
		`Basic realm="x", Bearer error="insufficient_scope", scope="a"`,
		`Negotiate YWJj==, Bearer scope=s`,
		`Bearer error_description="\"q\" \\", , ,`,
		`Bearer scope="unterminated`,
		`bearer SCOPE = s ,Error= e`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		ch := ParseChallenge([]string{v})
		if !strings.Contains(strings.ToLower(v), "bearer") && ch != (Challenge{}) {
			t.Fatalf("%q gave %+v without a Bearer challenge", v, ch)
		}
		for _, s := range []string{ch.Scheme, ch.ResourceMetadata, ch.Scope, ch.Error, ch.ErrorDescription} {
			if hasControl(s) {
				t.Fatalf("%q gave a field with a control byte: %q", v, s)
			}
		}
	})
}
