package gbacw

import (
	"fmt"
	"slices"

	"pbem/engine/hex"
	"pbem/events"
)

// commandReach is every hex within l's command range (5.1): counted in
// his MP from his hex (not counted) to the subordinate's (counted), not
// through impassable terrain nor enemy-adjacent hexes holding no
// friendly unit (5.2), nor enemy units.
func (s *State) commandReach(l *Leader) *hex.Reach {
	r, _ := hex.Reachable(l.Hex, 2*s.cmdRange(l), func(from, to hex.Hex) (int, bool) {
		if !s.Scn.Grid.InBounds(to) || len(s.enemiesAt(to, l.Side)) > 0 {
			return 0, false
		}
		if s.enemyAdjacent(to, l.Side) && len(s.friendsAt(to, l.Side)) == 0 {
			return 0, false
		}
		return s.leaderStep(from, to)
	})
	return r
}

// inRange reports whether h is within l's command range.
func (s *State) inRange(l *Leader, h hex.Hex) bool {
	return l != nil && l.onMap() && s.commandReach(l).Contains(h)
}

// traceCommand determines the side's chain of command top-down (3.2.1,
// 5.6): corps leaders from the army commander, division leaders from
// their corps leader, brigade leaders from their division leader, units
// from their brigade leader. A unit next to its leader is in command
// whatever the terrain (5.3), and so is one next to an in-command unit of
// its brigade (5.4). A leader whose superior is killed, or a unit whose
// brigade leader is, is out of command.
func (m *sim) traceCommand(side string) {
	st := m.st
	var out []string
	oc := st.leader(st.Scn.Armies[side])
	inCmd := func(sup *Leader, h hex.Hex) bool { return sup != nil && sup.onMap() && st.inRange(sup, h) }
	for _, c := range st.Scn.Corps {
		if c.Side != side {
			continue
		}
		cl := st.leader(c.Leader)
		if cl.onMap() && !inCmd(oc, cl.Hex) {
			out = append(out, cl.Name)
		}
		for _, d := range st.Scn.Divisions {
			if d.Corps != c.Name {
				continue
			}
			dl := st.leader(d.Leader)
			if dl.onMap() && !inCmd(cl, dl.Hex) {
				out = append(out, dl.Name)
			}
			for _, b := range st.Scn.Brigades {
				if b.Division != d.Name || !st.brigade(b.Name).Arrived {
					continue
				}
				bl := st.leader(b.Leader)
				if bl.onMap() && !inCmd(dl, bl.Hex) {
					out = append(out, bl.Name)
				}
				out = append(out, st.unitsOutOfCommand(b.Name, bl)...)
			}
		}
	}
	m.emit(kCommandTraced, aSide.Arg(side), aOut.Arg(out...))
	if len(out) > 0 {
		m.say("%s out of command (5.5): %s.", side, joinAnd(out))
	}
}

// unitsOutOfCommand lists a brigade's units out of its leader's command
// (5.1-5.4), in scenario order.
func (s *State) unitsOutOfCommand(brigade string, bl *Leader) []string {
	var units []*Unit
	for _, u := range s.unitsOf(brigade) {
		if u.onMap() {
			units = append(units, u)
		}
	}
	in := make([]bool, len(units))
	if bl != nil && bl.onMap() {
		reach := s.commandReach(bl)
		for i, u := range units {
			in[i] = reach.Contains(u.Hex) || hex.Adjacent(u.Hex, bl.Hex) || u.Hex == bl.Hex
		}
		// 5.4, until no more join.
		for changed := true; changed; {
			changed = false
			for i, u := range units {
				if in[i] {
					continue
				}
				for j, v := range units {
					if in[j] && hex.Adjacent(u.Hex, v.Hex) {
						in[i], changed = true, true
						break
					}
				}
			}
		}
	}
	var out []string
	for i, u := range units {
		if !in[i] {
			out = append(out, u.Name)
		}
	}
	return out
}

