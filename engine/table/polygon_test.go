package table

import (
	"slices"
	"testing"
)

// square is 10 × 10 cm with its south-west corner at the origin.
var square = Polygon{p(0, 0), p(10, 0), p(10, 10), p(0, 10)}

// ell is an L-shaped wood: the square without its north-east quarter.
var ell = Polygon{p(0, 0), p(10, 0), p(10, 5), p(5, 5), p(5, 10), p(0, 10)}

func reversed(pg Polygon) Polygon {
	r := slices.Clone(pg)
	slices.Reverse(r)
	return r
}

func TestPolygonContains(t *testing.T) {
	tests := []struct {
		name   string
		pg     Polygon
		q      Point
		in     bool
		strict bool
	}{
		{"inside", square, p(5, 5), true, true},
		{"outside", square, p(15, 5), false, false},
		{"on edge", square, p(10, 5), true, false},
		{"on vertex", square, p(0, 0), true, false},
		{"just outside", square, Pt(CM(10)+1, CM(5)), false, false},
		{"just inside", square, Pt(CM(10)-1, CM(5)), true, true},
		{"level with a vertex, outside", square, p(-5, 10), false, false},
		{"level with a vertex, inside", ell, p(2, 5), true, true},
		{"notch", ell, p(7, 7), false, false},
		{"notch corner", ell, p(5, 5), true, false},
		{"notch edge", ell, p(7, 5), true, false},
		{"level with reflex vertex", ell, p(12, 5), false, false},
	}
	for _, tt := range tests {
		for _, pg := range []Polygon{tt.pg, reversed(tt.pg)} {
			if got := pg.Contains(tt.q); got != tt.in {
				t.Errorf("%s: Contains = %v; want %v", tt.name, got, tt.in)
			}
			if got := pg.ContainsStrict(tt.q); got != tt.strict {
				t.Errorf("%s: ContainsStrict = %v; want %v", tt.name, got, tt.strict)
			}
		}
	}
}

func TestPolygonTouchesSegment(t *testing.T) {
	tests := []struct {
		name string
		s    Segment
		want bool
	}{
		{"crossing", Seg(p(-5, 5), p(15, 5)), true},
		{"inside", Seg(p(2, 2), p(3, 3)), true},
		{"outside", Seg(p(11, 0), p(11, 10)), false},
		{"touching a corner", Seg(p(10, 5), p(15, 15)), true},
		{"along an edge", Seg(p(0, 10), p(10, 10)), true},
		{"past a corner", Seg(p(9, 11), p(11, 9)), false},
		{"point inside", Seg(p(4, 4), p(4, 4)), true},
		{"into notch only", Seg(p(7, 12), p(7, 6)), false},
	}
	for _, tt := range tests {
		for _, pg := range []Polygon{ell, reversed(ell)} {
			if got := pg.TouchesSegment(tt.s); got != tt.want {
				t.Errorf("%s: TouchesSegment = %v; want %v", tt.name, got, tt.want)
			}
		}
	}
}

func TestLengthInside(t *testing.T) {
	tests := []struct {
		name string
		pg   Polygon
		s    Segment
		want Length
	}{
		{"across", square, Seg(p(-5, 5), p(15, 5)), CM(10)},
		{"wholly inside", square, Seg(p(2, 2), p(5, 6)), CM(5)},
		{"half in", square, Seg(p(5, 5), p(15, 5)), CM(5)},
		{"outside", square, Seg(p(11, 0), p(11, 10)), 0},
		{"along an edge", square, Seg(p(-2, 10), p(12, 10)), CM(10)},
		{"corner only", square, Seg(p(10, 10), p(15, 15)), 0},
		{"diagonal", square, Seg(p(-5, -5), p(15, 15)), 141421}, // 10√2 cm = 14.14214
		{"through the notch", ell, Seg(p(-1, 7), p(11, 7)), CM(5)},
		{"in, out, in", Polygon{p(0, 0), p(10, 0), p(10, 10), p(7, 10), p(7, 3), p(3, 3), p(3, 10), p(0, 10)},
			Seg(p(0, 5), p(10, 5)), CM(6)},
		{"zero length", square, Seg(p(5, 5), p(5, 5)), 0},
		{"slanted, rational ends", square, Seg(p(-3, 0), p(13, 12)), CM(10)}, // enters (0, 2.25), leaves (10, 9.75): 12.5 × 10/16 ... see below
	}
	// The slanted case: the segment has slope 3/4, so the part between x=0
	// and x=10 is 10 × 5/4 = 12.5 cm.
	tests[len(tests)-1].want = MM(125)
	for _, tt := range tests {
		for _, pg := range []Polygon{tt.pg, reversed(tt.pg)} {
			if got := pg.LengthInside(tt.s); got != tt.want {
				t.Errorf("%s: LengthInside = %v; want %v", tt.name, got, tt.want)
			}
			if got := pg.LengthInside(tt.s.Reverse()); got != tt.want {
				t.Errorf("%s reversed: LengthInside = %v; want %v", tt.name, got, tt.want)
			}
		}
	}
}

