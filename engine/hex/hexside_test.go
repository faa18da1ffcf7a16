package hex

import (
	"errors"
	"testing"
)

func TestHexsideCanonical(t *testing.T) {
	a, b := MustParse("2314"), MustParse("2414")
	s1 := Side(a, SE)
	s2 := Side(b, NW)
	s3, err := Between(b, a)
	if err != nil {
		t.Fatal(err)
	}
	s4, err := Between(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if s1 != s2 || s2 != s3 || s3 != s4 {
		t.Fatalf("hexsides differ: %v %v %v %v", s1, s2, s3, s4)
	}
	if got := s1.String(); got != "2314/2414" {
		t.Errorf("String() = %q, want 2314/2414", got)
	}
	x, y := s1.Hexes()
	if x != a || y != b {
		t.Errorf("Hexes() = %v, %v", x, y)
	}
	if o, ok := s1.Other(b); !ok || o != a {
		t.Errorf("Other(2414) = %v, %v", o, ok)
	}
	if _, ok := s1.Other(MustParse("2315")); ok {
		t.Error("Other(2315) reported ok")
	}
	if !s1.Touches(a) || s1.Touches(MustParse("2315")) {
		t.Error("Touches is wrong")
	}
	// Usable as a map key from either side.
	rivers := map[Hexside]bool{Side(a, SE): true}
	if !rivers[Side(b, NW)] {
		t.Error("map lookup from the other hex failed")
	}
}

func TestHexsideEveryDirection(t *testing.T) {
	for c := -2; c <= 7; c++ {
		for r := -2; r <= 6; r++ {
			h := Hex{c, r}
			sides := h.Sides()
			seen := map[Hexside]bool{}
			for d := range NumDirections {
				n := h.Neighbor(d)
				if got, want := Side(h, d), Side(n, d.Opposite()); got != want {
					t.Fatalf("Side(%v,%v) = %v, Side(%v,%v) = %v", h, d, got, n, d.Opposite(), want)
				}
				if sides[d] != Side(h, d) || !sides[d].Valid() || seen[sides[d]] {
					t.Fatalf("%v: side %v = %v is wrong or repeated", h, d, sides[d])
				}
				seen[sides[d]] = true
			}
		}
	}
	if (Hexside{}).Valid() {
		t.Error("zero Hexside is Valid")
	}
}

func TestBetweenNotAdjacent(t *testing.T) {
	for _, pair := range [][2]string{{"2314", "2314"}, {"2314", "2316"}, {"2314", "2415"}} {
		_, err := Between(MustParse(pair[0]), MustParse(pair[1]))
		if !errors.Is(err, ErrNotAdjacent) {
			t.Errorf("Between(%s, %s) error = %v, want ErrNotAdjacent", pair[0], pair[1], err)
		}
	}
}

func TestParseHexside(t *testing.T) {
	want := Side(MustParse("2314"), SE)
	for _, s := range []string{"2314/2414", "2414/2314", "2314SE", "2314 SE", "2314se", "2414NW"} {
		got, err := ParseHexside(s)
		if err != nil || got != want {
			t.Errorf("ParseHexside(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	bad := []struct {
		in     string
		target error
	}{
		{"2314/2316", ErrNotAdjacent},
		{"2314/24a4", ErrSyntax},
		{"2314", ErrSyntax},
		{"2314E", ErrSyntax},
		{"2314  SE", ErrSyntax},
		{"x314SE", ErrSyntax},
		{"", ErrSyntax},
	}
	for _, tt := range bad {
		if _, err := ParseHexside(tt.in); !errors.Is(err, tt.target) {
			t.Errorf("ParseHexside(%q) error = %v, want %v", tt.in, err, tt.target)
		}
	}
}
