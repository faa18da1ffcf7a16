package table

import "testing"

func p(x, y int64) Point { return Pt(CM(x), CM(y)) }

func TestSegmentIntersects(t *testing.T) {
	tests := []struct {
		name       string
		s, u       Segment
		intersects bool
		crosses    bool
		kind       IntersectionKind
		at         Point
	}{
		{"X", Seg(p(0, 0), p(4, 4)), Seg(p(0, 4), p(4, 0)), true, true, Crossing, p(2, 2)},
		{"T junction", Seg(p(0, 0), p(4, 0)), Seg(p(2, 0), p(2, 3)), true, false, Crossing, p(2, 0)},
		{"ends touch", Seg(p(0, 0), p(2, 2)), Seg(p(2, 2), p(5, 0)), true, false, Crossing, p(2, 2)},
		{"collinear overlap", Seg(p(0, 0), p(4, 0)), Seg(p(2, 0), p(6, 0)), true, false, Overlapping, p(2, 0)},
		{"collinear contained", Seg(p(0, 0), p(6, 0)), Seg(p(5, 0), p(1, 0)), true, false, Overlapping, p(1, 0)},
		{"collinear end to end", Seg(p(0, 0), p(2, 0)), Seg(p(2, 0), p(5, 0)), true, false, Crossing, p(2, 0)},
		{"collinear apart", Seg(p(0, 0), p(2, 0)), Seg(p(3, 0), p(5, 0)), false, false, Disjoint, Point{}},
		{"parallel", Seg(p(0, 0), p(4, 0)), Seg(p(0, 1), p(4, 1)), false, false, Disjoint, Point{}},
		{"near miss", Seg(p(0, 0), p(4, 0)), Seg(p(2, 1), Pt(CM(2), 1)), false, false, Disjoint, Point{}},
		{"point on segment", Seg(p(1, 1), p(1, 1)), Seg(p(0, 0), p(2, 2)), true, false, Crossing, p(1, 1)},
		{"point off segment", Seg(p(1, 0), p(1, 0)), Seg(p(0, 0), p(2, 2)), false, false, Disjoint, Point{}},
		{"point on collinear extension", Seg(p(3, 3), p(3, 3)), Seg(p(0, 0), p(2, 2)), false, false, Disjoint, Point{}},
		{"same point", Seg(p(1, 1), p(1, 1)), Seg(p(1, 1), p(1, 1)), true, false, Crossing, p(1, 1)},
		{"different points", Seg(p(1, 1), p(1, 1)), Seg(p(1, 2), p(1, 2)), false, false, Disjoint, Point{}},
		{"rational crossing", Seg(Pt(0, 0), Pt(3, 1)), Seg(Pt(0, 1), Pt(3, 0)), true, true, Crossing, Pt(2, 1)}, // (1.5, 0.5) µm rounds away from zero
		{"shallow X", Seg(p(0, 0), p(100, 1)), Seg(p(0, 1), p(100, 0)), true, true, Crossing, Pt(CM(50), MM(5))},
	}
	for _, tt := range tests {
		for i, pair := range [][2]Segment{{tt.s, tt.u}, {tt.u, tt.s}, {tt.s.Reverse(), tt.u}} {
			if got := pair[0].Intersects(pair[1]); got != tt.intersects {
				t.Errorf("%s (%d): Intersects = %v; want %v", tt.name, i, got, tt.intersects)
			}
			if got := pair[0].Crosses(pair[1]); got != tt.crosses {
				t.Errorf("%s (%d): Crosses = %v; want %v", tt.name, i, got, tt.crosses)
			}
		}
		kind, at := tt.s.Intersection(tt.u)
		if kind != tt.kind || at != tt.at {
			t.Errorf("%s: Intersection = %v %v; want %v %v", tt.name, kind, at, tt.kind, tt.at)
		}
	}
}

func TestSegmentDistance(t *testing.T) {
	s := Seg(p(0, 0), p(10, 0))
	tests := []struct {
		name string
		s    Segment
		q    Point
		want Length
	}{
		{"above middle", s, p(4, 3), CM(3)},
		{"beyond end", s, p(13, 4), CM(5)},
		{"before start", s, p(-3, -4), CM(5)},
		{"on segment", s, p(7, 0), 0},
		{"on end", s, p(10, 0), 0},
		{"collinear beyond", s, p(12, 0), CM(2)},
		{"zero-length", Seg(p(1, 1), p(1, 1)), p(4, 5), CM(5)},
		{"diagonal", Seg(p(0, 0), p(10, 10)), p(10, 0), 70711}, // 7.0710678 cm rounds up
		{"one micrometre", s, Pt(CM(5), 1), 1},
		{"irrational rounds up", Seg(Pt(0, 0), Pt(0, 0)), Pt(1, 1), 2},
	}
	for _, tt := range tests {
		if got := tt.s.DistanceTo(tt.q); got != tt.want {
			t.Errorf("%s: DistanceTo = %d; want %d", tt.name, got, tt.want)
		}
		if !tt.s.PointWithin(tt.q, tt.want) || (tt.want > 0 && tt.s.PointWithin(tt.q, tt.want-1)) {
			t.Errorf("%s: PointWithin disagrees with DistanceTo %d", tt.name, tt.want)
		}
	}
	if got := SegmentDistance(s, Seg(p(2, 5), p(8, 3))); got != CM(3) {
		t.Errorf("SegmentDistance = %v; want 3cm", got)
	}
	if got := SegmentDistance(s, Seg(p(2, 5), p(8, -3))); got != 0 {
		t.Errorf("crossing SegmentDistance = %v; want 0", got)
	}
	if got := SegmentDistance(Seg(p(13, 4), p(20, 4)), s); got != CM(5) {
		t.Errorf("SegmentDistance = %v; want 5cm", got)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b Point
		want Length
	}{
		{p(0, 0), p(3, 4), CM(5)},
		{p(0, 0), p(0, 0), 0},
		{Pt(0, 0), Pt(1, 1), 2},
		{p(-60, -40), p(60, 40), 1442221}, // 144.2221 cm
		{Pt(-MaxCoord, -MaxCoord), Pt(MaxCoord, MaxCoord), 1414213563},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%v, %v) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
		if !WithinDistance(tt.a, tt.b, tt.want) || (tt.want > 0 && WithinDistance(tt.a, tt.b, tt.want-1)) {
			t.Errorf("WithinDistance disagrees with Distance for %v %v", tt.a, tt.b)
		}
	}
}

