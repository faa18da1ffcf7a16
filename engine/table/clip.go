package table

import (
	"math/big"
)

// Exact areas by polygon clipping. Points are exact rationals (big.Rat),
// so an intersection of two lines through whole-micrometre points is
// represented exactly and every area below is the exact area of the
// polygons involved, not a sample.

// ratPt is a point with exact rational coordinates (in micrometres).
type ratPt struct{ x, y *big.Rat }

// halfPlane is the closed set a·x + b·y <= c.
type halfPlane struct{ a, b, c *big.Rat }

func ratInt(v int64) *big.Rat { return new(big.Rat).SetInt64(v) }

func toRat(p Point) ratPt { return ratPt{ratInt(int64(p.X)), ratInt(int64(p.Y))} }

func ratPoly(pg []Point) []ratPt {
	out := make([]ratPt, len(pg))
	for i, p := range pg {
		out[i] = toRat(p)
	}
	return out
}

// eval returns a·x + b·y − c: <= 0 inside.
func (h halfPlane) eval(p ratPt) *big.Rat {
	v := new(big.Rat).Mul(h.a, p.x)
	v.Add(v, new(big.Rat).Mul(h.b, p.y))
	return v.Sub(v, h.c)
}

// leftOf is the half-plane to the left of the directed line from p
// through p+d (where an anticlockwise polygon's inside lies):
// cross(d, x−p) >= 0, that is d.y·x − d.x·y <= d.y·p.x − d.x·p.y.
func leftOf(p ratPt, dx, dy *big.Rat) halfPlane {
	c := new(big.Rat).Mul(dy, p.x)
	c.Sub(c, new(big.Rat).Mul(dx, p.y))
	return halfPlane{new(big.Rat).Set(dy), new(big.Rat).Neg(dx), c}
}

// edgePlanes returns the half-planes whose intersection is the convex
// polygon pg (either orientation), or the kernel of a non-convex one.
func edgePlanes(pg []ratPt) []halfPlane {
	if len(pg) < 3 {
		return nil
	}
	ccw := signedArea2(pg).Sign() >= 0
	out := make([]halfPlane, 0, len(pg))
	for i := range pg {
		p, q := pg[i], pg[(i+1)%len(pg)]
		if !ccw {
			p, q = q, p
		}
		dx := new(big.Rat).Sub(q.x, p.x)
		dy := new(big.Rat).Sub(q.y, p.y)
		if dx.Sign() == 0 && dy.Sign() == 0 {
			continue
		}
		out = append(out, leftOf(p, dx, dy))
	}
	return out
}

// clipHalf clips the closed polygon chain poly to the half-plane h
// (Sutherland–Hodgman). The result's signed area is the integral of the
// chain's winding number over h, so clipping a simple polygon, or a
// chain that an earlier clip left with zero-width bridges, gives the area
// of its part inside h exactly.
func clipHalf(poly []ratPt, h halfPlane) []ratPt {
	n := len(poly)
	if n == 0 {
		return nil
	}
	vals := make([]*big.Rat, n)
	in := true
	for i, p := range poly {
		vals[i] = h.eval(p)
		if vals[i].Sign() > 0 {
			in = false
		}
	}
	if in {
		return poly
	}
	out := make([]ratPt, 0, n+2)
	for i := range n {
		j := (i + 1) % n
		p, q := poly[i], poly[j]
		fp, fq := vals[i], vals[j]
		if fp.Sign() <= 0 {
			out = append(out, p)
		}
		if fp.Sign()*fq.Sign() < 0 {
			t := new(big.Rat).Sub(fp, fq)
			t.Quo(fp, t)
			x := new(big.Rat).Sub(q.x, p.x)
			x.Mul(x, t).Add(x, p.x)
			y := new(big.Rat).Sub(q.y, p.y)
			y.Mul(y, t).Add(y, p.y)
			out = append(out, ratPt{x, y})
		}
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

func clipAll(poly []ratPt, hs []halfPlane) []ratPt {
	for _, h := range hs {
		if poly = clipHalf(poly, h); poly == nil {
			return nil
		}
	}
	return poly
}

// signedArea2 is twice the signed area (positive anticlockwise).
func signedArea2(pg []ratPt) *big.Rat {
	s := new(big.Rat)
	t := new(big.Rat)
	for i := range pg {
		p, q := pg[i], pg[(i+1)%len(pg)]
		s.Add(s, t.Mul(p.x, q.y))
		s.Sub(s, t.Mul(q.x, p.y))
	}
	return s
}

// area returns the area of the chain (its winding number integrated).
func area(pg []ratPt) *big.Rat {
	a := signedArea2(pg)
	a.Abs(a)
	return a.Quo(a, ratInt(2))
}

// Convex reports whether pg is a convex polygon (either orientation; no
// three consecutive vertices turning both ways).
func (pg Polygon) Convex() bool {
	if len(pg) < 3 {
		return false
	}
	sign := 0
	for i := range pg {
		o := orient(pg[i], pg[(i+1)%len(pg)], pg[(i+2)%len(pg)])
		if o == 0 {
			continue
		}
		if sign == 0 {
			sign = o
		} else if o != sign {
			return false
		}
	}
	return sign != 0
}

// OverlapsUncovered reports whether the swept area and pg share a region
// of positive area that the covers do not cover: a river crossed other
// than at its fords and bridges. The covers must be convex and must not
// overlap each other inside pg. Exact (areas by polygon clipping).
func (s Sweep) OverlapsUncovered(pg Polygon, covers ...Polygon) bool {
	if len(pg) < 3 {
		return false
	}
	var cps [][]halfPlane
	for _, c := range covers {
		cps = append(cps, edgePlanes(ratPoly(c)))
	}
	for _, piece := range s {
		if !piece.TouchesPolygon(pg) || len(piece) < 3 {
			continue
		}
		in := clipAll(ratPoly(pg), edgePlanes(ratPoly(piece)))
		if in == nil {
			continue
		}
		a := area(in)
		if a.Sign() == 0 {
			continue
		}
		covered := new(big.Rat)
		for _, hp := range cps {
			if c := clipAll(in, hp); c != nil {
				covered.Add(covered, area(c))
			}
		}
		if a.Cmp(covered) > 0 {
			return true
		}
	}
	return false
}
