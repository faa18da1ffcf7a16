package hra

import (
	"errors"
	"fmt"
	"strings"

	"pbem/engine/table"
)

// Step kinds of a march (HRA 9b, 15a, 16b).
const (
	stAdvance = "advance"
	stCharge  = "charge"
	stWheel   = "wheel"
	stTurn    = "turn"
	stAbout   = "about"
	stColumn  = "column"
	stLine    = "line"
	stMoveTo  = "move to"
)

// step is one manoeuvre of a march order.
type step struct {
	Kind  string
	Side  table.Side // wheel, turn, column
	Dist  table.Length
	Angle table.Angle
	To    table.Point
	Name  string // the named point of MOVE TO
	Col   int    // column of the step's first word in the mail (for the caret)
}

func (p step) String() string {
	switch p.Kind {
	case stAdvance, stCharge:
		return fmt.Sprintf("%s %v", p.Kind, p.Dist)
	case stWheel, stTurn:
		return fmt.Sprintf("%s %v %v", p.Kind, p.Side, p.Angle)
	case stColumn:
		return fmt.Sprintf("column %v", p.Side)
	case stLine:
		return fmt.Sprintf("line %v", p.Side)
	case stMoveTo:
		if p.Name != "" {
			return "move to " + p.Name
		}
		return fmt.Sprintf("move to %v", p.To)
	}
	return p.Kind
}

// costItem is one entry of what a march costs, for the player's
// explanation: "2cm turn (wheel right 90°)", "6cm rough ×2".
type costItem struct {
	What   string       // "turn (wheel right 90°)", "open", "woods", "column", …
	Dist   table.Length // ground covered in terrain (0 for a fixed cost)
	Factor string       // "×2": the cost of each cm of Dist (T1, H14)
	Cost   table.Length
	Col    int // the step's column
}

func (c costItem) String() string {
	if c.Factor != "" {
		return fmt.Sprintf("%s %s %s", cmText(c.Dist), c.What, c.Factor)
	}
	return fmt.Sprintf("%s %s", cmText(c.Cost), c.What)
}

// moved is the outcome of a march for one unit.
type moved struct {
	Rect      table.Rect
	Column    bool
	Cost      table.Length
	Allowance table.Length
	Items     []costItem // what the cost is made of (HRA 9c, 9d, T1)
	Contact   string     // enemy touched: melee (HRA 11a)
	Through   string     // friendly unit passed through (HRA 10a)
	Busy      int        // further rounds the crossing takes (T1)
	Work      string
	Charged   bool
	Notes     []string
}

func (m *moved) charge(c costItem) {
	if c.Cost == 0 && c.Dist == 0 {
		return
	}
	m.Items = append(m.Items, c)
	m.Cost += c.Cost
}

// breakdown writes the cost, with total for its sum: "2cm turn (wheel
// right 90°) + 6cm rough ×2 = 14cm"; a single plain item is its own sum.
func (m moved) breakdown(total string) string {
	var parts []string
	plain := true
	for _, c := range m.Items {
		if c.Cost > 0 {
			parts = append(parts, c.String())
			plain = plain && c.Factor == ""
		}
	}
	switch {
	case len(parts) == 0:
		return total
	case len(parts) == 1 && plain:
		return parts[0]
	}
	return strings.Join(parts, " + ") + " = " + total
}

// over is the column of the step at which the march first costs more than
// the allowance (the caret's place), or col.
func (m moved) over(col int) int {
	var sum table.Length
	for _, c := range m.Items {
		sum += c.Cost
		if sum > m.Allowance && c.Col > 0 {
			return c.Col
		}
	}
	return col
}

// colError is a problem with one word of the order line: the caret goes
// under column Col.
type colError struct {
	Col  int
	Msg  string
	Hint string // what to send instead, if the error knows
}

func (e colError) Error() string { return e.Msg }

// errAt returns an error whose caret goes under column col (0: the line's
// start).
func errAt(col int, format string, a ...any) error {
	return colError{Col: col, Msg: fmt.Sprintf(format, a...)}
}

