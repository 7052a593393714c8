package jsontext

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseDecimal(t *testing.T) {
	tests := []struct {
		s            string
		strict, lax  bool
		canonical    string // of the lax reading, when it is one
		integer      string // "" when not an integer (maxDigits 50)
		withinFiveOK bool   // the net exponent is within ±5
	}{
		{"0", true, true, "0", "0", true},
		{"-0", true, true, "-0", "0", true},
		{"12", true, true, "12", "12", true},
		{"1.50", true, true, "1.50", "", true},
		{"5.0", true, true, "5.0", "5", true},
		{"1e3", true, true, "1e3", "1000", true},
		{"1.5E+2", true, true, "1.5e+2", "150", true},
		{"25e-1", true, true, "25e-1", "", true},
		{"1e6", true, true, "1e6", "1000000", false},
		{"1e-6", true, true, "1e-6", "", false},
		{"123.456e-3", true, true, "123.456e-3", "", false},
		{"1.000000e-6", true, true, "1.000000e-6", "", false},
		{"+5", false, true, "5", "5", true},
		{"05", false, true, "5", "5", true},
		{"5.", false, true, "5", "5", true},
		{".5", false, true, "0.5", "", true},
		{"-.5e1", false, true, "-0.5e1", "-5", true},
		{"", false, false, "", "", false},
		{"-", false, false, "", "", false},
		{".", false, false, "", "", false},
		{"1e", false, false, "", "", false},
		{"1e+", false, false, "", "", false},
		{"1.2.3", false, false, "", "", false},
		{"0x10", false, false, "", "", false},
		{" 1", false, false, "", "", false},
		{"1_000", false, false, "", "", false},
		{"inf", false, false, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.s, func(t *testing.T) {
			_, strict := ParseDecimal(tc.s, false)
			assert.Equal(t, tc.strict, strict, "strict")
			assert.Equal(t, tc.strict, ValidNumber(tc.s), "ValidNumber")
			d, lax := ParseDecimal(tc.s, true)
			assert.Equal(t, tc.lax, lax, "lax")
			if !lax {
				return
			}
			assert.Equal(t, tc.canonical, d.Canonical())
			assert.True(t, ValidNumber(d.Canonical()), "Canonical is JSON")
			n, ok := d.Integer(50)
			assert.Equal(t, tc.integer != "", ok, "Integer ok")
			assert.Equal(t, tc.integer, n, "Integer")
			assert.Equal(t, tc.withinFiveOK, d.ExponentWithin(5), "ExponentWithin(5)")
		})
	}
}

func TestDecimalLimits(t *testing.T) {
	d, _ := ParseDecimal("1e99999999999999999999999999", false)
	assert.False(t, d.ExponentWithin(1000), "a huge exponent is out of range, not an overflow")
	d, _ = ParseDecimal("1e-99999999999999999999999999", false)
	assert.False(t, d.ExponentWithin(1000))
	_, ok := d.Integer(4300)
	assert.False(t, ok)
	d, _ = ParseDecimal("1e60", false)
	_, ok = d.Integer(50)
	assert.False(t, ok, "more digits than the limit")
	d, _ = ParseDecimal("12345678901234567890123.0", false)
	n, ok := d.Integer(50)
	assert.True(t, ok)
	assert.Equal(t, "12345678901234567890123", n, "exact, never rounded")
	assert.True(t, IsIntegerText("-12"))
	assert.False(t, IsIntegerText("1e2"))
	assert.False(t, IsIntegerText("1.0"))
}

// FuzzValidNumber checks ValidNumber against encoding/json: a text is a JSON
// number literal exactly when json.Valid accepts it and it does not start
// like another kind of value.
func FuzzValidNumber(f *testing.F) {
	for _, s := range []string{"0", "-0.0e+00", "01", "1.", ".1", "1e", "+1", "1E-7", "-", "12345678901234567890"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := json.Valid([]byte(s)) && Kind([]byte(s)) == Number && !OnlySpace([]byte(s[:1])) && !IsSpace(s[len(s)-1])
		if got := ValidNumber(s); got != want {
			t.Fatalf("ValidNumber(%q) = %v, want %v", s, got, want)
		}
	})
}
