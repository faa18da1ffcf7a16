package hex

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseString(t *testing.T) {
	tests := []struct {
		in      string
		want    Hex
		wantErr string // substring of the error; "" for success
	}{
		{"2314", Hex{23, 14}, ""},
		{"0101", Hex{1, 1}, ""},
		{"0705", Hex{7, 5}, ""},
		{"0000", Hex{0, 0}, ""},
		{"9999", Hex{99, 99}, ""},
		{"4535", Hex{45, 35}, ""},
		{"", Hex{}, "want 4 digits"},
		{"705", Hex{}, "got 3 characters"},
		{"23145", Hex{}, "got 5 characters"},
		{"23a4", Hex{}, `character 3 is 'a'`},
		{" 2314", Hex{}, "got 5 characters"},
		{"-314", Hex{}, `character 1 is '-'`},
		{"２３", Hex{}, "got 6 characters"}, // full-width digits are not digits here
		{"23.4", Hex{}, "not a digit"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("Parse(%q) = %v, want error containing %q", tt.in, got, tt.wantErr)
				}
				if !errors.Is(err, ErrSyntax) {
					t.Errorf("Parse(%q) error %v does not wrap ErrSyntax", tt.in, err)
				}
				if !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.in) {
					t.Errorf("Parse(%q) error %q, want it to quote the input and contain %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if s := got.String(); s != tt.in {
				t.Errorf("String() = %q, want %q", s, tt.in)
			}
		})
	}
}

func TestStringInvalid(t *testing.T) {
	for _, h := range []Hex{{-1, 5}, {100, 1}, {3, -2}, {5, 100}} {
		if h.Valid() {
			t.Errorf("%#v.Valid() = true", h)
		}
		s := h.String()
		if !strings.HasPrefix(s, "hex(") {
			t.Errorf("%#v.String() = %q, want the hex(c,r) form", h, s)
		}
		if _, err := h.MarshalText(); err == nil {
			t.Errorf("%#v.MarshalText() succeeded", h)
		}
	}
}

