package core

import (
	"math/big"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The fast path's exact decimals against math/big, which the core build no
// longer links: multipleOf against big.Rat's quotient, the sign test against
// big.Rat's.

// bigMultipleOf is what the fast path computed before: v / m is an integer.
func bigMultipleOf(v, m string) bool {
	V, _ := new(big.Rat).SetString(v)
	M, _ := new(big.Rat).SetString(m)
	return new(big.Rat).Quo(V, M).IsInt()
}

// decimalCase reports whether v and m are JSON numbers within the exponent
// bound every checked number is within, m positive.
func decimalCase(v, m string) bool {
	dv, ok1 := jsontext.ParseDecimal(v, false)
	dm, ok2 := jsontext.ParseDecimal(m, false)
	return ok1 && ok2 && dv.ExponentWithin(MaxNumberExponent) && dm.ExponentWithin(MaxNumberExponent) &&
		len(v) < 400 && len(m) < 400 && parseDecimal([]byte(m)).signum() > 0
}

var remainderSeeds = [][2]string{
	{"0", "1"}, {"10", "0.1"}, {"1e308", "3"}, {"123456789012345678901234567890", "1234567890"},
	{"123456789012345678901234567890", "12345678901234567890"},
	{"1219326311370217952237463801111263526900", "12345678901234567890"},
	{"-1219326311370217952237463801111263526900e-3", "12345678901234567890e-3"},
	{"99999999999999999999999999999999999999", "99999999999999999999"},
	{"1e400", "1e-400"}, {"1e-400", "1e-401"}, {"7.5", "2.5"}, {"7.5", "2.50000000000000000000001"},
	{"0.30000000000000000000000000000000000003", "0.1"}, {"4503599627370497", "4503599627370496"},
	{"1000000000000000000000000000000000000000000", "1000000000000000000000"},
	{"999999999999999999999999999999999999999999", "333333333333333333333"},
}

func TestMultipleOfExact(t *testing.T) {
	for _, c := range remainderSeeds {
		got := multipleOf(parseDecimal([]byte(c[0])), parseDecimal([]byte(c[1])))
		if want := bigMultipleOf(c[0], c[1]); got != want {
			t.Errorf("multipleOf(%s, %s) = %v, want %v", c[0], c[1], got, want)
		}
	}
}

func FuzzMultipleOfExact(f *testing.F) {
	for _, c := range remainderSeeds {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, v, m string) {
		if !decimalCase(v, m) {
			t.Skip()
		}
		got := multipleOf(parseDecimal([]byte(v)), parseDecimal([]byte(m)))
		if want := bigMultipleOf(v, m); got != want {
			t.Fatalf("multipleOf(%s, %s) = %v, want %v", v, m, got, want)
		}
		// and a product of the two is always a multiple
		if p := new(big.Rat).Mul(ratOf(v), ratOf(m)); p.IsInt() && p.Sign() != 0 {
			prod := p.Num().String()
			if !multipleOf(parseDecimal([]byte(prod)), parseDecimal([]byte(m))) && bigMultipleOf(prod, m) {
				t.Fatalf("multipleOf(%s, %s) = false, want true", prod, m)
			}
		}
	})
}

func ratOf(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }

var boundSeeds = []string{
	"0", "-0", "-0.0", "0e5", "-1e-400", "1e-400", "1e400", "-1e400", "1.7976931348623157e308",
	"1.7976931348623158e308", "1.7976931348623159e308", "4.9e-324", "2.4703282292062327e-324",
	"2.4703282292062328e-324", "0.1", "1e21", "1e20", "123456789", "1e-7", "0.000001", "100000", "1e6",
	"9007199254740993", "2.5", "-3.75e-5", strings.Repeat("9", 350), "0." + strings.Repeat("0", 300) + "1",
}

func TestDecimalSign(t *testing.T) {
	for _, lit := range boundSeeds {
		d := parseDecimal([]byte(lit))
		if got, want := d.signum(), ratOf(lit).Sign(); got != want {
			t.Errorf("signum(%s) = %d, want %d", lit, got, want)
		}
	}
}

func FuzzDecimalSign(f *testing.F) {
	for _, lit := range boundSeeds {
		f.Add(lit)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		if !decimalCase(lit, "1") {
			t.Skip()
		}
		if got, want := parseDecimal([]byte(lit)).signum(), ratOf(lit).Sign(); got != want {
			t.Fatalf("signum(%s) = %d, want %d", lit, got, want)
		}
	})
}
