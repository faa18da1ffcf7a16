package table

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Scale is the size of one character of a drawing, measured on the table.
// Monospace characters are about twice as tall as they are wide, so a row
// twice the height of a column keeps the table's proportions.
type Scale struct {
	Col, Row Length // width of a column, height of a row; both > 0
	Unit     Unit   // unit written on the rulers
}

// ScaleCM returns a scale of col centimetres per column and row
// centimetres per row, with rulers in centimetres. ScaleCM(2, 4) suits an
// HRA table: 120 cm fit in 60 columns.
func ScaleCM(col, row int64) Scale { return Scale{CM(col), CM(row), Centimetres} }

// ScaleInch returns a scale of col inches per column and row inches per
// row, with rulers in inches. ScaleInch(1, 2) suits a GMB 48" table.
func ScaleInch(col, row int64) Scale { return Scale{Inch(col), Inch(row), Inches} }

// Area is a terrain area drawn as a fill character. Pick fills that cannot
// be taken for a facing mark or a unit: not ^ > v < or a digit, not '.',
// and not a letter that names a unit.
type Area struct {
	Name  string // for the legend, e.g. "woods"
	Fill  byte   // printable ASCII, e.g. 'T' or ':'
	Shape Polygon
	Layer int // areas on higher layers are drawn over lower ones
}

// Line is a linear feature (road, river, stream, fence, wall) drawn along
// its path.
type Line struct {
	Name  string // for the legend
	Glyph byte   // printable ASCII, e.g. '=' or '~'; 0 draws - | / \ along the line
	Path  Polyline
}

// Piece is a unit on the table: its bases are drawn as runs of Letter, and
// the first base's facing is marked on it (^ > v < for north, east, south,
// west; 9 3 1 7 for NE, SE, SW, NW, as on a numeric keypad).
type Piece struct {
	Letter byte   // printable ASCII, e.g. 'A'
	Name   string // for the legend
	Bases  []Rect
}

// Label is a short text written on the drawing at or next to the
// character that holds At. A label is never overprinted, nor written over
// a piece: where Text finds no room it is moved to a neighbouring row or
// written as Short (the initials of Text if Short is empty), which the
// legend explains; a label that finds no room even so is named in the
// legend.
type Label struct {
	At    Point
	Text  string
	Short string
}

// Scene is everything drawn of a table. The table runs from (0, 0), its
// south-west corner, to (Width, Height). The order of the slices does not
// matter: Render sorts them, so the same scene always gives the same
// drawing.
type Scene struct {
	Width, Height Length
	Areas         []Area
	Lines         []Line
	Pieces        []Piece
	Labels        []Label
}

// View is the window of the table a drawing shows.
type View struct {
	Scale      Scale
	Left, Top  Length // table coordinates of the window's north-west corner
	Cols, Rows int    // size of the map in characters
}

// MailWidth is the widest line a drawing in a mail body may have.
const MailWidth = 78

// WholeTable returns the view of the entire table at scale sc (for a text
// attachment; it may be wider than 78 columns).
func (s Scene) WholeTable(sc Scale) View {
	return View{
		Scale: sc,
		Left:  0,
		Top:   roundUp(s.Height, sc.Row),
		Cols:  int(ceilDiv(s.Width, sc.Col)),
		Rows:  int(ceilDiv(s.Height, sc.Row)),
	}
}

// Window returns a view at scale sc whose lines, rulers included, are at
// most width characters wide (use [MailWidth]) and whose map has at most
// rows rows, centred on the focus points (the middle of their bounding
// box; the whole table's middle if there are none) and kept on the table.
// The window's edges fall on whole columns and rows counted from the
// table's south-west corner.
func (s Scene) Window(sc Scale, width, rows int, focus ...Point) View {
	whole := s.WholeTable(sc)
	cols := width - s.marginWidth(whole) - 1 // one column for the east frame
	cols = max(1, min(cols, whole.Cols))
	rows = max(1, min(rows, whole.Rows))
	cx, cy := s.Width/2, s.Height/2
	if len(focus) > 0 {
		lo, hi := bounds(focus)
		cx, cy = lo.X+(hi.X-lo.X)/2, lo.Y+(hi.Y-lo.Y)/2
	}
	left := Length(floorDiv(int64(cx-Length(cols)*sc.Col/2), int64(sc.Col))) * sc.Col
	left = max(0, min(left, Length(whole.Cols-cols)*sc.Col))
	top := roundUp(cy+Length(rows)*sc.Row/2, sc.Row)
	top = min(whole.Top, max(top, Length(rows)*sc.Row))
	return View{Scale: sc, Left: left, Top: top, Cols: cols, Rows: rows}
}

