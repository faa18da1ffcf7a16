package table

import "testing"

// inf is an HRA infantry regiment: 6.5 cm frontage, 1 cm deep.
func inf(front Point, facing Angle) Rect { return Base(front, MM(65), CM(1), facing) }

func TestCorners(t *testing.T) {
	tests := []struct {
		name string
		r    Rect
		want [4]Point
	}{
		{"north", Base(p(10, 10), CM(6), CM(2), North), [4]Point{p(7, 10), p(13, 10), p(13, 8), p(7, 8)}},
		{"east", Base(p(10, 10), CM(6), CM(2), East), [4]Point{p(10, 13), p(10, 7), p(8, 7), p(8, 13)}},
		{"south", Base(p(10, 10), CM(6), CM(2), South), [4]Point{p(13, 10), p(7, 10), p(7, 12), p(13, 12)}},
		{"west", Base(p(10, 10), CM(6), CM(2), West), [4]Point{p(10, 7), p(10, 13), p(12, 13), p(12, 7)}},
		{"360 is north", Base(p(10, 10), CM(6), CM(2), Deg(360)), [4]Point{p(7, 10), p(13, 10), p(13, 8), p(7, 8)}},
		// 45°: half-width 3 cm along 135° = (2.12132, -2.12132); depth 2 cm along 45° = (1.41421, 1.41421).
		{"45", Base(p(10, 10), CM(6), CM(2), Deg(45)), [4]Point{
			Pt(CM(10)-21213, CM(10)+21213), Pt(CM(10)+21213, CM(10)-21213),
			Pt(CM(10)+21213-14142, CM(10)-21213-14142), Pt(CM(10)-21213-14142, CM(10)+21213-14142)}},
		{"135", Base(p(0, 0), CM(6), CM(2), Deg(135)), [4]Point{
			Pt(21213, 21213), Pt(-21213, -21213), Pt(-21213-14142, -21213+14142), Pt(21213-14142, 21213+14142)}},
		// 359°: sin = -0.0174524, cos = 0.9998477.
		{"359", Base(p(0, 0), CM(6), CM(2), Deg(359)), [4]Point{
			Pt(-29995, -524), Pt(29995, 524), Pt(29995+349, 524-19997), Pt(-29995+349, -524-19997)}},
		{"zero width", Base(p(0, 0), 0, CM(2), North), [4]Point{p(0, 0), p(0, 0), p(0, -2), p(0, -2)}},
	}
	for _, tt := range tests {
		if got := tt.r.Corners(); got != tt.want {
			t.Errorf("%s: Corners = %v; want %v", tt.name, got, tt.want)
		}
	}
	r := Base(p(10, 10), CM(6), CM(2), North)
	if r.Centre() != p(10, 9) || r.Rear() != p(10, 8) || r.Corner(Left) != p(7, 10) || r.Corner(Right) != p(13, 10) {
		t.Errorf("Centre %v Rear %v corners %v %v", r.Centre(), r.Rear(), r.Corner(Left), r.Corner(Right))
	}
	if got := BaseAt(p(10, 9), CM(6), CM(2), North); got != r {
		t.Errorf("BaseAt = %v; want %v", got, r)
	}
	if got := r.FrontEdge(); got != Seg(p(7, 10), p(13, 10)) {
		t.Errorf("FrontEdge = %v", got)
	}
	if got := r.String(); got != "6x2cm at (10cm,10cm) facing 0°" {
		t.Errorf("String = %q", got)
	}
}

func TestForward(t *testing.T) {
	tests := []struct {
		facing Angle
		d      Length
		want   Point
	}{
		{North, CM(8), p(0, 8)},
		{East, CM(8), p(8, 0)},
		{South, CM(8), p(0, -8)},
		{West, -CM(4), p(4, 0)}, // HRA 5a withdrawal: backwards without turning
		{Deg(45), CM(10), Pt(70711, 70711)},
		{Deg(135), CM(10), Pt(70711, -70711)},
		{Deg(359), CM(10), Pt(-1745, 99985)},
		{North, 0, p(0, 0)},
	}
	for _, tt := range tests {
		r := inf(p(0, 0), tt.facing).Forward(tt.d)
		if r.Front != tt.want || r.Facing != tt.facing.Norm() {
			t.Errorf("facing %v forward %v: %v; want front %v", tt.facing, tt.d, r, tt.want)
		}
	}
	r := inf(p(3, 4), Deg(33))
	if a, b := r.Forward(CM(3)).Forward(MM(45)), r.Forward(MM(45)).Forward(CM(3)); a != b {
		t.Errorf("forward moves do not commute: %v vs %v", a, b)
	}
	if got := r.Forward(CM(5)).Forward(-CM(5)); got != r {
		t.Errorf("forward and back = %v; want %v", got, r)
	}
	if got := r.Shift(Vector{CM(1), CM(2)}).Front; got != p(4, 6) {
		t.Errorf("Shift = %v", got)
	}
}

