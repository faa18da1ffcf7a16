package table

import "fmt"

// Rect is a rectangular base (or any rectangle that faces a way) placed on
// the table. Its reference point is the midpoint of the front edge, the
// point both rule systems measure moves from (GMB 7.2a, HRA 9b) and the
// place a fire arc starts:
//
//	FL ----- Front ----- FR        Facing: bearing the front faces
//	 |                   |
//	 |      Centre       |  Depth
//	 |                   |
//	RL ------ Rear ----- RR
//	        Width
//
// The corners are computed from Front with two rounded vectors (half the
// frontage sideways, the depth backwards), so every base is an exact
// parallelogram in micrometres, within a micrometre of the true rectangle.
// Bases facing along the axes (0°, 90°, 180°, 270°) are exact.
type Rect struct {
	Front  Point  // midpoint of the front edge
	Width  Length // frontage, along the front edge; >= 0
	Depth  Length // front to rear; >= 0
	Facing Angle  // bearing the front faces; kept in [0°, 360°) by moves
}

// Base returns a base of the given frontage and depth whose front-edge
// midpoint is front and which faces facing.
func Base(front Point, width, depth Length, facing Angle) Rect {
	return Rect{front, width, depth, facing.Norm()}
}

// BaseAt returns a base of the given size whose centre is centre.
func BaseAt(centre Point, width, depth Length, facing Angle) Rect {
	r := Rect{Width: width, Depth: depth, Facing: facing.Norm()}
	r.Front = centre.Add(r.halfDepth())
	return r
}

// String writes the base as "6.5x3cm at (10cm,20cm) facing 45°".
func (r Rect) String() string {
	return fmt.Sprintf("%sx%v at %v facing %v", formatIn(r.Width, Centimetres), r.Depth, r.Front, r.Facing)
}

// Side picks a front corner: the left or right end of the front edge, seen
// from behind the base looking the way it faces.
type Side int8

// Sides of a base.
const (
	Left  Side = -1
	Right Side = 1
)

// String returns "left" or "right".
func (s Side) String() string {
	if s == Left {
		return "left"
	}
	return "right"
}

// halfWidth is the vector from Front to the front-right corner.
func (r Rect) halfWidth() Vector {
	a := r.Facing + 90*Degree
	return Vector{
		X: Length(roundShift(int64(r.Width)*Sin(a), 31)),
		Y: Length(roundShift(int64(r.Width)*Cos(a), 31)),
	}
}

// halfDepth is the vector from the centre to Front.
func (r Rect) halfDepth() Vector {
	return Vector{
		X: Length(roundShift(int64(r.Depth)*Sin(r.Facing), 31)),
		Y: Length(roundShift(int64(r.Depth)*Cos(r.Facing), 31)),
	}
}

// depth is the vector from the rear edge to the front edge.
func (r Rect) depth() Vector { return Heading(r.Facing, r.Depth) }

// Corners returns the corners clockwise from the front left: front-left,
// front-right, rear-right, rear-left.
func (r Rect) Corners() [4]Point {
	hw, dd := r.halfWidth(), r.depth()
	fl, fr := r.Front.Add(hw.Neg()), r.Front.Add(hw)
	return [4]Point{fl, fr, fr.Add(dd.Neg()), fl.Add(dd.Neg())}
}

// Corner returns the front corner on side s.
func (r Rect) Corner(s Side) Point {
	if s == Left {
		return r.Front.Add(r.halfWidth().Neg())
	}
	return r.Front.Add(r.halfWidth())
}

// Centre returns the centre of the base (within half a micrometre).
func (r Rect) Centre() Point { return r.Front.Add(r.halfDepth().Neg()) }

// Rear returns the midpoint of the rear edge.
func (r Rect) Rear() Point { return r.Front.Add(r.depth().Neg()) }

// FrontEdge returns the front edge from the front-left to the front-right
// corner.
func (r Rect) FrontEdge() Segment {
	c := r.Corners()
	return Segment{c[0], c[1]}
}

// Polygon returns the corners as a polygon (clockwise).
func (r Rect) Polygon() Polygon {
	c := r.Corners()
	return Polygon(c[:])
}

func (r Rect) convex() convex {
	c := r.Corners()
	return convex{pts: c[:]}
}

// Forward returns the base moved d straight ahead (backwards if d < 0)
// without turning (HRA 9b translation, HRA 5a withdrawal). Moves add
// exactly: Forward(a).Forward(b) is Forward(b).Forward(a).
func (r Rect) Forward(d Length) Rect {
	r.Front = r.Front.Add(Heading(r.Facing, d))
	return r
}

// Shift returns the base moved by v without turning.
func (r Rect) Shift(v Vector) Rect {
	r.Front = r.Front.Add(v)
	return r
}

// Wheel returns the base rotated by a about its front corner on side s
// (HRA 9b). A left wheel keeps the front-left corner fixed and turns the
// base to the left (anticlockwise) by a; a right wheel keeps the
// front-right corner and turns right. A negative a swings the base
// backwards. The fixed corner stays exactly where it was.
func (r Rect) Wheel(s Side, a Angle) Rect {
	if s != Left {
		s = Right
	}
	pivot := r.Corner(s)
	r.Facing = (r.Facing + Angle(s)*a).Norm()
	hw := r.halfWidth()
	if s == Left {
		r.Front = pivot.Add(hw)
	} else {
		r.Front = pivot.Add(hw.Neg())
	}
	return r
}

// PivotFront returns the base turned by a (clockwise if positive) about the
// midpoint of its front edge (the GMB 7.3c wheel). Front does not move.
func (r Rect) PivotFront(a Angle) Rect {
	r.Facing = (r.Facing + a).Norm()
	return r
}