func ceilDiv(a, b Length) int64 { return -floorDiv(-int64(a), int64(b)) }

func roundUp(a, step Length) Length { return Length(ceilDiv(a, step)) * step }

// ruler holds the tick spacing of one axis.
type ruler struct {
	major, minor Length // minor is 0 when there are no minor ticks
}

// niceSteps lists ruler spacings, in units, from small to large.
func niceSteps(u Unit) []int64 {
	if u == Inches {
		return []int64{1, 2, 3, 6, 12, 24, 48, 96}
	}
	return []int64{1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000}
}

// makeRuler picks the smallest nice spacing that is a whole number of
// cells and at least minCells cells.
func makeRuler(cell Length, u Unit, minCells int64) ruler {
	for _, n := range niceSteps(u) {
		step := Length(n) * u.Size()
		if step%cell == 0 && int64(step/cell) >= minCells {
			r := ruler{major: step}
			if half := step / 2; step%2 == 0 && half%cell == 0 {
				r.minor = half
			}
			return r
		}
	}
	return ruler{major: cell * Length(minCells)}
}

func (sc Scale) rulers() (x, y ruler) {
	return makeRuler(sc.Col, sc.Unit, 6), makeRuler(sc.Row, sc.Unit, 3)
}

func isMultiple(v, step Length) bool { return step > 0 && v%step == 0 }

// rulerLabel writes a coordinate in the ruler's unit.
func rulerLabel(v Length, u Unit) string { return formatIn(v, u) }

// marginWidth is the width of the left ruler: the widest label, a space
// and the frame.
func (s Scene) marginWidth(v View) int {
	w := max(len(rulerLabel(v.Top, v.Scale.Unit)), len(rulerLabel(0, v.Scale.Unit)),
		len(v.Scale.Unit.Suffix()))
	return w + 2
}

// canvas is the character grid being drawn, with which piece owns each
// cell.
type canvas struct {
	v       View
	cells   [][]byte
	piece   []int // index of the piece owning the cell, or -1
	score   []int // the owner's score
	scratch []int // one piece's scores, zero between pieces
}

func (c *canvas) cellOf(p Point) (row, col int, ok bool) {
	cc := floorDiv(int64(p.X-c.v.Left), int64(c.v.Scale.Col))
	rr := floorDiv(int64(c.v.Top-p.Y), int64(c.v.Scale.Row))
	if cc < 0 || rr < 0 || cc >= int64(c.v.Cols) || rr >= int64(c.v.Rows) {
		return 0, 0, false
	}
	return int(rr), int(cc), true
}

// corner returns the north-west corner of cell (row, col).
func (c *canvas) corner(row, col int) Point {
	return Point{c.v.Left + Length(col)*c.v.Scale.Col, c.v.Top - Length(row)*c.v.Scale.Row}
}

// at returns the point fx/den of the way across and fy/den of the way
// down cell (row, col).
func (c *canvas) at(row, col int, fx, fy, den int64) Point {
	p := c.corner(row, col)
	return Point{
		p.X + Length(divRound(int64(c.v.Scale.Col)*fx, den)),
		p.Y - Length(divRound(int64(c.v.Scale.Row)*fy, den)),
	}
}

func (c *canvas) box(row, col int) convex {
	p := c.corner(row, col)
	q := Point{p.X + c.v.Scale.Col, p.Y - c.v.Scale.Row}
	return convex{pts: []Point{p, {q.X, p.Y}, q, {p.X, q.Y}}}
}

// cellRange returns the rows and columns of cells that may meet the
// bounding box lo–hi, clipped to the view.
func (c *canvas) cellRange(lo, hi Point) (r0, r1, c0, c1 int) {
	sc := c.v.Scale
	c0 = int(max(0, floorDiv(int64(lo.X-c.v.Left), int64(sc.Col))))
	c1 = int(min(int64(c.v.Cols-1), floorDiv(int64(hi.X-c.v.Left), int64(sc.Col))))
	r0 = int(max(0, floorDiv(int64(c.v.Top-hi.Y), int64(sc.Row))))
	r1 = int(min(int64(c.v.Rows-1), floorDiv(int64(c.v.Top-lo.Y), int64(sc.Row))))
	return
}

