package table

import "fmt"

// MoveKind is one kind of manoeuvre of a base.
type MoveKind uint8

// Manoeuvres; see the Rect methods Forward, Wheel, PivotFront and Pivot.
const (
	MoveForward    MoveKind = iota // straight ahead by Dist (backwards if negative): Rect.Forward
	MoveWheel                      // about the front corner Side by Turn: Rect.Wheel
	MovePivotFront                 // about the front-edge midpoint by Turn: Rect.PivotFront
	MovePivot                      // about the centre by Turn: Rect.Pivot
)

// Move is one manoeuvre: a straight move or a turn. A march is a list of
// moves applied in order.
type Move struct {
	Kind MoveKind
	Dist Length // MoveForward
	Turn Angle  // turns: clockwise if positive (for MoveWheel, see Rect.Wheel)
	Side Side   // MoveWheel
}

// ForwardMove returns a straight move of d (backwards if negative).
func ForwardMove(d Length) Move { return Move{Kind: MoveForward, Dist: d} }

// WheelMove returns a wheel about the front corner on side s by a.
func WheelMove(s Side, a Angle) Move { return Move{Kind: MoveWheel, Side: s, Turn: a} }

// PivotFrontMove returns a turn by a about the front-edge midpoint.
func PivotFrontMove(a Angle) Move { return Move{Kind: MovePivotFront, Turn: a} }

// PivotMove returns a turn by a about the centre.
func PivotMove(a Angle) Move { return Move{Kind: MovePivot, Turn: a} }

// String describes the move: "forward 4cm", "wheel right 90°".
func (m Move) String() string {
	switch m.Kind {
	case MoveForward:
		return fmt.Sprintf("forward %v", m.Dist)
	case MoveWheel:
		return fmt.Sprintf("wheel %v %v", m.Side, m.Turn)
	case MovePivotFront:
		return fmt.Sprintf("pivot on front %v", m.Turn)
	default:
		return fmt.Sprintf("pivot %v", m.Turn)
	}
}

// part returns the same manoeuvre carried through num/den of the way
// (den > 0), rounded to whole micrometres or millidegrees.
func (m Move) part(num, den int64) Move {
	m.Dist = Length(divRound(int64(m.Dist)*num, den))
	m.Turn = Angle(divRound(int64(m.Turn)*num, den))
	return m
}

// size is the extent of the move in its own unit (µm or millidegrees).
func (m Move) size() int64 {
	if m.Kind == MoveForward {
		return int64(m.Dist.Abs())
	}
	return int64(m.Turn.Abs())
}

// withSize returns the move with extent n (>= 0) in the same direction.
func (m Move) withSize(n int64) Move {
	if m.Kind == MoveForward {
		if m.Dist < 0 {
			n = -n
		}
		m.Dist = Length(n)
		return m
	}
	if m.Turn < 0 {
		n = -n
	}
	m.Turn = Angle(n)
	return m
}

// Apply returns the base after the manoeuvre.
func (r Rect) Apply(m Move) Rect {
	switch m.Kind {
	case MoveForward:
		return r.Forward(m.Dist)
	case MoveWheel:
		return r.Wheel(m.Side, m.Turn)
	case MovePivotFront:
		return r.PivotFront(m.Turn)
	default:
		return r.Pivot(m.Turn)
	}
}

// Follow returns the base after every move in turn.
func (r Rect) Follow(moves []Move) Rect {
	for _, m := range moves {
		r = r.Apply(m)
	}
	return r
}

// SweepStep is the angle between the sampled positions of a turning base
// in [Rect.Sweep]: 1°.
const SweepStep = Degree

// Sweep is the area a base passes over during one manoeuvre (GMB 7.2h:
// "a unit moves with the full width of its base's front"), as a union of
// convex pieces.
type Sweep []Polygon

// Sweep returns the area the base covers during m, from where it starts
// to where it ends (both included).
//
// A straight move sweeps exactly the convex hull of the base's start and
// end positions. A turn is sampled: the base is placed at every SweepStep
// (1°) of the turn, computed as r.Apply of the partial turn, so the last
// sample is exactly r.Apply(m); each piece is the convex hull of two
// neighbouring samples. Between samples a corner at distance R from the
// centre of the turn moves along a circular arc, and the hull follows its
// chord, missing at most R·(1 − cos 0.5°) ≈ 38 µm per metre of R (3 µm
// for a corner 8 cm from the pivot).
func (r Rect) Sweep(m Move) Sweep {
	if m.Kind == MoveForward {
		a, b := r.Corners(), r.Apply(m).Corners()
		return Sweep{convexHull(append(a[:], b[:]...))}
	}
	steps := (m.size() + int64(SweepStep) - 1) / int64(SweepStep)
	if steps == 0 {
		return Sweep{r.Polygon()}
	}
	out := make(Sweep, 0, steps)
	prev := r.Corners()
	for i := int64(1); i <= steps; i++ {
		next := r.Apply(m.part(i, steps)).Corners()
		out = append(out, convexHull(append(prev[:], next[:]...)))
		prev = next
	}
	return out
}

func (s Sweep) pieces() []convex {
	out := make([]convex, len(s))
	for i, pg := range s {
		out[i] = convex{pts: pg}
	}
	return out
}

// TouchesPolygon reports whether the swept area has a point in pg.
func (s Sweep) TouchesPolygon(pg Polygon) bool {
	for _, p := range s {
		if p.TouchesPolygon(pg) {
			return true
		}
	}
	return false
}

// TouchesPolyline reports whether the swept area meets pl (crossing a
// fence or a stream).
func (s Sweep) TouchesPolyline(pl Polyline) bool {
	for _, p := range s {
		if p.TouchesPolyline(pl) {
			return true
		}
	}
	return false
}

// TouchesRect reports whether the swept area has a point in base t.
func (s Sweep) TouchesRect(t Rect) bool {
	tc := t.convex()
	for _, c := range s.pieces() {
		if touches(c, tc) {
			return true
		}
	}
	return false
}

// OverlapsRect reports whether the swept area and base t share interior
// points: the moving base would pass over t rather than just reach it.
func (s Sweep) OverlapsRect(t Rect) bool {
	tc := t.convex()
	for _, c := range s.pieces() {
		if overlaps(c, tc) {
			return true
		}
	}
	return false
}

// FirstContact finds where during m the base first meets something: hit
// is asked about the area swept by a part of m and reports contact. If hit
// is false for the whole move, FirstContact returns (m, false). Otherwise
// it returns the shortest part of m (in whole micrometres or
// millidegrees, found by bisection) whose swept area hit reports, and
// true; the base then stands in contact, as in HRA 5a ("it stops in
// contact with it") and GMB 7.2c ("reduce the range immediately on
// contact"). A base that starts in contact gets a part of size 0.
//
// Use a hit that tests contact (TouchesPolygon, TouchesRect) to stop on
// reaching an obstacle, or OverlapsRect to allow moving along a base that
// is only touched.
func (r Rect) FirstContact(m Move, hit func(Sweep) bool) (Move, bool) {
	if !hit(r.Sweep(m)) {
		return m, false
	}
	lo, hi := int64(-1), m.size() // invariant: !hit(lo) (or lo = -1), hit(hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if hit(r.Sweep(m.withSize(mid))) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return m.withSize(hi), true
}