func TestWheel(t *testing.T) {
	r := Base(p(0, 0), CM(6), CM(2), North)
	tests := []struct {
		name string
		got  Rect
		want [4]Point
	}{
		// Right wheel 90°: the front-right corner (3, 0) stays, the base faces east.
		{"right 90", r.Wheel(Right, Deg(90)), [4]Point{p(3, 6), p(3, 0), p(1, 0), p(1, 6)}},
		// Left wheel 90°: the front-left corner (-3, 0) stays, the base faces west.
		{"left 90", r.Wheel(Left, Deg(90)), [4]Point{p(-3, 0), p(-3, 6), p(-1, 6), p(-1, 0)}},
		{"right 180", r.Wheel(Right, Deg(180)), [4]Point{p(9, 0), p(3, 0), p(3, 2), p(9, 2)}},
		{"left 0", r.Wheel(Left, 0), r.Corners()},
		{"right 360", r.Wheel(Right, Deg(360)), r.Corners()},
		{"backwards right 90", r.Wheel(Right, -Deg(90)), [4]Point{p(3, -6), p(3, 0), p(5, 0), p(5, -6)}},
	}
	for _, tt := range tests {
		if c := tt.got.Corners(); c != tt.want {
			t.Errorf("%s: corners %v; want %v", tt.name, c, tt.want)
		}
	}
	for _, a := range []Angle{Deg(45), Deg(90), Deg(135), Deg(180), Deg(359), 1, 12345} {
		for _, s := range []Side{Left, Right} {
			b := inf(p(20, 30), Deg(17))
			w := b.Wheel(s, a)
			if w.Corner(s) != b.Corner(s) {
				t.Errorf("wheel %v %v moved the pivot corner: %v → %v", s, a, b.Corner(s), w.Corner(s))
			}
			if want := (b.Facing + Angle(s)*a).Norm(); w.Facing != want {
				t.Errorf("wheel %v %v: facing %v; want %v", s, a, w.Facing, want)
			}
		}
	}
	// Wheeling 45° twice equals wheeling 90° once: the corner is fixed
	// exactly and the position depends only on the final facing.
	if a, b := r.Wheel(Left, Deg(45)).Wheel(Left, Deg(45)), r.Wheel(Left, Deg(90)); a != b {
		t.Errorf("two 45° wheels %v; one 90° wheel %v", a, b)
	}
}

func TestPivot(t *testing.T) {
	r := Base(p(0, 0), CM(6), CM(2), North)
	if got := r.Pivot(Deg(90)).Corners(); got != [4]Point{p(1, 2), p(1, -4), p(-1, -4), p(-1, 2)} {
		t.Errorf("Pivot 90 corners %v", got)
	}
	af := r.AboutFace()
	if af.Front != p(0, -2) || af.Facing != South || af.Centre() != r.Centre() {
		t.Errorf("AboutFace = %v", af)
	}
	if af.AboutFace() != r {
		t.Errorf("two about-faces = %v; want %v", af.AboutFace(), r)
	}
	b := inf(p(20, 30), Deg(17))
	for _, a := range []Angle{Deg(45), Deg(90), Deg(135), Deg(180), Deg(359), 1, -Deg(30)} {
		if b.Pivot(a).Centre() != b.Centre() {
			t.Errorf("pivot %v moved the centre", a)
		}
		if x, y := b.Pivot(a).Pivot(Deg(20)), b.Pivot(Deg(20)).Pivot(a); x != y || x != b.Pivot(a+Deg(20)) {
			t.Errorf("pivots %v and 20° do not commute: %v %v", a, x, y)
		}
		pf := b.PivotFront(a)
		if pf.Front != b.Front || pf.Facing != (b.Facing+a).Norm() {
			t.Errorf("PivotFront %v = %v", a, pf)
		}
	}
	// Rotating about an outside point.
	got := Base(p(10, 0), CM(2), CM(1), North).RotateAbout(p(0, 0), Deg(90))
	if got.Front != p(0, -10) || got.Facing != East {
		t.Errorf("RotateAbout = %v", got)
	}
}