func glyph(b byte) byte {
	if b < ' ' || b > '~' {
		return '?'
	}
	return b
}

// Render draws the scene in the view as plain ASCII text for a monospace
// mail client: a scale line, a ruler along the top and left edges (each
// label marks the north-west corner of the character next to it), the map
// framed on the table's edges, and a legend. Lines have no trailing
// spaces and end in a newline.
//
// What each character shows, from bottom to top:
//   - open ground is blank, with '.' where ruler lines cross;
//   - an area fills every character whose centre lies in it (an area too
//     small to cover any centre fills the character at its middle);
//   - a line marks every character its path passes through;
//   - labels;
//   - a piece takes every character where its bases cover most of the
//     character (sampled 4 × 4), or any part of it if nothing else claims
//     it; the facing mark replaces the letter where the first base's front
//     edge lies, or sits just in front of a base that fills one character.
func (s Scene) Render(v View) string {
	if v.Cols <= 0 || v.Rows <= 0 || v.Scale.Col <= 0 || v.Scale.Row <= 0 {
		return ""
	}
	sc := s.sorted()
	n := v.Rows * v.Cols
	c := &canvas{v: v, cells: make([][]byte, v.Rows), piece: make([]int, n),
		score: make([]int, n), scratch: make([]int, n)}
	for r := range c.cells {
		c.cells[r] = []byte(strings.Repeat(" ", v.Cols))
	}
	for i := range c.piece {
		c.piece[i] = -1
	}
	xr, yr := v.Scale.rulers()
	for r := range v.Rows {
		for col := range v.Cols {
			p := c.corner(r, col)
			if isMultiple(p.X, xr.major) && isMultiple(p.Y, yr.major) &&
				p.X < s.Width && p.Y > 0 {
				c.cells[r][col] = '.'
			}
		}
	}
	var legend []string
	note := func(ch byte, name string) {
		if item := string(ch) + " " + name; name != "" && !slices.Contains(legend, item) {
			legend = append(legend, item)
		}
	}
	for _, a := range sc.Areas {
		if c.drawArea(a) {
			note(glyph(a.Fill), a.Name)
		}
	}
	for _, l := range sc.Lines {
		if c.drawLine(l) {
			g := glyph(l.Glyph)
			if l.Glyph == 0 {
				g = '-'
			}
			note(g, l.Name)
		}
	}
	var pieces []string
	for i, p := range sc.Pieces {
		c.claim(i, p)
	}
	// Labels go where no piece, facing mark or earlier label is.
	taken := make([]bool, n)
	for k, o := range c.piece {
		taken[k] = o >= 0
	}
	for i, p := range sc.Pieces {
		if k, _, ok := c.mark(i, p); ok {
			taken[k] = true
		}
	}
	for _, l := range sc.Labels {
		if item := c.drawLabel(l, taken); item != "" {
			legend = append(legend, item)
		}
	}
	for i, p := range sc.Pieces {
		if c.drawPiece(i, p) && p.Name != "" {
			pieces = append(pieces, string(glyph(p.Letter))+" "+p.Name)
		}
	}
	return s.frame(c, xr, yr, legend, pieces)
}

// sorted returns a copy of the scene with every slice in a canonical order.
func (s Scene) sorted() Scene {
	out := s
	out.Areas = slices.Clone(s.Areas)
	slices.SortStableFunc(out.Areas, func(a, b Area) int {
		return cmp.Or(cmp.Compare(a.Layer, b.Layer), cmp.Compare(a.Fill, b.Fill),
			cmp.Compare(a.Name, b.Name), comparePoints(a.Shape, b.Shape))
	})
	out.Lines = slices.Clone(s.Lines)
	slices.SortStableFunc(out.Lines, func(a, b Line) int {
		return cmp.Or(cmp.Compare(a.Glyph, b.Glyph), cmp.Compare(a.Name, b.Name),
			comparePoints(a.Path, b.Path))
	})
	out.Pieces = slices.Clone(s.Pieces)
	slices.SortStableFunc(out.Pieces, func(a, b Piece) int {
		return cmp.Or(cmp.Compare(a.Letter, b.Letter), cmp.Compare(a.Name, b.Name),
			slices.CompareFunc(a.Bases, b.Bases, compareRects))
	})
	out.Labels = slices.Clone(s.Labels)
	slices.SortStableFunc(out.Labels, func(a, b Label) int {
		return cmp.Or(cmp.Compare(b.At.Y, a.At.Y), cmp.Compare(a.At.X, b.At.X),
			cmp.Compare(a.Text, b.Text))
	})
	return out
}

