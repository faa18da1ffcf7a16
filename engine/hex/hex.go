package hex

import (
	"errors"
	"fmt"
)

// MaxNumber is the largest column or row number that fits the printed
// "CCRR" form.
const MaxNumber = 99

// ErrSyntax is wrapped by every error returned for text that is not a hex,
// direction or hexside in the expected form.
var ErrSyntax = errors.New("invalid syntax")

// Hex is one hex, identified by the column and row numbers printed on the
// map. The zero value is hex "0000". Hex is comparable and can be used as a
// map key. Geometry functions accept any integers, but only hexes for which
// Valid reports true can be written in the four-digit form.
type Hex struct {
	Col int // column number as printed (the first two digits)
	Row int // row number as printed (the last two digits)
}

// At returns the hex at the given printed column and row.
func At(col, row int) Hex { return Hex{Col: col, Row: row} }

// Parse reads a hex number as printed on the map: exactly four ASCII digits,
// column then row ("2314" is column 23, row 14). Leading zeros are required
// ("0705", not "705"). Surrounding spaces are not accepted; trim them first.
// Errors wrap ErrSyntax.
func Parse(s string) (Hex, error) {
	if len(s) != 4 {
		return Hex{}, fmt.Errorf("hex %q: %w: want 4 digits, column then row (e.g. 2314), got %d characters", s, ErrSyntax, len(s))
	}
	var d [4]int
	for i := 0; i < 4; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return Hex{}, fmt.Errorf("hex %q: %w: character %d is %q, not a digit", s, ErrSyntax, i+1, rune(c))
		}
		d[i] = int(c - '0')
	}
	return Hex{Col: d[0]*10 + d[1], Row: d[2]*10 + d[3]}, nil
}

// MustParse is like Parse but panics on error. It is meant for constants in
// tests and tables, not for player input.
func MustParse(s string) Hex {
	h, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return h
}

// Valid reports whether h can be written as a printed hex number, that is
// whether both its column and its row are between 0 and MaxNumber.
func (h Hex) Valid() bool {
	return h.Col >= 0 && h.Col <= MaxNumber && h.Row >= 0 && h.Row <= MaxNumber
}

// String returns the printed form "CCRR", always four digits with leading
// zeros ("0705"). A hex that is not Valid is written "hex(col,row)" so that
// it can never be mistaken for a map number.
func (h Hex) String() string {
	if !h.Valid() {
		return fmt.Sprintf("hex(%d,%d)", h.Col, h.Row)
	}
	return string([]byte{
		byte('0' + h.Col/10), byte('0' + h.Col%10),
		byte('0' + h.Row/10), byte('0' + h.Row%10),
	})
}

// MarshalText implements encoding.TextMarshaler with the printed form. It
// fails for a hex that is not Valid.
func (h Hex) MarshalText() ([]byte, error) {
	if !h.Valid() {
		return nil, fmt.Errorf("marshal %s: column and row must be 0 to %d", h, MaxNumber)
	}
	return []byte(h.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler using Parse.
func (h *Hex) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*h = p
	return nil
}

// Compare orders hexes column-major: by column, then by row. It returns -1,
// 0 or +1 and is suitable for slices.SortFunc. This is the order in which
// the package returns lists of hexes.
func Compare(a, b Hex) int {
	switch {
	case a.Col < b.Col:
		return -1
	case a.Col > b.Col:
		return 1
	case a.Row < b.Row:
		return -1
	case a.Row > b.Row:
		return 1
	}
	return 0
}

// Cube is a hex in cube coordinates: Q+R+S == 0. Q equals the printed
// column; moving N decreases R, moving SE increases Q. Use it for
// arithmetic; use Hex for anything shown to players.
type Cube struct{ Q, R, S int }

// Cube converts h to cube coordinates.
func (h Hex) Cube() Cube {
	q, r := h.Axial()
	return Cube{Q: q, R: r, S: -q - r}
}

// Axial converts h to axial coordinates (the Q and R of Cube).
func (h Hex) Axial() (q, r int) {
	// Even columns are shifted down: (col + col&1)/2 is exact because the
	// numerator is always even, also for negative columns.
	return h.Col, h.Row - (h.Col+h.Col&1)/2
}

// FromAxial converts axial coordinates back to a printed hex.
func FromAxial(q, r int) Hex {
	return Hex{Col: q, Row: r + (q+q&1)/2}
}

// Hex converts cube coordinates back to a printed hex. S is ignored; it is
// redundant when Q+R+S == 0.
func (c Cube) Hex() Hex { return FromAxial(c.Q, c.R) }

// Add returns the component-wise sum of c and d.
func (c Cube) Add(d Cube) Cube { return Cube{c.Q + d.Q, c.R + d.R, c.S + d.S} }

// Sub returns the component-wise difference c - d.
func (c Cube) Sub(d Cube) Cube { return Cube{c.Q - d.Q, c.R - d.R, c.S - d.S} }

// Len returns the distance from the origin to c, in hexes.
func (c Cube) Len() int { return max(abs(c.Q), abs(c.R), abs(c.S)) }

// Distance returns the number of hex steps between a and b (0 when a == b,
// 1 for neighbours). It is symmetric and ignores terrain and map bounds.
func Distance(a, b Hex) int { return a.Cube().Sub(b.Cube()).Len() }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
