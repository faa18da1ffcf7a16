package hex

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Drawing geometry. Each hex column is colStep characters wide; a hex is
// rowStep lines tall and even columns are drawn shift lines lower.
const (
	colStep = 7
	rowStep = 4
	shift   = 2

	// MaxWindowCols is the widest window, in hex columns, that fits a
	// 78-column plain-text mail: MaxWindowCols columns draw 73 characters.
	MaxWindowCols = 10

	// FillWidth is the number of characters of Cell.Fill that are drawn.
	FillWidth = 7
	// LabelWidth is the number of characters of Cell.Label that are drawn.
	LabelWidth = 6
)

// Window is the rectangle of hexes to draw: Cols columns starting at
// printed column Col and Rows rows starting at printed row Row.
type Window struct {
	Col, Row   int // first (leftmost) column and first (top) row
	Cols, Rows int // number of columns and rows
}

// Validate reports an error unless the window has 1 to MaxWindowCols
// columns, at least one row, and only printable hex numbers.
func (w Window) Validate() error {
	switch {
	case w.Cols < 1 || w.Cols > MaxWindowCols:
		return fmt.Errorf("window of %d columns: want 1 to %d", w.Cols, MaxWindowCols)
	case w.Rows < 1:
		return fmt.Errorf("window of %d rows: want at least 1", w.Rows)
	case !Hex{w.Col, w.Row}.Valid() || !Hex{w.Col + w.Cols - 1, w.Row + w.Rows - 1}.Valid():
		return fmt.Errorf("window at %d,%d of %dx%d: column and row numbers must be 0 to %d", w.Col, w.Row, w.Cols, w.Rows, MaxNumber)
	}
	return nil
}

// Contains reports whether h is drawn in the window.
func (w Window) Contains(h Hex) bool {
	return h.Col >= w.Col && h.Col < w.Col+w.Cols && h.Row >= w.Row && h.Row < w.Row+w.Rows
}

// Hexes returns the hexes of the window in column-major order.
func (w Window) Hexes() []Hex {
	return Grid{FirstCol: w.Col, FirstRow: w.Row, Cols: w.Cols, Rows: w.Rows}.Hexes()
}

// Width returns the width in characters of the drawing (7*Cols + 3; 73
// for MaxWindowCols). Lines may be shorter, since trailing spaces are
// trimmed.
func (w Window) Width() int {
	if w.Cols < 1 {
		return 0
	}
	return colStep*w.Cols + 3
}

// Height returns the number of lines of the drawing: 4*Rows + 3, or
// 4*Rows + 1 for a window of a single column.
func (w Window) Height() int {
	if w.Cols < 1 || w.Rows < 1 {
		return 0
	}
	if w.Cols == 1 {
		return rowStep*w.Rows + 1
	}
	return rowStep*w.Rows + shift + 1
}

// top returns the line offset that is subtracted from every hex's position:
// shift when the window holds only an even column, so that no drawing
// starts with blank lines.
func (w Window) top() int {
	if w.Cols == 1 && w.Col%2 == 0 {
		return shift
	}
	return 0
}

// origin returns the canvas position of the top-left corner of h's box.
func (w Window) origin(h Hex) (x, y int) {
	x = colStep * (h.Col - w.Col)
	y = rowStep*(h.Row-w.Row) - w.top()
	if h.Col%2 == 0 {
		y += shift
	}
	return x, y
}

// ChooseWindow returns the window of at most maxCols columns (capped at
// MaxWindowCols) and maxRows rows that lies inside g and is centred on the
// bounding box of focus; with no focus hexes it is centred on the grid. If
// the focus hexes span more than the window, the window is centred on their
// middle and some of them fall outside (check with Window.Contains). It
// fails if maxCols or maxRows is less than 1, if g is not valid, or if a
// focus hex is off the grid.
func ChooseWindow(g Grid, focus []Hex, maxCols, maxRows int) (Window, error) {
	if err := g.Validate(); err != nil {
		return Window{}, fmt.Errorf("choose window: %w", err)
	}
	if maxCols < 1 || maxRows < 1 {
		return Window{}, fmt.Errorf("choose window of %d columns by %d rows: want at least one of each", maxCols, maxRows)
	}
	lo, hi := g.First(), g.Last()
	if len(focus) > 0 {
		lo, hi = focus[0], focus[0]
		for _, h := range focus {
			if !g.InBounds(h) {
				return Window{}, fmt.Errorf("choose window: focus hex %s is off the map (%s to %s)", h, g.First(), g.Last())
			}
			lo.Col, lo.Row = min(lo.Col, h.Col), min(lo.Row, h.Row)
			hi.Col, hi.Row = max(hi.Col, h.Col), max(hi.Row, h.Row)
		}
	}
	cols := min(maxCols, MaxWindowCols, g.Cols)
	rows := min(maxRows, g.Rows)
	return Window{
		Col:  centre(lo.Col, hi.Col, cols, g.FirstCol, g.Cols),
		Row:  centre(lo.Row, hi.Row, rows, g.FirstRow, g.Rows),
		Cols: cols,
		Rows: rows,
	}, nil
}

