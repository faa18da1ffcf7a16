package table

import (
	"fmt"
	"math/bits"
)

// Point is a position on the table. X grows east, Y grows north.
type Point struct{ X, Y Length }

// Vector is a displacement on the table.
type Vector struct{ X, Y Length }

// Pt returns the point (x, y).
func Pt(x, y Length) Point { return Point{x, y} }

// Add returns p moved by v.
func (p Point) Add(v Vector) Point { return Point{p.X + v.X, p.Y + v.Y} }

// Sub returns the vector from q to p.
func (p Point) Sub(q Point) Vector { return Vector{p.X - q.X, p.Y - q.Y} }

// Valid reports whether p lies within ±MaxCoord on both axes.
func (p Point) Valid() bool {
	return p.X.Abs() <= MaxCoord && p.Y.Abs() <= MaxCoord
}

// String writes p in centimetres: "(12.5cm,3cm)".
func (p Point) String() string { return fmt.Sprintf("(%v,%v)", p.X, p.Y) }

// Add returns v + w.
func (v Vector) Add(w Vector) Vector { return Vector{v.X + w.X, v.Y + w.Y} }

// Sub returns v − w.
func (v Vector) Sub(w Vector) Vector { return Vector{v.X - w.X, v.Y - w.Y} }

// Neg returns −v.
func (v Vector) Neg() Vector { return Vector{-v.X, -v.Y} }

// Dot returns the dot product in square micrometres.
func (v Vector) Dot(w Vector) int64 { return int64(v.X)*int64(w.X) + int64(v.Y)*int64(w.Y) }

// Cross returns the z component of v × w in square micrometres: positive
// when w points anticlockwise (to the left) of v.
func (v Vector) Cross(w Vector) int64 { return int64(v.X)*int64(w.Y) - int64(v.Y)*int64(w.X) }

// Len2 returns the squared length in square micrometres.
func (v Vector) Len2() int64 { return v.Dot(v) }

// Len returns the length rounded up to a whole micrometre.
func (v Vector) Len() Length { return Length(ceilSqrt(uint64(v.Len2()))) }

// String writes v in centimetres.
func (v Vector) String() string { return fmt.Sprintf("<%v,%v>", v.X, v.Y) }

// Distance returns |pq| rounded up to a whole micrometre, so that
// Distance(p, q) <= r exactly when the true distance is at most r.
func Distance(p, q Point) Length { return q.Sub(p).Len() }

// Dist2 returns the squared distance between p and q in square micrometres.
func Dist2(p, q Point) int64 { return q.Sub(p).Len2() }

// WithinDistance reports whether |pq| <= r, exactly.
func WithinDistance(p, q Point, r Length) bool {
	return r >= 0 && uint64(Dist2(p, q)) <= uint64(r)*uint64(r)
}

