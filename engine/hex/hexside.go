package hex

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotAdjacent is wrapped by errors about two hexes that do not share a
// hexside.
var ErrNotAdjacent = errors.New("hexes are not adjacent")

// Hexside is the edge shared by two adjacent hexes. Its value is canonical:
// the same whichever of the two hexes it is built from, so it can be used as
// a map key (for rivers, fords, bridges and other hexside features). The
// zero value is not a hexside of any pair; build one with Side or Between.
type Hexside struct {
	// a and b are the two hexes, with Compare(a, b) < 0 (a is the one
	// with the lower column, or the upper one in the same column).
	a, b Hex
}

// Side returns the hexside of h in direction d.
func Side(h Hex, d Direction) Hexside {
	return canonical(h, h.Neighbor(d))
}

// Between returns the hexside shared by a and b, or an error wrapping
// ErrNotAdjacent if they are not neighbours.
func Between(a, b Hex) (Hexside, error) {
	if !Adjacent(a, b) {
		return Hexside{}, fmt.Errorf("hexside %s/%s: %w (distance %d)", a, b, ErrNotAdjacent, Distance(a, b))
	}
	return canonical(a, b), nil
}

func canonical(a, b Hex) Hexside {
	if Compare(a, b) > 0 {
		a, b = b, a
	}
	return Hexside{a: a, b: b}
}

// Hexes returns the two hexes on either side, the first in column-major
// order (lower column, or upper row in the same column) first.
func (s Hexside) Hexes() (Hex, Hex) { return s.a, s.b }

// Valid reports whether s separates two adjacent hexes (false for the zero
// value).
func (s Hexside) Valid() bool { return Adjacent(s.a, s.b) }

// Other returns the hex across s from h, and false if h is not one of the
// two hexes of s.
func (s Hexside) Other(h Hex) (Hex, bool) {
	switch h {
	case s.a:
		return s.b, true
	case s.b:
		return s.a, true
	}
	return Hex{}, false
}

// Touches reports whether h is one of the two hexes of s.
func (s Hexside) Touches(h Hex) bool { return h == s.a || h == s.b }

// String returns the two hexes separated by a slash, in canonical order:
// "2314/2414".
func (s Hexside) String() string { return s.a.String() + "/" + s.b.String() }

// ParseHexside reads a hexside written either as two adjacent hexes
// separated by a slash, in either order ("2314/2414" or "2414/2314"), or as a
// hex followed by a direction, with or without a space ("2314SE",
// "2314 SE"). Errors wrap ErrSyntax or ErrNotAdjacent.
func ParseHexside(s string) (Hexside, error) {
	if a, b, ok := strings.Cut(s, "/"); ok {
		ha, err := Parse(a)
		if err != nil {
			return Hexside{}, fmt.Errorf("hexside %q: first hex: %w", s, err)
		}
		hb, err := Parse(b)
		if err != nil {
			return Hexside{}, fmt.Errorf("hexside %q: second hex: %w", s, err)
		}
		side, err := Between(ha, hb)
		if err != nil {
			return Hexside{}, fmt.Errorf("hexside %q: %w", s, err)
		}
		return side, nil
	}
	if len(s) < 5 {
		return Hexside{}, fmt.Errorf("hexside %q: %w: want two hexes (2314/2414) or a hex and a direction (2314SE)", s, ErrSyntax)
	}
	h, err := Parse(s[:4])
	if err != nil {
		return Hexside{}, fmt.Errorf("hexside %q: %w", s, err)
	}
	rest := s[4:]
	if rest[0] == ' ' {
		rest = rest[1:]
	}
	d, err := ParseDirection(rest)
	if err != nil {
		return Hexside{}, fmt.Errorf("hexside %q: %w", s, err)
	}
	return Side(h, d), nil
}

// MarshalText implements encoding.TextMarshaler with the "2314/2414" form.
func (s Hexside) MarshalText() ([]byte, error) {
	if !s.Valid() || !s.a.Valid() || !s.b.Valid() {
		return nil, fmt.Errorf("marshal hexside %s: not a hexside between two map hexes", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler using ParseHexside.
func (s *Hexside) UnmarshalText(b []byte) error {
	p, err := ParseHexside(string(b))
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// Sides returns the six hexsides of h, indexed by Direction.
func (h Hex) Sides() [6]Hexside {
	var out [6]Hexside
	for d := range NumDirections {
		out[d] = Side(h, d)
	}
	return out
}
