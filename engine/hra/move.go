package hra

import (
	"fmt"

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
}

func (p step) String() string {
	switch p.Kind {
	case stAdvance, stCharge:
		return fmt.Sprintf("%s %v", p.Kind, p.Dist)
	case stWheel, stTurn:
		return fmt.Sprintf("%s %v %v", p.Kind, p.Side, p.Angle)
	case stColumn:
		return fmt.Sprintf("column %v", p.Side)
	case stMoveTo:
		if p.Name != "" {
			return "move to " + p.Name
		}
		return fmt.Sprintf("move to %v", p.To)
	}
	return p.Kind
}

// moved is the outcome of a march for one unit.
type moved struct {
	Rect      table.Rect
	Column    bool
	Cost      table.Length
	Allowance table.Length
	Contact   string // enemy touched: melee (HRA 11a)
	Through   string // friendly unit passed through (HRA 10a)
	Busy      int    // further rounds the crossing takes (T1)
	Work      string
	Charged   bool
	Notes     []string
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
				return m, fmt.Errorf("%s is unlimbered: it may turn to any angle but not move (HRA 17a)", u.Name)
			}
		}
		for _, p := range steps {
			r = s.turnStep(r, p)
		}
		m.Rect = r
		return m, s.checkFinal(u, r, "")
	}
	for i, p := range steps {
		if p.Kind == stCharge {
			if u.Arm != Cavalry || u.Dismounted {
				return m, fmt.Errorf("only mounted cavalry charges (HRA 16b)")
			}
			if u.Charges >= s.Scn.Charges {
				return m, fmt.Errorf("%s has made its %d charges of the day (HRA 16b)", u.Name, s.Scn.Charges)
			}
			if i != len(steps)-1 {
				return m, fmt.Errorf("a charge is one straight move and ends the march (HRA 16b)")
			}
			for _, q := range steps[:i] {
				if q.Kind != stTurn && q.Kind != stWheel && q.Kind != stAbout {
					return m, fmt.Errorf("a charge is one straight move: it may be preceded only by turns (HRA 16b)")
				}
			}
			m.Charged = true
			m.Allowance += chargeBonus
		}
		if p.Kind == stColumn || p.Kind == stLine {
			if u.Arm != Infantry {
				return m, fmt.Errorf("only infantry forms column (HRA 15a)")
			}
		}
	}
	var rot table.Angle
	var nrot int
	about := false
	flush := func() {
		if nrot > 0 {
			m.Cost += rotationCost(rot, about && nrot == 1)
		}
		rot, nrot, about = 0, 0, false
	}
	moves := 0
	for i, p := range steps {
		if m.Contact != "" {
			break // contact with the enemy ends the march (HRA 11a)
		}
		if m.Through != "" || m.Busy > 0 || m.Work != "" {
			return m, fmt.Errorf("%s: the unit can move no further this round", p)
		}
		switch p.Kind {
		case stWheel, stTurn, stAbout:
			nr := s.turnStep(r, p)
			if err := s.checkTurn(u, r, nr, p); err != nil {
				return m, err
			}
			r = nr
			rot += turnAngle(p)
			nrot++
			about = p.Kind == stAbout && nrot == 1
		case stColumn, stLine:
			flush()
			if (p.Kind == stColumn) == m.Column {
				return m, fmt.Errorf("%s: %s is already in that formation", p, u.Name)
			}
			m.Column = p.Kind == stColumn
			c := r.Centre()
			tmp := *u
			tmp.Column = m.Column
			w, dd := unitSize(s.Scn, &tmp)
			// COLUMN LEFT: the left flank becomes the front; LINE RIGHT
			// turns it back (HRA 15a, 15c).
			facing := r.Facing + table.Angle(p.Side)*90*table.Degree
			r = table.BaseAt(c, w, dd, facing)
			m.Cost += columnCost
			if err := s.checkFinal(u, r, ""); err != nil {
				return m, fmt.Errorf("%s: %w", p, err)
			}
		case stMoveTo:
			flush()
			c := r.Centre()
			a := table.Turn(r.Facing, table.Bearing(c, p.To))
			if a != 0 {
				nr := r.Pivot(a)
				if err := s.checkTurn(u, r, nr, step{Kind: stTurn}); err != nil {
					return m, err
				}
				r = nr
				m.Cost += rotationCost(a, false)
			}
			dist := table.Distance(c, p.To) - r.Depth/2
			if dist <= 0 {
				return m, fmt.Errorf("%s: the unit is already there", p)
			}
			var err error
			if r, err = s.advance(u, r, dist, &m, moves, i == len(steps)-1, d); err != nil {
				return m, fmt.Errorf("%s: %w", p, err)
			}
			moves++
		case stAdvance, stCharge:
			flush()
			if p.Dist <= 0 {
				return m, fmt.Errorf("%s: advance a positive distance (a unit moves backwards only when withdrawing, HRA 9b)", p)
			}
			var err error
			if r, err = s.advance(u, r, p.Dist, &m, moves, i == len(steps)-1, d); err != nil {
				return m, fmt.Errorf("%s: %w", p, err)
			}
			moves++
		}
	}
	flush()
	m.Rect = r
	if m.Busy > 0 || m.Work != "" {
		m.Cost = max(m.Cost, m.Allowance) // T1: a crossing takes the round
		return m, nil
	}
	if m.Through != "" {
		m.Cost = max(m.Cost, m.Allowance) // HRA 10a: passing through costs the whole move
	}
	if m.Cost > m.Allowance {
		return m, fmt.Errorf("the march costs %v but %s may move only %v this round (HRA 9d, T1)", m.Cost, u.Name, m.Allowance)
	}
	return m, nil
}

