package hex

// The large drawing: hexes with room for what a wargame board shows in a
// hex (a mark beside the number, a fill line, three lines of units and
// leaders) and for three marks on every hexside (a hexside feature along
// it, a crossing and a route across it). Nine columns fit a 78-column
// mail.
const (
	largeColStep = 8
	largeRowStep = 6
	largeShift   = 3

	// LargeMaxWindowCols is the widest large window, in hex columns, that
	// fits a 78-column plain-text mail: 9 columns draw 76 characters.
	LargeMaxWindowCols = 9

	largeFillWidth = 7
)

// LargeLineWidths are the number of characters drawn of each of
// LargeCell.Lines.
var LargeLineWidths = [3]int{8, 8, 6}

// LargeCell is what DrawLarge writes inside one hex, besides its number.
type LargeCell struct {
	// Mark is drawn just after the hex number (0 for none).
	Mark rune
	// Fill is centred on the second interior line; at most 7 characters
	// are drawn.
	Fill string
	// Lines are the third to fifth interior lines, from their first
	// column; at most LargeLineWidths characters of each are drawn.
	Lines [3]string
}

// SideMark is how DrawLarge marks a hexside. Base (a feature along the
// side, such as a river) replaces every character of it; Cross (a
// crossing, such as a ford) and Route (a road across it) each replace a
// character of their own, so all three can be read at once. A zero rune
// leaves the character as it is.
type SideMark struct {
	Base, Cross, Route rune
}

// LargeWidth returns the width in characters of a large drawing of the
// window (8*Cols + 4; 76 for LargeMaxWindowCols).
func (w Window) LargeWidth() int {
	if w.Cols < 1 {
		return 0
	}
	return largeColStep*w.Cols + 4
}

// LargeHeight returns the number of lines of a large drawing: 6*Rows + 4,
// or 6*Rows + 1 for a window of a single column.
func (w Window) LargeHeight() int {
	if w.Cols < 1 || w.Rows < 1 {
		return 0
	}
	if w.Cols == 1 {
		return largeRowStep*w.Rows + 1
	}
	return largeRowStep*w.Rows + largeShift + 1
}

// largeOrigin returns the canvas position of the top-left corner of h's
// large box.
func (w Window) largeOrigin(h Hex) (x, y int) {
	x = largeColStep * (h.Col - w.Col)
	y = largeRowStep * (h.Row - w.Row)
	if w.Cols == 1 && w.Col%2 == 0 {
		y -= largeShift
	}
	if h.Col%2 == 0 {
		y += largeShift
	}
	return x, y
}

// DrawLarge renders the hexes of win as lines of plain text, as Draw does,
// with larger hexes (13 characters wide, 7 lines tall; each column 8
// characters right of the one before, even columns 3 lines lower):
//
//	   _____
//	  /0504Z\
//	 / T o T \
//	/ ORNE    \
//	\ *Brand  /
//	 \ *Hale /
//	  \_____/
//
// Interior: the hex number and the cell's Mark after it; the Fill
// centred on the next line (at most 7 characters); then Lines[0] and
// Lines[1] (at most 8 characters each) and Lines[2] (at most 6), each a
// space in from its line's slanted sides.
//
// Hexside marks: edge (which may be nil) is asked once for each hexside
// of the drawn hexes; when it reports true, the side is drawn with its
// SideMark. A north or south side has five characters: Base fills them,
// Cross replaces the second and Route the third. A slanted side has
// three, from top to bottom: Cross replaces the first and Route the
// second, Base fills the rest.
//
// DrawLarge returns nil for a window with no columns or rows. The output
// depends only on the arguments.
func DrawLarge(win Window, cell func(Hex) LargeCell, edge func(Hexside) (SideMark, bool)) []string {
	if win.Cols < 1 || win.Rows < 1 {
		return nil
	}
	cv := newCanvas(win.LargeWidth(), win.LargeHeight())
	hexes := win.Hexes()
	for _, h := range hexes {
		x, y := win.largeOrigin(h)
		cv.box(h, x, y, largeSidePoints, 4)
		if cell == nil {
			continue
		}
		c := cell(h)
		if c.Mark != 0 {
			cv.set(x+8, y+1, printable(c.Mark))
		}
		fill := clip(c.Fill, largeFillWidth)
		cv.text(x+3+(largeFillWidth-len(fill))/2, y+2, string(fill), largeFillWidth)
		cv.text(x+3, y+3, c.Lines[0], LargeLineWidths[0])
		cv.text(x+3, y+4, c.Lines[1], LargeLineWidths[1])
		cv.text(x+4, y+5, c.Lines[2], LargeLineWidths[2])
	}
	if edge == nil {
		return cv.lines()
	}
	markSides(hexes, edge, func(h Hex, d Direction, m SideMark) {
		x, y := win.largeOrigin(h)
		cross, route := 0, 1 // slanted: the first and second, top down
		if d == N || d == S {
			cross, route = 1, 2
		}
		for i, p := range largeSidePoints(x, y, d) {
			r := m.Base
			switch {
			case i == cross && m.Cross != 0:
				r = m.Cross
			case i == route && m.Route != 0:
				r = m.Route
			}
			if r != 0 {
				cv.set(p.x, p.y, printable(r))
			}
		}
	})
	return cv.lines()
}

// largeSidePoints returns the characters of side d of the large hex box
// whose top-left corner is at (x, y): left to right for a north or south
// side, top to bottom for a slanted one.
func largeSidePoints(x, y int, d Direction) []point {
	switch d {
	case N, S:
		row := y
		if d == S {
			row = y + largeRowStep
		}
		ps := make([]point, 0, 5)
		for i := 4; i <= 8; i++ {
			ps = append(ps, point{x + i, row, '_'})
		}
		return ps
	case NE:
		return []point{{x + 9, y + 1, '\\'}, {x + 10, y + 2, '\\'}, {x + 11, y + 3, '\\'}}
	case SE:
		return []point{{x + 11, y + 4, '/'}, {x + 10, y + 5, '/'}, {x + 9, y + 6, '/'}}
	case SW:
		return []point{{x + 1, y + 4, '\\'}, {x + 2, y + 5, '\\'}, {x + 3, y + 6, '\\'}}
	default: // NW
		return []point{{x + 3, y + 1, '/'}, {x + 2, y + 2, '/'}, {x + 1, y + 3, '/'}}
	}
}