// errCol is the column an error points at (0 if none) and its hint.
func errCol(err error) (int, string) {
	var ce colError
	if errors.As(err, &ce) {
		return ce.Col, ce.Hint
	}
	return 0, ""
}

// prefixErr puts "<prefix>: " before an error's message, keeping its
// column and hint.
func prefixErr(prefix string, err error) error {
	col, hint := errCol(err)
	return colError{Col: col, Msg: prefix + ": " + err.Error(), Hint: hint}
}

// dicer rolls a die once per purpose and remembers it, so re-running a
// march (to cut it short) does not roll again.
type dicer struct {
	roll func(purpose string, sides int) int
	got  map[string]int
	keys []string
}

func (d *dicer) get(purpose string) int {
	if v, ok := d.got[purpose]; ok {
		return v
	}
	v := 1
	if d.roll != nil {
		v = d.roll(purpose, 6)
	}
	if d.got == nil {
		d.got = map[string]int{}
	}
	d.got[purpose] = v
	d.keys = append(d.keys, purpose)
	return v
}

// allowance is the unit's move this round (HRA 9d, T1, 10b).
func (s *State) allowance(u *Unit) table.Length {
	a := openMove(u.Arm)
	if u.Arm == Cavalry && u.Dismounted {
		a = openMove(Infantry) // dismounted cavalry marches on foot (R7, doc.go)
	}
	if u.PassedBy {
		a = min(a, passedByMove)
	}
	return a - u.Moved
}

// march simulates a march order for u (HRA 9, 10, 11a, 15, 16b, 17, T1).
func (s *State) march(u *Unit, steps []step, d *dicer) (moved, error) {
	r := s.footprint(u)
	m := moved{Column: u.Column, Allowance: s.allowance(u)}
	if u.Arm == Artillery && !u.Limbered {
		for _, p := range steps {
			if p.Kind != stTurn && p.Kind != stWheel && p.Kind != stAbout {
				return m, errAt(p.Col, "%s is unlimbered: it may turn to any angle but not move (HRA 17a)", u.Name)
			}
		}
	}
	for i, p := range steps {
		if p.Kind == stCharge {
			if u.Arm != Cavalry || u.Dismounted {
				return m, errAt(p.Col, "only mounted cavalry charges (HRA 16b)")
			}
			if u.Charges >= s.Scn.Charges {
				return m, errAt(p.Col, "%s has made its %d charges of the day (HRA 16b)", u.Name, s.Scn.Charges)
			}
			if i != len(steps)-1 {
				return m, errAt(p.Col, "a charge is one straight move and ends the march (HRA 16b)")
			}
			for _, q := range steps[:i] {
				if q.Kind != stTurn && q.Kind != stWheel && q.Kind != stAbout {
					return m, errAt(q.Col, "a charge is one straight move: it may be preceded only by turns (HRA 16b)")
				}
			}
			m.Charged = true
			m.Allowance += chargeBonus
		}
		if (p.Kind == stColumn || p.Kind == stLine) && u.Arm != Infantry {
			return m, errAt(p.Col, "only infantry forms column (HRA 15a)")
		}
	}
	var err error
	if r, err = s.walk(u, r, steps, &m, d); err != nil {
		return m, err
	}
	m.Rect = r
	if u.Arm == Artillery && !u.Limbered {
		// HRA 17a: an unlimbered battery turns to any angle, and has no
		// move for the turns to cost.
		m.Items, m.Cost = nil, 0
		return m, nil
	}
	return m, s.settle(u, &m, steps)
}

