package core

// Exact decimal arithmetic on number literals for the fast path: the
// comparisons, integer test and multipleOf the validator makes with
// big.Rat, made on the digits without math/big (the core build does not
// link it): uint64 arithmetic while the divisor has at most 18 digits, and
// base-10⁹ limbs past that (fastpath_remainder.go).

// decimal is a JSON number literal as sign × digits × 10^exp: the digit run
// is hi followed by lo (slices of the literal, with the leading and
// trailing zeros of the run left out), empty for zero.
type decimal struct {
	neg    bool
	hi, lo []byte
	exp    int
}

// maxDecimalExp saturates exponents, far beyond MaxNumberExponent, which
// every number checked here is within.
const maxDecimalExp = 1 << 20

// parseDecimal reads a JSON number literal the tape accepted.
func parseDecimal(s []byte) decimal {
	var d decimal
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intPart := s[start:i]
	var frac []byte
	if i < len(s) && s[i] == '.' {
		start = i + 1
		for i = start; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
		frac = s[start:i]
	}
	exp := 0
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		negExp := s[i] == '-'
		if s[i] == '+' || s[i] == '-' {
			i++
		}
		for ; i < len(s); i++ {
			if exp < maxDecimalExp {
				exp = exp*10 + int(s[i]-'0')
			}
		}
		if negExp {
			exp = -exp
		}
	}
	d.exp = exp - len(frac)
	d.hi, d.lo = trimDigits(intPart, frac, &d.exp)
	if len(d.hi)+len(d.lo) == 0 {
		d.neg = false
	}
	return d
}

// trimDigits drops the leading zeros of the run hi+lo and its trailing
// zeros, adding these to *exp.
func trimDigits(hi, lo []byte, exp *int) ([]byte, []byte) {
	for len(hi) > 0 && hi[0] == '0' {
		hi = hi[1:]
	}
	if len(hi) == 0 {
		for len(lo) > 0 && lo[0] == '0' {
			lo = lo[1:]
		}
	}
	for len(lo) > 0 && lo[len(lo)-1] == '0' {
		lo = lo[:len(lo)-1]
		*exp++
	}
	if len(lo) == 0 {
		for len(hi) > 0 && hi[len(hi)-1] == '0' {
			hi = hi[:len(hi)-1]
			*exp++
		}
	}
	return hi, lo
}

func (d decimal) digits() int { return len(d.hi) + len(d.lo) }

func (d decimal) digit(i int) byte {
	if i < len(d.hi) {
		return d.hi[i]
	}
	if i-len(d.hi) < len(d.lo) {
		return d.lo[i-len(d.hi)]
	}
	return '0'
}

// isInteger reports whether d has no fractional part.
func (d decimal) isInteger() bool { return d.digits() == 0 || d.exp >= 0 }

// cmpDecimal compares two decimals: -1, 0 or +1.
func cmpDecimal(a, b decimal) int {
	az, bz := a.digits() == 0, b.digits() == 0
	switch {
	case az && bz:
		return 0
	case az:
		return b.signum() * -1
	case bz:
		return a.signum()
	case a.neg != b.neg:
		return a.signum()
	}
	m := cmpMagnitude(a, b)
	if a.neg {
		return -m
	}
	return m
}

func (d decimal) signum() int {
	switch {
	case d.digits() == 0:
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmpMagnitude compares |a| and |b|, both non-zero.
func cmpMagnitude(a, b decimal) int {
	pa, pb := a.digits()+a.exp, b.digits()+b.exp
	if pa != pb {
		if pa < pb {
			return -1
		}
		return 1
	}
	n := max(a.digits(), b.digits())
	for i := 0; i < n; i++ {
		if x, y := a.digit(i), b.digit(i); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// multipleOf reports whether v / m is an integer (m > 0).
func multipleOf(v, m decimal) bool {
	if v.digits() == 0 {
		return true
	}
	k := v.exp - m.exp // v / m = (V / M) × 10^k
	if vs, ok := v.small(max(k, 0)); ok {
		if ms, ok := m.small(max(-k, 0)); ok {
			return vs%ms == 0
		}
	}
	return divisible(v, max(k, 0), m, max(-k, 0))
}

// small is the digit run times 10^shift as a uint64, when it has at most
// 18 digits.
func (d decimal) small(shift int) (uint64, bool) {
	if d.digits()+shift > 18 {
		return 0, false
	}
	var x uint64
	for i := 0; i < d.digits()+shift; i++ {
		x = x*10 + uint64(d.digit(i)-'0')
	}
	return x, true
}
