package table

import "slices"

// Nearest returns the point of s nearest p, rounded to the micrometre:
// where a unit steps onto a road, where a bridge sits on a river.
func (s Segment) Nearest(p Point) Point {
	v := s.Vec()
	l2 := v.Len2()
	if l2 == 0 {
		return s.A
	}
	t := p.Sub(s.A).Dot(v)
	switch {
	case t <= 0:
		return s.A
	case t >= l2:
		return s.B
	}
	return s.A.Add(Vector{Length(mulDivRound(int64(v.X), t, l2)), Length(mulDivRound(int64(v.Y), t, l2))})
}

// OnPolyline is the point of a polyline nearest another point.
type OnPolyline struct {
	At    Point
	Dist  Length // from the other point, rounded up
	Seg   int    // the segment it lies on
	Along Length // how far along the polyline it lies
}

// Nearest returns the point of pl nearest p (the first of equals).
func (pl Polyline) Nearest(p Point) OnPolyline {
	best := OnPolyline{Dist: -1}
	var walked Length
	for i, s := range pl.segments() {
		q := s.Nearest(p)
		if d := Distance(p, q); best.Dist < 0 || d < best.Dist {
			best = OnPolyline{At: q, Dist: d, Seg: i, Along: walked + Distance(s.A, q)}
		}
		walked += s.Len()
	}
	return best
}

// Part returns the part of pl from a to b along it (0 <= a < b <= its
// length): a fence along a stretch of road.
func (pl Polyline) Part(a, b Length) Polyline {
	var out Polyline
	var walked Length
	at := func(s Segment, d Length) Point {
		l := s.Len()
		if l == 0 {
			return s.A
		}
		v := s.Vec()
		return s.A.Add(Vector{Length(mulDivRound(int64(v.X), int64(d), int64(l))), Length(mulDivRound(int64(v.Y), int64(d), int64(l)))})
	}
	for _, s := range pl.segments() {
		l := s.Len()
		if walked+l >= a && walked <= b {
			if len(out) == 0 {
				out = append(out, at(s, a-walked))
			}
			if walked+l <= b {
				out = append(out, s.B)
			} else {
				out = append(out, at(s, b-walked))
			}
		}
		walked += l
	}
	return slices.Compact(out)
}
