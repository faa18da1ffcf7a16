package table

import "math/bits"

// u128 is an unsigned 128-bit integer, used to compare squared distances
// exactly.
type u128 struct{ hi, lo uint64 }

func mul128(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (x u128) cmp(y u128) int {
	switch {
	case x.hi < y.hi:
		return -1
	case x.hi > y.hi:
		return 1
	case x.lo < y.lo:
		return -1
	case x.lo > y.lo:
		return 1
	}
	return 0
}

// sqDist is an exact squared distance num/den in square micrometres.
type sqDist struct {
	num u128
	den uint64 // > 0
}

// within reports whether the distance is at most r (r >= 0).
func (d sqDist) within(r Length) bool {
	r2 := uint64(r) * uint64(r)
	return d.num.cmp(mul128(r2, d.den)) <= 0
}

// below reports whether the distance is less than r (r >= 0).
func (d sqDist) below(r Length) bool {
	r2 := uint64(r) * uint64(r)
	return d.num.cmp(mul128(r2, d.den)) < 0
}

// ceil returns the distance rounded up to a whole micrometre.
func (d sqDist) ceil() Length {
	// ceil(sqrt(n/d)) == ceil(sqrt(ceil(n/d))); n/d < 2^63 within MaxCoord,
	// so the quotient fits and hi < den.
	q, rem := bits.Div64(d.num.hi, d.num.lo, d.den)
	if rem != 0 {
		q++
	}
	return Length(ceilSqrt(q))
}

// cmpFrac compares a/b with c/d for b, d > 0 exactly.
func cmpFrac(a, b, c, d int64) int {
	return cmpI128(a, d, c, b)
}

// cmpI128 compares a×b with c×d exactly.
func cmpI128(a, b, c, d int64) int {
	x, y := smul(a, b), smul(c, d)
	if x.neg != y.neg {
		if x.neg {
			return -1
		}
		return 1
	}
	r := x.mag.cmp(y.mag)
	if x.neg {
		return -r
	}
	return r
}

type s128 struct {
	neg bool
	mag u128
}

func smul(a, b int64) s128 {
	neg := (a < 0) != (b < 0)
	m := mul128(uint64(abs64(a)), uint64(abs64(b)))
	if m.hi == 0 && m.lo == 0 {
		neg = false
	}
	return s128{neg, m}
}
