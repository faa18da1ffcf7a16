package table

import (
	"math/big"
)

// The part of a target base within a distance of another base (HRA 13b's
// one-third rule), decided exactly.
//
// The points within d of a base form the base grown by d: its four sides
// pushed out by d and joined by quarter circles at the corners. That
// region's area is no rational number (it holds π), so it is bracketed by
// two polygons, both clipped exactly against the target:
//
//   - inside it, the polygon through points at most d from a corner (the
//     ends of each pushed-out side and points along each quarter circle);
//   - around it, the intersection of half-planes that touch the circles
//     from outside, one per direction (each side's own normal and
//     directions across each quarter circle).
//
// Each pushed-out side is bracketed to within a millionth of a
// micrometre, and exactly when the side's length is a whole number of
// micrometres (a base square to the table's axes, for one); only the
// quarter circles leave a gap, which shrinks as directions are added. The
// answer is the one both bounds give: more directions are tried until they
// agree. A part of a circle inside the target makes the exact area
// irrational, so it never equals the rational threshold, and the bounds
// always agree in the end; when no circle is involved, both bounds are
// the exact area. Only a target whose in-range area is within about 10⁻⁹
// of the threshold after 1024 directions a corner (far below a
// micrometre's width) is left undecided, and counted as not reaching it.

// dirOf returns a whole-micrometre direction vector for bearing a, about
// 2^20 µm long.
func dirOf(a Angle) Vector { return Heading(a, 1<<20) }

// reach returns ⌊√(d²·|n|²)⌋ and whether the root is exact: d·|n| rounded
// down, in the units of n·p.
func reach(d Length, n Vector) (*big.Int, bool) {
	x := new(big.Int).SetInt64(int64(d))
	x.Mul(x, x)
	x.Mul(x, new(big.Int).SetInt64(n.Len2()))
	s := new(big.Int).Sqrt(x)
	return s, new(big.Int).Mul(s, s).Cmp(x) == 0
}

// grown returns the half-planes of a polygon around the points within d
// of r, and the half-planes of the edges of a polygon inside them (whose
// intersection, the polygon's kernel, lies inside too), with steps
// directions across each corner's quarter circle.
func grown(r Rect, d Length, steps int) (outer, inner []line) {
	c := r.Corners() // clockwise
	v := [4]Point{c[3], c[2], c[1], c[0]}
	var normal [4]Vector // outward normal of edge v[i] → v[i+1]
	for i := range 4 {
		e := v[(i+1)%4].Sub(v[i])
		normal[i] = Vector{e.Y, -e.X}
	}
	support := func(n Vector) int64 {
		best := int64(0)
		for i, p := range v {
			if x := int64(p.X)*int64(n.X) + int64(p.Y)*int64(n.Y); i == 0 || x > best {
				best = x
			}
		}
		return best
	}
	plane := func(n Vector) {
		if n == (Vector{}) {
			return
		}
		s, exact := reach(d, n)
		if !exact {
			s.Add(s, bigInt(1))
		}
		outer = append(outer, line{bigInt(int64(n.X)), bigInt(int64(n.Y)), s.Add(s, bigInt(support(n)))})
	}
	var pts []hpt
	point := func(p Point, n Vector) {
		if n == (Vector{}) {
			pts = append(pts, hptOf(p))
			return
		}
		s, _ := reach(d, n) // p + n·s/|n|² is at most d from p
		l2 := bigInt(n.Len2())
		x := new(big.Int).Mul(bigInt(int64(p.X)), l2)
		x.Add(x, new(big.Int).Mul(bigInt(int64(n.X)), s))
		y := new(big.Int).Mul(bigInt(int64(p.Y)), l2)
		y.Add(y, new(big.Int).Mul(bigInt(int64(n.Y)), s))
		pts = append(pts, hpt{x, y, l2})
	}
	for i := range 4 {
		in, out := normal[(i+3)%4], normal[i] // the edges into and out of v[i]
		plane(out)
		point(v[i], in)
		a0 := in.Bearing()
		turn := Turn(a0, out.Bearing())
		for k := 1; k < steps; k++ {
			n := dirOf(a0 + Angle(int64(turn)*int64(k)/int64(steps)))
			plane(n)
			point(v[i], n)
		}
		point(v[i], out)
	}
	for i := range pts {
		inner = append(inner, leftOfLine(pts[i], pts[(i+1)%len(pts)]))
	}
	return outer, inner
}

// poly returns the convex region hull(pts) + cone(rays), as the arc's
// pieces are built (one or two points, rays in turning order, each
// TrigOne long), cut off about a kilometre out.
func (c convex) poly() cpoly {
	var pts []hpt
	for _, p := range c.pts {
		pts = append(pts, hptOf(p))
	}
	first, last := c.pts[0], c.pts[len(c.pts)-1]
	for _, d := range c.rays {
		pts = append(pts, hptOf(last.Add(d)))
	}
	if len(c.pts) > 1 {
		for i := len(c.rays) - 1; i >= 0; i-- {
			pts = append(pts, hptOf(first.Add(c.rays[i])))
		}
	}
	return cpolyOf(pts)
}

// WithinAtLeast reports whether at least num/den of target's area lies
// within d of r (HRA 13b: "at least ⅓ of the enemy unit within range"),
// exactly; see the note at the top of this file.
func (r Rect) WithinAtLeast(target Rect, d Length, num, den int64) bool {
	if num <= 0 {
		return true
	}
	if !Within(r, target, d) {
		return false
	}
	all := true
	for _, p := range target.Corners() {
		all = all && r.PointWithin(p, d)
	}
	if all { // the region is convex: it holds the whole target
		return num <= den
	}
	return atLeastWithin(r, d, target, nil, num, den)
}

// WithinAtLeast reports whether at least num/den of target's area lies
// both in the arc and within d of the arc's base, exactly (HRA 13c: the
// part of a target in a regiment's normal-fire zone).
func (a Arc) WithinAtLeast(target Rect, d Length, num, den int64) bool {
	if num <= 0 {
		return true
	}
	if !Within(a.Base, target, d) || !a.TouchesRect(target) {
		return false
	}
	var parts []cpoly
	for _, pc := range a.pieces() {
		parts = append(parts, pc.poly())
	}
	return atLeastWithin(a.Base, d, target, parts, num, den)
}

// atLeastWithin compares the area of target within d of r (and in the
// union of the disjoint convex parts, if any) with num/den of target's.
func atLeastWithin(r Rect, d Length, target Rect, parts []cpoly, num, den int64) bool {
	var corners []hpt
	for _, p := range target.Corners() {
		corners = append(corners, hptOf(p))
	}
	tp := cpolyOf(corners)
	if tp == nil {
		return false
	}
	want := tp.area()
	want.Mul(want, big.NewRat(num, den))
	pieces := []cpoly{tp}
	if parts != nil {
		pieces = pieces[:0]
		for _, pc := range parts {
			if p := tp.clipAll(pc); p != nil {
				pieces = append(pieces, p)
			}
		}
	}
	for steps := 1; ; steps *= 4 {
		outer, inner := grown(r, d, steps)
		lo, hi := new(big.Rat), new(big.Rat)
		for _, p := range pieces {
			if c := p.clipAll(inner); c != nil {
				lo.Add(lo, c.area())
			}
			if c := p.clipAll(outer); c != nil {
				hi.Add(hi, c.area())
			}
		}
		switch {
		case lo.Cmp(want) >= 0:
			return true
		case hi.Cmp(want) < 0:
			return false
		case steps >= 1024:
			return false
		}
	}
}
