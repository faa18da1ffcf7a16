package table

import "math/big"

// Convex polygons kept as the lines of their edges, for exact clipping
// without rational arithmetic: a vertex is the meeting point of two
// neighbouring edge lines, in homogeneous integer coordinates, so every
// number stays a product of two line coefficients however many times the
// polygon is clipped.

// line is the closed half-plane a·x + b·y <= c.
type line struct{ a, b, c *big.Int }

// hpt is the point (x/w, y/w), w > 0.
type hpt struct{ x, y, w *big.Int }

func bigInt(v int64) *big.Int { return big.NewInt(v) }

func hptOf(p Point) hpt { return hpt{bigInt(int64(p.X)), bigInt(int64(p.Y)), bigInt(1)} }

// meet returns where the boundaries of l and m cross; ok is false if they
// are parallel.
func meet(l, m line) (hpt, bool) {
	w := new(big.Int).Mul(l.a, m.b)
	w.Sub(w, new(big.Int).Mul(m.a, l.b))
	if w.Sign() == 0 {
		return hpt{}, false
	}
	x := new(big.Int).Mul(l.c, m.b)
	x.Sub(x, new(big.Int).Mul(m.c, l.b))
	y := new(big.Int).Mul(l.a, m.c)
	y.Sub(y, new(big.Int).Mul(m.a, l.c))
	if w.Sign() < 0 {
		w.Neg(w)
		x.Neg(x)
		y.Neg(y)
	}
	return hpt{x, y, w}, true
}

// side is the sign of a·x + b·y − c at p: < 0 inside, 0 on the boundary.
func (l line) side(p hpt) int {
	v := new(big.Int).Mul(l.a, p.x)
	v.Add(v, new(big.Int).Mul(l.b, p.y))
	return v.Sub(v, new(big.Int).Mul(l.c, p.w)).Sign()
}

// leftOfLine is the half-plane left of the directed line p → q (where an
// anticlockwise polygon's inside lies). With l = p × q (homogeneous cross
// product) a point r is left exactly when l·r >= 0.
func leftOfLine(p, q hpt) line {
	lx := new(big.Int).Mul(p.y, q.w)
	lx.Sub(lx, new(big.Int).Mul(p.w, q.y))
	ly := new(big.Int).Mul(p.w, q.x)
	ly.Sub(ly, new(big.Int).Mul(p.x, q.w))
	lw := new(big.Int).Mul(p.x, q.y)
	lw.Sub(lw, new(big.Int).Mul(p.y, q.x))
	return line{lx.Neg(lx), ly.Neg(ly), lw}
}

// cpoly is a convex polygon with positive area, anticlockwise, as the
// lines of its edges: vertex i is where lines i−1 and i meet.
type cpoly []line

// cpolyOf returns the convex polygon through the points (anticlockwise or
// clockwise), or nil if it has no area.
func cpolyOf(pts []hpt) cpoly {
	if len(pts) < 3 {
		return nil
	}
	if orientation(pts) < 0 {
		rev := make([]hpt, len(pts))
		for i, p := range pts {
			rev[len(pts)-1-i] = p
		}
		pts = rev
	}
	c := make(cpoly, 0, len(pts))
	for i := range pts {
		c = append(c, leftOfLine(pts[i], pts[(i+1)%len(pts)]))
	}
	return c.tidy()
}

// orientation is the sign of the signed area of the polygon through pts.
func orientation(pts []hpt) int {
	s := new(big.Rat)
	for i := range pts {
		p, q := pts[i], pts[(i+1)%len(pts)]
		num := new(big.Int).Mul(p.x, q.y)
		num.Sub(num, new(big.Int).Mul(q.x, p.y))
		s.Add(s, new(big.Rat).SetFrac(num, new(big.Int).Mul(p.w, q.w)))
	}
	return s.Sign()
}

// tidy drops edges with no direction and merges neighbouring edges on one
// line; it returns nil if the polygon has no area.
func (c cpoly) tidy() cpoly {
	out := c[:0:0]
	for _, l := range c {
		if l.a.Sign() == 0 && l.b.Sign() == 0 {
			continue
		}
		out = append(out, l)
	}
	for changed := true; changed && len(out) >= 3; {
		changed = false
		for i := range out {
			l, m := out[i], out[(i+1)%len(out)]
			cross := new(big.Int).Mul(l.a, m.b)
			cross.Sub(cross, new(big.Int).Mul(m.a, l.b))
			if cross.Sign() != 0 {
				continue
			}
			dot := new(big.Int).Mul(l.a, m.a)
			dot.Add(dot, new(big.Int).Mul(l.b, m.b))
			if dot.Sign() < 0 {
				return nil // opposite edges next to each other: no area
			}
			k := (i + 1) % len(out)
			out = append(out[:k], out[k+1:]...)
			changed = true
			break
		}
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

func (c cpoly) vertices() []hpt {
	vs := make([]hpt, len(c))
	for i := range c {
		v, ok := meet(c[(i+len(c)-1)%len(c)], c[i])
		if !ok {
			return nil
		}
		vs[i] = v
	}
	return vs
}

// clip returns the part of c in h (Sutherland–Hodgman on a convex
// polygon: the run of vertices outside h is replaced by h's edge).
func (c cpoly) clip(h line) cpoly {
	if c == nil || (h.a.Sign() == 0 && h.b.Sign() == 0) {
		if h.c.Sign() < 0 {
			return nil
		}
		return c
	}
	vs := c.vertices()
	if vs == nil {
		return nil
	}
	n := len(c)
	out := make([]bool, n)
	anyIn, anyOut := false, false
	for j, v := range vs {
		s := h.side(v)
		out[j] = s > 0
		anyIn = anyIn || s < 0
		anyOut = anyOut || s > 0
	}
	if !anyOut {
		return c
	}
	if !anyIn {
		return nil
	}
	j0 := 0 // first vertex of the run outside
	for !(out[j0] && !out[(j0+n-1)%n]) {
		j0++
	}
	j1 := j0 // last vertex of the run
	for out[(j1+1)%n] {
		j1 = (j1 + 1) % n
	}
	var r cpoly
	for k := j1; ; k = (k + 1) % n {
		r = append(r, c[k])
		if k == (j0+n-1)%n {
			break
		}
	}
	return append(r, h).tidy()
}

func (c cpoly) clipAll(hs []line) cpoly {
	for _, h := range hs {
		if c = c.clip(h); c == nil {
			return nil
		}
	}
	return c
}

// area returns the polygon's area, exactly.
func (c cpoly) area() *big.Rat {
	s := new(big.Rat)
	vs := c.vertices()
	for i := range vs {
		p, q := vs[i], vs[(i+1)%len(vs)]
		num := new(big.Int).Mul(p.x, q.y)
		num.Sub(num, new(big.Int).Mul(q.x, p.y))
		s.Add(s, new(big.Rat).SetFrac(num, new(big.Int).Mul(p.w, q.w)))
	}
	s.Abs(s)
	return s.Quo(s, big.NewRat(2, 1))
}
