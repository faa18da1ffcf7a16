package hex

import (
	"slices"
	"strings"
	"testing"
)

func TestVertexSidesAndNames(t *testing.T) {
	for _, tc := range []struct {
		v      Vertex
		name   string
		d1, d2 Direction
	}{
		{NNE, "NNE", N, NE}, {E, "E", NE, SE}, {SSE, "SSE", SE, S},
		{SSW, "SSW", S, SW}, {W, "W", SW, NW}, {NNW, "NNW", NW, N},
	} {
		a, b := tc.v.Sides()
		if a != tc.d1 || b != tc.d2 || tc.v.String() != tc.name {
			t.Errorf("%v: sides %v %v, name %s", tc.v, a, b, tc.v)
		}
		if p, err := ParseVertex(strings.ToLower(tc.name)); err != nil || p != tc.v {
			t.Errorf("ParseVertex(%q) = %v, %v", tc.name, p, err)
		}
	}
	if _, err := ParseVertex("NE"); err == nil {
		t.Error("NE is a side, not a vertex")
	}
	if NNE.Turn(SSW) != 3 || NNE.Turn(NNW) != 1 || W.Turn(E) != 3 || N.Turn(SW) != 2 {
		t.Error("turns")
	}
}

// Next to a hex facing a vertex: two front, two flank, two rear hexes.
func TestVertexSectorNeighbours(t *testing.T) {
	at := MustParse("0505")
	for v := range NumVertices {
		d1, d2 := v.Sides()
		for d := range NumDirections {
			want := Flank
			switch d {
			case d1, d2:
				want = Front
			case d1.Opposite(), d2.Opposite():
				want = Rear
			}
			if got := VertexSector(at, v, at.Neighbor(d)); got != want {
				t.Errorf("facing %v, neighbour %v: %v, want %v", v, d, got, want)
			}
		}
	}
}

// At range the front is the 120° arc centred on the vertex, edges excluded.
func TestVertexSectorAtRange(t *testing.T) {
	at := MustParse("0505")
	var front []string
	for _, h := range Ring(at, 2) {
		if VertexSector(at, E, h) == Front {
			front = append(front, h.String())
		}
	}
	slices.Sort(front)
	// Facing E: 2·NE, NE+SE, 2·SE; N+NE and S+SE lie on the edges (flank).
	if want := []string{"0704", "0705", "0706"}; !slices.Equal(front, want) {
		t.Errorf("front at range 2 facing E: %v, want %v", front, want)
	}
	if got := VertexSector(at, E, MustParse("0304")); got != Rear {
		t.Errorf("0304 from 0505 facing E: %v", got)
	}
	if got := VertexSector(at, E, MustParse("0603")); got != Flank {
		t.Errorf("0603 (N+NE) from 0505 facing E: %v", got)
	}
}

func TestSideSector(t *testing.T) {
	at := MustParse("0505")
	for d := range NumDirections {
		for e := range NumDirections {
			want := Flank
			switch e {
			case d:
				want = Front
			case d.Opposite():
				want = Rear
			}
			if got := SideSector(at, d, at.Neighbor(e)); got != want {
				t.Errorf("facing side %v, neighbour %v: %v, want %v", d, e, got, want)
			}
		}
	}
	// Beyond the front hex, the three hexes at range two are in front too.
	for _, h := range []string{"0503", "0603", "0403"} {
		if got := SideSector(at, N, MustParse(h)); got != Front {
			t.Errorf("%s from 0505 facing N: %v", h, got)
		}
	}
}

func TestLineOther(t *testing.T) {
	a, b := MustParse("2314"), MustParse("2514")
	l1, l2 := Line(a, b), LineOther(a, b)
	if l1[1] != MustParse("2414") || l2[1] != MustParse("2413") {
		t.Errorf("along a hexside: Line %v, LineOther %v", l1, l2)
	}
	// Off any hexside the two are the same line.
	c, d := MustParse("0101"), MustParse("0106")
	if !slices.Equal(Line(c, d), LineOther(c, d)) {
		t.Errorf("%v vs %v", Line(c, d), LineOther(c, d))
	}
}

func TestOverlay(t *testing.T) {
	win := Window{Col: 1, Row: 1, Cols: 2, Rows: 1}
	lines := Draw(win, func(h Hex) Cell { return Cell{Fill: ". 1 .", Label: "ABC"} }, nil)
	got := Overlay(lines, win, []Mark{
		{Hex: MustParse("0101"), Vertex: NNW, Glyph: '@'},
		{Hex: MustParse("0201"), Vertex: E, Glyph: '@'},
		{Hex: MustParse("0201"), Side: S, OnSide: true, Glyph: '#'},
	})
	want := []string{
		"   _____",
		"  /@0101\\",
		" / . 1 . \\_____",
		" \\ ABC   /0201 \\",
		"  \\_____/ . 1 .@\\",
		"        \\ ABC   /",
		"         \\#####/",
	}
	if !slices.Equal(got, want) {
		t.Errorf("overlay:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
