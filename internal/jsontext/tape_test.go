package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tapeSeeds are texts the tape must read as encoding/json does, or refuse.
var tapeSeeds = []string{
	`1`, `-0`, `1.5e+3`, `01`, `1.`, `-`, `1e`, `"a"`, `"\u00e9\ud800\n\/"`, `"\x"`, "\"\x01\"", "\"\xff\"",
	`true`, `tru`, `null`, `[]`, `{}`, `[1,2,[3,{"a":null}]]`, `{"a":1,"b":{"c":[true,false]}}`,
	` { "a" : 1 , "b" : [ ] } `, `{"a":1,"a":2}`, `{"\u0061":1}`, `{"b":1,"a":2}`, `[1,]`, `{"a"}`, `{"a":}`,
	`[1 2]`, `{"a":1}}`, `"é\u2028"`, "\"\u2028\"", `123456789012345678`, `-123456789012345`, `1e400`,
	`{"k":"0123456789abcdefghij","l":"x"}`, `[[[[[[[[[[1]]]]]]]]]]`,
}

// checkTape asserts what Parse makes of text: it accepts exactly the
// valid UTF-8 JSON without escaped or repeated keys, and its tokens
// describe the value encoding/json decodes.
func checkTape(t *testing.T, text []byte) {
	var tp Tape
	end, ok := tp.Parse(text, 8)
	valid := json.Valid(text) && utf8.Valid(text)
	if !ok {
		if valid && !tooDeep(text, 8) && !awkwardKeys(text) {
			t.Fatalf("Parse refused valid JSON %q", text)
		}
		return
	}
	require.True(t, json.Valid(text[:end]), "Parse accepted %q", text[:end])
	require.True(t, utf8.Valid(text[:end]), "Parse accepted invalid UTF-8 %q", text[:end])
	var want any
	d := json.NewDecoder(bytes.NewReader(text[:end]))
	d.UseNumber()
	require.NoError(t, d.Decode(&want))
	got, next := tapeValue(&tp, text, 0)
	assert.Equal(t, int32(len(tp.Tokens)), next, "tokens of %q", text)
	assert.Equal(t, want, got, "value of %q", text)
	var out []byte
	out = writeTape(&tp, text, 0, out)
	if tp.Tokens[0].Kind <= TokArray && tp.Tokens[0].Flags&FlagRewrite == 0 {
		assert.Equal(t, string(out), string(text[tp.Tokens[0].Start:tp.Tokens[0].End]), "a container without FlagRewrite is as it would be written")
	}
}

// tooDeep reports whether text nests deeper than max.
func tooDeep(text []byte, max int) bool { return Scan(text, max, false).TooDeep }

