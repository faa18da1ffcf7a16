package gbacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// An activation's orders (3.3.3) are a program: the Order Change Phase's
// CHANGE lines, the Multi-brigade coordination Phase's COORDINATE lines,
// then a plan marker; at the plan the action lines are sorted into each
// brigade's Action Phase (or the coordinated brigades' together): its
// movement and fire in the order written, then its shocks (14.1:
// wherever the mail wrote them, the player told when that moved one),
// its recoveries and its constructions. The program is carried out step by
// step (a hex of a move, a stage of a shock); a step that needs an
// answer waits for it, and the program goes on when it comes.
//
// A mail's program is first run dry, on a copy, with benign dice and no
// reactions: an order that could not be carried out even then rejects
// the mail, and nothing of it is applied. Carried out for real, an order
// that the dice or a reaction made impossible (a move cut short by
// disorder, a target gone) stops there, is told, and the rest goes on.

// Program markers (entries with no line number).
const (
	mPlan   = "PLAN"
	mGroup  = "GROUP"
	mShocks = "SHOCKS"
)

// activation takes the orders of the side whose AM is active.
func (m *sim) activation(side string, os []Order) []events.Problem {
	if len(os) == 1 && (os[0].Kind == oDone || os[0].Kind == oPass) {
		m.say("%s: nothing more this activation.", os[0].Kind)
		m.endActivation()
		return nil
	}
	text, probs := m.buildProgram(side, os)
	if len(probs) > 0 {
		return probs
	}
	// The dry run.
	dry := &sim{st: m.st, dry: true}
	if _, p := dry.run(side, text, 0, 0, nil); p != nil {
		return []events.Problem{*p}
	}
	own := events.ToSide(side)
	for _, t := range text {
		if n, body, _ := strings.Cut(t, "|"); n != "" {
			m.sayTo(own, "%s", body)
		}
	}
	m.emitTo(own, kProgSet, aSide.Arg(side), aText.Arg(text...))
	return m.resume()
}

// buildProgram checks who may act and writes the program.
func (m *sim) buildProgram(side string, os []Order) ([]string, []events.Problem) {
	st := m.st
	act := st.Act
	march := strings.HasSuffix(act.AM, "|March")
	var changes, coords, actions []string
	first := map[string]int{} // a unit's first action line
	shocks, recovers, builds := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i, o := range os {
		entry := strconv.Itoa(o.Line) + "|" + orderText(o)
		switch o.Kind {
		case oChange:
			if march && st.Scn.Options.MarchNoChange {
				return nil, one(o, "this scenario's option march-am-no-change: orders change on a division's AM, not the March AM", "")
			}
			if !slices.Contains(act.Acting, o.Brigade) {
				return nil, one(o, o.Brigade+" is not activated by this AM", "CHANGE <brigade of the activated division> <order>")
			}
			if slices.ContainsFunc(os[:i], func(p Order) bool { return p.Kind == oChange && p.Brigade == o.Brigade }) {
				return nil, one(o, "one order change for a brigade each activation", "")
			}
			changes = append(changes, entry)
		case oCoordinate:
			if march || len(coords) > 0 {
				return nil, one(o, "one COORDINATE line, on a division's AM", "")
			}
			for _, b := range o.Brigades {
				if !slices.Contains(act.Acting, b) {
					return nil, one(o, b+" is not activated by this AM", "")
				}
			}
			coords = append(coords, entry)
		case oDone, oPass:
			return nil, one(o, o.Kind+" alone ends the activation; with other orders leave it out", "")
		case oOrder, oFirst, oRelease, oBegin:
			return nil, one(o, o.Kind+" is not an order of an activation", "<unit>: MOVE <hex> ... | CHANGE <brigade> <order> | DONE")
		case oReact:
			return nil, one(o, "no reaction is asked of you now", "")
		default:
			if p := m.mayAct(side, o, march); p != nil {
				return nil, []events.Problem{*p}
			}
			for _, u := range o.Units {
				if _, ok := first[u]; !ok {
					first[u] = i
				}
				switch o.Kind {
				case aShock, aCharge:
					if shocks[u] {
						return nil, one(o, u+" shocks once a phase", "")
					}
					shocks[u] = true
				case aRecover:
					recovers[u] = true
				case aBuild:
					builds[u] = true
				case aMount, aDismount:
					if first[u] != i {
						return nil, one(o, fmt.Sprintf("%s %ss at the start of its phase, before it moves (16.1): put the line first", u, strings.ToLower(o.Kind)), "")
					}
				}
				if shocks[u] && (recovers[u] || builds[u]) {
					return nil, one(o, u+" cannot both shock and recover or build (14.2)", "")
				}
			}
			actions = append(actions, entry)
		}
	}
	text := slices.Concat(changes, coords, []string{"|" + mPlan}, actions)
	return text, nil
}