// settle finishes a march: a crossing or passing through a friend takes
// the whole move (T1, HRA 10a); otherwise the cost must fit (HRA 9d).
func (s *State) settle(u *Unit, m *moved, steps []step) error {
	if m.Busy > 0 || m.Work != "" || m.Through != "" {
		if rest := m.Allowance - m.Cost; rest > 0 {
			what := "the rest of the round (T1)"
			if m.Through != "" {
				what = "the rest of the move (HRA 10a)"
			}
			m.charge(costItem{What: what, Cost: rest})
		}
		return nil
	}
	if m.Cost > m.Allowance {
		col := 0
		if len(steps) > 0 {
			col = steps[0].Col
		}
		total, limit := cmText(m.Cost), cmText(m.Allowance)
		if total == limit {
			total, limit = cmFine(m.Cost), cmFine(m.Allowance)
		}
		return colError{Col: m.over(col), Hint: m.hint(),
			Msg: fmt.Sprintf("the march costs %s > %s, what %s may move this round (HRA 9d; 9c, T1)",
				m.breakdown(total), limit, u.Name)}
	}
	return nil
}

// hint says how a march that costs too much could fit: by what it spent.
func (m moved) hint() string {
	var turned, terrain bool
	for _, c := range m.Items {
		turned = turned || (strings.HasPrefix(c.What, "turn") && c.Cost > 0)
		terrain = terrain || c.Factor != ""
	}
	switch {
	case turned && terrain:
		return "advance less, turn less (HRA 9c: a rotation over 45° costs 2 cm) or go round the woods and rough ground (T1)"
	case turned:
		return "advance less, or turn less (HRA 9c: a rotation over 45° costs 2 cm, one up to 45° nothing)"
	case terrain:
		return "advance less, or go round the woods and rough ground (T1: each cm in them costs more)"
	}
	return "advance less"
}

