package hex

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pbem/internal/golden"
)

// DrawLarge: every hex whole, its number, mark, fill and three lines in
// place; a hexside's base, crossing and route each readable; the widest
// window fits a 78-column mail.
func TestDrawLargeGolden(t *testing.T) {
	cells := map[Hex]LargeCell{
		MustParse("0101"): {Mark: 'Z', Fill: "T o T", Lines: [3]string{"ORNE", "*Brand", "*Hale"}},
		MustParse("0201"): {Fill: ". = .", Lines: [3]string{"rusk!", "wash", "*Marlow&"}},
		MustParse("0102"): {Mark: 'z', Fill: "water"},
		MustParse("0202"): {Fill: "TOOLONGFILL", Lines: [3]string{"TOOLONGLINE", "", "TOOLONGLINE"}},
	}
	marks := map[Hexside]SideMark{
		Side(MustParse("0101"), SE): {Base: '~', Cross: '+', Route: '-'}, // 0101/0201, slanted
		Side(MustParse("0101"), S):  {Base: 'W', Cross: 'H', Route: '='}, // 0101/0102, flat
		Side(MustParse("0201"), S):  {Route: '%'},
		Side(MustParse("0202"), NE): {Base: ','},
	}
	edge := func(s Hexside) (SideMark, bool) { m, ok := marks[s]; return m, ok }
	win := Window{Col: 1, Row: 1, Cols: 3, Rows: 2}
	got := strings.Join(DrawLarge(win, func(h Hex) LargeCell { return cells[h] }, edge), "\n") + "\n"
	golden.CheckString(t, "large.txt", got)
	if n := len(DrawLarge(win, nil, nil)); n != win.LargeHeight() {
		t.Errorf("%d lines, want LargeHeight %d", n, win.LargeHeight())
	}
	wide := Window{Col: 1, Row: 1, Cols: LargeMaxWindowCols, Rows: 2}
	for _, l := range DrawLarge(wide, nil, nil) {
		if n := utf8.RuneCountInString(l); n > wide.LargeWidth() || n > 78 {
			t.Errorf("line of %d characters (LargeWidth %d): %q", n, wide.LargeWidth(), l)
		}
	}
	for _, w := range []Window{{Col: 2, Row: 1, Cols: 1, Rows: 2}, {Col: 1, Row: 1, Cols: 1, Rows: 1}} {
		ls := DrawLarge(w, nil, nil)
		if len(ls) != w.LargeHeight() || strings.TrimSpace(ls[0]) == "" {
			t.Errorf("window %+v: %d lines (want %d), first %q", w, len(ls), w.LargeHeight(), ls[0])
		}
	}
}