// mayAct checks that the unit or leader of an action is activated.
func (m *sim) mayAct(side string, o Order, march bool) *events.Problem {
	st := m.st
	act := st.Act
	prob := func(msg string) *events.Problem { p := problemAt(o, o.Col, msg, ""); return &p }
	if o.Leader {
		l := st.leader(o.Unit)
		if !l.onMap() {
			return prob(l.Name + " is not on the map")
		}
		rank, name := st.command(l)
		switch {
		case rank == "brigade" && slices.Contains(act.Acting, name):
		case rank == "division" && !march && st.divisionOf(act.Acting[0]) == name:
		default:
			return prob(fmt.Sprintf("%s does not move on this AM: brigade and division leaders move with their brigades' activations (17.1), the others in the Commander Movement Phase (17.2)", l.Name))
		}
		return nil
	}
	for _, n := range o.Units {
		u := st.unit(n)
		switch {
		case !u.onMap():
			return prob(n + " is not on the map")
		case u.Routed && o.Kind != aRecover:
			return prob(n + " is routed: it may only try to recover")
		case !slices.Contains(act.Acting, u.Brigade):
			return prob(fmt.Sprintf("%s (%s) is not activated by this AM (%s)", n, u.Brigade, st.amName()))
		case march && u.Order != March:
			return prob(n + " is not on March orders: the March AM activates only March columns (10.1)")
		case !march && u.Order == March:
			return prob(n + " is on March orders: only the March AM activates it (10.1)")
		case !march && slices.Contains(act.Skipping, n):
			return prob(n + " skips this activation: it was out of command (5.5)")
		}
	}
	return nil
}

// endActivation ends the AM's activation and draws the next.
func (m *sim) endActivation() {
	am := m.st.Act.AM
	m.emit(kAmEnded, aAm.Arg(am))
	m.marchAgain(am)
	m.nextAM()
}

// marchAgain activates a side's March columns again when its March AM
// has activations left (10.1: one marker, 1-4 activations), before the
// next AM is drawn.
func (m *sim) marchAgain(am string) {
	side, what, _ := strings.Cut(am, "|")
	if what != "March" {
		return
	}
	if left := m.st.MarchAMs[m.st.sideIndex(side)] - 1; left > 0 {
		if acting, _ := m.st.actingFor(side, what); len(acting) > 0 {
			m.emit(kMarchAgain, aSide.Arg(side), aN.Arg(int64(left)))
		}
	}
}

// resume carries the activation's program on from where it stands.
func (m *sim) resume() []events.Problem {
	st := m.st
	p := st.Act.Prog
	if p.Ask != nil {
		// Standing orders sent since answer it.
		m.emit(kProgAnswered, aKey.Arg(p.Ask.Key), aAnswer.Arg(""))
		p = m.st.Act.Prog
	}
	asked, _ := m.run(st.Act.Side, slices.Clone(p.Text), p.At, p.Step, p.Rolls)
	if asked != nil {
		return nil
	}
	m.endActivation()
	return nil
}