func turnAngle(p step) table.Angle {
	if p.Kind == stAbout {
		return 180 * table.Degree
	}
	return table.Angle(p.Side) * p.Angle
}

// turnStep applies a rotation (HRA 9b: about the centre or a front corner).
func (s *State) turnStep(r table.Rect, p step) table.Rect {
	switch p.Kind {
	case stWheel:
		return r.Wheel(p.Side, p.Angle)
	case stTurn:
		return r.Pivot(table.Angle(p.Side) * p.Angle)
	case stAbout:
		return r.AboutFace()
	}
	return r
}

// checkTurn: a rotation may not sweep through another unit nor leave the
// table.
func (s *State) checkTurn(u *Unit, from, to table.Rect, p step) error {
	if !s.onTable(to) {
		return fmt.Errorf("%s: the unit would leave the table", p)
	}
	var sw table.Sweep
	switch p.Kind {
	case stWheel:
		sw = from.Sweep(table.WheelMove(p.Side, p.Angle))
	default:
		sw = from.Sweep(table.PivotMove(table.Turn(from.Facing, to.Facing)))
	}
	for _, o := range s.others(u, true) {
		if sw.OverlapsRect(s.footprint(o)) {
			return fmt.Errorf("%s: the turn would sweep into %s; advance into contact instead (HRA 11a)", p, o.Name)
		}
	}
	for _, o := range s.others(u, false) {
		if sw.OverlapsRect(s.footprint(o)) {
			return fmt.Errorf("%s: the turn would sweep through %s", p, o.Name)
		}
	}
	return nil
}

// checkFinal: a unit may not end overlapping another unit, off the table or
// in a river.
func (s *State) checkFinal(u *Unit, r table.Rect, except string) error {
	if !s.onTable(r) {
		return fmt.Errorf("the unit would leave the table")
	}
	for i := range s.Units {
		o := &s.Units[i]
		if o.Name == u.Name || o.Removed() || o.Name == except {
			continue
		}
		if table.Overlap(r, s.footprint(o)) {
			return fmt.Errorf("the unit would end on top of %s", o.Name)
		}
	}
	if s.inRiver(r.Centre()) {
		return fmt.Errorf("the unit would end in the river")
	}
	return nil
}

