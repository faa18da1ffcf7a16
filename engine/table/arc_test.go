package table

import "testing"

func TestArcContainsPoint(t *testing.T) {
	a := Base(p(0, 0), CM(6), CM(2), North) // front edge (-3,0)…(3,0)
	tests := []struct {
		name   string
		spread Angle
		q      Point
		want   bool
	}{
		{"ahead", Deg(45), p(0, 5), true},
		{"ahead of a corner", Deg(45), p(-3, 5), true},
		{"on the left ray", Deg(45), p(-8, 5), true},
		{"just outside the left ray", Deg(45), Pt(-CM(8)-1, CM(5)), false},
		{"on the right ray", Deg(45), p(8, 5), true},
		{"on the front edge", Deg(45), p(1, 0), true},
		{"inside the base", Deg(45), p(0, -1), false},
		{"beside, on the front line", Deg(45), p(10, 0), false},
		{"beside, on the front line, 90", Deg(90), p(10, 0), true},
		{"beside, just behind, 90", Deg(90), Pt(CM(10), -1), false},
		{"beside, just behind, 135", Deg(135), Pt(CM(10), -1), true},
		{"on the 135 ray", Deg(135), p(13, -10), true},
		{"behind, 135", Deg(135), p(0, -10), false},
		{"behind, 180", Deg(180), p(0, -10), false},
		{"behind beside, 180", Deg(180), p(-5, -10), true},
		{"strip edge, 0", 0, p(3, 5), true},
		{"beside the strip, 0", 0, Pt(CM(3)+1, CM(5)), false},
		// tan 67.5° = 2.41421: the ray from (-3, 0) reaches y = 5 at x = -15.07.
		{"inside 67.5", 67500, p(-15, 5), true},
		{"outside 67.5", 67500, p(-16, 5), false},
		{"far ahead, 0", 0, p(0, 4000), true},
	}
	for _, tt := range tests {
		if got := a.Arc(tt.spread).ContainsPoint(tt.q); got != tt.want {
			t.Errorf("%s: ContainsPoint(%v) = %v; want %v", tt.name, tt.q, got, tt.want)
		}
	}
	// A turned base: facing 90° the arc is mirrored onto the x axis.
	e := Base(p(0, 0), CM(6), CM(2), East) // front edge (0,3)…(0,-3)
	if !e.Arc(Deg(45)).ContainsPoint(p(5, 8)) || e.Arc(Deg(45)).ContainsPoint(Pt(CM(5), CM(8)+1)) {
		t.Error("turned arc boundary")
	}
}

func TestArcRects(t *testing.T) {
	a := Base(p(0, 0), CM(6), CM(2), North)
	small := func(x, y int64) Rect { return BaseAt(p(x, y), CM(1), CM(1), South) }
	tests := []struct {
		name              string
		spread            Angle
		t                 Rect
		touches, contains bool
	}{
		{"ahead", Deg(45), inf(p(0, 5), South), true, true},
		{"across the left ray", Deg(45), small(-8, 5), true, false},
		{"outside the left ray", Deg(45), small(-10, 5), false, false},
		{"corner on the ray", Deg(45), BaseAt(Pt(-CM(8)-MM(5), CM(5)+MM(5)), CM(1), CM(1), North), true, false},
		{"behind", Deg(45), small(0, -10), false, false},
		{"behind, 135", Deg(135), small(0, -10), false, false},
		{"beside, 135", Deg(135), small(-10, -2), true, true},
		{"across the front line, 135", Deg(135), BaseAt(p(0, 0), CM(1), CM(2), North), true, false},
		{"across the front line beside, 135", Deg(135), small(-6, 0), true, true},
		{"behind beside, 180", Deg(180), small(-6, -10), true, true},
		{"straight behind, 180", Deg(180), small(0, -10), false, false},
		{"across the rear line, 180", Deg(180), small(-3, -10), true, false},
	}
	for _, tt := range tests {
		arc := a.Arc(tt.spread)
		if got := arc.TouchesRect(tt.t); got != tt.touches {
			t.Errorf("%s: TouchesRect = %v; want %v", tt.name, got, tt.touches)
		}
		if got := arc.ContainsRect(tt.t); got != tt.contains {
			t.Errorf("%s: ContainsRect = %v; want %v", tt.name, got, tt.contains)
		}
	}
}