// run carries out text from line at, step step. For real, a step that
// waits for an answer stops the run (the answer is asked, what the
// program has done stays); a step that fails is told and its order
// dropped. Dry, the first failure is returned.
func (m *sim) run(side string, text []string, at, step int, sticky []int) (*Ask, *events.Problem) {
	for at < len(text) {
		o, err := m.entry(side, text[at])
		if err != nil {
			panic(bug{err})
		}
		m.sticky, m.at, m.step, m.text = sticky, at, step, text
		sticky = nil
		next := -1
		asked, prob := m.try(func() {
			if o.Kind == mPlan {
				text = append(text[:at+1], m.plan(side, text[at+1:])...)
				return
			}
			next = m.execStep(&o, step)
		})
		if o.Kind == aMove && !o.HasTo && len(o.Path) > 0 {
			text[at] = strconv.Itoa(o.Line) + "|" + orderText(o) // a MOVE TO now has its path
		}
		switch {
		case asked != nil:
			if !m.dry {
				asked = m.gather(side, text[at], step, asked)
			}
			// What is asked is for the side asked alone (it names that
			// side's units and says "your"): the other side is told only
			// that the game waits for it.
			if asked.Side != "" {
				m.emitTo(events.ToSide(asked.Side), kProgAsked, aSide.Arg(asked.Side), aKey.Arg(asked.Key), aWhat.Arg(asked.What), aExamples.Arg(asked.Examples...))
			} else {
				m.emit(kProgAsked, aSide.Arg(asked.Side), aKey.Arg(asked.Key), aWhat.Arg(asked.What), aExamples.Arg(asked.Examples...))
			}
			rolls := make([]int64, len(m.rolled))
			for i, r := range m.rolled {
				rolls[i] = int64(r)
			}
			m.emitTo(events.ToSide(side), kProgHeld, aAt.Arg(int64(at)), aStep.Arg(int64(step)), aText.Arg(text...), aRolls.Arg(rolls...))
			if asked.Side != "" {
				m.sayTo(events.ToSide(asked.Side), "The game waits for %s: %s", asked.Side, asked.What)
				m.sayTo(events.ToSide(otherSide(asked.Side)), "The game waits for %s to answer.", asked.Side)
			} else {
				m.say("The game waits for the referee: %s", asked.What)
			}
			return asked, nil
		case prob != nil && m.dry:
			return nil, prob
		case prob != nil:
			m.sayTo(events.ToSide(side), "line %d (%s) stopped: %s", o.Line, playerLine(o.Text), prob.Msg)
			at, step = at+1, 0
		case next < 0:
			at, step = at+1, 0
		default:
			step = next
		}
	}
	return nil, nil
}

// entry parses one program entry.
func (m *sim) entry(side, e string) (Order, error) {
	n, body, _ := strings.Cut(e, "|")
	if n == "" {
		kind, rest, _ := strings.Cut(body, " ")
		o := Order{Kind: kind, Text: body}
		if rest != "" {
			o.Brigades = strings.Split(rest, ";")
		}
		return o, nil
	}
	line, _ := strconv.Atoi(n)
	os, probs := parseOrders(m.st, side, body)
	if len(probs) > 0 || len(os) != 1 {
		return Order{}, fmt.Errorf("gbacw: program line %q does not parse: %v", body, probs)
	}
	os[0].Line = line
	return os[0], nil
}

