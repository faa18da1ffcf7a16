package hex

// Mark is a glyph drawn over a drawing made by Draw: inside a hex next to
// one of its corners (OnSide false: a unit facing that vertex), or over
// one of its sides (OnSide true: a column facing that hexside).
type Mark struct {
	Hex    Hex
	Vertex Vertex    // the corner, when OnSide is false
	Side   Direction // the side, when OnSide is true
	OnSide bool
	Glyph  rune
}

// Overlay draws marks over lines drawn by Draw for win, and returns them
// (lines is changed too). A corner mark goes in the hex's interior next to
// its corner: NNE and NNW on the number's line (NNW moves the number one
// place right to make room), E and W at the ends of the fill line, SSE and
// SSW at the ends of the label line; so a cell drawn with marks should keep
// its fill to 5 characters and its label to 5. A side mark replaces the
// characters of that side, as a hexside mark of Draw does (the side is
// shared with the neighbour across it). Marks for hexes outside win are
// ignored; the last mark drawn at a place wins.
func Overlay(lines []string, win Window, marks []Mark) []string {
	if len(marks) == 0 {
		return lines
	}
	rows := make([][]rune, len(lines))
	for i, l := range lines {
		rows[i] = []rune(l)
	}
	set := func(x, y int, r rune) {
		if y < 0 || y >= len(rows) || x < 0 {
			return
		}
		for len(rows[y]) <= x {
			rows[y] = append(rows[y], ' ')
		}
		rows[y][x] = printable(r)
	}
	for _, m := range marks {
		if !win.Contains(m.Hex) {
			continue
		}
		x, y := win.origin(m.Hex)
		if m.OnSide {
			for _, p := range sidePoints(x, y, m.Side) {
				set(p.x, p.y, m.Glyph)
			}
			continue
		}
		switch m.Vertex.norm() {
		case NNE:
			set(x+7, y+1, m.Glyph)
		case E:
			set(x+8, y+2, m.Glyph)
		case SSE:
			set(x+8, y+3, m.Glyph)
		case SSW:
			set(x+2, y+3, m.Glyph)
		case W:
			set(x+2, y+2, m.Glyph)
		case NNW:
			num := "----"
			if m.Hex.Valid() {
				num = m.Hex.String()
			}
			set(x+3, y+1, m.Glyph)
			for i, r := range num {
				set(x+4+i, y+1, r)
			}
		}
	}
	for i, r := range rows {
		lines[i] = trimRight(string(r))
	}
	return lines
}

func trimRight(s string) string {
	i := len(s)
	for i > 0 && s[i-1] == ' ' {
		i--
	}
	return s[:i]
}
