package jsontext

import (
	"encoding/json"
	"testing"
)

func TestUnquotedLenMatchesDecoding(t *testing.T) {
	for _, lit := range []string{
		`""`, `"abc"`, `"a\"b\\c\/d"`, `"\n\t\r\b\f"`, `"\u0041\u00e9\u20ac"`, `"\ud83d\ude00"`,
		`"\ud800"`, `"\udc00x"`, `"\ud800\u0041"`, `"héllo €"`, `"😀"`, `"{\"a\":1}"`,
	} {
		var s string
		if err := json.Unmarshal([]byte(lit), &s); err != nil {
			t.Fatalf("%s: %v", lit, err)
		}
		if got, want := UnquotedLen([]byte(lit)), len(s); got != want {
			t.Errorf("UnquotedLen(%s) = %d, want %d", lit, got, want)
		}
		if got, want := UnquotedLen([]byte(lit)), len(AppendUnquoted(nil, []byte(lit))); got != want {
			t.Errorf("UnquotedLen(%s) = %d, want AppendUnquoted's %d", lit, got, want)
		}
	}
}

func TestUnquotedLenNeverPanics(t *testing.T) {
	for _, lit := range []string{``, `"`, `"\`, `"\u12"`, `"\uzzzz"`, `"\ud800\u"`, `"abc`} {
		_ = UnquotedLen([]byte(lit))
	}
}