// plan sorts the action lines into the Action Phases of the brigades
// (3.3.3, 14.1): the coordinated brigades together, the others each
// alone, in the order they first appear.
func (m *sim) plan(side string, lines []string) []string {
	st := m.st
	type group struct {
		brigades                        []string
		moves, shocks, recovers, builds []Order
	}
	var groups []*group
	groupOf := func(b string) *group {
		for _, g := range groups {
			if slices.Contains(g.brigades, b) {
				return g
			}
		}
		g := &group{brigades: []string{b}}
		if len(st.Act.Group) > 0 && slices.Contains(st.Act.Group, b) {
			g.brigades = slices.Clone(st.Act.Group)
		}
		groups = append(groups, g)
		return g
	}
	// A brigade leader moves in his brigade's phase; a division leader
	// in the phase of the brigade whose line comes before his in the
	// mail (the first brigade's if none does), with 10 MP in each
	// brigade's phase (17.1).
	var last *group
	var early []Order
	for _, e := range lines {
		o, err := m.entry(side, e)
		if err != nil {
			panic(bug{err})
		}
		if o.Leader {
			rank, name := st.command(st.leader(o.Unit))
			switch {
			case rank == "brigade":
				g := groupOf(name)
				g.moves = append(g.moves, o)
			case last != nil:
				last.moves = append(last.moves, o)
			default:
				early = append(early, o)
			}
			continue
		}
		g := groupOf(o.Brigade)
		last = g
		switch o.Kind {
		case aShock, aCharge:
			g.shocks = append(g.shocks, o)
		case aRecover:
			g.recovers = append(g.recovers, o)
		case aBuild:
			g.builds = append(g.builds, o)
		case aFire:
			// Split units of one regiment firing at the same target
			// fire as one (11.5, 8.32): their lines become one, where
			// the first of them stands.
			if i := slices.IndexFunc(g.moves, func(p Order) bool { return st.splitMates(p, o) }); i >= 0 {
				g.moves[i].Units = append(g.moves[i].Units, o.Units...)
				continue
			}
			g.moves = append(g.moves, o)
		default:
			g.moves = append(g.moves, o)
		}
	}
	if len(early) > 0 {
		if len(groups) == 0 {
			groupOf(st.Act.Acting[0])
		}
		groups[0].moves = append(slices.Clone(early), groups[0].moves...)
	}
	// The seed's sequence of play decides the order, not the mail's: a
	// brigade moves and fires, then shocks (3.3.3, 14.1: "after moving
	// and firing"). A shock written before a move or fire of its own
	// brigade's phase is carried out after them, and the player is told
	// so: the mail gave no order the seed lets him give.
	own := events.ToSide(side)
	for _, g := range groups {
		for _, s := range g.shocks {
			var after []string
			for _, o := range g.moves {
				if o.Line > s.Line && !o.Leader {
					after = append(after, strconv.Itoa(o.Line))
				}
			}
			if len(after) > 0 {
				word := "line"
				if len(after) > 1 {
					word = "lines"
				}
				m.sayTo(own, "Line %d (%s) is carried out after %s %s, the brigade's moves and fires written after it: a brigade shocks when it has finished moving and firing (14.1).",
					s.Line, s.Text, word, joinAnd(after))
			}
		}
	}
	var out []string
	line := func(o Order) string { return strconv.Itoa(o.Line) + "|" + orderText(o) }
	for _, g := range groups {
		out = append(out, "|"+mGroup+" "+strings.Join(g.brigades, ";"))
		for _, o := range g.moves {
			out = append(out, line(o))
		}
		out = append(out, "|"+mShocks+" "+strings.Join(g.brigades, ";"))
		// One combination for each hex attacked (14.3a): lines that
		// name a hex in common are one combination, of all their hexes.
		var combos []Order
		for _, o := range g.shocks {
			i := slices.IndexFunc(combos, func(c Order) bool {
				return slices.ContainsFunc(o.Targets, func(h hex.Hex) bool { return slices.Contains(c.Targets, h) })
			})
			if i < 0 {
				o.Kind = aShock
				o.Targets = slices.Clone(o.Targets)
				combos = append(combos, o)
				continue
			}
			combos[i].Units = append(combos[i].Units, o.Units...)
			combos[i].Advance = combos[i].Advance || o.Advance
			if o.HasFace && !combos[i].HasFace {
				combos[i].Face, combos[i].HasFace = o.Face, true
			}
			for _, h := range o.Targets {
				if !slices.Contains(combos[i].Targets, h) {
					combos[i].Targets = append(combos[i].Targets, h)
				}
			}
		}
		for _, o := range combos {
			out = append(out, line(o))
		}
		for _, o := range g.recovers {
			out = append(out, line(o))
		}
		for _, o := range g.builds {
			out = append(out, line(o))
		}
	}
	return out
}

