package hex

// Range returns every hex within distance r of center (center included), in
// column-major order. It returns nil for r < 0. Hexes off the map are
// included; filter them with Grid.InBounds.
func Range(center Hex, r int) []Hex {
	if r < 0 {
		return nil
	}
	out := make([]Hex, 0, 3*r*(r+1)+1)
	c := center.Cube()
	// Ascending dq is ascending column; within one column ascending dr is
	// ascending row, so the result is column-major without sorting.
	for dq := -r; dq <= r; dq++ {
		for dr := max(-r, -dq-r); dr <= min(r, -dq+r); dr++ {
			out = append(out, FromAxial(c.Q+dq, c.R+dr))
		}
	}
	return out
}

// Ring returns the hexes at distance exactly r from center, clockwise,
// starting with the hex r steps due north. It returns [center] for r == 0
// and nil for r < 0.
func Ring(center Hex, r int) []Hex {
	switch {
	case r < 0:
		return nil
	case r == 0:
		return []Hex{center}
	}
	out := make([]Hex, 0, 6*r)
	c := center.Cube()
	n := N.offset()
	h := Cube{c.Q + n.Q*r, c.R + n.R*r, c.S + n.S*r}
	// From the northern corner, walk SE, S, SW, NW, N, NE: r steps each.
	for side := range NumDirections {
		step := SE.Clockwise(int(side)).offset()
		for range r {
			out = append(out, h.Hex())
			h = h.Add(step)
		}
	}
	return out
}

// Line returns the hexes on the straight line from a to b, both included,
// in order from a; it has Distance(a, b)+1 hexes, each adjacent to the one
// before. It uses exact integer arithmetic (no floating point), so the
// result is the same on every platform.
//
// Where the centre line runs exactly along a hexside, the tie is broken by
// a fixed tiny shift of the whole line (towards +Q, +R, -S in cube terms),
// so Line(b, a) is always Line(a, b) reversed: Line(2314, 2514) and
// Line(2514, 2314) both pass through 2414, not 2413. Rules that treat such
// lines specially (line of sight along a hexside, for example) must check
// both hexes themselves.
func Line(a, b Hex) []Hex { return line(a, b, 1) }

// LineOther is Line with the opposite tie-break: where the centre line runs
// exactly along a hexside it passes through the other hex (LineOther(2314,
// 2514) passes through 2413). Elsewhere it is Line. A rule that reads a line
// along a hexside as two lines (line of sight blocked only if both are)
// checks Line and LineOther.
func LineOther(a, b Hex) []Hex { return line(a, b, -1) }

// line is Line with the nudge's sign (+1: Line's, -1: the opposite).
func line(a, b Hex, sign int) []Hex {
	n := Distance(a, b)
	if n == 0 {
		return []Hex{a}
	}
	ca, cb := a.Cube(), b.Cube()
	// Point i is ca + (cb-ca)*i/n. Scale by n*e and add a nudge of
	// (+1, +2, -3)/(n*e): with e = 16 the nudge never changes a rounding
	// that is not a tie, and no tie remains (see roundDiv).
	const e = 16
	den := n * e
	out := make([]Hex, 0, n+1)
	for i := 0; i <= n; i++ {
		vq := (ca.Q*n+(cb.Q-ca.Q)*i)*e + sign
		vr := (ca.R*n+(cb.R-ca.R)*i)*e + 2*sign
		vs := (ca.S*n+(cb.S-ca.S)*i)*e - 3*sign
		out = append(out, cubeRound(vq, vr, vs, den).Hex())
	}
	return out
}

// cubeRound rounds the fractional cube point (vq, vr, vs)/den to the nearest
// hex, correcting the component with the largest rounding error so that
// Q+R+S == 0.
func cubeRound(vq, vr, vs, den int) Cube {
	q, r, s := roundDiv(vq, den), roundDiv(vr, den), roundDiv(vs, den)
	dq, dr, ds := abs(q*den-vq), abs(r*den-vr), abs(s*den-vs)
	switch {
	case dq > dr && dq > ds:
		q = -r - s
	case dr > ds:
		r = -q - s
	default:
		s = -q - r
	}
	return Cube{q, r, s}
}

// roundDiv returns v/d rounded to the nearest integer (d > 0), halves
// rounding up.
func roundDiv(v, d int) int {
	return floorDiv(2*v+d, 2*d)
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