// leaderMarch moves a leader along a path or to a hex (MOVE TO), within
// budget half MPs (17.1: 10 MP each brigade activation; 17.2: 40 in the
// Commander Movement Phase), never into a hex holding enemy units.
func (m *sim) leaderMarch(o *Order, l *Leader, budget int) *events.Problem {
	st := m.st
	path := o.Path
	if o.HasTo {
		r, _ := hex.Reachable(l.Hex, budget-l.MP, func(a, b hex.Hex) (int, bool) {
			if len(st.enemiesAt(b, l.Side)) > 0 {
				return 0, false
			}
			return st.leaderStep(a, b)
		})
		p := r.Path(o.To)
		if p == nil {
			prob := problemAt(*o, o.Col, fmt.Sprintf("%s cannot reach %s with %s MP left", l.Name, o.To, halfMP(budget-l.MP)), "")
			return &prob
		}
		path = p[1:]
	}
	mp, at := l.MP, l.Hex
	for _, h := range path {
		prob := func(msg string) *events.Problem { p := problemAt(*o, o.Col, msg, ""); return &p }
		if !hex.Adjacent(at, h) {
			return prob(fmt.Sprintf("%s does not touch %s: name every hex of the path", h, at))
		}
		if len(st.enemiesAt(h, l.Side)) > 0 {
			return prob(fmt.Sprintf("%s holds the enemy", h))
		}
		c, ok := st.leaderStep(at, h)
		if !ok {
			return prob(fmt.Sprintf("%s cannot enter %s", l.Name, h))
		}
		if mp+c > budget {
			return prob(fmt.Sprintf("%s has %s MP; %s costs %s more than he has left", l.Name, halfMP(budget), h, halfMP(mp+c-budget)))
		}
		mp += c
		at = h
	}
	if len(path) == 0 {
		return nil
	}
	m.emit(kLeaderMoved, aLeader.Arg(l.Name), aHex.Arg(hexInt(at)), aMp.Arg(int64(mp)))
	if rank, side := st.command(l); rank == "army" {
		i := st.sideIndex(side)
		m.emit(kOcMoved, aSide.Arg(side), aMp.Arg(int64(m.st.OCMP[i]+mp-l.MP)), aHexes.Arg(int64(m.st.OCHexes[i]+len(path))))
	}
	m.say("%s moves to %s (%s MP).", l.Name, at, halfMP(mp))
	return nil
}

// halfMP prints half MPs: "3", "3½".
func halfMP(n int) string {
	s := fmt.Sprint(n / 2)
	if n%2 != 0 {
		s += "½"
	}
	return s
}

func joinAnd(ss []string) string {
	switch len(ss) {
	case 0:
		return ""
	case 1:
		return ss[0]
	}
	return fmt.Sprintf("%s and %s", joinComma(ss[:len(ss)-1]), ss[len(ss)-1])
}

func joinComma(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

// leaderFlees moves a leader left alone next to an enemy to the nearest
// unit under his command, or he is killed if none can be reached (17.5).
func (m *sim) leaderFlees(l *Leader) {
	st := m.st
	r, _ := hex.Reachable(l.Hex, 1<<20, func(a, b hex.Hex) (int, bool) {
		if !st.Scn.Grid.InBounds(b) || len(st.enemiesAt(b, l.Side)) > 0 {
			return 0, false
		}
		return st.leaderStep(a, b)
	})
	for _, h := range r.Hexes() {
		for _, u := range st.unitsAt(h) {
			if u.Side == l.Side && st.underCommand(l, u) {
				m.emit(kLeaderMoved, aLeader.Arg(l.Name), aHex.Arg(hexInt(h)), aMp.Arg(int64(l.MP)))
				m.say("%s, alone next to the enemy, goes to %s at %s (17.5).", l.Name, u.Name, h)
				return
			}
		}
	}
	m.killLeader(l, "alone next to the enemy with no way to his units (17.5)")
}

func (m *sim) killLeader(l *Leader, why string) {
	m.emit(kLeaderKilled, aLeader.Arg(l.Name), aWhy.Arg(why))
	m.say("%s is killed: %s.", l.Name, why)
}

// leadersAlone are the side's leaders with no friendly unit in their hex
// next to h (17.5).
func (s *State) leadersAloneNear(h hex.Hex, side string) []*Leader {
	var out []*Leader
	for i := range s.Leaders {
		l := &s.Leaders[i]
		if l.onMap() && l.Side == side && hex.Adjacent(l.Hex, h) && len(s.friendsAt(l.Hex, side)) == 0 {
			out = append(out, l)
		}
	}
	return out
}

// casualtyCheck rolls for each leader stacked with a unit that lost a
// step to fire, shock or a second disorder: on 0 he is killed (17.3).
func (m *sim) casualtyCheck(u *Unit) {
	for _, l := range m.st.leadersAt(u.Hex) {
		if l.Side != u.Side {
			continue
		}
		dr := m.d10("casualty "+l.Name, 5)
		if dr == 0 {
			m.killLeader(l, fmt.Sprintf("a casualty with %s (17.3, dr 0)", u.Name))
		} else {
			m.say("%s rolls %d for his casualty check (17.3): unhurt.", l.Name, dr)
		}
	}
}

// commandGone kills the leaders whose every unit is eliminated (17.4).
func (m *sim) commandGone() {
	st := m.st
	for i := range st.Leaders {
		l := &m.st.Leaders[i]
		if !l.onMap() {
			continue
		}
		any := false
		for j := range m.st.Units {
			u := m.st.Units[j]
			if !u.Removed && m.st.underCommand(l, u) {
				any = true
				break
			}
		}
		if !any && slices.ContainsFunc(m.st.Units, func(u *Unit) bool { return m.st.underCommand(l, u) }) {
			m.killLeader(l, "every unit under his command is eliminated (17.4)")
		}
	}
}

func joinOr(ss []string) string {
	if len(ss) < 2 {
		return joinAnd(ss)
	}
	return fmt.Sprintf("%s or %s", joinComma(ss[:len(ss)-1]), ss[len(ss)-1])
}
