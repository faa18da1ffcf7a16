package hex

import (
	"fmt"
	"iter"
)

// Grid is the rectangle of hexes printed on a map: Cols columns numbered
// from FirstCol and Rows rows numbered from FirstRow. A map printed from
// 0101 to 4535 is Grid{FirstCol: 1, FirstRow: 1, Cols: 45, Rows: 35}.
//
// Grid knows only the rectangle. Partial hexes at the map edge that the
// rules treat as off-map (GCACW 2.3e) must be marked in the map data.
type Grid struct {
	FirstCol, FirstRow int // printed number of the first (leftmost) column and first (top) row
	Cols, Rows         int // number of columns and rows, both at least 1
}

// NewGrid returns the grid whose top-left hex is first and whose
// bottom-right hex is last, both included ("0101" to "4535").
func NewGrid(first, last Hex) (Grid, error) {
	g := Grid{FirstCol: first.Col, FirstRow: first.Row, Cols: last.Col - first.Col + 1, Rows: last.Row - first.Row + 1}
	if err := g.Validate(); err != nil {
		return Grid{}, fmt.Errorf("grid %s to %s: %w", first, last, err)
	}
	return g, nil
}

// Validate reports an error unless the grid has at least one column and
// one row and every hex in it can be printed as a four-digit number.
func (g Grid) Validate() error {
	switch {
	case g.Cols < 1 || g.Rows < 1:
		return fmt.Errorf("grid of %d columns by %d rows: want at least one of each", g.Cols, g.Rows)
	case !g.First().Valid() || !g.Last().Valid():
		return fmt.Errorf("grid from %s to %s: column and row numbers must be 0 to %d", g.First(), g.Last(), MaxNumber)
	}
	return nil
}

// First returns the top-left hex.
func (g Grid) First() Hex { return Hex{g.FirstCol, g.FirstRow} }

// Last returns the bottom-right hex.
func (g Grid) Last() Hex { return Hex{g.FirstCol + g.Cols - 1, g.FirstRow + g.Rows - 1} }

// Len returns the number of hexes in the grid.
func (g Grid) Len() int { return max(g.Cols, 0) * max(g.Rows, 0) }

// InBounds reports whether h lies inside the grid.
func (g Grid) InBounds(h Hex) bool {
	return h.Col >= g.FirstCol && h.Col < g.FirstCol+g.Cols &&
		h.Row >= g.FirstRow && h.Row < g.FirstRow+g.Rows
}

// All yields every hex of the grid in column-major order: the first column
// top to bottom, then the next column, and so on.
func (g Grid) All() iter.Seq[Hex] {
	return func(yield func(Hex) bool) {
		for c := g.FirstCol; c < g.FirstCol+g.Cols; c++ {
			for r := g.FirstRow; r < g.FirstRow+g.Rows; r++ {
				if !yield(Hex{c, r}) {
					return
				}
			}
		}
	}
}

// Hexes returns every hex of the grid in column-major order (as All).
func (g Grid) Hexes() []Hex {
	out := make([]Hex, 0, g.Len())
	for h := range g.All() {
		out = append(out, h)
	}
	return out
}

// Neighbors returns the neighbours of h that lie inside the grid, in
// direction order N, NE, SE, S, SW, NW.
func (g Grid) Neighbors(h Hex) []Hex {
	out := make([]Hex, 0, 6)
	for _, n := range h.Neighbors() {
		if g.InBounds(n) {
			out = append(out, n)
		}
	}
	return out
}

// Clip returns the hexes of hs that lie inside the grid, keeping their
// order.
func (g Grid) Clip(hs []Hex) []Hex {
	out := make([]Hex, 0, len(hs))
	for _, h := range hs {
		if g.InBounds(h) {
			out = append(out, h)
		}
	}
	return out
}
