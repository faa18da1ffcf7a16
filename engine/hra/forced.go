package hra

import (
	"fmt"

	"pbem/engine/table"
)

// edges are the areas off the table: a forced move stops at the edge.
func (s *State) edges() []table.Polygon {
	w, h, big := s.Scn.Width, s.Scn.Height, table.CM(1000)
	return []table.Polygon{
		{table.Pt(-big, -big), table.Pt(0, -big), table.Pt(0, h+big), table.Pt(-big, h+big)},
		{table.Pt(w, -big), table.Pt(w+big, -big), table.Pt(w+big, h+big), table.Pt(w, h+big)},
		{table.Pt(-big, -big), table.Pt(w+big, -big), table.Pt(w+big, 0), table.Pt(-big, 0)},
		{table.Pt(-big, h), table.Pt(w+big, h), table.Pt(w+big, h+big), table.Pt(-big, h+big)},
	}
}

// forced makes a forced move (HRA 5): a withdrawal (5a: backwards, without
// turning, half the open-terrain move) or a retreat (5b: about-face at no
// cost when it begins, then one full move straight ahead). It follows the
// normal movement rules (HRA 4.I.d): it crosses bridges, and fords taking
// the round (T1), cavalry crosses a river in d6 rounds if it gets across;
// it stops in contact with an obstacle it cannot cross (5a), is destroyed
// if it runs into an enemy (5d), and a retreat ignores friendly units
// (10a) but makes those it flees past or through test morale (12a b). An
// unlimbered battery cannot move (HRA 17a) and stays where it is.
func (m *sim) forced(name string, retreat, begin bool) {
	st := m.State
	u := st.unit(name)
	r := st.footprint(u)
	if u.Arm == Artillery && !u.Limbered {
		if retreat && !u.Retreating {
			m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("retreating"), aTo.Arg(1))
		}
		m.Say("%s is unlimbered and cannot move (HRA 17a, 4.I.d): it stays where it is", name)
		return
	}
	if retreat && begin {
		r = r.AboutFace()
	}
	open := openMove(u.Arm)
	if u.Arm == Cavalry && u.Dismounted {
		open = openMove(Infantry)
	}
	full := open
	dir := table.Length(1)
	if !retreat {
		full, dir = open/2, -1 // HRA 5a, 5e
	}
	// Obstacles: the table's edge, fences and walls for artillery (HRA
	// 10c), enemies (5d), for a withdrawal friendly units (10a), and
	// rivers away from their fords and bridges (below).
	var polys []table.Polygon
	var lines []table.Polyline
	for _, t := range st.Scn.Terrain {
		if u.Arm == Artillery && (t.Kind == Fence || t.Kind == Wall || t.Kind == Redoubt) && !r.TouchesPolyline(t.Path) {
			lines = append(lines, t.Path)
		}
	}
	for _, e := range st.edges() {
		if !r.TouchesPolygon(e) {
			polys = append(polys, e)
		}
	}
	type block struct {
		r       table.Rect
		enemy   bool
		touched bool
		name    string
	}
	var blocks []block
	for i := range st.Units {
		o := &st.Units[i]
		if o.Name == name || o.Removed() {
			continue
		}
		enemy := o.Side != u.Side
		if !enemy && retreat {
			continue
		}
		or := st.footprint(o)
		blocks = append(blocks, block{or, enemy, table.Touch(r, or), o.Name})
	}
	hit := func(sw table.Sweep) bool {
		for _, p := range polys {
			if sw.TouchesPolygon(p) {
				return true
			}
		}
		for _, l := range lines {
			if sw.TouchesPolyline(l) {
				return true
			}
		}
		for _, b := range blocks {
			if b.touched {
				if sw.OverlapsRect(b.r) {
					return true
				}
			} else if sw.TouchesRect(b.r) {
				return true
			}
		}
		return false
	}
	// Terrain (H19): the farthest distance whose cost fits the move.
	d := &dicer{roll: m.Dice.Roll}
	cost := func(dist table.Length) table.Length {
		nr := r.Forward(dir * dist)
		in := st.lengthIn(table.Seg(r.Front, nr.Front), Woods, Rough)
		if in == 0 {
			return dist
		}
		wm := woodsMove(u.Arm, 0)
		if u.Arm == Artillery {
			wm = woodsMove(u.Arm, d.get("woods "+name))
		}
		if u.Arm == Cavalry && u.Dismounted {
			wm = woodsMove(Infantry, 0)
		}
		return dist + table.Length((int64(in)*int64(open-wm)+int64(wm)-1)/int64(wm))
	}
	lo, hi := table.Length(0), full
	if cost(full) > full {
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if cost(mid) <= full {
				lo = mid
			} else {
				hi = mid
			}
		}
		hi = lo
	}
	mv := table.ForwardMove(dir * hi)
	part, stopped := r.FirstContact(mv, hit)
	// Rivers (T1): a bridge or ford is crossed, a ford taking the round;
	// elsewhere only cavalry crosses, in d6 rounds, and only if it gets
	// across; anything else stops at the bank.
	crossing := ""
	if !st.sweepsRiver(table.Sweep{r.Polygon()}) && st.sweepsRiver(r.Sweep(part)) {
		if u.Arm == Cavalry && !st.sweepsRiver(table.Sweep{r.Apply(part).Polygon()}) {
			crossing = "river"
		} else {
			bank, _ := r.FirstContact(part, st.sweepsRiver)
			if bank.Dist > 0 {
				bank.Dist--
			} else if bank.Dist < 0 {
				bank.Dist++
			}
			part, stopped = bank, true
		}
	}
	nr := r.Apply(part)
	if crossing == "" {
		for _, c := range [][2]table.Point{{r.Front, nr.Front}, {r.Corner(table.Left), nr.Corner(table.Left)}, {r.Corner(table.Right), nr.Corner(table.Right)}, {r.Rear(), nr.Rear()}} {
			sg := table.Seg(c[0], c[1])
			if in := st.lengthIn(sg, River); in > 0 && st.lengthIn(sg, Bridge) < in {
				crossing = "ford"
			}
		}
	}
	if retreat {
		// Moving "as if nothing were in the way", it must still end clear
		// of friendly units: it stops short of the last one it would land on.
		for i := range st.Units {
			o := &st.Units[i]
			if o.Name != name && !o.Removed() && o.Side == u.Side && table.Overlap(nr, st.footprint(o)) {
				// step back in 5 mm steps until clear
				for k := table.Length(0); k < part.Dist && table.Overlap(nr, st.footprint(o)); k += table.MM(5) {
					nr = r.Apply(table.ForwardMove(part.Dist - k - table.MM(5)))
				}
			}
		}
	}
	what := "withdraws"
	if retreat {
		what = "retreats"
	}
	if retreat && !u.Retreating {
		m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("retreating"), aTo.Arg(1))
	}
	moved := table.Distance(r.Front, nr.Front)
	m.Emit(kUnitMoved, aUnit.Arg(name), aX.Arg(int64(nr.Front.X)), aY.Arg(int64(nr.Front.Y)),
		aFacing.Arg(int64(nr.Facing)), aColumn.Arg(u.Column), aCost.Arg(0), aForced.Arg(true))
	m.Say("%s %s %s (HRA 5%s)", name, what, cmText(moved), map[bool]string{true: "b", false: "a"}[retreat])
	if crossing != "" {
		rounds := fordRounds(u.Arm)
		if crossing == "river" {
			rounds = d.get("river crossing " + name)
			m.Say("  crossing the river takes %d round(s) (T1, d6=%d; HRA 4.I.d)", rounds, rounds)
		} else {
			m.Say("  fording takes %d round(s) (T1; HRA 4.I.d)", rounds)
		}
		m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("busy"), aTo.Arg(int64(rounds)), aWork.Arg("crossing"))
	}
	for _, m2 := range st.Melees {
		if m2.Attacker == name || m2.Defender == name {
			other := m2.Attacker
			if other == name {
				other = m2.Defender
			}
			if !table.Touch(nr, st.footprint(st.unit(other))) {
				m.endMelee(name, other)
			}
		}
	}
	if stopped {
		for _, b := range blocks {
			if b.enemy && !b.touched && table.Touch(nr, b.r) {
				m.setState(name, 0, fmt.Sprintf("ran into %s in a forced move (HRA 5d)", b.name))
				return
			}
		}
		m.Say("  %s stops at an obstacle it cannot cross (HRA 5a)", name)
	}
	if retreat {
		// HRA 12a b: friendly units it fled past (within 2 cm) or through.
		sw := r.Sweep(part)
		var tests []string
		causes := map[string][]string{}
		for i := range m.State.Units {
			o := &m.State.Units[i]
			if o.Name == name || o.Removed() || o.Side != u.Side {
				continue
			}
			or := m.State.footprint(o)
			if sw.OverlapsRect(or) || table.Within(nr, or, table.CM(2)) || table.Within(r, or, table.CM(2)) && sw.TouchesRect(or) {
				tests = append(tests, o.Name)
				causes[o.Name] = []string{name + " fled past or through it (HRA 12a b)"}
			}
		}
		if len(tests) > 0 {
			m.moraleTests(tests, causes, false)
		}
	}
}