func TestVectorBasics(t *testing.T) {
	v, w := Vector{CM(3), CM(4)}, Vector{CM(-4), CM(3)}
	if v.Add(w) != (Vector{CM(-1), CM(7)}) || v.Sub(w) != (Vector{CM(7), CM(1)}) || v.Neg() != (Vector{CM(-3), CM(-4)}) {
		t.Error("Add/Sub/Neg")
	}
	if v.Dot(w) != 0 || v.Cross(w) != 25*int64(CM(1))*int64(CM(1)) || w.Cross(v) != -v.Cross(w) {
		t.Error("Dot/Cross")
	}
	if v.Len2() != 25*int64(CM(1))*int64(CM(1)) || v.Len() != CM(5) || (Vector{}).Len() != 0 {
		t.Error("Len")
	}
	if v.String() != "<3cm,4cm>" || p(1, 2).String() != "(1cm,2cm)" {
		t.Errorf("String: %v %v", v, p(1, 2))
	}
	if !Pt(MaxCoord, -MaxCoord).Valid() || Pt(MaxCoord+1, 0).Valid() {
		t.Error("Valid")
	}
	if p(1, 2).Add(v).Sub(p(1, 2)) != v {
		t.Error("Point Add/Sub")
	}
	s := Seg(p(0, 0), p(3, 4))
	if s.Vec() != v || s.Len() != CM(5) || s.Reverse() != Seg(p(3, 4), p(0, 0)) {
		t.Error("Segment basics")
	}
	if Length(-5).Abs() != 5 || Angle(-5).Abs() != 5 || Inches.Size() != OneInch || Millimetres.String() != "mm" || Centimetres.Suffix() != "cm" {
		t.Error("Abs/Unit")
	}
	if Disjoint.String() != "disjoint" || Crossing.String() != "crossing" || Overlapping.String() != "overlapping" || Left.String() != "left" || Right.String() != "right" {
		t.Error("String of kinds and sides")
	}
	if lo, hi := square.Bounds(); lo != p(0, 0) || hi != p(10, 10) || square.Edge(3) != Seg(p(0, 10), p(0, 0)) || !square.OnBoundary(p(0, 5)) || square.OnBoundary(p(1, 5)) {
		t.Error("Polygon basics")
	}
}

// TestTurnedConfigurations turns a whole layout about the origin by the
// usual awkward angles: measurements agree with the unturned layout to
// within the rounding of the corners (a few micrometres).
func TestTurnedConfigurations(t *testing.T) {
	for _, a := range []Angle{0, Deg(45), Deg(90), Deg(135), Deg(180), Deg(359), 12345} {
		at := func(x, y int64) Point { return Pt(0, 0).Add(Vector{CM(x), CM(y)}.Rotate(a)) }
		firer := inf(at(0, 0), a)
		target := inf(at(0, 5), a+Deg(180)) // 5 cm ahead, facing back
		near := func(got, want Length) bool { return (got - want).Abs() <= 3 }
		if g := Gap(firer, target); !near(g, CM(5)) {
			t.Errorf("%v: Gap = %v; want 5cm", a, g)
		}
		if !Within(firer, target, CM(5)+3) || Within(firer, target, CM(5)-3) || Touch(firer, target) {
			t.Errorf("%v: Within/Touch", a)
		}
		if f := firer.FractionWithin(target, MM(75), 0); f.Num != f.Den {
			t.Errorf("%v: fraction %v; want all", a, f)
		}
		if f := firer.FractionWithin(inf(at(0, 7), a+Deg(180)), MM(75), 0); f.Num*2 < f.Den-2*130 || f.Num*2 > f.Den+2*130 {
			t.Errorf("%v: fraction %v; want about half", a, f)
		}
		arc := firer.Arc(Deg(45))
		if !arc.ContainsRect(target) || !arc.ContainsPoint(at(-7, 4)) || arc.ContainsPoint(at(-8, 4)) || arc.ContainsPoint(at(0, -1)) {
			t.Errorf("%v: arc", a)
		}
		if arc.TouchesRect(inf(at(0, -5), a)) || !arc.TouchesRect(inf(at(-8, 4), a)) {
			t.Errorf("%v: arc and rects", a)
		}
		wheeled := firer.Wheel(Right, Deg(90))
		if wheeled.Corner(Right) != firer.Corner(Right) || wheeled.Facing != (a+Deg(90)).Norm() {
			t.Errorf("%v: wheel", a)
		}
		if d := Distance(firer.Forward(CM(8)).Front, at(0, 8)); d > 2 {
			t.Errorf("%v: forward 8cm is %v off", a, d)
		}
		if !Overlap(firer, firer.Forward(MM(5))) || Overlap(firer, firer.Forward(CM(1)+5)) {
			t.Errorf("%v: overlap after a move", a)
		}
	}
}