// walk carries out the steps from r, charging m.
func (s *State) walk(u *Unit, r table.Rect, steps []step, m *moved, d *dicer) (table.Rect, error) {
	// HRA 9c and H4: a rotation is a run of turns one way with no move
	// between them, and costs by its own size; a turn the other way is a
	// rotation of its own, so opposite turns never cancel.
	var run struct {
		side  table.Side
		total table.Angle
		axis  bool // every turn of the run about the unit's own axis
		what  []string
		col   int
	}
	flush := func() {
		if run.total > 0 {
			m.charge(costItem{What: "turn (" + strings.Join(run.what, ", ") + ")", Cost: s.rotationCost(run.total, run.axis), Col: run.col})
		}
		run.side, run.total, run.axis, run.what, run.col = 0, 0, true, nil, 0
	}
	run.axis = true
	turn := func(p step, side table.Side, a table.Angle, axis bool, what string) {
		if run.total > 0 && (side == 0 || run.side == 0 || side != run.side) {
			flush()
		}
		if run.total == 0 {
			run.col = p.Col
		}
		run.side, run.total, run.axis = side, run.total+a, run.axis && axis
		run.what = append(run.what, what)
		if side == 0 {
			flush() // an about-face is a rotation of its own
		}
	}
	for i, p := range steps {
		if m.Contact != "" {
			break // contact with the enemy ends the march (HRA 11a)
		}
		if m.Through != "" || m.Busy > 0 || m.Work != "" {
			return r, errAt(p.Col, "%s: the unit can move no further this round", p)
		}
		last := i == len(steps)-1
		switch p.Kind {
		case stWheel, stTurn, stAbout:
			nr, a, err := s.rotate(u, r, p, m)
			if err != nil {
				return r, err
			}
			if p.Kind == stWheel && s.Scn.WheelTravel {
				// Scenario "wheel-travel counted": the ground a wheel carries
				// the unit's centre over counts as distance travelled.
				m.charge(costItem{What: "carried by the wheel", Cost: table.Distance(r.Centre(), nr.Centre()), Col: p.Col})
			}
			r = nr
			switch p.Kind {
			case stWheel:
				turn(p, p.Side, a, false, fmt.Sprintf("wheel %v %v", p.Side, a))
			case stTurn:
				turn(p, p.Side, a, true, fmt.Sprintf("turn %v %v", p.Side, a))
			default:
				turn(p, 0, a, true, "about-face")
			}
		case stColumn, stLine:
			flush()
			if (p.Kind == stColumn) == m.Column {
				return r, errAt(p.Col, "%s: %s is already in that formation", p, u.Name)
			}
			m.Column = p.Kind == stColumn
			c := r.Centre()
			tmp := *u
			tmp.Column = m.Column
			w, dd := unitSize(s.Scn, &tmp)
			// COLUMN LEFT: the left flank becomes the front; LINE RIGHT
			// turns it back (HRA 15a, 15c).
			facing := r.Facing + table.Angle(p.Side)*90*table.Degree
			nr := table.BaseAt(c, w, dd, facing)
			if err := s.checkFinal(u, nr); err != nil {
				return r, errAt(p.Col, "%s: %v", p, err)
			}
			r = nr
			m.charge(costItem{What: "column", Cost: columnCost, Col: p.Col})
			if p.Kind == stLine {
				m.Items[len(m.Items)-1].What = "line"
			}
		case stMoveTo:
			flush()
			c := r.Centre()
			if a := table.Turn(r.Facing, table.Bearing(c, p.To)); a != 0 {
				side, abs := table.Right, a
				if a < 0 {
					side, abs = table.Left, -a
				}
				q := step{Kind: stTurn, Side: side, Angle: abs, Col: p.Col}
				if abs == 180*table.Degree {
					q = step{Kind: stAbout, Col: p.Col}
				}
				nr, got, err := s.rotate(u, r, q, m)
				if err != nil {
					return r, err
				}
				r = nr
				if q.Kind == stAbout {
					turn(q, 0, got, true, "about-face") // charged at once
				} else {
					turn(q, q.Side, got, true, fmt.Sprintf("turn %v %v", q.Side, got))
				}
				flush()
				if m.Contact != "" {
					break
				}
			}
			dist := table.Distance(r.Centre(), p.To) - r.Depth/2
			if dist <= 0 {
				return r, errAt(p.Col, "%s: the unit is already there", p)
			}
			var err error
			if r, err = s.advance(u, r, dist, m, last, p.Col, d); err != nil {
				return r, prefixErr(p.String(), err)
			}
		case stAdvance, stCharge:
			flush()
			if p.Dist <= 0 {
				return r, errAt(p.Col, "%s: advance a positive distance (a unit moves backwards only when withdrawing, HRA 9b)", p)
			}
			var err error
			if r, err = s.advance(u, r, p.Dist, m, last, p.Col, d); err != nil {
				return r, prefixErr(p.String(), err)
			}
		}
	}
	flush()
	// A march is checked where it ends, whatever its last step.
	if err := s.checkFinal(u, r); err != nil {
		col := 0
		if len(steps) > 0 {
			col = steps[len(steps)-1].Col
		}
		return r, errAt(col, "%v", err)
	}
	return r, nil
}

// rotationCost is HRA 9c (with H4) for one rotation of total degrees: up
// to 45° free; over 45° to 90°, 2 cm; an about-face (exactly 180° about
// the unit's own axis), 1 cm. For other rotations over 90° the seed
// states no cost: H4's nearest stated value, 2 cm, or with the scenario
// line "turn-over-90 per-quarter" 2 cm for each started quarter turn.
func (s *State) rotationCost(total table.Angle, axis bool) table.Length {
	switch {
	case total <= 45*table.Degree:
		return 0
	case total <= 90*table.Degree:
		return wheelCost
	case total == 180*table.Degree && axis:
		return aboutFaceCost
	case s.Scn.TurnPerQuarter:
		return wheelCost * table.Length((total+90*table.Degree-1)/(90*table.Degree))
	}
	return wheelCost
}

// rotation is the table move of a turning step (HRA 9b: about the unit's
// own axis or a front corner).
func rotation(p step) table.Move {
	switch p.Kind {
	case stWheel:
		return table.WheelMove(p.Side, p.Angle)
	case stTurn:
		return table.PivotMove(table.Angle(p.Side) * p.Angle)
	}
	return table.PivotMove(180 * table.Degree)
}