// centre returns the first number of a span of n numbers centred on lo..hi
// (extra room goes after the span when it cannot be split evenly), moved
// inside first..first+total-1.
func centre(lo, hi, n, first, total int) int {
	span := hi - lo + 1
	var start int
	if span <= n {
		start = lo - (n-span)/2
	} else {
		start = lo + (span-n)/2
	}
	return max(first, min(start, first+total-n))
}

// Cell is what Draw writes inside one hex, besides its number.
type Cell struct {
	// Fill is the terrain fill, centred on the second interior line,
	// usually two glyphs such as ". ." (clear) or "^ ^" (hill); at most
	// FillWidth characters are drawn.
	Fill string
	// Label is the unit label, on the third interior line; at most
	// LabelWidth characters are drawn.
	Label string
}

// Draw renders the hexes of win as lines of plain text for a monospace
// font, with no trailing spaces and no trailing newline. A window of two
// columns and two rows from 2314, with a river on 2314/2414 and 2414/2415
// (see ExampleDraw), is drawn as
//
//	  _____
//	 /2314 \
//	/  . .  \_____
//	\ NEWT* ~2414 \
//	 \_____~  ^ ^  \
//	 /2315 \ 1CAV  /
//	/  T T  \~~~~~/
//	\ JACK  /2415 \
//	 \_____/  . .  \
//	       \       /
//	        \_____/
//
// Layout: each hex box is 9 characters wide and 5 lines tall; each column
// starts 7 characters to the right of the one before, and boxes of
// neighbouring columns share their slanted sides. Even columns are drawn two
// lines lower than odd ones, as on the map. Every hex of the window is drawn
// whole, so the drawing is Width characters wide (73 for MaxWindowCols
// columns) and Height lines tall, and the first column of characters is
// always blank, as in the mail layout of docs/DESIGN.md, Boards in the mail.
//
// Interior: the first line holds the four-digit hex number, the second the
// cell's Fill centred (at most FillWidth characters), and the third the
// cell's Label from the second character (at most LabelWidth characters).
// Characters that are not printable are drawn as '?'; labels and fills
// should be ASCII, or at least one column wide per character. cell may be
// nil: then only numbers are drawn.
//
// Hexside marks: edge (which may be nil) is asked once for each hexside of
// the drawn hexes. When it reports true, every character of that side is
// replaced by the returned glyph: the five '_' of a north or south side, or
// the two '/' or '\' of a slanted side. The outline stays readable because
// the hex numbers still show where each box is. Suggested glyphs: '~' river
// or creek, '"' ridge, '+' bridge or ford; the caller chooses and should
// print a legend.
//
// Draw returns nil for a window with no columns or rows. The output depends
// only on the arguments.
func Draw(win Window, cell func(Hex) Cell, edge func(Hexside) (rune, bool)) []string {
	if win.Cols < 1 || win.Rows < 1 {
		return nil
	}
	cv := newCanvas(win.Width(), win.Height())
	hexes := win.Hexes()

	// Pass 1: outlines and interiors.
	for _, h := range hexes {
		x, y := win.origin(h)
		cv.box(h, x, y, sidePoints, 3)
		if cell == nil {
			continue
		}
		c := cell(h)
		fill := clip(c.Fill, FillWidth)
		cv.text(x+2+(FillWidth-len(fill))/2, y+2, string(fill), FillWidth)
		cv.text(x+3, y+3, c.Label, LabelWidth)
	}

	// Pass 2: hexside marks, so that a mark wins over the plain outline
	// drawn by the hex on the other side.
	if edge != nil {
		markSides(hexes, edge, func(h Hex, d Direction, r rune) {
			x, y := win.origin(h)
			for _, p := range sidePoints(x, y, d) {
				cv.set(p.x, p.y, printable(r))
			}
		})
	}
	return cv.lines()
}

