package table

import (
	"math/big"
	"testing"
)

func sq(x0, y0, x1, y1 int64) Polygon {
	return Polygon{Pt(Inch(x0), Inch(y0)), Pt(Inch(x1), Inch(y0)), Pt(Inch(x1), Inch(y1)), Pt(Inch(x0), Inch(y1))}
}

func sqIn(n int64) *big.Rat { return new(big.Rat).SetInt64(n * int64(OneInch) * int64(OneInch)) }

func TestAreaAndAreaIn(t *testing.T) {
	p := sq(0, 0, 12, 6)
	if p.Area().Cmp(sqIn(72)) != 0 {
		t.Errorf("12x6 area %v", p.Area())
	}
	// More than half of a piece in a zone (GMB 13.10k): 4 of its 6 rows.
	if got := p.AreaIn(sq(-10, 2, 20, 20)); got.Cmp(sqIn(48)) != 0 {
		t.Errorf("area inside %v; want 48 sq in", got)
	}
	if got := p.AreaIn(sq(20, 20, 30, 30)); got.Sign() != 0 {
		t.Errorf("area inside a far zone %v", got)
	}
}

func TestOverlapConvexIsInteriorOnly(t *testing.T) {
	a := sq(0, 0, 4, 4)
	for _, tc := range []struct {
		b    Polygon
		want bool
	}{
		{sq(2, 2, 6, 6), true},
		{sq(4, 0, 8, 4), false}, // sharing an edge
		{sq(4, 4, 8, 8), false}, // a corner
		{sq(5, 0, 8, 4), false},
		{sq(1, 1, 2, 2), true}, // inside
	} {
		if got := OverlapConvex(a, tc.b); got != tc.want {
			t.Errorf("overlap with %v: %v, want %v", tc.b, got, tc.want)
		}
	}
}

func TestMeetsInterior(t *testing.T) {
	p := sq(0, 0, 4, 4)
	for _, tc := range []struct {
		s    Segment
		want bool
	}{
		{Seg(Pt(-Inch(1), Inch(2)), Pt(Inch(5), Inch(2))), true},  // through it
		{Seg(Pt(-Inch(1), Inch(4)), Pt(Inch(5), Inch(4))), false}, // along its edge
		{Seg(Pt(Inch(4), -Inch(1)), Pt(Inch(6), Inch(2))), false}, // outside
		{Seg(Pt(Inch(1), Inch(1)), Pt(Inch(2), Inch(2))), true},   // inside
	} {
		if got := p.MeetsInterior(tc.s); got != tc.want {
			t.Errorf("%v meets the interior: %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestCloserConvexIsStrict(t *testing.T) {
	a, b := sq(0, 0, 2, 2), sq(5, 0, 7, 2) // 3" apart
	if CloserConvex(a, b, Inch(3)) {
		t.Error("3\" apart is not closer than 3\"")
	}
	if !CloserConvex(a, b, Inch(3)+1) {
		t.Error("3\" apart is closer than 3\" and a micrometre")
	}
	base := Base(Pt(Inch(6), Inch(1)), Inch(2), Inch(2), 0) // x 5..7, y -1..1
	sw := Base(Pt(Inch(1), Inch(2)), Inch(2), Inch(2), 0).Sweep(ForwardMove(Inch(1)))
	if sw.CloserToRect(base, Inch(3)) {
		t.Error("a sweep 3\" away came closer than 3\"")
	}
}

func TestPointWithinAndCentroid(t *testing.T) {
	p := sq(0, 0, 4, 2)
	if !p.PointWithin(Pt(Inch(10), Inch(1)), Inch(6)) || p.PointWithin(Pt(Inch(10)+1, Inch(1)), Inch(6)) {
		t.Error("PointWithin is not exact at 6\"")
	}
	if c := p.Centroid(); c != Pt(Inch(2), Inch(1)) {
		t.Errorf("centroid %v", c)
	}
	tri := Polygon{Pt(0, 0), Pt(Inch(3), 0), Pt(0, Inch(3))}
	if c := tri.Centroid(); c != Pt(Inch(1), Inch(1)) {
		t.Errorf("triangle centroid %v", c)
	}
	if q := p.Translate(Vector{Inch(1), Inch(1)}); q.Centroid() != Pt(Inch(3), Inch(2)) {
		t.Errorf("translated centroid %v", q.Centroid())
	}
}

func TestNearestAndPart(t *testing.T) {
	pl := Polyline{Pt(0, 0), Pt(Inch(10), 0), Pt(Inch(10), Inch(10))}
	n := pl.Nearest(Pt(Inch(12), Inch(4)))
	if n.At != Pt(Inch(10), Inch(4)) || n.Dist != Inch(2) || n.Seg != 1 || n.Along != Inch(14) {
		t.Errorf("nearest %+v", n)
	}
	if q := Seg(Pt(0, 0), Pt(Inch(3), Inch(3))).Nearest(Pt(Inch(3), 0)); q != Pt(Inch(3)/2, Inch(3)/2) {
		t.Errorf("projection %v", q)
	}
	if p := pl.Part(Inch(5), Inch(12)); len(p) != 3 || p[0] != Pt(Inch(5), 0) || p[2] != Pt(Inch(10), Inch(2)) || p.Len() != Inch(7) {
		t.Errorf("part %v", p)
	}
}
