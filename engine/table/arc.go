package table

// Arc is the zone in front of a base bounded by two rays that leave the
// front corners, each turned Spread outwards from straight ahead (the
// base's Facing). Everything straight ahead of the front edge is inside;
// so are the rays and the front edge itself. Spread runs from 0° (a strip
// as wide as the base) to 180° (everything but the strip straight behind
// the base).
//
// HRA 13c/13d give the arc as "straight ahead or at most 135° from the
// front of the base". The angle between a boundary ray and the front edge
// is 90° + Spread, so:
//
//   - the reading of HRA ambiguity H3 (a ray at 135° to the front edge,
//     45° outward from straight ahead) is Spread = 45°;
//   - "a 135° arc centred on the facing" is Spread = 67.5°;
//   - "135° either side of straight ahead" is Spread = 135°.
//
// The rule system chooses; the geometry is exact for all of them (the ray
// directions carry the precision of [Sin]).
type Arc struct {
	Base   Rect
	Spread Angle
}

// Arc returns the arc of r with the given spread; see [Arc].
func (r Rect) Arc(spread Angle) Arc { return Arc{r, spread} }

// pieces returns the convex parts whose union is the arc: the strip ahead
// of the front edge and a wedge at each front corner.
func (a Arc) pieces() [3]convex {
	s := min(max(a.Spread, 0), 180*Degree)
	f := a.Base.Facing
	c := a.Base.Corners()
	u := dirVec(f)
	return [3]convex{
		{pts: []Point{c[0], c[1]}, rays: []Vector{u}},
		{pts: []Point{c[0]}, rays: []Vector{u, dirVec(f - s/2), dirVec(f - s)}},
		{pts: []Point{c[1]}, rays: []Vector{u, dirVec(f + s/2), dirVec(f + s)}},
	}
}

// ContainsPoint reports whether p lies in the arc, exactly.
func (a Arc) ContainsPoint(p Point) bool {
	pc := convex{pts: []Point{p}}
	for _, c := range a.pieces() {
		if touches(c, pc) {
			return true
		}
	}
	return false
}

// TouchesRect reports whether any part of t lies in the arc, exactly.
func (a Arc) TouchesRect(t Rect) bool {
	tc := t.convex()
	for _, c := range a.pieces() {
		if touches(c, tc) {
			return true
		}
	}
	return false
}

// ContainsRect reports whether all of t lies in the arc, exactly.
func (a Arc) ContainsRect(t Rect) bool {
	s := min(max(a.Spread, 0), 180*Degree)
	if s <= 90*Degree {
		// The arc is convex: it holds t when it holds t's corners.
		for _, p := range t.Corners() {
			if !a.ContainsPoint(p) {
				return false
			}
		}
		return true
	}
	// The arc is everything but the open region behind the front edge
	// between the two rays.
	f := a.Base.Facing
	c := a.Base.Corners()
	behind := convex{pts: []Point{c[0], c[1]}, rays: []Vector{dirVec(f - s), dirVec(f + s)}}
	return !overlaps(behind, t.convex())
}