// Pivot returns the base turned by a (clockwise if positive) about its
// centre (HRA 9b rotation about the unit's own axis, GMB 7.3d). The centre
// stays exactly where it was, so pivots commute: Pivot(a).Pivot(b) equals
// Pivot(b).Pivot(a) and Pivot(a+b).
func (r Rect) Pivot(a Angle) Rect {
	c := r.Centre()
	r.Facing = (r.Facing + a).Norm()
	r.Front = c.Add(r.halfDepth())
	return r
}

// AboutFace returns the base turned 180° about its centre (HRA 5b, 9c):
// the old rear edge becomes the front. Twice is the identity.
func (r Rect) AboutFace() Rect { return r.Pivot(180 * Degree) }

// RotateAbout returns the base turned by a (clockwise if positive) about
// the point p.
func (r Rect) RotateAbout(p Point, a Angle) Rect {
	r.Front = p.Add(r.Front.Sub(p).Rotate(a))
	r.Facing = (r.Facing + a).Norm()
	return r
}

// Contains reports whether p is on or inside the base, exactly.
func (r Rect) Contains(p Point) bool { return cornersContain(r.Corners(), p) }

// cornersContain is Contains for the base whose Corners are c: a caller
// testing many points against one base works its corners out once.
func cornersContain(c [4]Point, p Point) bool {
	if c[0] == c[1] || c[1] == c[2] {
		// No width or no depth: a segment or a point.
		return touches(convex{pts: c[:]}, convex{pts: []Point{p}})
	}
	for i := range 4 {
		if orient(c[i], c[(i+1)%4], p) > 0 { // clockwise: inside is right
			return false
		}
	}
	return true
}

// Touch reports whether bases a and b share at least one point (edges or
// corners in contact count): "bases touch" (HRA 11a). Exact.
func Touch(a, b Rect) bool { return touches(a.convex(), b.convex()) }

// Overlap reports whether the interiors of a and b meet: one base stands
// on another (a collision). Bases merely in contact do not overlap. A base
// with no width or no depth overlaps nothing. Exact.
func Overlap(a, b Rect) bool { return overlaps(a.convex(), b.convex()) }

// TouchesPolygon reports whether the base has a point in pg (contact with a
// terrain area).
func (r Rect) TouchesPolygon(pg Polygon) bool { return r.Polygon().TouchesPolygon(pg) }

// InPolygon reports whether the whole base lies in pg; see
// [Polygon.ContainsPolygon].
func (r Rect) InPolygon(pg Polygon) bool { return pg.ContainsPolygon(r.Polygon()) }

// TouchesSegment reports whether the segment has a point on or in the base
// (a line of fire passing a base).
func (r Rect) TouchesSegment(s Segment) bool { return r.Polygon().TouchesSegment(s) }

// TouchesPolyline reports whether the base meets the polyline (a fence, a
// stream).
func (r Rect) TouchesPolyline(pl Polyline) bool { return r.Polygon().TouchesPolyline(pl) }

// edges returns the four edges, clockwise from the front edge.
func (r Rect) edges() [4]Segment {
	c := r.Corners()
	return [4]Segment{{c[0], c[1]}, {c[1], c[2]}, {c[2], c[3]}, {c[3], c[0]}}
}

// DistanceTo returns the distance from p to the nearest point of the base
// (0 inside), rounded up to a whole micrometre.
func (r Rect) DistanceTo(p Point) Length {
	if r.Contains(p) {
		return 0
	}
	best := Length(-1)
	for _, e := range r.edges() {
		d := e.sqDistTo(p).ceil()
		if best < 0 || d < best {
			best = d
		}
	}
	return best
}

// PointWithin reports whether p is at most d from the base (HRA 13b: "no
// more than 7.5 cm from any point on the edge of its base"), exactly.
func (r Rect) PointWithin(p Point, d Length) bool {
	if r.Contains(p) {
		return true
	}
	for _, e := range r.edges() {
		if e.sqDistTo(p).within(d) {
			return true
		}
	}
	return false
}

// Gap returns the least distance between bases a and b, edge to edge, 0 if
// they touch or overlap, rounded up to a whole micrometre, so Gap(a, b) <=
// r exactly when the bases are within r of each other. Gap is symmetric.
func Gap(a, b Rect) Length {
	if Touch(a, b) {
		return 0
	}
	best := Length(-1)
	for _, d := range pairDists(a, b) {
		if c := d.ceil(); best < 0 || c < best {
			best = c
		}
	}
	return best
}

// Within reports whether bases a and b are at most r apart, exactly.
func Within(a, b Rect, r Length) bool {
	if Touch(a, b) {
		return true
	}
	for _, d := range pairDists(a, b) {
		if d.within(r) {
			return true
		}
	}
	return false
}

// Closer reports whether bases a and b are less than r apart, exactly
// (GMB 7.4b: "no unit may come closer than 1 inch").
func Closer(a, b Rect, r Length) bool {
	if Touch(a, b) {
		return r > 0
	}
	for _, d := range pairDists(a, b) {
		if d.below(r) {
			return true
		}
	}
	return false
}

// pairDists lists the corner-to-edge distances both ways; for disjoint
// convex shapes the least of them is the distance between the shapes.
func pairDists(a, b Rect) []sqDist {
	out := make([]sqDist, 0, 32)
	ac, bc := a.Corners(), b.Corners()
	for _, e := range a.edges() {
		for _, p := range bc {
			out = append(out, e.sqDistTo(p))
		}
	}
	for _, e := range b.edges() {
		for _, p := range ac {
			out = append(out, e.sqDistTo(p))
		}
	}
	return out
}