func comparePoint(a, b Point) int { return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(a.Y, b.Y)) }

func comparePoints(a, b []Point) int { return slices.CompareFunc(a, b, comparePoint) }

func compareRects(a, b Rect) int {
	return cmp.Or(comparePoint(a.Front, b.Front), cmp.Compare(a.Width, b.Width),
		cmp.Compare(a.Depth, b.Depth), cmp.Compare(a.Facing, b.Facing))
}

// drawArea fills the area's cells and reports whether any was drawn.
func (c *canvas) drawArea(a Area) bool {
	if len(a.Shape) == 0 {
		return false
	}
	lo, hi := a.Shape.Bounds()
	r0, r1, c0, c1 := c.cellRange(lo, hi)
	drawn := false
	for r := r0; r <= r1; r++ {
		for col := c0; col <= c1; col++ {
			if a.Shape.Contains(c.at(r, col, 1, 1, 2)) {
				c.cells[r][col] = glyph(a.Fill)
				drawn = true
			}
		}
	}
	if !drawn {
		mid := Point{lo.X + (hi.X-lo.X)/2, lo.Y + (hi.Y-lo.Y)/2}
		if r, col, ok := c.cellOf(mid); ok {
			c.cells[r][col] = glyph(a.Fill)
			drawn = true
		}
	}
	return drawn
}

// drawLine marks the cells along the line and reports whether any was
// drawn. Each segment is walked in steps of a quarter of the smaller cell
// side.
func (c *canvas) drawLine(l Line) bool {
	sc := c.v.Scale
	step := max(min(sc.Col, sc.Row)/4, 1)
	drawn := false
	for _, s := range l.Path.segments() {
		g := glyph(l.Glyph)
		d := s.Vec()
		if l.Glyph == 0 {
			g = slope(d, sc)
		}
		n := max(int64(ceilDiv(s.Len(), step)), 1)
		for i := int64(0); i <= n; i++ {
			p := s.A.Add(Vector{
				Length(divRound(int64(d.X)*i, n)),
				Length(divRound(int64(d.Y)*i, n)),
			})
			if r, col, ok := c.cellOf(p); ok {
				c.cells[r][col] = g
				drawn = true
			}
		}
	}
	return drawn
}

// slope picks - | / \ for a direction as it looks on screen.
func slope(d Vector, sc Scale) byte {
	ax := uint64(d.X.Abs()) * uint64(sc.Row) / uint64(sc.Col) // in row units
	ay := uint64(d.Y.Abs())
	switch {
	case 2*ay < ax:
		return '-'
	case 2*ax < ay:
		return '|'
	case (d.X > 0) == (d.Y > 0):
		return '/'
	}
	return '\\'
}

// initials returns the first letter of each word of s after a leading
// mark ("@Kettle Mill" → "@KM").
func initials(s string) string {
	lead := ""
	if len(s) > 0 && !isWordByte(s[0]) {
		lead, s = s[:1], s[1:]
	}
	out := lead
	for _, w := range strings.Fields(s) {
		out += w[:1]
	}
	return out
}

func isWordByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z'
}