func TestFractionWithin(t *testing.T) {
	firer := inf(p(0, 0), North) // front edge (-3.25,0)…(3.25,0)
	deep := func(front Point) Rect { return Base(front, MM(65), CM(3), South) }
	tests := []struct {
		name    string
		target  Rect
		want    Fraction
		atLeast bool // at least one third (HRA 13b)
	}{
		{"all in range", inf(p(0, 5), South), Fraction{2600, 2600}, true},
		{"out of range", inf(p(0, 20), South), Fraction{0, 2600}, false},
		{"half in range", inf(p(0, 7), South), Fraction{1300, 2600}, true},
		{"exactly a third", deep(Pt(0, MM(65))), Fraction{2600, 7800}, true},
		{"a millimetre short of a third", deep(Pt(0, MM(66))), Fraction{2340, 7800}, false},
		{"touching the front", inf(p(0, 0), South), Fraction{2600, 2600}, true},
	}
	for _, tt := range tests {
		got := firer.FractionWithin(tt.target, MM(75), 0)
		if got != tt.want || got.AtLeast(1, 3) != tt.atLeast {
			t.Errorf("%s: FractionWithin = %v (≥⅓ %v); want %v (%v)", tt.name, got, got.AtLeast(1, 3), tt.want, tt.atLeast)
		}
	}
	// A coarse grid and a zero-width target still sample.
	if got := SampleFraction(Base(p(0, 0), 0, 0, North), CM(1), func(Point) bool { return true }); got != (Fraction{1, 1}) {
		t.Errorf("point target: %v", got)
	}
	if got := SampleFraction(inf(p(0, 0), North), CM(1), func(q Point) bool { return q.X < 0 }); got != (Fraction{3, 7}) {
		t.Errorf("coarse grid: %v", got) // 7 × 1 cells; centres at ±0.464…, the middle at 0
	}
	if (Fraction{1, 3}).String() != "1/3" || !(Fraction{2, 6}).AtLeast(1, 3) || (Fraction{0, 6}).AtLeast(1, 1000) {
		t.Error("Fraction")
	}
}

func TestSweepForward(t *testing.T) {
	r := Base(p(0, 0), CM(6), CM(2), North) // x -3…3, y -2…0
	block := func(x0, y0, x1, y1 int64) Polygon { return Polygon{p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)} }
	tests := []struct {
		name string
		d    Length
		pg   Polygon
		want bool
	}{
		{"passes over", CM(10), block(0, 5, 1, 6), true},
		{"beside", CM(10), block(4, 5, 5, 6), false},
		{"grazing the side", CM(10), block(3, 5, 5, 6), true},
		{"beyond", CM(10), block(0, 11, 1, 12), false},
		{"at the end", CM(10), block(0, 10, 1, 12), true},
		{"behind, moving back", -CM(10), block(0, -8, 1, -7), true},
		{"no move", 0, block(0, 1, 1, 2), false},
	}
	for _, tt := range tests {
		sw := r.Sweep(ForwardMove(tt.d))
		if got := sw.TouchesPolygon(tt.pg); got != tt.want {
			t.Errorf("%s: TouchesPolygon = %v; want %v", tt.name, got, tt.want)
		}
		if r.TouchesPolygon(tt.pg) || r.Forward(tt.d).TouchesPolygon(tt.pg) && tt.name != "at the end" {
			t.Errorf("%s: start or end position touches; the case tests nothing", tt.name)
		}
	}
	// Another base in the way, and a stream across the path.
	enemy := Base(p(1, 5), CM(6), CM(1), South) // y 5…6
	sw := r.Sweep(ForwardMove(CM(8)))
	if !sw.TouchesRect(enemy) || !sw.OverlapsRect(enemy) {
		t.Error("sweep misses the enemy")
	}
	if r.Sweep(ForwardMove(CM(5))).OverlapsRect(enemy) || !r.Sweep(ForwardMove(CM(5))).TouchesRect(enemy) {
		t.Error("a 5 cm move should reach the enemy without overlapping")
	}
	if !sw.TouchesPolyline(Polyline{p(-10, 3), p(10, 3)}) || sw.TouchesPolyline(Polyline{p(-10, 9), p(10, 9)}) {
		t.Error("sweep and stream")
	}
}

