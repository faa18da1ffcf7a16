package table

import (
	"math"
	"math/rand/v2"
	"testing"
)

// HRA 13b: at least a third of the target within range, decided exactly.
// Cases at the edge: a target 3 cm deep square to the firer, 6.6 cm
// away, has 0.9 cm of its 3 cm (30%) within 7.5 cm and may not be fired
// on; 6.5 cm away exactly a third is in range; 4.1 cm away 30% is within
// the 5 cm short range, so the range is long. A 2.5 mm sample grid
// counted 4 of 12 rows in each case.
func TestWithinAtLeastSquare(t *testing.T) {
	firer := Base(p(20, 20), MM(65), CM(3), North)
	for _, c := range []struct {
		name  string
		gap   Length // front of the firer to the near (front) edge of the target
		reach Length
		want  bool
	}{
		{"6.6cm: 30% in long range", MM(66), MM(75), false},
		{"6.5cm: exactly a third", MM(65), MM(75), true},
		{"6.49cm: just over a third", UM(64900), MM(75), true},
		{"6.501cm: just under a third", UM(65010), MM(75), false},
		{"4.1cm: 30% in short range", MM(41), CM(5), false},
		{"4cm: a third in short range", CM(4), CM(5), true},
		{"wholly in range", CM(1), MM(75), true},
		{"out of range", CM(8), MM(75), false},
	} {
		// The target faces the firer: its front edge is the near one.
		target := Base(Pt(CM(20), CM(20)+c.gap), MM(65), CM(3), South)
		if got := firer.WithinAtLeast(target, c.reach, 1, 3); got != c.want {
			t.Errorf("%s: WithinAtLeast = %v, want %v", c.name, got, c.want)
		}
		// The 2.5 mm grid the rule used to sample on cannot tell 30% from ⅓.
		if c.name == "6.6cm: 30% in long range" {
			if f := firer.FractionWithin(target, c.reach, MM(5)/2); !f.AtLeast(1, 3) {
				t.Errorf("the old sampled answer changed: %v", f)
			}
		}
	}
}

// Where a corner's quarter circle crosses the target, the exact area holds
// π: a tiny firer (1 µm square) at the corner of a square target a wide
// reaches a quarter disc of radius d, πd²/4, which is a third of a² when
// d = a·√(4/(3π)). A hundredth of a millimetre either side decides it.
func TestWithinAtLeastQuarterCircle(t *testing.T) {
	a := MM(65)
	firer := Base(p(0, 0), UM(1), UM(1), North) // spans (−0.5µm…0.5µm, −1µm…0)
	target := BaseAt(Pt(a/2, a/2), a, a, North)
	d0 := Length(float64(a) * math.Sqrt(4/(3*math.Pi)))
	if !firer.WithinAtLeast(target, d0+10, 1, 3) {
		t.Errorf("d = %v + 10µm: want at least a third", d0)
	}
	if firer.WithinAtLeast(target, d0-10, 1, 3) {
		t.Errorf("d = %v − 10µm: want less than a third", d0)
	}
}

// Exact answers agree with a fine sample wherever the sample is clearly
// on one side of the threshold, at any facing and offset.
func TestWithinAtLeastAgreesWithSampling(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 13))
	n := 0
	for n < 30 {
		firer := Base(Pt(CM(50), CM(50)), MM(65), CM(3), Angle(rng.IntN(360000)))
		at := Pt(CM(50)+Length(rng.IntN(int(CM(20))))-CM(10), CM(50)+Length(rng.IntN(int(CM(20))))-CM(10))
		target := BaseAt(at, MM(35), CM(3), Angle(rng.IntN(360000)))
		if Overlap(firer, target) {
			continue
		}
		f := firer.FractionWithin(target, MM(75), MM(1)/4)
		x := float64(f.Num) / float64(f.Den)
		if math.Abs(x-1.0/3) < 0.04 {
			continue
		}
		n++
		if got := firer.WithinAtLeast(target, MM(75), 1, 3); got != (x > 1.0/3) {
			t.Errorf("firer %v target %v: exact %v, sampled %.3f", firer, target, got, x)
		}
		arc := firer.Arc(45 * Degree)
		g := SampleFraction(target, MM(1)/4, func(q Point) bool { return arc.ContainsPoint(q) && firer.PointWithin(q, MM(75)) })
		y := float64(g.Num) / float64(g.Den)
		if math.Abs(y-1.0/3) < 0.04 {
			continue
		}
		if got := arc.WithinAtLeast(target, MM(75), 1, 3); got != (y > 1.0/3) {
			t.Errorf("arc of %v, target %v: exact %v, sampled %.3f", firer, target, got, y)
		}
	}
}

// A river crossed by a sweep is found only where no ford covers it.
func TestSweepOverlapsUncovered(t *testing.T) {
	river := Polygon{p(18, 0), p(22, 0), p(22, 80), p(18, 80)}
	ford := Polygon{p(17, 62), p(23, 62), p(23, 68), p(17, 68)}
	bridge := Polygon{p(17, 38), p(23, 38), p(23, 42), p(17, 42)}
	for _, c := range []struct {
		name string
		r    Rect
		m    Move
		want bool
	}{
		{"across open river", Base(p(14, 30), CM(3), CM(1), East), ForwardMove(CM(10)), true},
		{"across the ford", Base(p(14, 65), CM(3), CM(1), East), ForwardMove(CM(10)), false},
		{"across the bridge", Base(p(14, 40), CM(3), CM(1), East), ForwardMove(CM(10)), false},
		{"half on the ford", Base(p(14, 62), CM(3), CM(1), East), ForwardMove(CM(10)), true},
		{"up to the bank", Base(p(14, 30), CM(3), CM(1), East), ForwardMove(CM(4)), false},
		{"short of the river", Base(p(14, 30), CM(3), CM(1), East), ForwardMove(CM(4) - 1), false},
		{"a wheel away from the river", Base(p(16, 30), CM(6), CM(1), West), WheelMove(Left, 90*Degree), false},
		{"a wheel into the river", Base(p(17, 30), CM(6), CM(1), East), WheelMove(Left, 90*Degree), true},
	} {
		if got := c.r.Sweep(c.m).OverlapsUncovered(river, ford, bridge); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if !ford.Convex() || (Polygon{p(0, 0), p(4, 0), p(2, 1), p(4, 4), p(0, 4)}).Convex() {
		t.Error("Convex")
	}
}

// The exact test beside the sampled one it replaces (0.25 mm grid), on a
// target partly in range.
func BenchmarkWithinAtLeast(b *testing.B) {
	firer := Base(p(20, 20), MM(65), CM(3), Deg(10))
	target := Base(Pt(CM(22), CM(26)), MM(65), CM(3), Deg(200))
	b.Run("exact", func(b *testing.B) {
		for b.Loop() {
			firer.WithinAtLeast(target, MM(75), 1, 3)
		}
	})
	b.Run("arc", func(b *testing.B) {
		a := firer.Arc(45 * Degree)
		for b.Loop() {
			a.WithinAtLeast(target, MM(75), 1, 3)
		}
	})
	b.Run("sampled-baseline", func(b *testing.B) {
		for b.Loop() {
			firer.FractionWithin(target, MM(75), MM(5)/2).AtLeast(1, 3)
		}
	})
}
