package table

import (
	"math/bits"
	"slices"
)

// Polygon is a simple polygon (a terrain area, a building, a swept area),
// given by its vertices in either winding order; the last vertex joins the
// first. A polygon is a closed set: its boundary belongs to it. Polygons
// with fewer than three vertices, or self-intersecting ones, give
// unspecified (but still deterministic) answers.
type Polygon []Point

// Polyline is an open chain of segments: a road, river, stream, fence or
// wall, or a path moved along.
type Polyline []Point

// Edge returns the i-th edge, from vertex i to vertex i+1 (wrapping).
func (pg Polygon) Edge(i int) Segment { return Segment{pg[i], pg[(i+1)%len(pg)]} }

// Bounds returns the least and greatest corners of pg's bounding box.
func (pg Polygon) Bounds() (lo, hi Point) { return bounds(pg) }

func bounds(pts []Point) (lo, hi Point) {
	if len(pts) == 0 {
		return
	}
	lo, hi = pts[0], pts[0]
	for _, p := range pts[1:] {
		lo.X, lo.Y = min(lo.X, p.X), min(lo.Y, p.Y)
		hi.X, hi.Y = max(hi.X, p.X), max(hi.Y, p.Y)
	}
	return
}

// OnBoundary reports whether p lies on an edge of pg.
func (pg Polygon) OnBoundary(p Point) bool {
	for i := range pg {
		e := pg.Edge(i)
		if orient(e.A, e.B, p) == 0 && inBox(e.A, e.B, p) {
			return true
		}
	}
	return false
}

// Contains reports whether p is inside pg or on its boundary, exactly.
func (pg Polygon) Contains(p Point) bool {
	if pg.OnBoundary(p) {
		return true
	}
	return pg.containsStrict(p)
}

// ContainsStrict reports whether p is inside pg and not on its boundary.
func (pg Polygon) ContainsStrict(p Point) bool {
	return !pg.OnBoundary(p) && pg.containsStrict(p)
}

// containsStrict is the crossing-number test for a point not on the
// boundary.
func (pg Polygon) containsStrict(p Point) bool {
	in := false
	for i := range pg {
		a, b := pg[i], pg[(i+1)%len(pg)]
		if (a.Y > p.Y) != (b.Y > p.Y) {
			o := orient(a, b, p)
			if b.Y > a.Y && o > 0 || b.Y < a.Y && o < 0 {
				in = !in
			}
		}
	}
	return in
}

// TouchesSegment reports whether s has a point in pg (on its boundary or
// inside): a line of fire or a move meeting a terrain area.
func (pg Polygon) TouchesSegment(s Segment) bool {
	for i := range pg {
		if pg.Edge(i).Intersects(s) {
			return true
		}
	}
	return len(pg) > 0 && pg.Contains(s.A)
}

// TouchesPolygon reports whether pg and q share at least one point.
func (pg Polygon) TouchesPolygon(q Polygon) bool {
	if len(pg) == 0 || len(q) == 0 {
		return false
	}
	for i := range pg {
		e := pg.Edge(i)
		for j := range q {
			if e.Intersects(q.Edge(j)) {
				return true
			}
		}
	}
	return pg.Contains(q[0]) || q.Contains(pg[0])
}

// TouchesPolyline reports whether any segment of pl has a point in pg.
func (pg Polygon) TouchesPolyline(pl Polyline) bool {
	for _, s := range pl.segments() {
		if pg.TouchesSegment(s) {
			return true
		}
	}
	return false
}

// ContainsPolygon reports whether all of q lies within pg (boundary
// included), for example a base wholly inside a wood. Each edge of q is
// split where it meets pg's boundary and every piece is tested at its
// midpoint (rounded to the micrometre), so a piece shorter than about a
// micrometre that pokes out can be missed.
func (pg Polygon) ContainsPolygon(q Polygon) bool {
	for i := range q {
		for _, iv := range pg.intervals(q.Edge(i)) {
			if !iv.in {
				return false
			}
		}
	}
	return len(q) > 0
}

// tOne is the fixed-point scale of positions along a segment: 2^32 is the
// end B.
const tOne = uint64(1) << 32

type interval struct {
	lo, hi uint64 // positions along the segment, 0…tOne
	in     bool
}

