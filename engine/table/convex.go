package table

// convex is a closed convex region: the convex hull of pts plus every
// non-negative combination of rays (so it may be unbounded: a fire arc's
// wedge, a strip ahead of a base). It is used for exact separating-axis
// tests.
type convex struct {
	pts  []Point  // in boundary order when bounded
	rays []Vector // directions of unbounded extent, any scale
}

// dirVec returns the direction of bearing a scaled by TrigOne.
func dirVec(a Angle) Vector { return Vector{Length(Sin(a)), Length(Cos(a))} }

func perp(v Vector) Vector { return Vector{-v.Y, v.X} }

// span is a projection interval, possibly unbounded on either side.
type span struct {
	lo, hi       int64
	loInf, hiInf bool
}

func (c convex) project(n Vector) span {
	var s span
	for i, p := range c.pts {
		v := int64(p.X)*int64(n.X) + int64(p.Y)*int64(n.Y)
		if i == 0 {
			s.lo, s.hi = v, v
		}
		s.lo, s.hi = min(s.lo, v), max(s.hi, v)
	}
	for _, d := range c.rays {
		switch x := d.Dot(n); {
		case x > 0:
			s.hiInf = true
		case x < 0:
			s.loInf = true
		}
	}
	return s
}

// axes appends candidate separating directions: every edge and ray of c
// and their normals. Extra axes never give a false answer.
func (c convex) axes(out []Vector) []Vector {
	add := func(v Vector) {
		if v != (Vector{}) {
			out = append(out, v, perp(v))
		}
	}
	for i := range c.pts {
		if len(c.pts) > 1 {
			add(c.pts[(i+1)%len(c.pts)].Sub(c.pts[i]))
		}
	}
	for _, d := range c.rays {
		add(d)
	}
	return out
}

// solid reports whether c has an interior (positive area).
func (c convex) solid() bool {
	var gens []Vector
	for _, p := range c.pts[1:] {
		gens = append(gens, p.Sub(c.pts[0]))
	}
	gens = append(gens, c.rays...)
	for i := range gens {
		for j := i + 1; j < len(gens); j++ {
			if gens[i].Cross(gens[j]) != 0 {
				return true
			}
		}
	}
	return false
}

// separated reports whether a line separates a and b. With strict, the
// line must leave a gap (the closed sets are disjoint); without, the sets
// may share boundary points (their interiors are disjoint).
func separated(a, b convex, strict bool) bool {
	axes := a.axes(nil)
	axes = b.axes(axes)
	if len(a.pts) > 0 && len(b.pts) > 0 {
		if d := b.pts[0].Sub(a.pts[0]); d != (Vector{}) {
			axes = append(axes, d)
		}
	}
	for _, n := range axes {
		x, y := a.project(n), b.project(n)
		if apart(x, y, strict) || apart(y, x, strict) {
			return true
		}
	}
	return false
}

// apart reports whether span x lies wholly below span y.
func apart(x, y span, strict bool) bool {
	if x.hiInf || y.loInf {
		return false
	}
	if strict {
		return x.hi < y.lo
	}
	return x.hi <= y.lo
}

// touches reports whether the closed regions share a point.
func touches(a, b convex) bool { return !separated(a, b, true) }

// overlaps reports whether the interiors share a point.
func overlaps(a, b convex) bool {
	return a.solid() && b.solid() && !separated(a, b, false)
}
