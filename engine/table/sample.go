package table

import "fmt"

// Fraction is an exact ratio Num/Den (Den > 0), such as the part of a
// target base that lies within range.
type Fraction struct{ Num, Den int64 }

// AtLeast reports whether f >= num/den (den > 0), exactly: for HRA 13b,
// f.AtLeast(1, 3).
func (f Fraction) AtLeast(num, den int64) bool { return cmpFrac(f.Num, f.Den, num, den) >= 0 }

// String writes "num/den".
func (f Fraction) String() string { return fmt.Sprintf("%d/%d", f.Num, f.Den) }

// DefaultGrid is the sampling pitch used when none is given: 0.5 mm.
const DefaultGrid = Millimetre / 2

// maxSamplesPerSide caps the sampling grid along each side of a base.
const maxSamplesPerSide = 4096

// SampleFraction returns the fraction of target's area where in is true,
// measured on a fixed grid in the target's own frame: the base is cut into
// n × m equal cells (n = ⌈Width/grid⌉, m = ⌈Depth/grid⌉, at least 1 and
// at most 4096 each) and in is asked at each cell's centre, rounded to the
// micrometre. Num counts the centres where in is true and Den = n × m.
//
// Why sampling: the region within a range of a base has circular corners,
// so the exact fraction involves π and square roots and is no rational
// number. A grid fixed to the target (not to the table) gives the same
// answer on every machine, for every order of evaluation, and wherever the
// target stands or however it is turned; each sample stands for the same
// area. Each cell wholly inside or wholly outside the region is judged
// right, so the error is at most the share of cells the region's boundary
// passes through: a straight boundary crosses at most n + m − 1 of the
// n × m cells. With the default 0.5 mm grid on a 65 × 10 mm base (130 × 20
// cells) that bound is about 6%; a boundary parallel to a side misjudges
// at most half a row of cells (2.5%), and errors along a slanted boundary
// largely cancel. Rule systems
// compare the Fraction exactly ([Fraction.AtLeast]).
func SampleFraction(target Rect, grid Length, in func(Point) bool) Fraction {
	if grid <= 0 {
		grid = DefaultGrid
	}
	cells := func(l Length) int64 {
		n := int64((l + grid - 1) / grid)
		return min(max(n, 1), maxSamplesPerSide)
	}
	n, m := cells(target.Width), cells(target.Depth)
	c := target.Corners()
	across, back := c[1].Sub(c[0]), c[3].Sub(c[0])
	var hits int64
	for j := int64(0); j < m; j++ {
		bv := Vector{
			Length(divRound(int64(back.X)*(2*j+1), 2*m)),
			Length(divRound(int64(back.Y)*(2*j+1), 2*m)),
		}
		for i := int64(0); i < n; i++ {
			av := Vector{
				Length(divRound(int64(across.X)*(2*i+1), 2*n)),
				Length(divRound(int64(across.Y)*(2*i+1), 2*n)),
			}
			if in(c[0].Add(av).Add(bv)) {
				hits++
			}
		}
	}
	return Fraction{hits, n * m}
}

// FractionWithin returns the fraction of target's area that is at most d
// from base r (HRA 13b: "at least ⅓ of the enemy unit within range"),
// sampled on a grid of pitch grid (0 means [DefaultGrid]); see
// [SampleFraction].
func (r Rect) FractionWithin(target Rect, d, grid Length) Fraction {
	return SampleFraction(target, grid, func(p Point) bool { return r.PointWithin(p, d) })
}
