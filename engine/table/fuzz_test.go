package table

import "testing"

// fuzzRect builds a base within ±1 m with sides up to 20 cm.
func fuzzRect(x, y int32, w, d uint16, f int32) Rect {
	return Base(Pt(Length(x%1000000), Length(y%1000000)), Length(w)*3, Length(d)*3, Angle(f))
}

func FuzzRectPair(f *testing.F) {
	f.Add(int32(0), int32(0), uint16(21667), uint16(3333), int32(0), int32(65000), int32(0), uint16(21667), uint16(3333), int32(0))
	f.Add(int32(0), int32(0), uint16(20000), uint16(6667), int32(45000), int32(1000), int32(20000), uint16(10000), uint16(3333), int32(135000))
	f.Add(int32(5), int32(-7), uint16(0), uint16(0), int32(359000), int32(5), int32(-7), uint16(1), uint16(0), int32(180000))
	f.Add(int32(-300000), int32(120000), uint16(11667), uint16(3333), int32(-90000), int32(-290000), int32(125000), uint16(11667), uint16(3333), int32(90000))
	f.Fuzz(func(t *testing.T, x1, y1 int32, w1, d1 uint16, f1, x2, y2 int32, w2, d2 uint16, f2 int32) {
		a, b := fuzzRect(x1, y1, w1, d1, f1), fuzzRect(x2, y2, w2, d2, f2)
		gap := Gap(a, b)
		if gap != Gap(b, a) || Touch(a, b) != Touch(b, a) || Overlap(a, b) != Overlap(b, a) {
			t.Fatalf("asymmetric: %v %v", a, b)
		}
		if Overlap(a, b) && !Touch(a, b) {
			t.Fatalf("overlap without touch: %v %v", a, b)
		}
		if (gap == 0) != Touch(a, b) {
			t.Fatalf("gap %v but touch %v: %v %v", gap, Touch(a, b), a, b)
		}
		if !Within(a, b, gap) || (gap > 0 && Within(a, b, gap-1)) {
			t.Fatalf("Within disagrees with gap %v: %v %v", gap, a, b)
		}
		for _, c := range b.Corners() {
			if a.DistanceTo(c) < gap {
				t.Fatalf("corner %v nearer than the gap %v", c, gap)
			}
		}
		if !Touch(a, a) || Gap(a, a) != 0 {
			t.Fatalf("a base does not touch itself: %v", a)
		}
		if a.AboutFace().AboutFace() != a {
			t.Fatalf("two about-faces move %v", a)
		}
		if a.Wheel(Left, Angle(f2)).Corner(Left) != a.Corner(Left) {
			t.Fatalf("wheel moved its pivot: %v", a)
		}
	})
}

func FuzzSegmentPair(f *testing.F) {
	f.Add(int32(0), int32(0), int32(40000), int32(40000), int32(0), int32(40000), int32(40000), int32(0))
	f.Add(int32(0), int32(0), int32(40000), int32(0), int32(20000), int32(0), int32(60000), int32(0))
	f.Add(int32(1), int32(1), int32(1), int32(1), int32(0), int32(0), int32(2), int32(2))
	f.Fuzz(func(t *testing.T, ax, ay, bx, by, cx, cy, dx, dy int32) {
		m := func(v int32) Length { return Length(v % 1000000) }
		s := Seg(Pt(m(ax), m(ay)), Pt(m(bx), m(by)))
		u := Seg(Pt(m(cx), m(cy)), Pt(m(dx), m(dy)))
		in := s.Intersects(u)
		if in != u.Intersects(s) || in != s.Reverse().Intersects(u) || in != s.Intersects(u.Reverse()) {
			t.Fatalf("Intersects not symmetric: %v %v", s, u)
		}
		if s.Crosses(u) && !in {
			t.Fatalf("crosses without intersecting: %v %v", s, u)
		}
		d := SegmentDistance(s, u)
		if d != SegmentDistance(u, s) || (d == 0) != in {
			t.Fatalf("distance %v, intersects %v: %v %v", d, in, s, u)
		}
		if kind, at := s.Intersection(u); kind == Crossing && (s.DistanceTo(at) > 1 || u.DistanceTo(at) > 1) {
			t.Fatalf("crossing point %v is off the segments %v %v", at, s, u)
		}
	})
}

func FuzzTrig(f *testing.F) {
	for _, a := range []int64{0, 1, 45000, 90000, 135000, 180000, 359000, 359999, -1, 12345} {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, a int64) {
		ang := Angle(a % (100 * int64(FullTurn)))
		s, c := Sin(ang), Cos(ang)
		if n := s*s + c*c - TrigOne*TrigOne; n > 4*TrigOne || n < -4*TrigOne {
			t.Fatalf("sin² + cos² off by %d at %v", n, ang)
		}
		if got := Heading(ang, CM(100)).Bearing(); got != ang.Norm() {
			t.Fatalf("Heading(%v).Bearing() = %v", ang, got)
		}
		if Sin(ang) != Sin(ang.Norm()) || Sin(ang) != -Sin(-ang) {
			t.Fatalf("symmetry at %v", ang)
		}
	})
}

func TestBearingRoundTripAll(t *testing.T) {
	for a := Angle(0); a < FullTurn; a += 7 {
		if got := Heading(a, CM(100)).Bearing(); got != a {
			t.Fatalf("Heading(%v, 1m).Bearing() = %v", a, got)
		}
	}
}
