package hex

import (
	"fmt"
	"strings"
)

// Direction is one of the six directions from a flat-topped hex to its
// neighbours, numbered clockwise from north: N, NE, SE, S, SW, NW.
type Direction int

// The six directions, in the package's fixed order.
const (
	N  Direction = iota // north: same column, row - 1
	NE                  // north-east: column + 1, upper of the two
	SE                  // south-east: column + 1, lower of the two
	S                   // south: same column, row + 1
	SW                  // south-west: column - 1, lower of the two
	NW                  // north-west: column - 1, upper of the two
)

// NumDirections is the number of directions; `for d := range
// hex.NumDirections` visits them in order N, NE, SE, S, SW, NW.
const NumDirections Direction = 6

// cube offsets per direction, indexed by Direction.
func (d Direction) offset() Cube {
	switch d.norm() {
	case N:
		return Cube{0, -1, 1}
	case NE:
		return Cube{1, -1, 0}
	case SE:
		return Cube{1, 0, -1}
	case S:
		return Cube{0, 1, -1}
	case SW:
		return Cube{-1, 1, 0}
	default: // NW
		return Cube{-1, 0, 1}
	}
}

func (d Direction) norm() Direction { return ((d % 6) + 6) % 6 }

// Valid reports whether d is one of the six named directions.
func (d Direction) Valid() bool { return d >= 0 && d < NumDirections }

// Opposite returns the direction pointing back: N↔S, NE↔SW, SE↔NW.
func (d Direction) Opposite() Direction { return (d.norm() + 3) % 6 }

// Clockwise returns the direction turned n sixths of a turn clockwise (n may
// be negative).
func (d Direction) Clockwise(n int) Direction { return Direction((int(d.norm()) + n%6 + 6) % 6) }

// String returns "N", "NE", "SE", "S", "SW" or "NW", or "Direction(n)" for
// an invalid value.
func (d Direction) String() string {
	switch d {
	case N:
		return "N"
	case NE:
		return "NE"
	case SE:
		return "SE"
	case S:
		return "S"
	case SW:
		return "SW"
	case NW:
		return "NW"
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// ParseDirection reads "N", "NE", "SE", "S", "SW" or "NW", in any letter
// case. Errors wrap ErrSyntax.
func ParseDirection(s string) (Direction, error) {
	for d := range NumDirections {
		if strings.EqualFold(s, d.String()) {
			return d, nil
		}
	}
	return 0, fmt.Errorf("direction %q: %w: want one of N, NE, SE, S, SW, NW", s, ErrSyntax)
}

// Neighbor returns the hex adjacent to h in direction d.
func (h Hex) Neighbor(d Direction) Hex { return h.Cube().Add(d.offset()).Hex() }

// Neighbors returns the six hexes adjacent to h, indexed by Direction (in
// the order N, NE, SE, S, SW, NW). Hexes off the map are included; filter
// them with Grid.InBounds.
func (h Hex) Neighbors() [6]Hex {
	var out [6]Hex
	c := h.Cube()
	for d := range NumDirections {
		out[d] = c.Add(d.offset()).Hex()
	}
	return out
}

// DirectionTo returns the direction from h to the adjacent hex o, and false
// if o is not adjacent to h.
func (h Hex) DirectionTo(o Hex) (Direction, bool) {
	diff := o.Cube().Sub(h.Cube())
	for d := range NumDirections {
		if d.offset() == diff {
			return d, true
		}
	}
	return 0, false
}

// Adjacent reports whether a and b are neighbours (distance exactly 1).
func Adjacent(a, b Hex) bool { return Distance(a, b) == 1 }