// drawLabel writes the label in free cells near its point (see [Label])
// and marks them taken. It returns a legend entry if the label was
// shortened or left out, else "".
func (c *canvas) drawLabel(l Label, taken []bool) string {
	r, col, ok := c.cellOf(l.At)
	if !ok {
		return ""
	}
	fits := func(text []byte, row, start int) bool {
		if row < 0 || row >= c.v.Rows || start < 0 || start+len(text) > c.v.Cols {
			return false
		}
		for i := range text {
			if taken[row*c.v.Cols+start+i] {
				return false
			}
		}
		// A blank between a label and a piece, so they never read as one.
		for _, k := range []int{start - 1, start + len(text)} {
			if k >= 0 && k < c.v.Cols && c.piece[row*c.v.Cols+k] >= 0 {
				return false
			}
		}
		return true
	}
	place := func(text []byte) bool {
		if len(text) == 0 || len(text) > c.v.Cols {
			return false
		}
		for _, dr := range []int{0, -1, 1, -2, 2} {
			row := r + dr
			starts := []int{col, col - len(text) + 1, min(col, c.v.Cols-len(text))}
			for d := 1; d <= 4; d++ {
				starts = append(starts, col+d, col-len(text)+1-d)
			}
			for _, start := range starts {
				if fits(text, row, start) {
					for i, b := range text {
						c.cells[row][start+i] = glyph(b)
						taken[row*c.v.Cols+start+i] = true
					}
					// A blank between labels, so two never run together.
					for _, k := range []int{start - 1, start + len(text)} {
						if k >= 0 && k < c.v.Cols {
							taken[row*c.v.Cols+k] = true
						}
					}
					return true
				}
			}
		}
		return false
	}
	if place([]byte(l.Text)) {
		return ""
	}
	short := l.Short
	if short == "" {
		short = initials(l.Text)
	}
	if short != l.Text && place([]byte(short)) {
		full := l.Text
		if len(full) > 0 && !isWordByte(full[0]) && strings.HasPrefix(short, full[:1]) {
			full = full[1:]
		}
		return short + " " + full
	}
	return l.Text + " (no room on the map)"
}

// claim scores the cells a piece's bases cover (2 for each of 4 × 4
// sample points inside a base, or 1 if a base overlaps the cell but holds
// no sample point) and takes each cell where it beats the owner so far;
// ties stay with the earlier piece.
func (c *canvas) claim(idx int, p Piece) {
	var touched []int
	for _, b := range p.Bases {
		cs := b.Corners()
		lo, hi := bounds(cs[:])
		r0, r1, c0, c1 := c.cellRange(lo, hi)
		bc := b.convex()
		for r := r0; r <= r1; r++ {
			for col := c0; col <= c1; col++ {
				n := 0
				for j := int64(0); j < 4; j++ {
					for i := int64(0); i < 4; i++ {
						if cornersContain(cs, c.at(r, col, 2*i+1, 2*j+1, 8)) {
							n += 2
						}
					}
				}
				if n == 0 && overlaps(bc, c.box(r, col)) {
					n = 1
				}
				if n == 0 {
					continue
				}
				k := r*c.v.Cols + col
				if c.scratch[k] == 0 {
					touched = append(touched, k)
				}
				c.scratch[k] += n
			}
		}
	}
	for _, k := range touched {
		if n := c.scratch[k]; n > c.score[k] {
			c.score[k], c.piece[k] = n, idx
		}
		c.scratch[k] = 0
	}
}

// facingMarks are the marks for bearings 0°, 45°, … 315°.
const facingMarks = "^9>3v1<7"

// FacingMark returns the character that marks facing a in a drawing: the
// nearest of ^ 9 > 3 v 1 < 7 (north, north-east, … north-west; the digits
// as on a numeric keypad). A bearing exactly between two marks takes the
// clockwise one.
func FacingMark(a Angle) byte {
	return facingMarks[((a.Norm()+45*Degree/2)/(45*Degree))%8]
}

// mark returns the cell that takes the piece's facing mark (index into
// the canvas) and the mark: where the first base's front edge lies, or
// just in front of a base that fills one character.
func (c *canvas) mark(idx int, p Piece) (int, byte, bool) {
	if len(p.Bases) == 0 {
		return 0, 0, false
	}
	owned := 0
	for _, o := range c.piece {
		if o == idx {
			owned++
		}
	}
	b := p.Bases[0]
	m := FacingMark(b.Facing)
	ctr := b.Centre()
	inner := Point{b.Front.X + (ctr.X-b.Front.X)/2, b.Front.Y + (ctr.Y-b.Front.Y)/2}
	if r, col, ok := c.cellOf(inner); ok && owned >= 2 && c.piece[r*c.v.Cols+col] == idx {
		return r*c.v.Cols + col, m, true
	}
	ahead := b.Front.Add(Heading(b.Facing, min(c.v.Scale.Col, c.v.Scale.Row)*3/4))
	if r, col, ok := c.cellOf(ahead); ok && owned > 0 && c.piece[r*c.v.Cols+col] < 0 {
		// (A piece with no character in the window gets no mark either.)
		if r0, c0, ok0 := c.cellOf(inner); !ok0 || r0 != r || c0 != col {
			return r*c.v.Cols + col, m, true
		}
	}
	return 0, 0, false
}