func TestPathLengthInside(t *testing.T) {
	path := Polyline{p(-5, 5), p(5, 5), p(5, 15), p(20, 15)}
	if got := square.PathLengthInside(path); got != CM(10) {
		t.Errorf("PathLengthInside = %v; want 10cm", got)
	}
	if got := path.Len(); got != CM(35) {
		t.Errorf("Len = %v; want 35cm", got)
	}
	if got := (Polyline{p(1, 1)}).Len(); got != 0 {
		t.Errorf("single point Len = %v", got)
	}
	if got := square.PathLengthInside(Polyline{p(1, 1)}); got != 0 {
		t.Errorf("single point inside = %v", got)
	}
}

func TestContainsPolygon(t *testing.T) {
	tests := []struct {
		name string
		pg   Polygon
		q    Polygon
		want bool
	}{
		{"small inside", square, Polygon{p(1, 1), p(2, 1), p(2, 2)}, true},
		{"itself", square, square, true},
		{"sharing an edge", square, Polygon{p(0, 0), p(5, 0), p(5, 5)}, true},
		{"poking out", square, Polygon{p(1, 1), p(12, 1), p(2, 2)}, false},
		{"across the notch", ell, Polygon{p(4, 4), p(9, 4), p(9, 4), p(4, 9)}, false}, // corners inside, edge crosses the notch
		{"hugging the notch", ell, Polygon{p(1, 1), p(9, 1), p(9, 5), p(5, 5), p(5, 9), p(1, 9)}, true},
		{"outside", square, Polygon{p(20, 20), p(21, 20), p(21, 21)}, false},
	}
	for _, tt := range tests {
		if got := tt.pg.ContainsPolygon(tt.q); got != tt.want {
			t.Errorf("%s: ContainsPolygon = %v; want %v", tt.name, got, tt.want)
		}
	}
}

func TestTouchesPolygon(t *testing.T) {
	tests := []struct {
		name string
		a, b Polygon
		want bool
	}{
		{"overlap", square, Polygon{p(5, 5), p(15, 5), p(15, 15)}, true},
		{"inside", square, Polygon{p(1, 1), p(2, 1), p(2, 2)}, true},
		{"edge contact", square, Polygon{p(10, 0), p(20, 0), p(20, 10), p(10, 10)}, true},
		{"corner contact", square, Polygon{p(10, 10), p(20, 10), p(20, 20)}, true},
		{"apart", square, Polygon{Pt(CM(10)+1, 0), p(20, 0), p(20, 10)}, false},
		{"in the notch", ell, Polygon{p(6, 6), p(9, 6), p(9, 9)}, false},
	}
	for _, tt := range tests {
		if got, back := tt.a.TouchesPolygon(tt.b), tt.b.TouchesPolygon(tt.a); got != tt.want || back != tt.want {
			t.Errorf("%s: TouchesPolygon = %v, %v; want %v", tt.name, got, back, tt.want)
		}
	}
}

func TestPolyline(t *testing.T) {
	fence := Polyline{p(0, 0), p(10, 0), p(10, 10)}
	tests := []struct {
		name           string
		s              Segment
		meets, crosses bool
	}{
		{"across", Seg(p(5, -5), p(5, 5)), true, true},
		{"through the bend", Seg(p(5, -5), p(15, 5)), true, false},
		{"ending on it", Seg(p(5, 5), p(5, 0)), true, false},
		{"missing", Seg(p(5, 1), p(9, 9)), false, false},
		{"along it", Seg(p(2, 0), p(4, 0)), true, false},
	}
	for _, tt := range tests {
		if got := fence.IntersectsSegment(tt.s); got != tt.meets {
			t.Errorf("%s: IntersectsSegment = %v", tt.name, got)
		}
		if got := fence.CrossesSegment(tt.s); got != tt.crosses {
			t.Errorf("%s: CrossesSegment = %v", tt.name, got)
		}
	}
	if n := len(fence.Segments()); n != 2 {
		t.Errorf("Segments: %d", n)
	}
}

func TestConvexHull(t *testing.T) {
	pts := []Point{p(0, 0), p(2, 0), p(1, 1), p(2, 2), p(0, 2), p(1, 0), p(2, 2)}
	want := Polygon{p(0, 0), p(2, 0), p(2, 2), p(0, 2)}
	if got := convexHull(pts); !slices.Equal(got, want) {
		t.Errorf("hull = %v; want %v", got, want)
	}
	if got := convexHull([]Point{p(0, 0), p(1, 1), p(2, 2)}); !slices.Equal(got, Polygon{p(0, 0), p(2, 2)}) {
		t.Errorf("collinear hull = %v", got)
	}
}