// orient returns the sign of (b−a)×(c−a): +1 if c is left of the line a→b
// (anticlockwise), −1 if right, 0 if collinear.
func orient(a, b, c Point) int {
	x := b.Sub(a).Cross(c.Sub(a))
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// inBox reports whether p lies in the bounding box of a and b (used for
// points known to be collinear with a and b).
func inBox(a, b, p Point) bool {
	return min(a.X, b.X) <= p.X && p.X <= max(a.X, b.X) &&
		min(a.Y, b.Y) <= p.Y && p.Y <= max(a.Y, b.Y)
}

// Segment is the closed straight segment from A to B. A zero-length
// segment is a point.
type Segment struct{ A, B Point }

// Seg returns the segment from a to b.
func Seg(a, b Point) Segment { return Segment{a, b} }

// Vec returns B − A.
func (s Segment) Vec() Vector { return s.B.Sub(s.A) }

// Len returns the segment's length rounded up to a whole micrometre.
func (s Segment) Len() Length { return s.Vec().Len() }

// Reverse returns the segment from B to A.
func (s Segment) Reverse() Segment { return Segment{s.B, s.A} }

// Intersects reports whether s and t share at least one point (touching
// ends and collinear overlaps count).
func (s Segment) Intersects(t Segment) bool {
	d1, d2 := orient(t.A, t.B, s.A), orient(t.A, t.B, s.B)
	d3, d4 := orient(s.A, s.B, t.A), orient(s.A, s.B, t.B)
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	return d1 == 0 && inBox(t.A, t.B, s.A) ||
		d2 == 0 && inBox(t.A, t.B, s.B) ||
		d3 == 0 && inBox(s.A, s.B, t.A) ||
		d4 == 0 && inBox(s.A, s.B, t.B)
}

// Crosses reports whether s and t cross properly: they meet in exactly one
// point that is an end of neither.
func (s Segment) Crosses(t Segment) bool {
	d1, d2 := orient(t.A, t.B, s.A), orient(t.A, t.B, s.B)
	d3, d4 := orient(s.A, s.B, t.A), orient(s.A, s.B, t.B)
	return d1*d2 < 0 && d3*d4 < 0
}

// IntersectionKind says how two segments meet.
type IntersectionKind uint8

// Kinds of [Segment.Intersection].
const (
	Disjoint    IntersectionKind = iota // no common point
	Crossing                            // exactly one common point
	Overlapping                         // collinear, sharing a stretch of positive length
)

// String returns "disjoint", "crossing" or "overlapping".
func (k IntersectionKind) String() string {
	switch k {
	case Crossing:
		return "crossing"
	case Overlapping:
		return "overlapping"
	}
	return "disjoint"
}

// Intersection returns how s and t meet and a common point: for a
// Crossing, the meeting point rounded to the nearest micrometre; for
// Overlapping, the end of the shared stretch nearest s.A.
func (s Segment) Intersection(t Segment) (IntersectionKind, Point) {
	if !s.Intersects(t) {
		return Disjoint, Point{}
	}
	r, q := s.Vec(), t.Vec()
	den := r.Cross(q)
	if den != 0 {
		// s.A + r·u with u = (t.A−s.A)×q / r×q.
		num := t.A.Sub(s.A).Cross(q)
		if den < 0 {
			num, den = -num, -den
		}
		return Crossing, Point{
			s.A.X + Length(mulDivRound(int64(r.X), num, den)),
			s.A.Y + Length(mulDivRound(int64(r.Y), num, den)),
		}
	}
	// Parallel and intersecting: collinear (or degenerate).
	cands := []Point{s.A, s.B, t.A, t.B}
	var shared []Point
	for _, p := range cands {
		if inBox(s.A, s.B, p) && inBox(t.A, t.B, p) {
			shared = append(shared, p)
		}
	}
	best := shared[0]
	for _, p := range shared[1:] {
		if Dist2(s.A, p) < Dist2(s.A, best) {
			best = p
		}
	}
	for _, p := range shared {
		if p != best {
			return Overlapping, best
		}
	}
	return Crossing, best
}

// mulDivRound returns a×b/c rounded to nearest (halves away from zero),
// c > 0, computed in 128 bits; the result must fit in 64 bits.
func mulDivRound(a, b, c int64) int64 {
	p := smul(a, b)
	lo, carry := bits.Add64(p.mag.lo, uint64(c/2), 0)
	q, _ := bits.Div64(p.mag.hi+carry, lo, uint64(c))
	if p.neg {
		return -int64(q)
	}
	return int64(q)
}

// sqDistTo returns the exact squared distance from p to s.
func (s Segment) sqDistTo(p Point) sqDist {
	ab, ap := s.Vec(), p.Sub(s.A)
	t := ab.Dot(ap)
	l2 := ab.Len2()
	switch {
	case l2 == 0 || t <= 0:
		return sqDist{u128{0, uint64(ap.Len2())}, 1}
	case t >= l2:
		return sqDist{u128{0, uint64(p.Sub(s.B).Len2())}, 1}
	}
	c := uint64(abs64(ab.Cross(ap)))
	return sqDist{mul128(c, c), uint64(l2)}
}

// DistanceTo returns the distance from p to the nearest point of s,
// rounded up to a whole micrometre.
func (s Segment) DistanceTo(p Point) Length { return s.sqDistTo(p).ceil() }

// PointWithin reports whether p is at most r from s, exactly.
func (s Segment) PointWithin(p Point, r Length) bool { return s.sqDistTo(p).within(r) }

// SegmentDistance returns the least distance between s and t, rounded up
// to a whole micrometre (0 if they intersect).
func SegmentDistance(s, t Segment) Length {
	if s.Intersects(t) {
		return 0
	}
	best := s.sqDistTo(t.A).ceil()
	best = min(best, s.sqDistTo(t.B).ceil())
	best = min(best, t.sqDistTo(s.A).ceil())
	return min(best, t.sqDistTo(s.B).ceil())
}