// splitMates reports whether FIRE orders p and o are of split units of
// one regiment at one and the same target (11.5).
func (s *State) splitMates(p, o Order) bool {
	if p.Kind != aFire || o.Kind != aFire || len(p.Targets) != 1 || len(o.Targets) != 1 || p.Targets[0] != o.Targets[0] || len(o.Units) != 1 {
		return false
	}
	d := s.def(s.unit(o.Unit)).Split
	return d != "" && s.def(s.unit(p.Unit)).Split == d
}

// orderText writes an order back as a line that parses to it.
func orderText(o Order) string {
	face := func() string {
		if !o.HasFace {
			return ""
		}
		if o.Face >= faceSide {
			return " FACE " + hex.Direction(o.Face-faceSide).String()
		}
		return " FACE " + hex.Vertex(o.Face).String()
	}
	hexes := func(hs []hex.Hex) string {
		var ss []string
		for _, h := range hs {
			ss = append(ss, h.String())
		}
		return strings.Join(ss, " ")
	}
	who := strings.Join(o.Units, ", ") + ": "
	switch o.Kind {
	case oChange:
		return "CHANGE " + o.Brigade + " " + strings.ToUpper(o.Order) + face()
	case oCoordinate:
		return "COORDINATE " + strings.Join(o.Brigades, " AND ")
	case aMove:
		s := who + "MOVE "
		if o.HasFrom {
			s += "FROM " + o.From.String() + " "
		}
		if o.HasTo {
			s += "TO " + o.To.String()
		} else {
			s += hexes(o.Path)
		}
		s += face()
		if o.Top {
			s += " TOP"
		}
		if o.Bottom {
			s += " BOTTOM"
		}
		return s
	case aFace:
		return who + strings.TrimPrefix(face(), " ")
	case aWithdraw:
		return strings.TrimSpace(who + "WITHDRAW " + hexes(o.Path))
	case aFire:
		var ts []string
		for _, t := range o.Targets {
			ts = append(ts, t.String())
		}
		return who + "FIRE AT " + strings.Join(ts, " AND ")
	case aShock, aCharge:
		var ts []string
		for _, t := range o.Targets {
			ts = append(ts, t.String())
		}
		s := who + o.Kind + " " + strings.Join(ts, " AND ")
		if o.Advance {
			s += " ADVANCE" + face()
		}
		return s
	case aRecover:
		return who + "RECOVER" + face()
	}
	return who + o.Kind
}

// execStep carries out step k of an order; it returns the next step, or
// -1 when the order is done.
func (m *sim) execStep(o *Order, k int) int {
	switch o.Kind {
	case mGroup:
		m.groupBegins(o.Brigades)
		return -1
	case mShocks:
		m.shockCheck(o.Brigades)
		return -1
	case oChange:
		m.orderChange(o)
	case oCoordinate:
		m.coordinate(o)
	case aMove:
		if o.Leader {
			l := m.st.leader(o.Unit)
			if p := m.leaderMarch(o, l, 2*10); p != nil {
				m.fail(o, o.Col, p.Msg, "")
			}
			return -1
		}
		return m.moveStep(o, k)
	case aWithdraw:
		return m.withdrawStep(o, k)
	case aFace:
		m.faceAction(o)
	case aFire:
		return m.fireStep(o, k)
	case aShock, aCharge:
		return m.shockStep(o, k)
	case aRecover:
		m.recover(o)
	case aBuild:
		m.build(o)
	case aMount, aDismount:
		m.mount(o)
	case aTop:
		m.top(o)
	case aRefuse:
		m.refuse(o)
	}
	return -1
}