func TestTextMarshalling(t *testing.T) {
	type doc struct {
		At   Hex     `json:"at"`
		Side Hexside `json:"side"`
	}
	in := doc{At: MustParse("0705"), Side: Side(MustParse("2314"), SE)}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"at":"0705","side":"2314/2414"}`; string(b) != want {
		t.Fatalf("json = %s, want %s", b, want)
	}
	var out doc
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Fatalf("round trip = %+v, want %+v", out, in)
	}
	if err := json.Unmarshal([]byte(`{"at":"75"}`), &out); !errors.Is(err, ErrSyntax) {
		t.Fatalf("bad hex: err = %v, want ErrSyntax", err)
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"2314", "2314", 0},
		{"2314", "2315", -1},
		{"2315", "2314", 1},
		{"2299", "2301", -1}, // column first
		{"2401", "2399", 1},
	}
	for _, tt := range tests {
		if got := Compare(MustParse(tt.a), MustParse(tt.b)); got != tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNeighbors(t *testing.T) {
	tests := []struct {
		hex  string
		want [6]string // N, NE, SE, S, SW, NW
	}{
		// Odd column: its neighbours in columns 22 and 24 are rows 13 and 14.
		{"2314", [6]string{"2313", "2413", "2414", "2315", "2214", "2213"}},
		// Even column (shifted down): side neighbours are rows 14 and 15.
		{"2414", [6]string{"2413", "2514", "2515", "2415", "2315", "2314"}},
		{"0101", [6]string{"0100", "0200", "0201", "0102", "0001", "0000"}},
		{"1010", [6]string{"1009", "1110", "1111", "1011", "0911", "0910"}},
	}
	for _, tt := range tests {
		t.Run(tt.hex, func(t *testing.T) {
			h := MustParse(tt.hex)
			got := h.Neighbors()
			for d := range NumDirections {
				if got[d].String() != tt.want[d] {
					t.Errorf("Neighbors()[%v] = %v, want %s", d, got[d], tt.want[d])
				}
				if n := h.Neighbor(d); n != got[d] {
					t.Errorf("Neighbor(%v) = %v, Neighbors()[%v] = %v", d, n, d, got[d])
				}
				if back, ok := got[d].DirectionTo(h); !ok || back != d.Opposite() {
					t.Errorf("%v.DirectionTo(%v) = %v, %v; want %v", got[d], h, back, ok, d.Opposite())
				}
			}
		})
	}
}

// offsetNeighbors is an independent implementation of the neighbour rule
// straight from the map convention (even columns shifted down).
func offsetNeighbors(h Hex) [6]Hex {
	c, r := h.Col, h.Row
	up, down := r-1, r // rows of the side neighbours in an odd column
	if c%2 == 0 {
		up, down = r, r+1
	}
	return [6]Hex{{c, r - 1}, {c + 1, up}, {c + 1, down}, {c, r + 1}, {c - 1, down}, {c - 1, up}}
}

func TestNeighborsMatchOffsetRule(t *testing.T) {
	for c := -4; c <= 12; c++ {
		for r := -3; r <= 8; r++ {
			h := Hex{c, r}
			if got, want := h.Neighbors(), offsetNeighbors(h); got != want {
				t.Fatalf("%#v: Neighbors() = %v, offset rule gives %v", h, got, want)
			}
			if got := h.Cube().Hex(); got != h {
				t.Fatalf("%#v: cube round trip gives %#v", h, got)
			}
			if cb := h.Cube(); cb.Q+cb.R+cb.S != 0 {
				t.Fatalf("%#v: cube %+v does not sum to 0", h, cb)
			}
		}
	}
}

func TestAxial(t *testing.T) {
	q, r := MustParse("2314").Axial()
	if q != 23 || r != 2 {
		t.Fatalf("2314.Axial() = %d,%d, want 23,2", q, r)
	}
	if got := FromAxial(24, 1); got != MustParse("2413") {
		t.Fatalf("FromAxial(24,1) = %v, want 2413", got)
	}
}

func TestDirections(t *testing.T) {
	names := []string{"N", "NE", "SE", "S", "SW", "NW"}
	for d := range NumDirections {
		if d.String() != names[d] {
			t.Errorf("Direction(%d).String() = %q, want %q", d, d.String(), names[d])
		}
		for _, s := range []string{names[d], strings.ToLower(names[d])} {
			if p, err := ParseDirection(s); err != nil || p != d {
				t.Errorf("ParseDirection(%q) = %v, %v", s, p, err)
			}
		}
		if d.Opposite().Opposite() != d || d.Opposite() == d {
			t.Errorf("%v.Opposite() = %v", d, d.Opposite())
		}
		if d.Clockwise(1).Clockwise(-1) != d || d.Clockwise(6) != d || d.Clockwise(3) != d.Opposite() {
			t.Errorf("%v.Clockwise is inconsistent", d)
		}
	}
	if NW.Clockwise(1) != N || N.Clockwise(-1) != NW {
		t.Error("Clockwise does not wrap")
	}
	if _, err := ParseDirection("E"); !errors.Is(err, ErrSyntax) {
		t.Errorf("ParseDirection(E) error = %v, want ErrSyntax", err)
	}
	if s := Direction(7).String(); s != "Direction(7)" {
		t.Errorf("Direction(7).String() = %q", s)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"2314", "2314", 0},
		{"2314", "2313", 1},
		{"2314", "2414", 1},
		{"2314", "2415", 2},
		{"2314", "2514", 2},
		{"2314", "2714", 4},
		{"2314", "2316", 2},
		{"2314", "2612", 3},
		{"2314", "2617", 5},
		{"0101", "1010", 14},
		{"0101", "0201", 1},
		{"0201", "0302", 1},
		{"0201", "0303", 2},
	}
	for _, tt := range tests {
		a, b := MustParse(tt.a), MustParse(tt.b)
		if got := Distance(a, b); got != tt.want {
			t.Errorf("Distance(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Distance(b, a); got != tt.want {
			t.Errorf("Distance(%s, %s) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.want)
		}
		if Adjacent(a, b) != (tt.want == 1) {
			t.Errorf("Adjacent(%s, %s) = %v", tt.a, tt.b, Adjacent(a, b))
		}
	}
}

// TestDistanceMatchesBFS checks Distance against a breadth-first search over
// the offset-rule neighbours on a grid with both column parities.
func TestDistanceMatchesBFS(t *testing.T) {
	g := Grid{FirstCol: 1, FirstRow: 1, Cols: 9, Rows: 8}
	// The grid is padded so that shortest paths never need to leave it.
	pad := Grid{FirstCol: -12, FirstRow: -12, Cols: 34, Rows: 34}
	for _, a := range g.Hexes() {
		dist := map[Hex]int{a: 0}
		queue := []Hex{a}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			for _, n := range offsetNeighbors(h) {
				if _, seen := dist[n]; !seen && pad.InBounds(n) {
					dist[n] = dist[h] + 1
					queue = append(queue, n)
				}
			}
		}
		for _, b := range g.Hexes() {
			if got, want := Distance(a, b), dist[b]; got != want {
				t.Fatalf("Distance(%v, %v) = %d, BFS gives %d", a, b, got, want)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2314", "0101", "0000", "9999", "", "705", "23a4", " 2314", "２３１４", "23\x004"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q) error %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		if !h.Valid() {
			t.Fatalf("Parse(%q) = %#v, not Valid", s, h)
		}
		if h.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, h.String())
		}
		if h2, err := Parse(h.String()); err != nil || h2 != h {
			t.Fatalf("round trip of %q: %v, %v", s, h2, err)
		}
	})
}
