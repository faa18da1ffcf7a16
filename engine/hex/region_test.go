package hex

import (
	"slices"
	"testing"
)

func TestRange(t *testing.T) {
	center := MustParse("2314")
	for r := -1; r <= 4; r++ {
		got := Range(center, r)
		if r < 0 {
			if got != nil {
				t.Errorf("Range(r=%d) = %v, want nil", r, got)
			}
			continue
		}
		if want := 3*r*(r+1) + 1; len(got) != want {
			t.Errorf("Range(r=%d) has %d hexes, want %d", r, len(got), want)
		}
		if !slices.IsSortedFunc(got, Compare) {
			t.Errorf("Range(r=%d) is not column-major: %v", r, got)
		}
		// Same set as a brute-force scan of a box around the centre.
		var brute []Hex
		for c := center.Col - r; c <= center.Col+r; c++ {
			for row := center.Row - r - 1; row <= center.Row+r+1; row++ {
				if h := (Hex{c, row}); Distance(center, h) <= r {
					brute = append(brute, h)
				}
			}
		}
		if !slices.Equal(got, brute) {
			t.Errorf("Range(r=%d) = %v, brute force gives %v", r, got, brute)
		}
	}
	want := []string{"2213", "2214", "2313", "2314", "2315", "2413", "2414"}
	if got := names(Range(center, 1)); !slices.Equal(got, want) {
		t.Errorf("Range(2314, 1) = %v, want %v", got, want)
	}
}

func TestRing(t *testing.T) {
	center := MustParse("2414")
	if got := Ring(center, 0); !slices.Equal(got, []Hex{center}) {
		t.Errorf("Ring(0) = %v", got)
	}
	if Ring(center, -1) != nil {
		t.Error("Ring(-1) is not nil")
	}
	for r := 1; r <= 4; r++ {
		got := Ring(center, r)
		if len(got) != 6*r {
			t.Fatalf("Ring(r=%d) has %d hexes", r, len(got))
		}
		seen := map[Hex]bool{}
		for i, h := range got {
			if Distance(center, h) != r || seen[h] {
				t.Fatalf("Ring(r=%d)[%d] = %v: distance %d or repeated", r, i, h, Distance(center, h))
			}
			seen[h] = true
			if !Adjacent(h, got[(i+1)%len(got)]) {
				t.Fatalf("Ring(r=%d): %v and %v are not adjacent", r, h, got[(i+1)%len(got)])
			}
		}
		if got[0] != (Hex{center.Col, center.Row - r}) {
			t.Errorf("Ring(r=%d) starts at %v, want due north", r, got[0])
		}
	}
	want := []string{"2413", "2514", "2515", "2415", "2315", "2314"}
	if got := names(Ring(center, 1)); !slices.Equal(got, want) {
		t.Errorf("Ring(2414, 1) = %v, want %v", got, want)
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		a, b string
		want []string
	}{
		{"2314", "2314", []string{"2314"}},
		{"2314", "2317", []string{"2314", "2315", "2316", "2317"}},
		{"2317", "2314", []string{"2317", "2316", "2315", "2314"}},
		{"2314", "2614", []string{"2314", "2414", "2514", "2614"}},
		// Along the NE axis from 2314: 2413, 2513, 2612.
		{"2314", "2612", []string{"2314", "2413", "2513", "2612"}},
		// 2314 to 2514 runs along the 2413/2414 hexside; the nudge picks 2414.
		{"2314", "2514", []string{"2314", "2414", "2514"}},
		{"2514", "2314", []string{"2514", "2414", "2314"}},
	}
	for _, tt := range tests {
		got := names(Line(MustParse(tt.a), MustParse(tt.b)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("Line(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestLineProperties(t *testing.T) {
	g := Grid{FirstCol: 1, FirstRow: 1, Cols: 12, Rows: 10}
	for _, a := range g.Hexes() {
		for _, b := range g.Hexes() {
			l := Line(a, b)
			if len(l) != Distance(a, b)+1 || l[0] != a || l[len(l)-1] != b {
				t.Fatalf("Line(%v, %v) = %v", a, b, l)
			}
			rev := slices.Clone(l)
			slices.Reverse(rev)
			if r := Line(b, a); !slices.Equal(r, rev) {
				t.Fatalf("Line(%v, %v) = %v, not the reverse of %v", b, a, r, l)
			}
			for i := 1; i < len(l); i++ {
				if !Adjacent(l[i-1], l[i]) {
					t.Fatalf("Line(%v, %v) = %v: steps %d and %d not adjacent", a, b, l, i-1, i)
				}
			}
		}
	}
	// Negative coordinates go through the same exact arithmetic.
	l := Line(Hex{-3, -2}, Hex{4, 5})
	if len(l) != Distance(Hex{-3, -2}, Hex{4, 5})+1 {
		t.Fatalf("Line with negative coordinates = %v", l)
	}
}

func TestRoundDiv(t *testing.T) {
	tests := []struct{ v, d, want int }{
		{0, 4, 0}, {1, 4, 0}, {2, 4, 1}, {3, 4, 1}, {-1, 4, 0}, {-2, 4, 0}, {-3, 4, -1}, {-6, 4, -1}, {-7, 4, -2},
	}
	for _, tt := range tests {
		if got := roundDiv(tt.v, tt.d); got != tt.want {
			t.Errorf("roundDiv(%d, %d) = %d, want %d", tt.v, tt.d, got, tt.want)
		}
	}
}

func names(hs []Hex) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}