func TestTouchOverlap(t *testing.T) {
	a := Base(p(0, 0), CM(6), CM(2), North) // x -3…3, y -2…0
	tests := []struct {
		name           string
		b              Rect
		touch, overlap bool
		gap            Length
	}{
		{"apart", Base(p(0, 5), CM(6), CM(2), North), false, false, CM(3)},
		{"front to rear", Base(p(0, 2), CM(6), CM(2), North), true, false, 0},
		{"side by side", Base(p(6, 0), CM(6), CM(2), North), true, false, 0},
		{"corner to corner", Base(p(6, 2), CM(6), CM(2), North), true, false, 0},
		{"one micrometre apart", Base(Pt(CM(6)+1, 0), CM(6), CM(2), North), false, false, 1},
		{"overlapping", Base(p(2, 1), CM(6), CM(2), North), true, true, 0},
		{"identical", a, true, true, 0},
		{"facing each other", Base(p(0, -2), CM(6), CM(2), South), true, true, 0},
		{"front to front", Base(p(0, 0), CM(6), CM(2), South), true, false, 0},
		{"inside", Base(Pt(0, -MM(5)), CM(1), CM(1), East), true, true, 0},
		{"diagonal apart", Base(p(6, 4), CM(6), CM(2), North), false, false, CM(2)}, // (3,0) to (3,2)
		{"corner gap √13", Base(p(9, 4), CM(6), CM(2), North), false, false, 36056}, // (3,0) to (6,2): 3.60555 cm
		{"3-4-5 corners", Base(p(9, 6), CM(6), CM(2), North), false, false, CM(5)},  // (3,0) to (6,4)
		// A 2 cm square turned 45° has its lowest corner 14142 µm below its centre.
		{"45° corner on the front edge", BaseAt(Pt(0, 14142), CM(2), CM(2), Deg(45)), true, false, 0},
		{"45° corner just above", BaseAt(Pt(0, 14142+2), CM(2), CM(2), Deg(45)), false, false, 2},
		{"45° corner dipping in", BaseAt(Pt(0, 14142-100), CM(2), CM(2), Deg(45)), true, true, 0},
		{"zero-width on the edge", Base(p(0, 3), 0, CM(3), North), true, false, 0},
		{"zero-width crossing", Base(p(0, 1), 0, CM(3), North), true, false, 0},
	}
	for _, tt := range tests {
		for i, pair := range [][2]Rect{{a, tt.b}, {tt.b, a}} {
			if got := Touch(pair[0], pair[1]); got != tt.touch {
				t.Errorf("%s (%d): Touch = %v; want %v", tt.name, i, got, tt.touch)
			}
			if got := Overlap(pair[0], pair[1]); got != tt.overlap {
				t.Errorf("%s (%d): Overlap = %v; want %v", tt.name, i, got, tt.overlap)
			}
			if got := Gap(pair[0], pair[1]); got != tt.gap {
				t.Errorf("%s (%d): Gap = %v; want %v", tt.name, i, got, tt.gap)
			}
			if !Within(pair[0], pair[1], tt.gap) || (tt.gap > 0 && Within(pair[0], pair[1], tt.gap-1)) {
				t.Errorf("%s (%d): Within disagrees with Gap %v", tt.name, i, tt.gap)
			}
			if (tt.gap > 0 && Closer(pair[0], pair[1], tt.gap-1)) || !Closer(pair[0], pair[1], tt.gap+1) {
				t.Errorf("%s (%d): Closer disagrees with Gap %v", tt.name, i, tt.gap)
			}
		}
	}
}

func TestPointDistance(t *testing.T) {
	r := Base(p(0, 0), CM(6), CM(2), North) // x -3…3, y -2…0
	tests := []struct {
		name string
		q    Point
		want Length
	}{
		{"centre", p(0, -1), 0},
		{"on the front edge", p(1, 0), 0},
		{"on a corner", p(3, 0), 0},
		{"ahead", p(1, 5), CM(5)},
		{"beside", p(-8, -1), CM(5)},
		{"behind", p(0, -9), CM(7)},
		{"off a corner", p(6, 4), CM(5)},
		{"HRA 13b: 7.5 cm ahead", Pt(CM(2), MM(75)), MM(75)},
		{"HRA 13b: corner radius", Pt(CM(3)+60000, 45000), MM(75)}, // 6-4.5-7.5
	}
	for _, tt := range tests {
		if got := r.DistanceTo(tt.q); got != tt.want {
			t.Errorf("%s: DistanceTo = %v; want %v", tt.name, got, tt.want)
		}
		if !r.PointWithin(tt.q, tt.want) || (tt.want > 0 && r.PointWithin(tt.q, tt.want-1)) {
			t.Errorf("%s: PointWithin disagrees", tt.name)
		}
		if got := r.Contains(tt.q); got != (tt.want == 0) {
			t.Errorf("%s: Contains = %v", tt.name, got)
		}
	}
}

func TestRectTerrain(t *testing.T) {
	wood := Polygon{p(0, 0), p(20, 0), p(20, 20), p(0, 20)}
	tests := []struct {
		name         string
		r            Rect
		touches, in  bool
		fenceTouches bool
	}{
		{"inside", inf(p(10, 10), North), true, true, false},
		{"edge on the boundary", inf(p(10, 20), North), true, true, false},
		{"half out", inf(p(19, 10), North), true, false, false},
		{"outside, touching", inf(p(10, 21), North), true, false, true},
		{"outside", inf(p(10, 25), North), false, false, false},
	}
	fence := Polyline{p(0, 21), p(20, 21)}
	for _, tt := range tests {
		if got := tt.r.TouchesPolygon(wood); got != tt.touches {
			t.Errorf("%s: TouchesPolygon = %v", tt.name, got)
		}
		if got := tt.r.InPolygon(wood); got != tt.in {
			t.Errorf("%s: InPolygon = %v", tt.name, got)
		}
		if got := tt.r.TouchesPolyline(fence); got != tt.fenceTouches {
			t.Errorf("%s: TouchesPolyline = %v", tt.name, got)
		}
	}
	r := inf(p(10, 10), North)
	if !r.TouchesSegment(Seg(p(0, 9), p(20, 9))) || r.TouchesSegment(Seg(p(0, 11), p(20, 11))) {
		t.Error("TouchesSegment")
	}
}
