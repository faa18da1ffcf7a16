package hex

import (
	"slices"
	"testing"
)

func TestGrid(t *testing.T) {
	g, err := NewGrid(MustParse("0101"), MustParse("0302"))
	if err != nil {
		t.Fatal(err)
	}
	if g != (Grid{FirstCol: 1, FirstRow: 1, Cols: 3, Rows: 2}) {
		t.Fatalf("NewGrid = %+v", g)
	}
	want := []string{"0101", "0102", "0201", "0202", "0301", "0302"}
	if got := names(g.Hexes()); !slices.Equal(got, want) {
		t.Errorf("Hexes() = %v, want column-major %v", got, want)
	}
	var it []Hex
	for h := range g.All() {
		it = append(it, h)
		if len(it) == 3 {
			break
		}
	}
	if got := names(it); !slices.Equal(got, want[:3]) {
		t.Errorf("All() with break = %v", got)
	}
	if g.Len() != 6 || g.First() != MustParse("0101") || g.Last() != MustParse("0302") {
		t.Errorf("Len/First/Last = %d %v %v", g.Len(), g.First(), g.Last())
	}
	for _, tt := range []struct {
		h  string
		in bool
	}{{"0101", true}, {"0302", true}, {"0100", false}, {"0001", false}, {"0401", false}, {"0303", false}} {
		if got := g.InBounds(MustParse(tt.h)); got != tt.in {
			t.Errorf("InBounds(%s) = %v, want %v", tt.h, got, tt.in)
		}
	}
	if got := names(g.Neighbors(MustParse("0101"))); !slices.Equal(got, []string{"0201", "0102"}) {
		t.Errorf("Neighbors(0101) = %v", got)
	}
	if got := names(g.Clip(Range(MustParse("0101"), 1))); !slices.Equal(got, []string{"0101", "0102", "0201"}) {
		t.Errorf("Clip(Range(0101,1)) = %v", got)
	}
}

func TestGridValidate(t *testing.T) {
	if _, err := NewGrid(MustParse("0302"), MustParse("0101")); err == nil {
		t.Error("NewGrid with last before first succeeded")
	}
	bad := []Grid{
		{FirstCol: 1, FirstRow: 1, Cols: 0, Rows: 3},
		{FirstCol: 1, FirstRow: 1, Cols: 3, Rows: -1},
		{FirstCol: 98, FirstRow: 1, Cols: 3, Rows: 3},
		{FirstCol: -1, FirstRow: 1, Cols: 3, Rows: 3},
	}
	for _, g := range bad {
		if err := g.Validate(); err == nil {
			t.Errorf("%+v.Validate() = nil", g)
		}
	}
	if err := (Grid{FirstCol: 0, FirstRow: 0, Cols: 100, Rows: 100}).Validate(); err != nil {
		t.Errorf("full 0000-9999 grid: %v", err)
	}
}