// awkwardKeys reports whether an object of text has an escaped or a
// repeated key (which Parse refuses).
func awkwardKeys(text []byte) bool {
	return bytes.Contains(text, []byte(`\`)) || hasRepeatedKey(text)
}

func hasRepeatedKey(text []byte) bool {
	d := json.NewDecoder(bytes.NewReader(text))
	var walk func() bool
	walk = func() bool {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for d.More() {
				k, _ := d.Token()
				if seen[k.(string)] || walk() {
					return true
				}
				seen[k.(string)] = true
			}
			_, _ = d.Token()
		case json.Delim('['):
			for d.More() {
				if walk() {
					return true
				}
			}
			_, _ = d.Token()
		}
		return false
	}
	return walk()
}

// tapeValue decodes the value at token k as encoding/json would.
func tapeValue(tp *Tape, b []byte, k int32) (any, int32) {
	t := tp.Tokens[k]
	switch t.Kind {
	case TokObject:
		m := map[string]any{}
		next := k + 1
		for i := int32(0); i < t.N; i++ {
			key := string(AppendUnquoted(nil, tp.Text(b, next)))
			m[key], next = tapeValue(tp, b, next+1)
		}
		return m, next
	case TokArray:
		a := []any{}
		next := k + 1
		for i := int32(0); i < t.N; i++ {
			var v any
			v, next = tapeValue(tp, b, next)
			a = append(a, v)
		}
		return a, next
	case TokString:
		return string(AppendUnquoted(nil, tp.Text(b, k))), t.Next
	case TokNumber:
		return json.Number(tp.Text(b, k)), t.Next
	case TokTrue:
		return true, t.Next
	case TokFalse:
		return false, t.Next
	}
	return nil, t.Next
}

// writeTape writes the value at token k as compact JSON with sorted keys.
func writeTape(tp *Tape, b []byte, k int32, out []byte) []byte {
	t := tp.Tokens[k]
	switch t.Kind {
	case TokObject:
		out = append(out, '{')
		for i, key := range tp.Keys(b, k) {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(AppendQuoted(out, tp.keyBytes(b, key)), ':')
			out = writeTape(tp, b, key+1, out)
		}
		return append(out, '}')
	case TokArray:
		out = append(out, '[')
		for i, e := int32(0), k+1; i < t.N; i++ {
			if i > 0 {
				out = append(out, ',')
			}
			out = writeTape(tp, b, e, out)
			e = tp.Tokens[e].Next
		}
		return append(out, ']')
	case TokString:
		return AppendQuoted(out, AppendUnquoted(nil, tp.Text(b, k)))
	case TokNumber:
		if t.Flags&FlagLong != 0 {
			return append(append(append(out, '"'), tp.Text(b, k)...), '"')
		}
	}
	return append(out, tp.Text(b, k)...)
}

func TestTape(t *testing.T) {
	for _, s := range tapeSeeds {
		t.Run(s, func(t *testing.T) { checkTape(t, []byte(s)) })
	}
	var tp Tape
	_, ok := tp.Parse([]byte(`[[[[[[[[[1]]]]]]]]]`), 8)
	assert.False(t, ok, "nine levels are refused at eight")
	_, ok = tp.Parse([]byte(`[[[[[[[[1]]]]]]]]`), 8)
	assert.True(t, ok, "eight levels are read")
	end, ok := tp.Parse([]byte(` {"a":1} x`), 8)
	assert.True(t, ok)
	assert.Equal(t, 8, end, "Parse stops after the value")
	assert.Equal(t, FlagLong|FlagInteger, tp.flagsOf(`123456789012345678`))
	assert.Equal(t, FlagInteger, tp.flagsOf(`-123456789012345`), "15 digits and a sign are not long")
	assert.Equal(t, FlagExponent, tp.flagsOf(`1e400`))
	assert.True(t, tp.Exponents)
	assert.Equal(t, FlagNonASCII|FlagLineSep, tp.flagsOf("\"\u2028\""))
}

// flagsOf parses a scalar and returns its token's flags.
func (tp *Tape) flagsOf(s string) byte {
	if _, ok := tp.Parse([]byte(s), 8); !ok {
		return 0xff
	}
	return tp.Tokens[0].Flags
}

// FuzzTape: Parse accepts what encoding/json accepts (but escaped or
// repeated keys and nesting past the bound) and reads the same value.
func FuzzTape(f *testing.F) {
	for _, s := range tapeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) { checkTape(t, text) })
}

func TestAppendQuoted(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "\x00\x01\x1f\x7f", "\b\f\n\r\t", "é\u2028\u2029x", "<&>", "\xff\xfe", strings.Repeat("ab", 40),
		"a\xe2\x80", "\xed\xa0\x80", "😀\xf0\x9f", "\u00e9\u4e16\U0001F600", "/\\\"", "\x7f\u0080\u009f"} {
		want, err := Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(AppendString(nil, s)), "AppendString writes encoding/json's literal of %q", s)
		assert.Equal(t, string(AppendString(nil, s)), string(AppendQuoted(nil, []byte(s))), "%q", s)
	}
	// random strings over bytes that need escaping, multi-byte runes and their broken halves
	pieces := []string{"a", "\"", "\\", "\n", "\x01", "\x7f", "é", "\u2028", "\u2029", "😀", "\xe2", "\x80", "\xf0\x9f", "\xff", "<", "&"}
	seed := uint64(1)
	for n := 0; n < 5000; n++ {
		var b strings.Builder
		for k := 0; k < n%13; k++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			b.WriteString(pieces[(seed>>33)%uint64(len(pieces))])
		}
		want, _ := Marshal(b.String())
		require.Equal(t, string(want), string(AppendString(nil, b.String())), "%q", b.String())
	}
}

func TestAppendUnquoted(t *testing.T) {
	for _, lit := range []string{`""`, `"a"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, `"\ud800\ud800\udc00"`, `"\"\\\/\b\f\n\r\t"`, `"é\u0000"`} {
		var want string
		require.NoError(t, json.Unmarshal([]byte(lit), &want))
		assert.Equal(t, want, string(AppendUnquoted(nil, []byte(lit))), "%s", lit)
	}
}