// rotate turns r by the step. A turn that brings the unit into contact
// with an enemy stops there: melee (HRA 11a). It returns the base and the
// angle turned.
func (s *State) rotate(u *Unit, r table.Rect, p step, m *moved) (table.Rect, table.Angle, error) {
	mv := rotation(p)
	enemies := s.others(u, true)
	part, hit := r.FirstContact(mv, func(sw table.Sweep) bool {
		for _, e := range enemies {
			if sw.TouchesRect(s.footprint(e)) {
				return true
			}
		}
		return false
	})
	nr := r.Apply(part)
	if hit {
		if u.Arm == Artillery {
			return r, 0, errAt(p.Col, "%s: the battery would touch the enemy: artillery cannot attack in melee (HRA 11g)", p)
		}
		for _, e := range enemies {
			if table.Touch(nr, s.footprint(e)) {
				m.Contact = e.Name
				break
			}
		}
		turned := part.Turn
		if turned < 0 {
			turned = -turned
		}
		m.Notes = append(m.Notes, fmt.Sprintf("contact with %s after turning %v: melee (HRA 11a)", m.Contact, turned))
	}
	if err := s.checkSweep(u, r, part, true); err != nil {
		return r, 0, errAt(p.Col, "%s: %v", p, err)
	}
	a := part.Turn
	if a < 0 {
		a = -a
	}
	return nr, a, nil
}

// checkSweep: what a unit's move may not pass over: a friendly unit (when
// turning; an advance passes through one, HRA 10a), a river except at a
// ford or bridge (T1; an advance crosses at those, see advance), fences,
// walls and redoubts for artillery (HRA 10c, 17e), and the table's edge.
func (s *State) checkSweep(u *Unit, r table.Rect, mv table.Move, turning bool) error {
	sw := r.Sweep(mv)
	nr := r.Apply(mv)
	if !s.onTable(nr) {
		return fmt.Errorf("the unit would leave the table")
	}
	if turning {
		for _, o := range s.others(u, false) {
			if sw.OverlapsRect(s.footprint(o)) {
				return fmt.Errorf("the turn would sweep through %s", o.Name)
			}
		}
		if s.sweepsRiver(sw) {
			return fmt.Errorf("a turn may not cross the river: %s crosses only at a ford or a bridge (T1); advance across one", u.Arm)
		}
	}
	if u.Arm == Artillery {
		for _, t := range s.Scn.Terrain {
			if (t.Kind == Fence || t.Kind == Wall || t.Kind == Redoubt) && sw.TouchesPolyline(t.Path) {
				return fmt.Errorf("artillery cannot cross %s (%s, HRA 10c, 17e); look for a gap", t.Name, t.Kind)
			}
		}
	}
	return nil
}

// sweepsRiver reports whether the swept area covers part of a river that
// no ford or bridge covers (T1).
func (s *State) sweepsRiver(sw table.Sweep) bool {
	var covers []table.Polygon
	for _, t := range s.Scn.Terrain {
		if t.Kind == Ford || t.Kind == Bridge {
			covers = append(covers, t.Poly)
		}
	}
	for _, t := range s.terrain(River) {
		if sw.OverlapsUncovered(t.Poly, covers...) {
			return true
		}
	}
	return false
}

// checkFinal: a unit may not end overlapping another unit, off the table or
// in a river away from its fords and bridges.
func (s *State) checkFinal(u *Unit, r table.Rect) error {
	if !s.onTable(r) {
		return fmt.Errorf("the unit would leave the table")
	}
	for i := range s.Units {
		o := &s.Units[i]
		if o.Name == u.Name || o.Removed() {
			continue
		}
		if table.Overlap(r, s.footprint(o)) {
			return fmt.Errorf("the unit would end on top of %s", o.Name)
		}
	}
	if s.inRiver(r.Centre()) || s.sweepsRiver(table.Sweep{r.Polygon()}) {
		return fmt.Errorf("the unit would end in the river (T1: only fords and bridges are passable)")
	}
	return nil
}

// inRiver: p is in a river and not on a ford or bridge.
func (s *State) inRiver(p table.Point) bool {
	return s.inArea(p, River) && !s.inArea(p, Ford, Bridge)
}

