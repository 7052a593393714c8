package jsfunc

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

// jsNumberValue's binary, octal and hexadecimal literals against math/big,
// which the core build no longer links: the value is the integer rounded to
// the nearest float64, ties to even.

// bigRadixValue is what jsNumberValue computed before for a prefixed or
// legacy-octal literal.
func bigRadixValue(digits string, base int) (float64, bool) {
	n, ok := new(big.Int).SetString(digits, base)
	if !ok {
		return 0, false
	}
	v, _ := new(big.Float).SetInt(n).Float64()
	return v, !math.IsInf(v, 0)
}

var radixSeeds = []string{
	"0x0", "0x1F", "0XfF", "0b101", "0o17", "017", "0b2", "0o8", "0xg", "0x", "0x_", "0b", "0x1_0",
	"0x20000000000001", "0x20000000000003", "0x1fffffffffffff", "0x3fffffffffffff", "0x20000000000001" + "0",
	"0b" + strings.Repeat("1", 54), "0b1" + strings.Repeat("0", 52) + "1", "0b1" + strings.Repeat("0", 52) + "11",
	"0o" + strings.Repeat("7", 40), "0x" + strings.Repeat("f", 256), "0x" + strings.Repeat("f", 255), "0x1" + strings.Repeat("0", 255),
	"0x" + strings.Repeat("F", 300), "0xfffffffffffff800" + strings.Repeat("0", 240), "0x00000001", "0x1n", "0777", "0778",
}

// legacyCase splits a literal as jsNumberValue does; ok is false for
// decimal literals.
func radixCase(text string) (digits string, base int, ok bool) {
	s := strings.ReplaceAll(text, "_", "")
	if s == "" || strings.HasSuffix(s, "n") {
		return "", 0, false
	}
	if len(s) > 2 && s[0] == '0' {
		switch s[1] | 0x20 {
		case 'x':
			return s[2:], 16, true
		case 'o':
			return s[2:], 8, true
		case 'b':
			return s[2:], 2, true
		}
	}
	if len(s) > 1 && s[0] == '0' && strings.Trim(s, "01234567") == "" {
		return s, 8, true
	}
	return "", 0, false
}

func checkRadix(t *testing.T, text string) {
	digits, base, ok := radixCase(text)
	if !ok || strings.ContainsAny(digits, "+-") { // the lexer never puts a sign there
		return
	}
	want, wantOK := bigRadixValue(digits, base)
	got, gotOK := jsNumberValue(text)
	if got != want || gotOK != wantOK {
		t.Errorf("jsNumberValue(%s) = %v, %v; want %v, %v", text, got, gotOK, want, wantOK)
	}
}

func TestRadixLiterals(t *testing.T) {
	for _, s := range radixSeeds {
		checkRadix(t, s)
	}
}

func FuzzRadixLiterals(f *testing.F) {
	for _, s := range radixSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			t.Skip()
		}
		checkRadix(t, text)
	})
}
