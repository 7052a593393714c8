package core

// The exact remainder behind multipleOf when the divisor's digit run is
// past uint64: schoolbook long division, one decimal digit of the dividend
// at a time, over base-10⁹ limbs.

// limbs is a natural number in base 10⁹, least significant limb first, with
// no leading zero limb (zero is empty).
type limbs []uint64

const limbBase = 1_000_000_000

// divisible reports whether d's digit run times 10^dShift is a multiple of
// m's digit run times 10^mShift (m non-zero).
func divisible(d decimal, dShift int, m decimal, mShift int) bool {
	n := d.digits() + dShift
	if ms, ok := m.small(mShift); ok { // r < m ≤ 10¹⁸: r×10+9 fits a uint64
		var r uint64
		for i := 0; i < n; i++ {
			r = (r*10 + uint64(d.digit(i)-'0')) % ms
		}
		return r == 0
	}
	var mult [10]limbs // 0×M … 9×M
	mult[1] = limbsOf(m, mShift)
	for k := 2; k < 10; k++ {
		mult[k] = addLimbs(mult[k-1], mult[1])
	}
	r := make(limbs, 0, len(mult[9])+1)
	for i := 0; i < n; i++ {
		r = r.times10plus(uint64(d.digit(i) - '0'))
		k := 9
		for k > 0 && cmpLimbs(mult[k], r) > 0 {
			k--
		}
		r = r.minus(mult[k])
	}
	return len(r) == 0
}

// limbsOf is d's digit run times 10^shift.
func limbsOf(d decimal, shift int) limbs {
	n := d.digits() + shift
	x := make(limbs, 0, n/9+1)
	for end := n; end > 0; end -= 9 {
		var v uint64
		for i := max(end-9, 0); i < end; i++ {
			v = v*10 + uint64(d.digit(i)-'0')
		}
		x = append(x, v)
	}
	return x.trim()
}

func (x limbs) trim() limbs {
	for len(x) > 0 && x[len(x)-1] == 0 {
		x = x[:len(x)-1]
	}
	return x
}

// times10plus sets x to x×10 + digit, in place.
func (x limbs) times10plus(digit uint64) limbs {
	carry := digit
	for i := range x {
		v := x[i]*10 + carry
		x[i], carry = v%limbBase, v/limbBase
	}
	if carry != 0 {
		x = append(x, carry)
	}
	return x
}

// minus sets x to x − y (y ≤ x), in place.
func (x limbs) minus(y limbs) limbs {
	var borrow uint64
	for i := range x {
		var yi uint64
		if i < len(y) {
			yi = y[i]
		}
		sub := yi + borrow
		if x[i] >= sub {
			x[i], borrow = x[i]-sub, 0
		} else {
			x[i], borrow = x[i]+limbBase-sub, 1
		}
	}
	return x.trim()
}

func addLimbs(x, y limbs) limbs {
	z := make(limbs, 0, max(len(x), len(y))+1)
	var carry uint64
	for i := 0; i < max(len(x), len(y)); i++ {
		v := carry
		if i < len(x) {
			v += x[i]
		}
		if i < len(y) {
			v += y[i]
		}
		z, carry = append(z, v%limbBase), v/limbBase
	}
	if carry != 0 {
		z = append(z, carry)
	}
	return z
}

// cmpLimbs compares x and y: -1, 0 or +1.
func cmpLimbs(x, y limbs) int {
	if len(x) != len(y) {
		if len(x) < len(y) {
			return -1
		}
		return 1
	}
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
