package hex

import (
	"pbem/internal/golden"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// terrain gives a made-up but deterministic terrain per hex.
func terrain(h Hex) string {
	switch (h.Col*7 + h.Row*3 + h.Col*h.Row) % 9 {
	case 0, 1, 2, 3:
		return ". ."
	case 4, 5:
		return "T T"
	case 6:
		return "^ ^"
	case 7:
		return ", ,"
	default:
		return "# #"
	}
}

// sides builds an edge function from "2314/2414"-style hexsides.
func sides(t *testing.T, glyph rune, list ...string) func(Hexside) (rune, bool) {
	t.Helper()
	m := map[Hexside]bool{}
	for _, s := range list {
		hs, err := ParseHexside(s)
		if err != nil {
			t.Fatal(err)
		}
		m[hs] = true
	}
	return func(s Hexside) (rune, bool) { return glyph, m[s] }
}

func TestDrawGolden(t *testing.T) {
	// The sample of docs/DESIGN.md (Boards in the mail): 2314 to 2715.
	design := map[Hex]Cell{
		MustParse("2314"): {". .", "NEWT*"},
		MustParse("2414"): {". .", "JACK"},
		MustParse("2514"): {"^ ^", "1CAV"},
		MustParse("2614"): {"= =", "HOOD"},
		MustParse("2714"): {"T T", ""},
		MustParse("2315"): {". .", ""},
		MustParse("2415"): {"", ""},
		MustParse("2515"): {". .", ""},
		MustParse("2615"): {"", ""},
		MustParse("2715"): {"T T", ""},
	}
	designRiver := []string{"2314/2414", "2414/2413", "2414/2514", "2415/2515", "2515/2516", "2515/2615", "2615/2715", "2715/2716"}
	unitsWide := map[Hex]string{
		MustParse("0403"): "NEWT*", MustParse("0503"): "JACK!", MustParse("0604"): "1CAV",
		MustParse("0805"): "SEDGWK", MustParse("1004"): "TOOLONGLABEL", MustParse("1302"): "HOOD",
	}
	// A river winding down the left half, and a ridge round 1202.
	river := sides(t, '~', "0301/0302", "0302/0402", "0402/0403", "0403/0503", "0503/0504", "0504/0604",
		"0604/0704", "0704/0705", "0705/0805", "0805/0905", "0905/1005", "1005/1006")
	ridge := sides(t, '"', "1202N", "1202NE", "1202SE", "1202S", "1203S")
	tests := []struct {
		name string
		win  Window
		cell func(Hex) Cell
		edge func(Hexside) (rune, bool)
	}{
		{
			name: "design_sample",
			win:  Window{Col: 23, Row: 14, Cols: 5, Rows: 2},
			cell: func(h Hex) Cell { return design[h] },
			edge: sides(t, '~', designRiver...),
		},
		{
			name: "numbers_only",
			win:  Window{Col: 1, Row: 1, Cols: 4, Rows: 3},
		},
		{
			name: "full_width",
			win:  Window{Col: 4, Row: 1, Cols: MaxWindowCols, Rows: 5},
			cell: func(h Hex) Cell { return Cell{Fill: terrain(h), Label: unitsWide[h]} },
			edge: func(s Hexside) (rune, bool) {
				if r, ok := river(s); ok {
					return r, true
				}
				return ridge(s)
			},
		},
		{
			name: "even_column_only",
			win:  Window{Col: 24, Row: 14, Cols: 1, Rows: 2},
			cell: func(h Hex) Cell { return Cell{Fill: terrain(h), Label: "XII"} },
			edge: sides(t, '=', "2414/2415"),
		},
		{
			name: "odd_column_only",
			win:  Window{Col: 23, Row: 14, Cols: 1, Rows: 2},
			cell: func(h Hex) Cell { return Cell{Fill: terrain(h), Label: "XII"} },
			edge: sides(t, '~', "2314NE", "2314SE", "2315SW", "2315NW"),
		},
		{
			name: "even_first_column",
			win:  Window{Col: 24, Row: 14, Cols: 3, Rows: 1},
			cell: func(h Hex) Cell { return Cell{Fill: "a\tb\x00c", Label: "ünï\ncode"} },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := Draw(tt.win, tt.cell, tt.edge)
			checkDrawing(t, tt.win, lines)
			if again := Draw(tt.win, tt.cell, tt.edge); !slices.Equal(again, lines) {
				t.Fatal("Draw is not deterministic")
			}
			golden.CheckString(t, tt.name+".txt", strings.Join(lines, "\n")+"\n")
		})
	}
}

