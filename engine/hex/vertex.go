package hex

import (
	"fmt"
	"strings"
)

// Vertex is one of the six corners of a flat-topped hex, numbered
// clockwise from the upper right: NNE, E, SSE, SSW, W, NNW. Vertex v lies
// where the sides in directions v and v+1 meet (NNE where N and NE meet,
// E where NE and SE meet), so a unit facing a vertex (GBACW) has the two
// hexes across those sides in front of it. The names are compass bearings
// of the corners from the centre (NNE is 30° east of north), distinct from
// the six side directions N, NE, SE, S, SW, NW.
type Vertex int

// The six vertices, clockwise from the upper right.
const (
	NNE Vertex = iota // upper right corner, between the N and NE sides
	E                 // right point, between the NE and SE sides
	SSE               // lower right corner, between the SE and S sides
	SSW               // lower left corner, between the S and SW sides
	W                 // left point, between the SW and NW sides
	NNW               // upper left corner, between the NW and N sides
)

// NumVertices is the number of vertices; `for v := range hex.NumVertices`
// visits them clockwise from NNE.
const NumVertices Vertex = 6

func (v Vertex) norm() Vertex { return ((v % 6) + 6) % 6 }

// Valid reports whether v is one of the six named vertices.
func (v Vertex) Valid() bool { return v >= 0 && v < NumVertices }

// Clockwise returns the vertex n sixths of a turn clockwise (n may be
// negative).
func (v Vertex) Clockwise(n int) Vertex { return Vertex((int(v.norm()) + n%6 + 6) % 6) }

// Opposite returns the vertex across the hex.
func (v Vertex) Opposite() Vertex { return v.Clockwise(3) }

// Sides returns the two sides that meet at v, anticlockwise one first
// (NNE: N, NE).
func (v Vertex) Sides() (Direction, Direction) {
	d := Direction(v.norm())
	return d, d.Clockwise(1)
}

// String returns "NNE", "E", "SSE", "SSW", "W" or "NNW", or "Vertex(n)".
func (v Vertex) String() string {
	if !v.Valid() {
		return fmt.Sprintf("Vertex(%d)", int(v))
	}
	return [...]string{"NNE", "E", "SSE", "SSW", "W", "NNW"}[v]
}

// ParseVertex reads a vertex name in any letter case. Errors wrap
// ErrSyntax.
func ParseVertex(s string) (Vertex, error) {
	for v := range NumVertices {
		if strings.EqualFold(s, v.String()) {
			return v, nil
		}
	}
	return 0, fmt.Errorf("vertex %q: %w: want one of NNE, E, SSE, SSW, W, NNW", s, ErrSyntax)
}

// Turn returns the number of sixths of a turn between two vertices, the
// short way round (0 to 3).
func (v Vertex) Turn(to Vertex) int { return turn(int(v.norm()), int(to.norm())) }

// Turn returns the number of sixths of a turn between two directions, the
// short way round (0 to 3).
func (d Direction) Turn(to Direction) int { return turn(int(d.norm()), int(to.norm())) }

func turn(a, b int) int {
	n := ((b-a)%6 + 6) % 6
	return min(n, 6-n)
}

// Sector is where a hex lies as seen from a hex that faces a vertex or a
// side: in front, on a flank or to the rear.
type Sector int

// The three sectors.
const (
	Front Sector = iota
	Flank
	Rear
)

// String returns "front", "flank" or "rear".
func (s Sector) String() string {
	switch s {
	case Front:
		return "front"
	case Flank:
		return "flank"
	case Rear:
		return "rear"
	}
	return fmt.Sprintf("Sector(%d)", int(s))
}

// rotate turns c n sixths of a turn clockwise about the origin.
func (c Cube) rotate(n int) Cube {
	for range ((n % 6) + 6) % 6 {
		c = Cube{-c.R, -c.S, -c.Q}
	}
	return c
}

// VertexSector returns the sector of hex to as seen from a unit in at
// facing vertex v. The front is the 120° arc centred on v, its edges
// excluded: the two hexes across v's sides and every hex strictly between
// the lines through the centres of the two flank hexes; the rear is the
// same arc behind; the rest (the two flank hexes and every hex on those
// lines) is the flank. Next to at this gives two front, two flank and two
// rear hexes. The hex at itself is reported as Front.
func VertexSector(at Hex, v Vertex, to Hex) Sector {
	// Turn the picture so that v points east: then the front is
	// |angle| < 60°, that is q > 0 and |2r+q| < 3q (exact integers).
	c := to.Cube().Sub(at.Cube()).rotate(int(E) - int(v.norm()))
	k := abs(2*c.R + c.Q)
	switch {
	case c == Cube{}:
		return Front
	case c.Q > 0 && k < 3*c.Q:
		return Front
	case c.Q < 0 && k < -3*c.Q:
		return Rear
	}
	return Flank
}

// SideSector returns the sector of hex to as seen from a unit in at facing
// the side in direction d (a column facing a hexside): the front is the
// 60° arc centred on d, its edges included (the hex across d, and at
// distance two the three hexes beyond it); the rear is the same arc
// behind; the rest is the flank. Next to at this gives one front, four
// flank and one rear hex. The hex at itself is reported as Front.
func SideSector(at Hex, d Direction, to Hex) Sector {
	// Turn the picture so that d points north: the front is then
	// |angle from north| <= 30°, that is 3|q| <= -(2r+q).
	c := to.Cube().Sub(at.Cube()).rotate(-int(d.norm()))
	k := 2*c.R + c.Q
	switch {
	case c == Cube{}:
		return Front
	case 3*abs(c.Q) <= -k:
		return Front
	case 3*abs(c.Q) <= k:
		return Rear
	}
	return Flank
}