// drawPiece writes the piece's letter in the cells it owns and its facing
// mark, and reports whether anything was drawn.
func (c *canvas) drawPiece(idx int, p Piece) bool {
	owned := 0
	for k, o := range c.piece {
		if o == idx {
			c.cells[k/c.v.Cols][k%c.v.Cols] = glyph(p.Letter)
			owned++
		}
	}
	if k, m, ok := c.mark(idx, p); ok {
		c.cells[k/c.v.Cols][k%c.v.Cols] = m
		return true
	}
	return owned > 0
}

// frame writes the scale line, the rulers, the map and the legend.
func (s Scene) frame(c *canvas, xr, yr ruler, legend, pieces []string) string {
	v := c.v
	sc := v.Scale
	mw := s.marginWidth(v)
	lw := mw - 2
	east := v.Left+Length(v.Cols)*sc.Col >= s.Width
	south := v.Top-Length(v.Rows)*sc.Row <= 0
	var out []string
	emit := func(line []byte) { out = append(out, strings.TrimRight(string(line), " ")) }
	blank := func(n int) []byte { return []byte(strings.Repeat(" ", n)) }

	dots := "a dot every " + xr.major.Format(sc.Unit)
	if xr.major != yr.major {
		dots += " east-west, " + yr.major.Format(sc.Unit) + " north-south"
	}
	out = append(out, fmt.Sprintf("scale: 1 column = %s, 1 row = %s; north is up; %s",
		sc.Col.Format(sc.Unit), sc.Row.Format(sc.Unit), dots))

	// Numbers along the top.
	width := mw + v.Cols + 1
	nums := blank(max(width, MailWidth))
	copy(nums, sc.Unit.Suffix())
	next := mw // first free position
	for col := 0; col <= v.Cols; col++ {
		x := v.Left + Length(col)*sc.Col
		if !isMultiple(x, xr.major) {
			continue
		}
		lab := rulerLabel(x, sc.Unit)
		pos := mw + col
		if pos < next || pos+len(lab) > max(width, MailWidth) {
			continue
		}
		copy(nums[pos:], lab)
		next = pos + len(lab) + 1
	}
	emit(nums)

	tick := func(label Length, showLabel bool, end byte) []byte {
		line := blank(width)
		if showLabel {
			lab := rulerLabel(label, sc.Unit)
			copy(line[lw-len(lab):], lab)
		}
		line[mw-1] = '+'
		for col := 0; col < v.Cols; col++ {
			x := v.Left + Length(col)*sc.Col
			switch {
			case col == 0: // the corner marks the window's edge
				line[mw+col] = '-'
			case isMultiple(x, xr.major):
				line[mw+col] = '+'
			case isMultiple(x, xr.minor):
				line[mw+col] = '|'
			default:
				line[mw+col] = '-'
			}
		}
		if east {
			line[mw+v.Cols] = end
		}
		return line
	}
	emit(tick(v.Top, false, '+'))
	for r := range v.Rows {
		line := blank(width)
		y := v.Top - Length(r)*sc.Row
		switch {
		case isMultiple(y, yr.major):
			lab := rulerLabel(y, sc.Unit)
			copy(line[lw-len(lab):], lab)
			line[mw-1] = '+'
		case isMultiple(y, yr.minor):
			line[mw-1] = '-'
		default:
			line[mw-1] = '|'
		}
		copy(line[mw:], c.cells[r])
		if east {
			line[mw+v.Cols] = '|'
		}
		emit(line)
	}
	if south {
		bottom := v.Top - Length(v.Rows)*sc.Row
		emit(tick(bottom, isMultiple(bottom, yr.major), '+'))
	}

	wrap := func(items []string) {
		line := ""
		for _, it := range items {
			if line != "" && len(line)+3+len(it) > MailWidth {
				out = append(out, line)
				line = ""
			}
			if line != "" {
				line += "   "
			}
			line += it
		}
		if line != "" {
			out = append(out, line)
		}
	}
	if len(legend) > 0 || len(pieces) > 0 {
		out = append(out, "")
		wrap(legend)
		wrap(pieces)
	}
	if len(pieces) > 0 {
		out = append(out, "facing: ^ N   9 NE   > E   3 SE   v S   1 SW   < W   7 NW")
	}
	return strings.Join(out, "\n") + "\n"
}