func TestDrawWithLegend(t *testing.T) {
	g := Grid{FirstCol: 1, FirstRow: 1, Cols: 45, Rows: 35}
	win, err := ChooseWindow(g, []Hex{MustParse("2314"), MustParse("2415")}, 5, 2)
	if err != nil {
		t.Fatal(err)
	}
	cells := map[Hex]Cell{
		MustParse("2314"): {Label: "NEWT*"},
		MustParse("2415"): {Label: "JACK"},
	}
	board := Draw(win, func(h Hex) Cell {
		c := cells[h]
		c.Fill = terrain(h)
		return c
	}, sides(t, '~', "2314/2414", "2414/2413", "2414/2514"))
	checkDrawing(t, win, board)
	legend := []string{"", "", ". clear  T woods", "^ hill   ~ river", "* leader stacked"}
	out := Beside(board, legend, 3)
	for i, l := range out {
		if n := utf8.RuneCountInString(l); n > 78 || strings.HasSuffix(l, " ") {
			t.Errorf("line %d is %d wide or has trailing spaces: %q", i, n, l)
		}
	}
	golden.CheckString(t, "legend.txt", strings.Join(out, "\n")+"\n")
}

// checkDrawing asserts the shape every drawing must have.
func checkDrawing(t *testing.T, win Window, lines []string) {
	t.Helper()
	if len(lines) != win.Height() {
		t.Errorf("%d lines, Height() = %d", len(lines), win.Height())
	}
	widest := 0
	for i, l := range lines {
		n := utf8.RuneCountInString(l)
		widest = max(widest, n)
		if n > 78 || n > win.Width() {
			t.Errorf("line %d is %d characters wide (Width %d): %q", i, n, win.Width(), l)
		}
		if strings.TrimRight(l, " ") != l {
			t.Errorf("line %d has trailing spaces: %q", i, l)
		}
		if strings.ContainsAny(l, "\t\n\r\x00") {
			t.Errorf("line %d has control characters: %q", i, l)
		}
	}
	if widest != win.Width() {
		t.Errorf("widest line is %d, Width() = %d", widest, win.Width())
	}
	if len(lines) > 0 && (lines[0] == "" || lines[len(lines)-1] == "") {
		t.Error("drawing starts or ends with a blank line")
	}
	for _, h := range win.Hexes() {
		if !strings.Contains(strings.Join(lines, "\n"), h.String()) {
			t.Errorf("hex number %v not drawn", h)
		}
	}
}

func TestDrawMaxWidth(t *testing.T) {
	win := Window{Col: 1, Row: 1, Cols: MaxWindowCols, Rows: 1}
	lines := Draw(win, func(Hex) Cell { return Cell{Fill: "XXXXXXXXXX", Label: "YYYYYYYYYY"} }, func(Hexside) (rune, bool) { return '#', true })
	checkDrawing(t, win, lines)
	if win.Width() != 73 {
		t.Errorf("Width() = %d, want 73", win.Width())
	}
	if (Window{Cols: MaxWindowCols + 1}).Width() <= 78 {
		t.Error("MaxWindowCols is not the widest window that fits 78 columns")
	}
	if Draw(Window{Col: 1, Row: 1}, nil, nil) != nil {
		t.Error("empty window drew something")
	}
}