// terrainFactor is what each cm in woods or rough terrain costs of the
// open-ground move (T1, H14: pro rata), and how it is written.
func (s *State) terrainFactor(u *Unit, d *dicer) (open, wm table.Length, factor string) {
	open, wm = openMove(u.Arm), woodsMove(u.Arm, 0)
	switch {
	case u.Arm == Cavalry && u.Dismounted:
		open, wm = openMove(Infantry), woodsMove(Infantry, 0)
	case u.Arm == Artillery:
		wm = woodsMove(u.Arm, d.get("woods "+u.Name))
	}
	return open, wm, "×" + strings.TrimSuffix(strings.TrimRight(decimal(int64(open)*1000/int64(wm)), "0"), ".")
}

// cmText writes a length in cm to the nearest millimetre: "37.2cm", "8cm".
func cmText(l table.Length) string {
	neg := l < 0
	mm := (int64(l.Abs()) + int64(table.Millimetre)/2) / int64(table.Millimetre)
	s := fmt.Sprintf("%d", mm/10)
	if mm%10 != 0 {
		s += fmt.Sprintf(".%d", mm%10)
	}
	if neg {
		s = "-" + s
	}
	return s + "cm"
}

// cmFine writes a length in cm to the nearest hundredth of a millimetre,
// for two lengths that cmText would write alike.
func cmFine(l table.Length) string {
	return strings.TrimSuffix(strings.TrimRight(decimal(int64(l+5)/10), "0"), ".") + "cm"
}

// decimal writes n thousandths as "4.800".
func decimal(n int64) string { return fmt.Sprintf("%d.%03d", n/1000, n%1000) }

