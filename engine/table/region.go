package table

import "math/big"

// Regions: exact areas, interior overlaps and distances of convex
// polygons (terrain pieces, swept areas), as GMB's terrain setup and
// movement need them: how much of a piece lies in a deployment zone (GMB
// 13.10k), whether two pieces stand on each other (13.10o), whether a
// move enters a wood rather than brushing its edge (7.2c), and whether a
// move comes closer than 3" to an enemy (7.4a).

// Area returns the exact area of pg in square micrometres.
func (pg Polygon) Area() *big.Rat {
	if len(pg) < 3 {
		return new(big.Rat)
	}
	return area(ratPoly(pg))
}

// AreaIn returns the exact area of the part of pg inside clip, which must
// be convex (pg may be any simple polygon).
func (pg Polygon) AreaIn(clip Polygon) *big.Rat {
	if len(pg) < 3 || len(clip) < 3 {
		return new(big.Rat)
	}
	in := clipAll(ratPoly(pg), edgePlanes(ratPoly(clip)))
	if in == nil {
		return new(big.Rat)
	}
	return area(in)
}

// OverlapConvex reports whether the interiors of the convex polygons a
// and b meet: one stands on the other, rather than only touching it.
// Exact.
func OverlapConvex(a, b Polygon) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	return overlaps(convex{pts: a}, convex{pts: b})
}

// MeetsInterior reports whether the segment s passes through the
// interior of the convex polygon pg, rather than missing it or running
// along its boundary: a move crossing a fence, a road through a wood.
// Exact but for pieces of s shorter than about a micrometre.
func (pg Polygon) MeetsInterior(s Segment) bool {
	if len(pg) < 3 {
		return false
	}
	for _, iv := range pg.intervals(s) {
		if !iv.in {
			continue
		}
		p := s.A.Add(scaleT(s.Vec(), (iv.lo+iv.hi)/2))
		if pg.ContainsStrict(p) {
			return true
		}
	}
	return false
}

// MeetsPolylineInterior reports whether any segment of pl passes through
// the interior of the convex polygon pg.
func (pg Polygon) MeetsPolylineInterior(pl Polyline) bool {
	for _, s := range pl.segments() {
		if pg.MeetsInterior(s) {
			return true
		}
	}
	return false
}

// PointWithin reports whether p is at most r from pg (0 inside), exactly.
func (pg Polygon) PointWithin(p Point, r Length) bool {
	if pg.Contains(p) {
		return true
	}
	for i := range pg {
		if pg.Edge(i).sqDistTo(p).within(r) {
			return true
		}
	}
	return false
}

// PolylineWithin reports whether some point of pl is at most r from pg,
// exactly.
func (pg Polygon) PolylineWithin(pl Polyline, r Length) bool {
	if pg.TouchesPolyline(pl) {
		return true
	}
	for _, s := range pl.segments() {
		for i := range pg {
			e := pg.Edge(i)
			if e.sqDistTo(s.A).within(r) || e.sqDistTo(s.B).within(r) ||
				s.sqDistTo(e.A).within(r) || s.sqDistTo(e.B).within(r) {
				return true
			}
		}
	}
	return false
}

// CloserConvex reports whether the convex polygons a and b come less than
// r apart (0 when they touch), exactly: "no unit may come closer than 1
// inch" (GMB 7.4b) for a swept area and a base.
func CloserConvex(a, b Polygon, r Length) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	if touches(convex{pts: a}, convex{pts: b}) {
		return r > 0
	}
	for _, pair := range [2][2]Polygon{{a, b}, {b, a}} {
		x, y := pair[0], pair[1]
		for i := range x {
			e := x.Edge(i)
			for _, p := range y {
				if e.sqDistTo(p).below(r) {
					return true
				}
			}
		}
	}
	return false
}

// CloserToRect reports whether the swept area comes less than r from base
// t (GMB 7.4a: a move may not enter an enemy's zone of control).
func (s Sweep) CloserToRect(t Rect, r Length) bool {
	tp := t.Polygon()
	for _, p := range s {
		if CloserConvex(p, tp, r) {
			return true
		}
	}
	return false
}

// OverlapsPolygon reports whether the swept area and the convex polygon
// pg share interior points.
func (s Sweep) OverlapsPolygon(pg Polygon) bool {
	for _, p := range s {
		if OverlapConvex(p, pg) {
			return true
		}
	}
	return false
}

// MeetsPolylineInterior reports whether pl passes through the interior of
// the swept area (a fence crossed, not one the base only stands against).
func (s Sweep) MeetsPolylineInterior(pl Polyline) bool {
	for _, p := range s {
		if p.MeetsPolylineInterior(pl) {
			return true
		}
	}
	return false
}

// Centroid returns the centre of area of pg rounded to the micrometre
// (the mean of its vertices for a degenerate polygon).
func (pg Polygon) Centroid() Point {
	if len(pg) == 0 {
		return Point{}
	}
	a2 := signedArea2(ratPoly(pg))
	if a2.Sign() == 0 {
		var sx, sy int64
		for _, p := range pg {
			sx += int64(p.X)
			sy += int64(p.Y)
		}
		n := int64(len(pg))
		return Point{Length(divRound(sx, n)), Length(divRound(sy, n))}
	}
	cx, cy := new(big.Int), new(big.Int)
	for i := range pg {
		p, q := pg[i], pg[(i+1)%len(pg)]
		cr := new(big.Int).Sub(new(big.Int).Mul(big.NewInt(int64(p.X)), big.NewInt(int64(q.Y))),
			new(big.Int).Mul(big.NewInt(int64(q.X)), big.NewInt(int64(p.Y))))
		cx.Add(cx, new(big.Int).Mul(big.NewInt(int64(p.X+q.X)), cr))
		cy.Add(cy, new(big.Int).Mul(big.NewInt(int64(p.Y+q.Y)), cr))
	}
	// centroid = (Σ…) / (3 · 2A)
	den := new(big.Rat).Mul(a2, big.NewRat(3, 1))
	x := new(big.Rat).Quo(new(big.Rat).SetInt(cx), den)
	y := new(big.Rat).Quo(new(big.Rat).SetInt(cy), den)
	return Point{Length(ratRound(x)), Length(ratRound(y))}
}

// ratRound rounds r to the nearest integer, halves away from zero.
func ratRound(r *big.Rat) int64 {
	n, d := new(big.Int).Set(r.Num()), r.Denom()
	neg := n.Sign() < 0
	n.Abs(n)
	n.Mul(n, big.NewInt(2)).Add(n, d)
	n.Quo(n, new(big.Int).Mul(d, big.NewInt(2)))
	if neg {
		n.Neg(n)
	}
	return n.Int64()
}

// Translate returns pg moved by v.
func (pg Polygon) Translate(v Vector) Polygon {
	out := make(Polygon, len(pg))
	for i, p := range pg {
		out[i] = p.Add(v)
	}
	return out
}

// Translate returns pl moved by v.
func (pl Polyline) Translate(v Vector) Polyline {
	out := make(Polyline, len(pl))
	for i, p := range pl {
		out[i] = p.Add(v)
	}
	return out
}