// groupBegins starts a brigade's (or coordinated brigades') Action Phase:
// the non-phasing units' reactions are theirs again, once per brigade
// activation (13.1, B12; option b12-once-per-am: once per activation),
// and the brigade and division leaders move 10 MP in it (17.1).
func (m *sim) groupBegins(brigades []string) {
	m.emit(kGroupBegun, aBrigades.Arg(brigades...))
}

// orderChange is the Order Change Phase (3.3): a dr plus DRMs (+1 if the
// brigade leader is stacked with the division leader, +2 with the corps
// leader or the army commander; B21, option b21-unit-stacked: a unit of
// the brigade stacked with them) against the chart (R6); the referee
// rules it without one.
func (m *sim) orderChange(o *Order) {
	st := m.st
	b := st.brigade(o.Brigade)
	if b.Order == o.Order {
		m.fail(o, o.Col, fmt.Sprintf("%s is on %s orders already", b.Name, b.Order), "")
	}
	if why := st.orderFaceWhy(b.Name, *o); why != "" {
		m.fail(o, o.Col, why, "")
	}
	drm, why := st.orderChangeDRM(b.Name)
	need, ok := st.Scn.Tables.OrderChange[o.Order]
	var dr int
	var success bool
	if st.Scn.Tables.OrderChange == nil || !ok {
		v := m.rule("change|"+b.Name, fmt.Sprintf("%s tries to change %s's orders to %s (3.3), and the scenario has no order change chart (R6): does it succeed? (DRM %+d%s)", st.Act.Side, b.Name, o.Order, drm, why),
			[]string{"RULE SUCCEEDS", "RULE FAILS"}, "SUCCEEDS")
		success = v == "SUCCEEDS"
		dr, need = -1, -1
	} else {
		dr = m.d10("order change "+b.Name, 9)
		success = dr+drm >= need
	}
	var mods []string
	if drm != 0 {
		mods = []string{fmt.Sprintf("%+d %s (3.3)", drm, strings.TrimPrefix(why, ", "))}
	}
	m.emit(kOrderRolled, aBrigade.Arg(b.Name), aTo.Arg(o.Order), aDr.Arg(int64(dr)), aDrm.Arg(int64(drm)), aNeed.Arg(int64(need)), aOk.Arg(success), aMods.Arg(mods...))
	if success {
		m.orderBrigade(b.Name, o.Order, "Order Change Phase (3.3)", false, faceOf(*o))
	}
}

// orderChangeDRM is B21's DRM for a brigade's order change.
func (s *State) orderChangeDRM(brigade string) (int, string) {
	bd := s.Scn.brigadeDef(brigade)
	dl := s.leader(s.Scn.divisionDef(bd.Division).Leader)
	cl := s.leader(s.Scn.corpsDef(s.Scn.divisionDef(bd.Division).Corps).Leader)
	oc := s.leader(s.Scn.Armies[s.Scn.sideOfBrigade(brigade)])
	var hexes []hex.Hex
	if s.Scn.Options.UnitStacked {
		for _, u := range s.unitsOf(brigade) {
			if u.onMap() {
				hexes = append(hexes, u.Hex)
			}
		}
	} else if bl := s.leader(bd.Leader); bl != nil && bl.onMap() {
		hexes = append(hexes, bl.Hex)
	}
	with := func(l *Leader) bool { return l != nil && l.onMap() && slices.Contains(hexes, l.Hex) }
	switch {
	case with(cl) || with(oc):
		return 2, ", stacked with the corps leader or army commander"
	case with(dl):
		return 1, ", stacked with the division leader"
	}
	return 0, ""
}