func TestDrawAsksEdgeOncePerHexside(t *testing.T) {
	asked := map[Hexside]int{}
	win := Window{Col: 5, Row: 5, Cols: 4, Rows: 3}
	Draw(win, nil, func(s Hexside) (rune, bool) {
		asked[s]++
		return 0, false
	})
	n := 0
	for _, h := range win.Hexes() {
		for _, s := range h.Sides() {
			if asked[s] != 1 {
				t.Fatalf("edge(%v) asked %d times", s, asked[s])
			}
			n++
		}
	}
	// 12 hexes with 6 sides each; 23 sides are shared: 2 inside each of
	// the 4 columns and 5 between each of the 3 pairs of columns.
	if len(asked) != 12*6-23 {
		t.Errorf("asked about %d hexsides, want %d", len(asked), 12*6-23)
	}
}

func TestChooseWindow(t *testing.T) {
	g := Grid{FirstCol: 1, FirstRow: 1, Cols: 45, Rows: 35}
	tests := []struct {
		name       string
		grid       Grid
		focus      []string
		cols, rows int
		want       Window
	}{
		{"one hex", g, []string{"2314"}, 5, 3, Window{Col: 21, Row: 13, Cols: 5, Rows: 3}},
		{"even size", g, []string{"2314"}, 4, 2, Window{Col: 22, Row: 14, Cols: 4, Rows: 2}},
		{"box", g, []string{"2314", "2617", "2415"}, 10, 6, Window{Col: 20, Row: 13, Cols: 10, Rows: 6}},
		{"cap at 10", g, []string{"2314"}, 30, 3, Window{Col: 19, Row: 13, Cols: 10, Rows: 3}},
		{"top-left corner", g, []string{"0101"}, 6, 4, Window{Col: 1, Row: 1, Cols: 6, Rows: 4}},
		{"bottom-right corner", g, []string{"4535"}, 6, 4, Window{Col: 40, Row: 32, Cols: 6, Rows: 4}},
		{"too wide", g, []string{"0110", "2010"}, 10, 1, Window{Col: 6, Row: 10, Cols: 10, Rows: 1}},
		{"small map", Grid{1, 1, 4, 3}, []string{"0202"}, 10, 10, Window{Col: 1, Row: 1, Cols: 4, Rows: 3}},
		{"no focus", g, nil, 10, 5, Window{Col: 18, Row: 16, Cols: 10, Rows: 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var focus []Hex
			for _, s := range tt.focus {
				focus = append(focus, MustParse(s))
			}
			got, err := ChooseWindow(tt.grid, focus, tt.cols, tt.rows)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("ChooseWindow = %+v, want %+v", got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Fatal(err)
			}
			for _, h := range got.Hexes() {
				if !tt.grid.InBounds(h) {
					t.Fatalf("window hex %v is off the map", h)
				}
			}
		})
	}
	if _, err := ChooseWindow(g, []Hex{MustParse("4636")}, 5, 5); err == nil || !strings.Contains(err.Error(), "4636") {
		t.Errorf("off-map focus: err = %v", err)
	}
	if _, err := ChooseWindow(g, nil, 0, 5); err == nil {
		t.Error("zero columns accepted")
	}
	if _, err := ChooseWindow(Grid{}, nil, 5, 5); err == nil {
		t.Error("invalid grid accepted")
	}
}

func TestWindowValidate(t *testing.T) {
	bad := []Window{
		{Col: 1, Row: 1, Cols: 0, Rows: 1},
		{Col: 1, Row: 1, Cols: 11, Rows: 1},
		{Col: 1, Row: 1, Cols: 1, Rows: 0},
		{Col: 95, Row: 1, Cols: 10, Rows: 1},
	}
	for _, w := range bad {
		if w.Validate() == nil {
			t.Errorf("%+v.Validate() = nil", w)
		}
	}
}

func TestBeside(t *testing.T) {
	got := Beside([]string{"ab", "abcd", ""}, []string{"x", "", "y", "z"}, 2)
	want := []string{"ab    x", "abcd", "      y", "      z"}
	if !slices.Equal(got, want) {
		t.Errorf("Beside = %q, want %q", got, want)
	}
}
