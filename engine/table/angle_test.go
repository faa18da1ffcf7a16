package table

import (
	"math"
	"testing"
)

// The float64 reference below only checks the integer tables; nothing in
// the package itself uses floating point.
func refSin(a Angle) float64 { return math.Sin(float64(a) / 1000 * math.Pi / 180) }

func TestSinWholeDegreesCorrectlyRounded(t *testing.T) {
	for d := int64(-360); d <= 720; d++ {
		want := refSin(Deg(d)) * float64(TrigOne)
		if got := Sin(Deg(d)); math.Abs(float64(got)-want) > 0.5+1e-6 {
			t.Errorf("Sin(%d°) = %d; want %.3f", d, got, want)
		}
	}
}

func TestSinCosPrecision(t *testing.T) {
	worst := 0.0
	for a := Angle(-2000); a <= FullTurn+2000; a += 7 {
		s := float64(Sin(a)) - refSin(a)*float64(TrigOne)
		c := float64(Cos(a)) - math.Cos(float64(a)/1000*math.Pi/180)*float64(TrigOne)
		worst = max(worst, math.Abs(s), math.Abs(c))
	}
	if worst > 2 {
		t.Fatalf("worst error %.3f units of 2^-30; want <= 2", worst)
	}
}

func TestSinExactValues(t *testing.T) {
	tests := []struct {
		a    Angle
		sin  int64
		cos  int64
		name string
	}{
		{0, 0, TrigOne, "0"},
		{Deg(30), TrigOne / 2, Sin(Deg(60)), "30"},
		{Deg(90), TrigOne, 0, "90"},
		{Deg(180), 0, -TrigOne, "180"},
		{Deg(270), -TrigOne, 0, "270"},
		{Deg(-90), -TrigOne, 0, "-90"},
		{Deg(360), 0, TrigOne, "360"},
		{Deg(450), TrigOne, 0, "450"},
		{Deg(150), TrigOne / 2, -Sin(Deg(60)), "150"},
	}
	for _, tt := range tests {
		if s, c := Sin(tt.a), Cos(tt.a); s != tt.sin || c != tt.cos {
			t.Errorf("%s°: Sin, Cos = %d, %d; want %d, %d", tt.name, s, c, tt.sin, tt.cos)
		}
	}
	if Sin(Deg(45)) != Cos(Deg(45)) {
		t.Error("sin 45° != cos 45°")
	}
	for a := Angle(0); a < FullTurn; a += 997 {
		if Sin(a) != -Sin(-a) || Cos(a) != Cos(-a) || Sin(a+FullTurn) != Sin(a) {
			t.Fatalf("symmetry broken at %v", a)
		}
	}
}

func TestAngleNormSigned(t *testing.T) {
	tests := []struct{ a, norm, signed Angle }{
		{0, 0, 0},
		{Deg(45), Deg(45), Deg(45)},
		{Deg(135), Deg(135), Deg(135)},
		{Deg(180), Deg(180), Deg(180)},
		{Deg(-180), Deg(180), Deg(180)},
		{Deg(359), Deg(359), Deg(-1)},
		{Deg(360), 0, 0},
		{Deg(-1), Deg(359), Deg(-1)},
		{Deg(540), Deg(180), Deg(180)},
		{Deg(-720) - 1, FullTurn - 1, -1},
	}
	for _, tt := range tests {
		if n, s := tt.a.Norm(), tt.a.Signed(); n != tt.norm || s != tt.signed {
			t.Errorf("%d: Norm, Signed = %d, %d; want %d, %d", tt.a, n, s, tt.norm, tt.signed)
		}
	}
}

