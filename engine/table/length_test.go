package table

import (
	"errors"
	"math"
	"testing"
)

func TestUnitsExact(t *testing.T) {
	if Inch(1) != MM(254)/10 || Inch(10) != MM(254) {
		t.Fatalf("inch is not 25.4 mm: %d µm", Inch(1))
	}
	if CM(1) != MM(10) || MM(1) != UM(1000) {
		t.Fatal("metric units disagree")
	}
}

func TestParseLength(t *testing.T) {
	tests := []struct {
		in   string
		want Length
	}{
		{"7.5cm", MM(75)},
		{"7.5 cm", MM(75)},
		{" 7.5CM ", MM(75)},
		{"65mm", MM(65)},
		{"3in", Inch(3)},
		{`3"`, Inch(3)},
		{"3 inches", Inch(3)},
		{"0.5 inch", UM(12700)},
		{"-2cm", CM(-2)},
		{"+0.25in", UM(6350)},
		{"1.2345in", UM(31356)}, // 31356.3 µm rounds down
		{"0.00005in", UM(1)},    // 1.27 µm
		{"-0.00002in", UM(-1)},  // -0.508 µm rounds away from zero
		{"0.00002in", UM(1)},    // 0.508 µm
		{"0.0001cm", UM(1)},     // one micrometre
		{"0cm", 0},
		{".5cm", MM(5)},
		{"5.cm", CM(5)},
		{"007cm", CM(7)},
		{"50000cm", CM(50000)}, // 500 m, the limit
		{"0.000001in", UM(0)},  // 0.0254 µm
	}
	for _, tt := range tests {
		got, err := ParseLength(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseLength(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestParseLengthErrors(t *testing.T) {
	for _, in := range []string{"", "cm", "7.5", "7.5 furlongs", "1.2.3cm", "1234567cm",
		"0.1234567cm", "50001cm", "-", ".cm", "7,5cm", "cm7"} {
		if got, err := ParseLength(in); err == nil || !errors.Is(err, ErrLength) {
			t.Errorf("ParseLength(%q) = %d, %v; want an ErrLength", in, got, err)
		}
	}
}

func TestParseLengthIn(t *testing.T) {
	tests := []struct {
		in   string
		def  Unit
		want Length
	}{
		{"7.5", Centimetres, MM(75)},
		{"12", Inches, Inch(12)},
		{"12cm", Inches, CM(12)},
		{"3", Millimetres, MM(3)},
	}
	for _, tt := range tests {
		if got, err := ParseLengthIn(tt.in, tt.def); err != nil || got != tt.want {
			t.Errorf("ParseLengthIn(%q, %v) = %d, %v; want %d", tt.in, tt.def, got, err, tt.want)
		}
	}
}

func TestLengthFormat(t *testing.T) {
	tests := []struct {
		l    Length
		u    Unit
		want string
	}{
		{MM(75), Centimetres, "7.5cm"},
		{0, Centimetres, "0cm"},
		{-1, Centimetres, "-0.0001cm"},
		{CM(-120), Centimetres, "-120cm"},
		{Inch(3), Inches, "3in"},
		{CM(1), Inches, "0.394in"},
		{UM(-5), Inches, "0in"},
		{UM(-13), Inches, "-0.001in"},
		{MM(65), Millimetres, "65mm"},
		{UM(1500), Millimetres, "1.5mm"},
	}
	for _, tt := range tests {
		if got := tt.l.Format(tt.u); got != tt.want {
			t.Errorf("%d.Format(%v) = %q; want %q", tt.l, tt.u, got, tt.want)
		}
	}
	if got := MM(75).String(); got != "7.5cm" {
		t.Errorf("String = %q", got)
	}
}

func TestLengthRoundTrip(t *testing.T) {
	for _, l := range []Length{0, 1, -1, 9999, MM(75), CM(120), -Inch(48), MaxCoord, -MaxCoord, 123456789} {
		for _, u := range []Unit{Centimetres, Millimetres} {
			got, err := ParseLength(l.Format(u))
			if err != nil || got != l {
				t.Errorf("ParseLength(%q) = %d, %v; want %d", l.Format(u), got, err, l)
			}
		}
	}
	// Whole thousandths of an inch survive a round trip through inches.
	for _, th := range []int64{0, 1, 125, 2500, -999, 48000} {
		l := Length(divRound(th*int64(OneInch), 1000))
		got, err := ParseLength(l.Format(Inches))
		if err != nil || got != l {
			t.Errorf("inches %d/1000: %q → %d, %v; want %d", th, l.Format(Inches), got, err, l)
		}
	}
}

func TestISqrt(t *testing.T) {
	tests := []struct{ n, want uint64 }{
		{0, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 2}, {15, 3}, {16, 4}, {17, 4},
		{1 << 62, 1 << 31}, {1<<62 - 1, 1<<31 - 1}, {math.MaxUint64, 1<<32 - 1},
		{4294967296*4294967296 - 1, 4294967295},
	}
	for _, tt := range tests {
		if got := ISqrt(tt.n); got != tt.want {
			t.Errorf("ISqrt(%d) = %d; want %d", tt.n, got, tt.want)
		}
	}
	for n := uint64(0); n < 5000; n++ {
		s := ISqrt(n)
		if s*s > n || (s+1)*(s+1) <= n {
			t.Fatalf("ISqrt(%d) = %d", n, s)
		}
		c := ceilSqrt(n)
		if c*c < n || (c > 0 && (c-1)*(c-1) >= n) {
			t.Fatalf("ceilSqrt(%d) = %d", n, c)
		}
	}
}

func TestDivRound(t *testing.T) {
	tests := []struct{ a, b, want int64 }{
		{5, 2, 3}, {-5, 2, -3}, {4, 2, 2}, {7, 3, 2}, {-7, 3, -2}, {8, 3, 3}, {0, 5, 0},
	}
	for _, tt := range tests {
		if got := divRound(tt.a, tt.b); got != tt.want {
			t.Errorf("divRound(%d, %d) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