// intervals splits s at every point where it meets pg's boundary and says
// for each piece whether it lies in pg (tested at its midpoint). The split
// positions are exact rationals rounded down to 2^-32 of the segment.
func (pg Polygon) intervals(s Segment) []interval {
	r := s.Vec()
	l2 := r.Len2()
	if l2 == 0 {
		return []interval{{0, 0, pg.Contains(s.A)}}
	}
	ts := []uint64{0, tOne}
	add := func(num, den int64) {
		if den < 0 {
			num, den = -num, -den
		}
		if num <= 0 || num >= den {
			return
		}
		hi, lo := bits.Mul64(uint64(num), tOne)
		q, _ := bits.Div64(hi, lo, uint64(den))
		ts = append(ts, q)
	}
	for i := range pg {
		e := pg.Edge(i)
		if !e.Intersects(s) {
			continue
		}
		q := e.Vec()
		if den := r.Cross(q); den != 0 {
			add(e.A.Sub(s.A).Cross(q), den)
			continue
		}
		// Collinear: the edge's ends, projected onto s.
		add(e.A.Sub(s.A).Dot(r), l2)
		add(e.B.Sub(s.A).Dot(r), l2)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	out := make([]interval, 0, len(ts)-1)
	for i := 0; i+1 < len(ts); i++ {
		mid := (ts[i] + ts[i+1]) / 2
		p := s.A.Add(scaleT(r, mid))
		out = append(out, interval{ts[i], ts[i+1], pg.Contains(p)})
	}
	return out
}

// scaleT returns v × t / 2^32 rounded to nearest, for t in [0, 2^32].
func scaleT(v Vector, t uint64) Vector {
	return Vector{
		Length(mulDivRound(int64(v.X), int64(t), int64(tOne))),
		Length(mulDivRound(int64(v.Y), int64(t), int64(tOne))),
	}
}

// LengthInside returns the length of the part of s inside pg (boundary
// included): for example how much of a line of fire runs through a wood.
// The split points are exact to 2^-32 of the segment and the result is
// rounded to the nearest micrometre.
func (pg Polygon) LengthInside(s Segment) Length {
	var in uint64
	for _, iv := range pg.intervals(s) {
		if iv.in {
			in += iv.hi - iv.lo
		}
	}
	return scaledLength(uint64(s.Vec().Len2()), in)
}

// scaledLength returns sqrt(l2) × t / 2^32 rounded to the nearest
// micrometre, for t <= 2^32, computed exactly: with X = t² × l2 / 2^64 the
// result is ⌊(⌊√(4X)⌋ + 1) / 2⌋.
func scaledLength(l2, t uint64) Length {
	h1, l1 := bits.Mul64(t, t) // t² < 2^65
	ah, al := bits.Mul64(l1, l2)
	mid := ah + h1*l2     // bits 64…127 of t²·l2 (the result is below 2^125)
	x4 := mid<<2 | al>>62 // ⌊4X⌋ = ⌊t²·l2 / 2^62⌋
	return Length((ISqrt(x4) + 1) / 2)
}

// PathLengthInside returns the length of the part of path inside pg: the
// movement through a terrain area. Each segment is measured with
// [Polygon.LengthInside].
func (pg Polygon) PathLengthInside(path Polyline) Length {
	var total Length
	for _, s := range path.segments() {
		total += pg.LengthInside(s)
	}
	return total
}

// segments returns the polyline's segments in order.
func (pl Polyline) segments() []Segment {
	if len(pl) == 1 {
		return []Segment{{pl[0], pl[0]}}
	}
	var out []Segment
	for i := 0; i+1 < len(pl); i++ {
		out = append(out, Segment{pl[i], pl[i+1]})
	}
	return out
}

// Segments returns the polyline's segments in order (a single point gives
// one zero-length segment).
func (pl Polyline) Segments() []Segment { return pl.segments() }

// Len returns the polyline's length: the sum of its segments' lengths,
// each rounded up to a whole micrometre.
func (pl Polyline) Len() Length {
	var total Length
	for i := 0; i+1 < len(pl); i++ {
		total += Distance(pl[i], pl[i+1])
	}
	return total
}

// IntersectsSegment reports whether s meets the polyline: a line of fire
// crossing a fence or wall, a move crossing a stream.
func (pl Polyline) IntersectsSegment(s Segment) bool {
	for _, t := range pl.segments() {
		if t.Intersects(s) {
			return true
		}
	}
	return false
}

// CrossesSegment reports whether s properly crosses one of the polyline's
// segments (meeting it at a single point that is an end of neither).
func (pl Polyline) CrossesSegment(s Segment) bool {
	for _, t := range pl.segments() {
		if t.Crosses(s) {
			return true
		}
	}
	return false
}

// convexHull returns the convex hull of pts, anticlockwise, without
// collinear points (Andrew's monotone chain, exact).
func convexHull(pts []Point) Polygon {
	ps := slices.Clone(pts)
	slices.SortFunc(ps, func(a, b Point) int {
		if a.X != b.X {
			return cmpLen(a.X, b.X)
		}
		return cmpLen(a.Y, b.Y)
	})
	ps = slices.Compact(ps)
	if len(ps) < 3 {
		return Polygon(ps)
	}
	h := make([]Point, 0, 2*len(ps))
	for _, p := range ps {
		for len(h) >= 2 && orient(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	lower := len(h) + 1
	for i := len(ps) - 2; i >= 0; i-- {
		p := ps[i]
		for len(h) >= lower && orient(h[len(h)-2], h[len(h)-1], p) <= 0 {
			h = h[:len(h)-1]
		}
		h = append(h, p)
	}
	return Polygon(h[:len(h)-1])
}

func cmpLen(a, b Length) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