// advance moves r straight ahead by dist, charging terrain (T1, H14),
// stopping on contact with an enemy (HRA 11a), passing through at most one
// friend (HRA 10a), crossing rivers only at fords and bridges (T1, 10d)
// and keeping artillery off fences, walls and redoubts (HRA 10c, 17e).
func (s *State) advance(u *Unit, r table.Rect, dist table.Length, m *moved, last bool, col int, d *dicer) (table.Rect, error) {
	mv := table.ForwardMove(dist)
	var enemies []table.Rect
	var names []string
	for _, o := range s.others(u, true) {
		enemies = append(enemies, s.footprint(o))
		names = append(names, o.Name)
	}
	part, hit := r.FirstContact(mv, func(sw table.Sweep) bool {
		for _, e := range enemies {
			if sw.TouchesRect(e) {
				return true
			}
		}
		return false
	})
	nr := r.Apply(part)
	if hit {
		if u.Arm == Artillery {
			return r, errAt(col, "the battery would touch the enemy: artillery cannot attack in melee (HRA 11g)")
		}
		for i, e := range enemies {
			if table.Touch(nr, e) {
				m.Contact = names[i]
				break
			}
		}
		m.Notes = append(m.Notes, fmt.Sprintf("contact with %s after %s: melee (HRA 11a)", m.Contact, cmText(part.Dist)))
	}
	if err := s.checkSweep(u, r, part, false); err != nil {
		return r, errAt(col, "%v", err)
	}
	sw := r.Sweep(part)
	// HRA 10a: passing through friendly units.
	for _, o := range s.others(u, false) {
		if sw.OverlapsRect(s.footprint(o)) {
			if m.Through != "" {
				return r, errAt(col, "a unit may pass through only one friendly unit at a time (HRA 10a)")
			}
			m.Through = o.Name
		}
	}
	if m.Through != "" {
		o := s.unit(m.Through)
		if !last {
			return r, errAt(col, "passing through %s costs the whole move: it must be the march's last step (HRA 10a)", o.Name)
		}
		if table.Overlap(nr, s.footprint(o)) || table.Gap(nr, s.footprint(o)) > table.CM(1) {
			return r, errAt(col, "passing through %s, the unit must stop just beyond it (within 1 cm, HRA 10a)", o.Name)
		}
	}
	// Rivers: through a bridge freely, through a ford in a whole round (3
	// for artillery), elsewhere only cavalry, in d6 rounds (T1).
	crossing := ""
	for _, pt := range []table.Segment{table.Seg(r.Front, nr.Front), table.Seg(r.Corner(table.Left), nr.Corner(table.Left)), table.Seg(r.Corner(table.Right), nr.Corner(table.Right))} {
		in := s.lengthIn(pt, River)
		if in == 0 {
			continue
		}
		switch {
		case s.lengthIn(pt, Bridge) >= in:
		case s.lengthIn(pt, Ford, Bridge) >= in:
			if crossing != "river" {
				crossing = "ford"
			}
		default:
			crossing = "river"
		}
	}
	if crossing == "" && s.sweepsRiver(sw) {
		crossing = "river"
	}
	switch crossing {
	case "ford", "river":
		if crossing == "river" && u.Arm != Cavalry {
			return r, errAt(col, "%s may cross the river only at a ford or a bridge (T1)", u.Arm)
		}
		if !last {
			return r, errAt(col, "crossing a %s takes the rest of the unit's round: make it the march's last step (T1)", crossing)
		}
		if s.Scn.CrossingAlone && m.Cost > 0 {
			return r, errAt(col, "crossing a %s takes the unit's whole round: make it the only move (T1; this scenario's \"crossing alone\")", crossing)
		}
		// It must reach the river within its move, and the crossing is
		// no longer than a move in the open.
		reach, _ := r.FirstContact(mv, func(sw table.Sweep) bool {
			for _, t := range s.terrain(River) {
				if sw.TouchesPolygon(t.Poly) {
					return true
				}
			}
			return false
		})
		if m.Cost+reach.Dist > m.Allowance {
			return r, errAt(col, "the river is %s away, and the march has %s left (T1)", cmText(reach.Dist), cmText(max(m.Allowance-m.Cost, 0)))
		}
		if part.Dist > m.Allowance {
			return r, errAt(col, "a crossing goes at most %s, the unit's move (T1)", cmText(m.Allowance))
		}
		rounds := fordRounds(u.Arm)
		if crossing == "river" {
			rounds = d.get("river crossing " + u.Name)
			m.Notes = append(m.Notes, fmt.Sprintf("crossing the river takes %d round(s) (T1, d6=%d)", rounds, rounds))
		} else {
			m.Notes = append(m.Notes, fmt.Sprintf("fording takes %d round(s) (T1)", rounds))
		}
		// The crossing takes this round and rounds-1 more: Phase I of each
		// later round counts one down and frees the unit at 0 (as for
		// entrenching).
		m.charge(costItem{What: "to the river", Cost: reach.Dist, Col: col})
		m.Busy = rounds
		m.Work = "crossing"
	}
	if crossing == "" {
		// T1 terrain costs, pro rata (H14).
		seg := table.Seg(r.Front, nr.Front)
		woods, rough := s.lengthIn(seg, Woods), s.lengthIn(seg, Rough)
		open := part.Dist - woods - rough
		if open < 0 {
			open = 0
		}
		m.charge(costItem{What: "open", Cost: open, Col: col})
		for _, t := range []struct {
			kind string
			in   table.Length
		}{{"woods", woods}, {"rough", rough}} {
			if t.in == 0 {
				continue
			}
			om, wm, f := s.terrainFactor(u, d)
			if u.Arm == Artillery {
				m.Notes = append(m.Notes, fmt.Sprintf("artillery in woods or rough: d6=%d, %s (T1)", d.get("woods "+u.Name), cmText(wm)))
			}
			cost := table.Length((int64(t.in)*int64(om) + int64(wm) - 1) / int64(wm))
			m.charge(costItem{What: t.kind, Dist: t.in, Factor: f, Cost: cost, Col: col})
		}
	}
	if err := s.checkFinal(u, nr); err != nil {
		return r, errAt(col, "%v", err)
	}
	return nr, nil
}