// inRiver: p is in a river and not on a ford or bridge.
func (s *State) inRiver(p table.Point) bool {
	return s.inArea(p, River) && !s.inArea(p, Ford, Bridge)
}

// advance moves r straight ahead by dist, charging terrain (T1, H14),
// stopping on contact with an enemy (HRA 11a), passing through at most one
// friend (HRA 10a), crossing rivers only at fords and bridges (T1, 10d)
// and keeping artillery off fences, walls and redoubts (HRA 10c, 17e).
func (s *State) advance(u *Unit, r table.Rect, dist table.Length, m *moved, before int, last bool, d *dicer) (table.Rect, error) {
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
			return r, fmt.Errorf("the battery would touch the enemy: artillery cannot attack in melee (HRA 11g)")
		}
		for i, e := range enemies {
			if table.Touch(nr, e) {
				m.Contact = names[i]
				break
			}
		}
		m.Notes = append(m.Notes, fmt.Sprintf("contact with %s after %v: melee (HRA 11a)", m.Contact, part.Dist))
	}
	sw := r.Sweep(part)
	// HRA 10c, 17e: artillery cannot cross fences, walls, redoubts.
	if u.Arm == Artillery {
		for _, t := range s.Scn.Terrain {
			if (t.Kind == Fence || t.Kind == Wall || t.Kind == Redoubt) && sw.TouchesPolyline(t.Path) {
				return r, fmt.Errorf("artillery cannot cross %s (%s, HRA 10c, 17e); look for a gap", t.Name, t.Kind)
			}
		}
	}
	// HRA 10a: passing through friendly units.
	for _, o := range s.others(u, false) {
		if sw.OverlapsRect(s.footprint(o)) {
			if m.Through != "" {
				return r, fmt.Errorf("a unit may pass through only one friendly unit at a time (HRA 10a)")
			}
			m.Through = o.Name
		}
	}
	if m.Through != "" {
		o := s.unit(m.Through)
		if !last {
			return r, fmt.Errorf("passing through %s costs the whole move: it must be the march's last step (HRA 10a)", o.Name)
		}
		if table.Overlap(nr, s.footprint(o)) || table.Gap(nr, s.footprint(o)) > table.CM(1) {
			return r, fmt.Errorf("passing through %s, the unit must stop just beyond it (within 1 cm, HRA 10a)", o.Name)
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
	switch crossing {
	case "ford", "river":
		if crossing == "river" && u.Arm != Cavalry {
			return r, fmt.Errorf("%s may cross the river only at a ford or a bridge (T1)", u.Arm)
		}
		if before > 0 || !last || m.Cost > 0 {
			return r, fmt.Errorf("crossing a %s takes the unit's whole round: make it the only move (T1)", crossing)
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
		m.Busy = rounds
		m.Work = "crossing"
	}
	// T1 terrain costs, pro rata (H14).
	seg := table.Seg(r.Front, nr.Front)
	in := s.lengthIn(seg, Woods, Rough)
	if crossing == "" && in > 0 {
		wm := woodsMove(u.Arm, 0)
		if u.Arm == Artillery {
			roll := d.get("woods " + u.Name)
			wm = woodsMove(u.Arm, roll)
			m.Notes = append(m.Notes, fmt.Sprintf("artillery in woods or rough: d6=%d, %v (T1)", roll, wm))
		}
		open := openMove(u.Arm)
		if u.Arm == Cavalry && u.Dismounted {
			open, wm = openMove(Infantry), woodsMove(Infantry, 0)
		}
		extra := table.Length((int64(in)*int64(open-wm) + int64(wm) - 1) / int64(wm))
		m.Cost += extra
	}
	if crossing == "" {
		m.Cost += part.Dist
	}
	if err := s.checkFinal(u, nr, ""); err != nil {
		return r, err
	}
	return nr, nil
}
