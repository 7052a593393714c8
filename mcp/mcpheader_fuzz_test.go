package mcp

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
)

// FuzzParamHeaders feeds what a server controls (a tool's inputSchema) and
// what a model controls (a call's arguments) to the header code: nothing
// panics, a refusal carries a known rule, every annotation is a unique
// token on a primitive property, and every header is one HTTP can carry
// and decodes back to what was encoded.
func FuzzParamHeaders(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"},"b":{"type":["boolean","null"],"x-mcp-header":"B"}}}`,
			`{"region":"us-west1","n":42.0,"b":null}`},
		{`{"properties":{"a":{"type":"object","properties":{"b":{"type":"string","x-mcp-header":"AB"}}}}}`, `{"a":{"b":" padded "}}`},
		{`{"properties":{"v":{"type":"string","x-mcp-header":"Region\t1"}}}`, `{"v":"x"}`},
		{`{"properties":{"a":{"type":"string","x-mcp-header":"R"},"b":{"type":"string","x-mcp-header":"r"}}}`, `{}`},
		{`{"anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}],"$defs":{"d":{"x-mcp-header":1}}}`, `[]`},
		{`{"properties":{"p":{"type":"integer","x-mcp-header":"P"}}}`, `{"p":9007199254740992}`},
		{`{"properties":{"p":{"type":"string","x-mcp-header":"P"}}}`, `{"p":"=?base64?literal?="}`},
		{`{"properties":{"p":{"type":"string","x-mcp-header":"P"}}}`, "{\"p\":\"Hello, \u4e16\u754c\\r\\n\"}"},
		{strings.Repeat(`{"properties":{"a":`, 80) + `{"type":"string","x-mcp-header":"A"}` + strings.Repeat(`}}`, 80), `{}`},
		{`not json`, "\xff\x00"},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		hs, err := parseParamHeaders(schema)
		if err != nil {
			if !slices.Contains(headerRules, err.Rule) || err.Message == "" || hs != nil {
				t.Fatalf("got %+v with %d annotations, want a known rule, a message and none", err, len(hs))
			}
		}
		checkParamHeaders(t, hs)
		for _, h := range paramHeaderValues(hs, args) {
			name, ok := strings.CutPrefix(h[0], paramHeaderPrefix)
			if !ok || !isHeaderToken(name) {
				t.Fatalf("got the header name %q, want Mcp-Param- and a token", h[0])
			}
			checkHeaderValue(t, h[1])
		}
		if in := string(args); checkHeaderValue(t, encodeHeaderValue(in)) != in {
			t.Fatalf("got %q for %q, want it to decode back", encodeHeaderValue(in), in)
		}
	})
}

// checkParamHeaders fails unless every annotation is a token unique ignoring
// case, on a non-empty path, of a mirrored kind.
func checkParamHeaders(t *testing.T, hs []paramHeader) {
	seen := map[string]bool{}
	for _, h := range hs {
		lower := strings.ToLower(h.Name)
		if !isHeaderToken(h.Name) || seen[lower] || len(h.Path) == 0 ||
			!slices.Contains([]string{"string", "integer", "boolean"}, h.Kind) {
			t.Fatalf("got the annotation %+v, want a unique token on a string, integer or boolean property", h)
		}
		seen[lower] = true
	}
}

// checkHeaderValue fails unless v is a header value HTTP carries as it is
// (visible ASCII and inner spaces; no tab is ever sent) whose sentinel form
// holds valid Base64; it returns the value v stands for.
func checkHeaderValue(t *testing.T, v string) string {
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			t.Fatalf("got the header value %q, want visible ASCII and spaces only", v)
		}
	}
	if strings.HasPrefix(v, " ") || strings.HasSuffix(v, " ") {
		t.Fatalf("got the header value %q, want no space at either end", v)
	}
	inner, ok := strings.CutPrefix(v, headerBase64Prefix)
	if !ok || !strings.HasSuffix(inner, headerBase64Suffix) {
		return v
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(inner, headerBase64Suffix))
	if err != nil {
		t.Fatalf("got the header value %q, want valid Base64 inside the sentinel: %v", v, err)
	}
	return string(b)
}