func TestFirstContact(t *testing.T) {
	r := Base(p(0, 0), CM(6), CM(2), North)
	wood := Polygon{p(-1, 5), p(1, 5), p(1, 7), p(-1, 7)}
	hitWood := func(s Sweep) bool { return s.TouchesPolygon(wood) }
	tests := []struct {
		name string
		m    Move
		want Move
		hit  bool
	}{
		{"stops at the edge", ForwardMove(CM(8)), ForwardMove(CM(5)), true},
		{"short of it", ForwardMove(CM(4)), ForwardMove(CM(4)), false},
		{"exactly reaching", ForwardMove(CM(5)), ForwardMove(CM(5)), true},
		{"backwards, away", ForwardMove(-CM(8)), ForwardMove(-CM(8)), false},
	}
	for _, tt := range tests {
		got, hit := r.FirstContact(tt.m, hitWood)
		if got != tt.want || hit != tt.hit {
			t.Errorf("%s: FirstContact = %v, %v; want %v, %v", tt.name, got, hit, tt.want, tt.hit)
		}
	}
	// HRA 5a: withdrawing, the unit stops in contact with what is behind it.
	behind := Base(p(0, -7), CM(6), CM(1), North) // front edge at y = -7
	got, hit := r.FirstContact(ForwardMove(-CM(8)), func(s Sweep) bool { return s.TouchesRect(behind) })
	if !hit || got != ForwardMove(-CM(5)) || !Touch(r.Apply(got), behind) || Overlap(r.Apply(got), behind) {
		t.Errorf("withdrawal contact = %v, %v", got, hit)
	}
	// Starting in contact.
	if got, hit := r.FirstContact(ForwardMove(CM(3)), func(s Sweep) bool { return s.TouchesRect(r) }); !hit || got.Dist != 0 {
		t.Errorf("start in contact = %v, %v", got, hit)
	}
}

func TestSweepWheel(t *testing.T) {
	r := Base(p(0, 0), CM(6), CM(2), North)
	// Wheeling right 90° about (3, 0), the front-left corner swings along a
	// circle of radius 6 cm through (-1.24, 4.24).
	post := Polygon{p(-2, 4), Pt(-CM(1), CM(4)), Pt(-CM(1), MM(45)), Pt(-CM(2), MM(45))}
	m := WheelMove(Right, Deg(90))
	if r.TouchesPolygon(post) || r.Apply(m).TouchesPolygon(post) {
		t.Fatal("start or end touches the post")
	}
	sw := r.Sweep(m)
	if len(sw) != 90 {
		t.Errorf("%d pieces; want 90", len(sw))
	}
	if !sw.TouchesPolygon(post) {
		t.Error("wheel sweep misses the post")
	}
	if !r.Sweep(WheelMove(Left, Deg(90))).TouchesPolygon(post) ||
		r.Sweep(WheelMove(Left, Deg(90))).TouchesPolygon(Polygon{p(5, 4), p(6, 4), p(6, 5)}) {
		t.Error("left wheel sweep")
	}
	// A wall along x = 0 from y = 5 up: first met by the point of the
	// front edge √34 cm from the pivot, at acos(3/√34) = 59.036°.
	wall := Polyline{p(0, 5), p(0, 10)}
	got, hit := r.FirstContact(m, func(s Sweep) bool { return s.TouchesPolyline(wall) })
	if !hit || got.Turn < 59000 || got.Turn > 59080 {
		t.Errorf("wheel contact at %v, %v; want about 59.04°", got.Turn, hit)
	}
	// The last sample of a sweep is exactly where the move ends.
	last := sw[len(sw)-1]
	for _, c := range r.Apply(m).Corners() {
		if !last.Contains(c) {
			t.Errorf("last piece misses corner %v", c)
		}
	}
	if pv := r.Sweep(PivotMove(Deg(45))); len(pv) != 45 || !pv.TouchesPolygon(Polygon{p(-2, 1), Pt(-MM(19), CM(1)), Pt(-MM(19), MM(11))}) {
		t.Error("pivot sweep")
	}
	if pf := r.Sweep(PivotFrontMove(0)); len(pf) != 1 {
		t.Error("zero turn sweep")
	}
}

func TestFollow(t *testing.T) {
	r := Base(p(0, 0), CM(6), CM(2), North)
	moves := []Move{ForwardMove(CM(4)), WheelMove(Right, Deg(90)), ForwardMove(CM(2)), PivotFrontMove(-Deg(90)), PivotMove(Deg(180))}
	got := r.Follow(moves)
	// After the wheel the front is (3, 7) facing east; forward 2 → (5, 7);
	// turning on the front to face north; about-face → front (5, 5) facing south.
	if want := Base(p(5, 5), CM(6), CM(2), South); got != want {
		t.Errorf("Follow = %v; want %v", got, want)
	}
	names := []string{"forward 4cm", "wheel right 90°", "forward 2cm", "pivot on front -90°", "pivot 180°"}
	for i, m := range moves {
		if m.String() != names[i] {
			t.Errorf("String = %q; want %q", m.String(), names[i])
		}
	}
}