func TestTurn(t *testing.T) {
	tests := []struct{ from, to, want Angle }{
		{Deg(350), Deg(10), Deg(20)},
		{Deg(10), Deg(350), Deg(-20)},
		{0, Deg(180), Deg(180)},
		{Deg(180), 0, Deg(180)},
		{Deg(90), Deg(90), 0},
		{0, Deg(359), Deg(-1)},
		{Deg(45), Deg(180), Deg(135)},
	}
	for _, tt := range tests {
		if got := Turn(tt.from, tt.to); got != tt.want {
			t.Errorf("Turn(%v, %v) = %v; want %v", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestParseAngleAndString(t *testing.T) {
	tests := []struct {
		in   string
		want Angle
		out  string
	}{
		{"45", Deg(45), "45°"},
		{"45°", Deg(45), "45°"},
		{"45deg", Deg(45), "45°"},
		{"-12.5 degrees", -12500, "-12.5°"},
		{"7.125d", 7125, "7.125°"},
		{"0.001", 1, "0.001°"},
		{"359", Deg(359), "359°"},
		{"0", 0, "0°"},
	}
	for _, tt := range tests {
		got, err := ParseAngle(tt.in)
		if err != nil || got != tt.want || got.String() != tt.out {
			t.Errorf("ParseAngle(%q) = %d (%v), %v; want %d (%s)", tt.in, got, got, err, tt.want, tt.out)
		}
	}
	for _, in := range []string{"", "north", "45 rad", "1.0001", "4.5.6"} {
		if _, err := ParseAngle(in); err == nil {
			t.Errorf("ParseAngle(%q) succeeded", in)
		}
	}
}

func TestHeading(t *testing.T) {
	d := CM(10)
	tests := []struct {
		a    Angle
		want Vector
	}{
		{North, Vector{0, d}},
		{East, Vector{d, 0}},
		{South, Vector{0, -d}},
		{West, Vector{-d, 0}},
		{Deg(45), Vector{70711, 70711}},   // 10 cm × √½ = 70710.68 µm
		{Deg(135), Vector{70711, -70711}}, //
		{Deg(30), Vector{50000, 86603}},   // 86602.54
		{Deg(359), Vector{-1745, 99985}},  // sin 1° = 0.0174524, cos 1° = 0.9998477
		{Deg(-1), Vector{-1745, 99985}},
	}
	for _, tt := range tests {
		if got := Heading(tt.a, d); got != tt.want {
			t.Errorf("Heading(%v, 10cm) = %v; want %v", tt.a, got, tt.want)
		}
		if got := Heading(tt.a, -d); got != tt.want.Neg() {
			t.Errorf("Heading(%v, -10cm) = %v; want %v", tt.a, got, tt.want.Neg())
		}
	}
}

func TestRotate(t *testing.T) {
	v := Vector{CM(3), CM(4)}
	tests := []struct {
		a    Angle
		want Vector
	}{
		{0, v},
		{Deg(90), Vector{CM(4), CM(-3)}},
		{Deg(180), Vector{CM(-3), CM(-4)}},
		{Deg(270), Vector{CM(-4), CM(3)}},
		{Deg(-90), Vector{CM(-4), CM(3)}},
		{Deg(360), v},
	}
	for _, tt := range tests {
		if got := v.Rotate(tt.a); got != tt.want {
			t.Errorf("Rotate(%v) = %v; want %v", tt.a, got, tt.want)
		}
	}
	if got := (Vector{0, CM(10)}).Rotate(Deg(45)); got != Heading(Deg(45), CM(10)) {
		t.Errorf("north rotated 45° = %v; want %v", got, Heading(Deg(45), CM(10)))
	}
}

func TestBearing(t *testing.T) {
	tests := []struct {
		v    Vector
		want Angle
	}{
		{Vector{0, 1}, 0},
		{Vector{1, 1}, Deg(45)},
		{Vector{1, 0}, Deg(90)},
		{Vector{1, -1}, Deg(135)},
		{Vector{0, -1}, Deg(180)},
		{Vector{-1, -1}, Deg(225)},
		{Vector{-1, 0}, Deg(270)},
		{Vector{-1, 1}, Deg(315)},
		{Vector{}, 0},
		{Vector{CM(3), CM(4)}, 36870},           // atan(3/4) = 36.8699°
		{Vector{-1000, 1000000}, FullTurn - 57}, // atan(0.001) = 0.0573°
		{Vector{-1, 1000000}, 0},                // 0.0000573° rounds to north
	}
	for _, tt := range tests {
		if got := tt.v.Bearing(); got != tt.want {
			t.Errorf("%v.Bearing() = %v; want %v", tt.v, got, tt.want)
		}
	}
	for _, a := range []Angle{0, Deg(45), Deg(90), Deg(135), Deg(180), Deg(359), 12345, 359999, 1} {
		if got := Heading(a, CM(100)).Bearing(); got != a {
			t.Errorf("Heading(%v, 1m).Bearing() = %v", a, got)
		}
	}
	if got := Bearing(Pt(CM(1), CM(1)), Pt(CM(1), 0)); got != South {
		t.Errorf("Bearing south = %v", got)
	}
}