type point struct {
	x, y int
	r    rune
}

// box draws the outline of hex h, whose box has its top-left corner at
// (x, y) and its sides at points, and its number from column x+numX of
// the line below the top.
func (c *canvas) box(h Hex, x, y int, points func(x, y int, d Direction) []point, numX int) {
	for d := range NumDirections {
		for _, p := range points(x, y, d) {
			c.set(p.x, p.y, p.r)
		}
	}
	num := "----"
	if h.Valid() {
		num = h.String()
	}
	c.text(x+numX, y+1, num, 4)
}

// markSides asks edge once for each hexside of hexes, and calls mark for
// each side of each hex edge reports true for, in the order of hexes,
// then of directions.
func markSides[M any](hexes []Hex, edge func(Hexside) (M, bool), mark func(h Hex, d Direction, m M)) {
	type asked struct {
		m  M
		ok bool
	}
	seen := map[Hexside]asked{} // looked up by key only, never iterated
	for _, h := range hexes {
		for d := range NumDirections {
			s := Side(h, d)
			a, ok := seen[s]
			if !ok {
				a.m, a.ok = edge(s)
				seen[s] = a
			}
			if a.ok {
				mark(h, d, a.m)
			}
		}
	}
}

// sidePoints returns the characters of side d of the hex box whose top-left
// corner is at (x, y).
func sidePoints(x, y int, d Direction) []point {
	switch d {
	case N, S:
		row := y
		if d == S {
			row = y + rowStep
		}
		ps := make([]point, 0, 5)
		for i := 3; i <= 7; i++ {
			ps = append(ps, point{x + i, row, '_'})
		}
		return ps
	case NE:
		return []point{{x + 8, y + 1, '\\'}, {x + 9, y + 2, '\\'}}
	case SE:
		return []point{{x + 9, y + 3, '/'}, {x + 8, y + 4, '/'}}
	case SW:
		return []point{{x + 1, y + 3, '\\'}, {x + 2, y + 4, '\\'}}
	default: // NW
		return []point{{x + 2, y + 1, '/'}, {x + 1, y + 2, '/'}}
	}
}

// clip returns at most n printable runes of s.
func clip(s string, n int) []rune {
	out := make([]rune, 0, n)
	for _, r := range s {
		if len(out) == n {
			break
		}
		out = append(out, printable(r))
	}
	return out
}

func printable(r rune) rune {
	if r == utf8.RuneError || !unicode.IsPrint(r) {
		return '?'
	}
	return r
}

// canvas is a rectangle of runes, blank to start with.
type canvas struct {
	w    int
	cell [][]rune
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w, cell: make([][]rune, h)}
	for i := range c.cell {
		c.cell[i] = []rune(strings.Repeat(" ", w))
	}
	return c
}

func (c *canvas) set(x, y int, r rune) {
	if y >= 0 && y < len(c.cell) && x >= 0 && x < c.w {
		c.cell[y][x] = r
	}
}

// text writes at most n printable runes of s from (x, y).
func (c *canvas) text(x, y int, s string, n int) {
	for i, r := range clip(s, n) {
		c.set(x+i, y, r)
	}
}

// lines returns the canvas with trailing spaces removed from every line.
func (c *canvas) lines() []string {
	out := make([]string, len(c.cell))
	for i, row := range c.cell {
		out[i] = strings.TrimRight(string(row), " ")
	}
	return out
}

// Beside returns left and right side by side: each line of left padded with
// spaces to the width of the widest line of left (in characters) plus gap,
// followed by the line of right with the same index. The result has as many
// lines as the longer of the two, with no trailing spaces. Use it to put a
// legend to the right of a narrow window; a window of MaxWindowCols columns
// leaves no room in 78 columns.
func Beside(left, right []string, gap int) []string {
	w := 0
	for _, l := range left {
		w = max(w, utf8.RuneCountInString(l))
	}
	w += max(gap, 0)
	out := make([]string, max(len(left), len(right)))
	for i := range out {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		if r == "" {
			out[i] = strings.TrimRight(l, " ")
			continue
		}
		out[i] = strings.TrimRight(l+strings.Repeat(" ", w-utf8.RuneCountInString(l))+r, " ")
	}
	return out
}
