package jsontext

import (
	"strconv"
	"strings"
)

// Decimal is a decimal number literal split into its parts by ParseDecimal.
// It is the one number-literal scanner of toolgate: the JSON grammar check,
// the exponent bound, Pydantic's lax string → number conversions and the
// exact float → integer conversion all read a literal through it.
type Decimal struct {
	// Neg is true for a leading "-".
	Neg bool
	// Int is the digits before the point as written (leading zeros kept;
	// "" for ".5" in lax text).
	Int string
	// Frac is the digits after the point ("" when there are none).
	Frac string
	// Exp is the exponent as written after "e" or "E", its sign included
	// ("" when there is no exponent).
	Exp string
}

// ParseDecimal splits s into a Decimal. Strict (lax false) is the JSON
// grammar, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; lax is the
// grammar of Rust's and Python's float text, [+-]?(digits[.digits?]|.digits)
// ([eE][+-]?digits)?, leading zeros allowed. The whole of s must match.
func ParseDecimal(s string, lax bool) (Decimal, bool) {
	var d Decimal
	i := 0
	if i < len(s) && (s[i] == '-' || lax && s[i] == '+') {
		d.Neg = s[i] == '-'
		i++
	}
	start := i
	i = skipDigits(s, i)
	d.Int = s[start:i]
	if !lax && (d.Int == "" || len(d.Int) > 1 && d.Int[0] == '0') {
		return d, false
	}
	if i < len(s) && s[i] == '.' {
		start = i + 1
		i = skipDigits(s, start)
		d.Frac = s[start:i]
		if !lax && d.Frac == "" {
			return d, false
		}
	}
	if d.Int == "" && d.Frac == "" {
		return d, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		start = i + 1
		i = start
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		digits := i
		if i = skipDigits(s, i); i == digits {
			return d, false
		}
		d.Exp = s[start:i]
	}
	return d, i == len(s)
}

func skipDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// ValidNumber reports whether s is a JSON number literal.
func ValidNumber(s string) bool {
	_, ok := ParseDecimal(s, false)
	return ok
}

// IsIntegerText reports whether a number literal has neither a fraction
// nor an exponent.
func IsIntegerText(s string) bool {
	return !strings.ContainsAny(s, ".eE")
}

// maxSafeInteger is Number.MAX_SAFE_INTEGER.
const maxSafeInteger = 1<<53 - 1

// BigInteger reports whether an integer literal is beyond ±(2^53−1), where
// JavaScript's numbers would round it.
func BigInteger(s []byte) bool {
	digits := len(s)
	if digits > 0 && s[0] == '-' {
		digits--
	}
	if digits < 16 {
		return false
	}
	n, err := strconv.ParseInt(string(s), 10, 64)
	return err != nil || n > maxSafeInteger || n < -maxSafeInteger
}

// exponent returns the value of d.Exp, its magnitude saturated at limit (so
// that no text can overflow it); ok is false when it saturated.
func (d Decimal) exponent(limit int) (e int, ok bool) {
	digits := strings.TrimLeft(d.Exp, "+-")
	ok = true
	for i := 0; i < len(digits) && ok; i++ {
		e = e*10 + int(digits[i]-'0')
		if e > limit {
			e, ok = limit, false
		}
	}
	if strings.HasPrefix(d.Exp, "-") {
		e = -e
	}
	return e, ok
}

// ExponentWithin reports whether d's decimal exponent net of its fraction
// digits (1.5e3 → 2) is within ±max.
func (d Decimal) ExponentWithin(max int) bool {
	e, _ := d.exponent(max + len(d.Frac) + 1)
	net := e - len(d.Frac)
	return net >= -max && net <= max
}

// Canonical writes d as a JSON number literal with the same digits: no
// plus sign, leading zeros of the integer part dropped ("0" kept), the
// fraction only when it has digits, and the exponent as written ("5." →
// "5", "+.5e+01" → "0.5e+01").
func (d Decimal) Canonical() string {
	var b strings.Builder
	if d.Neg {
		b.WriteByte('-')
	}
	intPart := strings.TrimLeft(d.Int, "0")
	if intPart == "" {
		intPart = "0"
	}
	b.WriteString(intPart)
	if d.Frac != "" {
		b.WriteByte('.')
		b.WriteString(d.Frac)
	}
	if d.Exp != "" {
		b.WriteByte('e')
		b.WriteString(d.Exp)
	}
	return b.String()
}

// Integer returns the exact integer d denotes when it has no fractional
// part (5.0 → "5", 1e3 → "1000", -0 → "0"), computed from the digits so
// nothing is rounded; false when it has a fractional part, or when the
// exponent or the integer would exceed maxDigits digits.
func (d Decimal) Integer(maxDigits int) (string, bool) {
	exp, ok := d.exponent(maxDigits)
	if !ok {
		return "", false
	}
	digits := strings.TrimLeft(d.Int+d.Frac, "0")
	exp -= len(d.Frac)
	if exp < 0 {
		cut := max(len(digits)+exp, 0)
		if strings.Trim(digits[cut:], "0") != "" {
			return "", false // a fractional part
		}
		digits = digits[:cut]
	} else if digits != "" {
		if len(digits)+exp > maxDigits {
			return "", false
		}
		digits += strings.Repeat("0", exp)
	}
	switch {
	case digits == "":
		return "0", true
	case d.Neg:
		return "-" + digits, true
	}
	return digits, true
}