// coordinate is the Multi-brigade coordination Phase (3.3): a dr against
// the chart (R7); on success the brigades named act as one, their shocks
// together. A CI division has none (20.3).
func (m *sim) coordinate(o *Order) {
	st := m.st
	div := st.divisionOf(o.Brigades[0])
	for _, b := range o.Brigades {
		if st.divisionOf(b) != div {
			m.fail(o, o.Col, "coordinated brigades are of one division", "")
		}
	}
	if st.division(div).CI {
		m.fail(o, o.Col, div+" is combat ineffective: no multi-brigade coordination (20.3)", "")
	}
	need := st.Scn.Tables.Coordination
	var dr int
	var ok bool
	if need == 0 {
		ok = m.rule("coordinate", fmt.Sprintf("%s tries to coordinate %s (3.3), and the scenario has no coordination chart (R7): does it succeed?", st.Act.Side, joinAnd(o.Brigades)),
			[]string{"RULE SUCCEEDS", "RULE FAILS"}, "SUCCEEDS") == "SUCCEEDS"
		dr, need = -1, -1
	} else {
		dr = m.d10("coordination", 9)
		ok = dr >= need
	}
	m.emit(kCoordinationRolled, aBrigades.Arg(o.Brigades...), aDr.Arg(int64(dr)), aNeed.Arg(int64(need)), aOk.Arg(ok))
}

// shockCheck opens the shocks of a brigade's phase (14.1, 14.2a, 14.3a):
// every unit that must attack has a SHOCK line, and every enemy unit in
// the front of the units attacking is attacked. It holds the orders as
// written (the dry run); what the dice change during the activation is
// not held against them.
func (m *sim) shockCheck(brigades []string) {
	if !m.dry {
		return
	}
	st := m.st
	var combos []Order
	for _, e := range m.text[m.at+1:] {
		o, err := m.entry(st.Act.Side, e)
		if err != nil {
			panic(bug{err})
		}
		if o.Kind == mGroup {
			break
		}
		if o.Kind == aShock {
			combos = append(combos, o)
		}
	}
	attacking := map[string]bool{}
	targets := map[hex.Hex]bool{}
	for _, c := range combos {
		for _, u := range c.Units {
			attacking[u] = true
		}
		for _, h := range c.Targets {
			targets[h] = true
		}
	}
	for _, b := range brigades {
		for _, u := range st.unitsOf(b) {
			if u.onMap() && st.mustAttack(u) && !attacking[u.Name] {
				o := m.lineOf(u.Name)
				m.fail(&o, 1, fmt.Sprintf("%s is on Attack orders, moved this phase, is next to the enemy and did not fire: it must shock (14.2a)", u.Name),
					fmt.Sprintf("%s: SHOCK <the enemy hex in its front> [AND <the other>]", u.Name))
			}
		}
	}
	for _, c := range combos {
		for _, n := range c.Units {
			u := st.unit(n)
			for _, h := range u.Hex.Neighbors() {
				if inFront(u, h) && len(st.enemiesAt(h, u.Side)) > 0 && !targets[h] {
					m.fail(&c, 1, fmt.Sprintf("%s has the enemy at %s in its front: every enemy unit in the front of the attackers must be attacked (14.3a)", n, h),
						fmt.Sprintf("add a SHOCK at %s", h))
				}
			}
		}
	}
}

// mustAttack: infantry or dismounted cavalry on Attack orders that moved
// this phase, is next to the enemy and did not fire (14.2a).
// Only a unit eligible to shock must (14.2: an enemy in an enterable
// hex of its front); an enemy in its flank or rear binds it to nothing.
func (s *State) mustAttack(u *Unit) bool {
	if s.typ(u) != Infantry || u.Order != Attack || !u.Moved || u.Fired || u.Routed || !s.enemyAdjacent(u.Hex, u.Side) {
		return false
	}
	for _, h := range u.Hex.Neighbors() {
		if len(s.enemiesAt(h, u.Side)) > 0 && s.shockWhy(u, h) == "" {
			return true
		}
	}
	return false
}

// lineOf is the program's first order naming a unit.
func (m *sim) lineOf(unit string) Order {
	for _, e := range m.text {
		if o, err := m.entry(m.st.Act.Side, e); err == nil && slices.Contains(o.Units, unit) {
			return o
		}
	}
	return Order{Line: 1, Text: unit}
}
