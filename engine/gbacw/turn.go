package gbacw

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// beginTurn plays a turn's opening: the Initiative Segment (3.1, 4.1),
// reinforcements arriving (3.2.4), the chain of command (3.2.1, 5) and
// the Efficiency Marker draws (3.2.2); then the Command Segment waits for
// both sides' orders.
func (m *sim) beginTurn(n int) {
	m.emit(kTurnBegun, aTurn.Arg(int64(n)))
	m.say("Turn %d begins.", n)
	m.initiative()
	m.arrivals()
	for _, side := range Sides {
		m.traceCommand(side)
	}
	m.drawEfficiency()
	m.emit(kPhaseSet, aPhase.Arg(PhaseCommand))
}

// initiative rolls each side's dr (GBACW 3.1, 4.1): +1 for the side that
// had the initiative last turn (4.1a); + the army commander's Initiative
// Rating if he moved 10 MP or less last turn and a corps leader is within
// his command range (4.1b, B3). The higher has it; on a tie neither.
func (m *sim) initiative() {
	st := m.st
	var dr, drm [2]int
	var mods [2][]string
	for i, side := range Sides {
		dr[i] = m.d10("initiative "+side, 0)
		var ms []mod
		if st.Initiative == side {
			ms = append(ms, mod{1, "initiative last turn (4.1a)"})
		}
		if oc := st.leader(st.Scn.Armies[side]); oc != nil && oc.onMap() {
			moved := st.OCMP[i] <= 2*10
			if st.Scn.Options.OCHexes {
				moved = st.OCHexes[i] <= 10
			}
			if moved && st.corpsInRange(oc) {
				ms = append(ms, mod{st.ldef(oc).Initiative, oc.Name + "'s initiative rating (4.1b)"})
			}
		}
		mods[i], drm[i] = modTexts(ms)
	}
	side := ""
	switch a, b := dr[0]+drm[0], dr[1]+drm[1]; {
	case a > b:
		side = USA
	case b > a:
		side = CSA
	}
	m.emit(kInitiativeRolled, aUsa.Arg(int64(dr[0])), aCsa.Arg(int64(dr[1])),
		aUsaDrm.Arg(int64(drm[0])), aCsaDrm.Arg(int64(drm[1])), aSide.Arg(side), aUsaMods.Arg(mods[0]...), aCsaMods.Arg(mods[1]...))
}

// corpsInRange reports whether a corps leader of the OC's side is within
// his command range (4.1b).
func (s *State) corpsInRange(oc *Leader) bool {
	reach := s.commandReach(oc)
	for _, c := range s.Scn.Corps {
		if l := s.leader(c.Leader); c.Side == oc.Side && l != nil && l.onMap() && reach.Contains(l.Hex) {
			return true
		}
	}
	return false
}

// arrivals places the reinforcements due this turn at their hexes
// (3.2.4): units, then their brigade's leader.
func (m *sim) arrivals() {
	st := m.st
	for _, b := range st.Scn.Brigades {
		if b.Arrives != st.Turn || st.brigade(b.Name).Arrived {
			continue
		}
		for _, u := range st.unitsOf(b.Name) {
			if u.Off {
				m.emit(kUnitArrived, aUnit.Arg(u.Name))
			}
		}
		if l := st.leader(b.Leader); l != nil && l.Off {
			m.emit(kLeaderArrived, aLeader.Arg(l.Name))
		}
		m.emit(kBrigadeArrived, aBrigade.Arg(b.Name))
		m.say("%s arrives (3.2.4): its order is %s until the Reinforcement Orders change it.", b.Name, st.brigade(b.Name).Order)
	}
}

// drawEfficiency draws each corps' Efficiency Marker (3.2.2): the chart's
// row of the corps' rating gives each of its divisions its activation
// markers; a division whose leader is out of command has one fewer
// (5.5); a CI division at most 2 (20.3). Each side's March AM activates
// its March columns a number of times from the chart's march row (10.1,
// B5). Without the chart the referee rules them.
func (m *sim) drawEfficiency() {
	st := m.st
	tab := st.Scn.Tables
	for _, c := range st.Scn.Corps {
		var dr int
		ruled := tab.Efficiency == nil
		if !ruled {
			dr = m.d10("efficiency "+c.Name, 9)
		}
		for _, d := range st.Scn.Divisions {
			if d.Corps != c.Name {
				continue
			}
			if ruled {
				m.emit(kDivisionAms, aDivision.Arg(d.Name), aN.Arg(-1), aDr.Arg(-1), aWhy.Arg("the referee rules it"))
				continue
			}
			n := tab.Efficiency[c.Rating][dr]
			var why []string
			if dv := st.division(d.Name); dv.OOC {
				n = max(0, n-1)
				why = append(why, "its leader is out of command: one fewer (5.5)")
			}
			if st.division(d.Name).CI && n > 2 {
				n = 2
				why = append(why, "combat ineffective: 2 at most (20.3)")
			}
			m.emit(kDivisionAms, aDivision.Arg(d.Name), aN.Arg(int64(n)), aDr.Arg(int64(dr)), aWhy.Arg(strings.Join(why, "; ")))
		}
	}
	for _, side := range Sides {
		switch {
		case st.Scn.Options.MarchFixed > 0:
			m.emit(kMarchAms, aSide.Arg(side), aN.Arg(int64(st.Scn.Options.MarchFixed)), aDr.Arg(-1))
		case tab.MarchAMs == nil:
			m.emit(kMarchAms, aSide.Arg(side), aN.Arg(-1), aDr.Arg(-1))
		default:
			dr := m.d10("march AMs "+side, 9)
			m.emit(kMarchAms, aSide.Arg(side), aN.Arg(int64(tab.MarchAMs[dr])), aDr.Arg(int64(dr)))
		}
	}
	if st := m.st; st.amsPending() {
		m.emit(kRulingAsked, aKey.Arg("ams"), aWhat.Arg("the scenario has no efficiency chart (R5): rule each division's activation markers and each side's March AM activations for this turn (3.2.2, 10.1)"),
			aExamples.Arg(st.amsExamples()...))
	}
}

// amsPending reports whether an AM count waits for the referee.
func (s *State) amsPending() bool {
	for _, d := range s.Divisions {
		if d.AMs < 0 {
			return true
		}
	}
	return s.MarchAMs[0] < 0 || s.MarchAMs[1] < 0
}

func (s *State) amsExamples() []string {
	var lines []string
	for _, d := range s.Divisions {
		if d.AMs < 0 {
			lines = append(lines, "RULE "+d.Name+" 2")
		}
	}
	for i, side := range Sides {
		if s.MarchAMs[i] < 0 {
			lines = append(lines, "RULE MARCH "+side+" 1")
		}
	}
	return []string{strings.Join(lines, "\n")}
}

// --- the Command Segment (3.2) ---

// commandOrders takes a side's Command Segment mail (sealed: both sides
// write at once): Division Orders (3.2.3), Reinforcement Orders (3.2.4),
// Reserve designation (3.2.5), and the initiative side's first AM (4.2).
func (m *sim) commandOrders(side string, os []Order) []events.Problem {
	st := m.st
	if slices.Contains(st.Done, side) {
		return one(os[0], "you have sent your Command Segment orders this turn", "")
	}
	for _, o := range os {
		switch o.Kind {
		case oDone, oPass:
		case oOrder:
			if p := m.divisionOrder(side, o); p != nil {
				return []events.Problem{*p}
			}
		case oFirst:
			if p := m.firstAM(side, o); p != nil {
				return []events.Problem{*p}
			}
		default:
			return one(o, "in the Command Segment you send ORDER <brigade> <order> lines, FIRST <division> (if you have the initiative) and DONE",
				"ORDER <brigade> ATTACK | ADVANCE | MARCH | RESERVE")
		}
	}
	m.emit(kSideDone, aSide.Arg(side))
	m.say("%s's Command Segment orders are given.", side)
	m.maybeStartActivations()
	return nil
}

// divisionOrder gives a brigade an order in the Command Segment (3.2.3,
// B2: no dr; the division leader must be in command to give it and the
// brigade leader to receive it, 5.5; option b2-corps-orders: the corps
// leader orders the brigade himself). An arriving brigade takes its
// Reinforcement Order whatever its command (3.2.4). Units out of command
// keep their last order (5.5).
func (m *sim) divisionOrder(side string, o Order) *events.Problem {
	st := m.st
	b := st.brigade(o.Brigade)
	bd := st.Scn.brigadeDef(o.Brigade)
	prob := func(msg string) *events.Problem { p := problemAt(o, o.Col, msg, ""); return &p }
	if st.Scn.sideOfBrigade(b.Name) != side {
		return prob(b.Name + " is not yours")
	}
	if !b.Arrived {
		return prob(fmt.Sprintf("%s arrives on turn %d", b.Name, bd.Arrives))
	}
	how := "Division Orders (3.2.3)"
	arriving := bd.Arrives == st.Turn && bd.Arrives > 1
	if arriving {
		how = "Reinforcement Orders (3.2.4)"
	} else {
		if dl := st.leader(st.Scn.divisionDef(bd.Division).Leader); !st.Scn.Options.CorpsOrders && (dl == nil || !dl.onMap() || dl.OOC) {
			return prob(fmt.Sprintf("%s's division leader is out of command: he cannot give orders this turn (5.5)", b.Name))
		}
		if bl := st.leader(bd.Leader); bl == nil || !bl.onMap() || bl.OOC {
			return prob(fmt.Sprintf("%s's leader is out of command: the brigade cannot receive orders this turn (5.5)", b.Name))
		}
	}
	if o.Order == Reserve {
		how = "Reserve designation (3.2.5)"
		for _, u := range st.unitsOf(b.Name) {
			if u.onMap() && st.enemyAdjacent(u.Hex, side) {
				return prob(fmt.Sprintf("%s is next to the enemy: a brigade in contact cannot go into reserve", u.Name))
			}
		}
	}
	if why := st.orderFaceWhy(b.Name, o); why != "" {
		return prob(why)
	}
	m.orderBrigade(b.Name, o.Order, how, arriving, faceOf(o))
	return nil
}

// faceOf is the facing an order line gives (FACE), or -1.
func faceOf(o Order) int {
	if !o.HasFace {
		return -1
	}
	return o.Face
}

// orderFaceWhy says why an order line's FACE cannot be taken, or "": it
// is the player's choice of the free turn going to or from March (7.3),
// a side for a column, a vertex for a line.
func (s *State) orderFaceWhy(brigade string, o Order) string {
	if !o.HasFace {
		return ""
	}
	b := s.brigade(brigade)
	switch {
	case (b.Order == March) == (o.Order == March):
		return "FACE goes with an order to or from March (7.3): other orders keep the units' facings"
	case o.Order == March && o.Face < faceSide:
		return "a March column faces a side (10.2): FACE N, NE, SE, S, SW or NW"
	case o.Order != March && o.Face >= faceSide:
		return "a unit out of March faces a vertex (7.1): FACE NNE, E, SSE, SSW, W or NNW"
	}
	return ""
}

// orderBrigade gives a brigade a new order: every unit in command takes
// it (an out-of-command unit keeps its last, 5.5, except an arriving
// brigade's); a unit changing to or from March orders turns to face a
// side or a vertex at once, free (7.3): the one face names (the player's
// choice), or with face -1 the side anticlockwise of its vertex, the
// vertex clockwise of its side.
func (m *sim) orderBrigade(brigade, ord, how string, all bool, face int) {
	st := m.st
	var units []string
	var facings []int64
	for _, u := range st.unitsOf(brigade) {
		if u.Removed || (u.OOC && !all) {
			continue
		}
		f := u.Facing
		switch {
		case ord == March && u.Order != March && face >= faceSide:
			f = face - faceSide
		case ord != March && u.Order == March && face >= 0 && face < faceSide:
			f = face
		case ord == March && u.Order != March:
			f = int(hex.Vertex(u.Facing)) // the vertex's anticlockwise side
		case ord != March && u.Order == March:
			f = u.Facing // the vertex clockwise of the side
		}
		units = append(units, u.Name)
		facings = append(facings, int64(f))
	}
	m.emit(kBrigadeOrdered, aBrigade.Arg(brigade), aOrder.Arg(ord), aUnits.Arg(units...), aFacings.Arg(facings...), aHow.Arg(how))
}

// firstAM records the initiative side's chosen first AM (3.3.1, 4.2): a
// division's, or the March AM. On a tie no one picks (B4; option
// b4-tie-previous: last turn's initiative side still picks).
func (m *sim) firstAM(side string, o Order) *events.Problem {
	st := m.st
	picker := st.Initiative
	if picker == "" && st.Scn.Options.TiePrevious {
		picker = st.Previous
	}
	prob := func(msg string) *events.Problem { p := problemAt(o, o.Col, msg, ""); return &p }
	if picker != side {
		if st.Initiative == "" {
			return prob("the initiative dice tied: no one picks the first AM, all are drawn from the pool (3.1, 4.2, B4)")
		}
		return prob(st.Initiative + " has the initiative: only it picks the first AM (4.2)")
	}
	if o.AM != "March" && st.Scn.sideOfDivision(o.AM) != side {
		return prob(o.AM + " is not yours")
	}
	if o.AM != "March" && st.division(o.AM).AMs == 0 {
		return prob(o.AM + " has no activation marker this turn")
	}
	m.emit(kAmFirst, aSide.Arg(side), aAm.Arg(side+"|"+o.AM))
	return nil
}

// maybeStartActivations begins the Activation Segment once both sides have
// given their Command Segment orders and every AM count is known: the AMs
// go into the pool (3.3.2), the initiative side's choice first.
func (m *sim) maybeStartActivations() {
	st := m.st
	if len(st.Done) < 2 || st.amsPending() {
		return
	}
	var pool []string
	for _, d := range st.Scn.Divisions {
		side := st.Scn.sideOfDivision(d.Name)
		for range st.division(d.Name).AMs {
			pool = append(pool, side+"|"+d.Name)
		}
	}
	// One March AM for a side, activating its columns 1-4 times in a
	// row (10.1, B5).
	for i, side := range Sides {
		if st.MarchAMs[i] > 0 {
			pool = append(pool, side+"|March")
		}
	}
	sort.Strings(pool)
	if len(st.First) > 0 {
		if i := slices.Index(pool, st.First[0]); i >= 0 {
			pool = slices.Delete(pool, i, i+1)
		}
	}
	m.emit(kPhaseSet, aPhase.Arg(PhaseActivation))
	m.emit(kPoolFilled, aAms.Arg(pool...))
	m.nextAM()
}

// nextAM activates the next AM: the initiative side's choice, else one
// drawn blind from the pool with the game's dice (3.3: random and
// verifiable, and everyone sees the draw). An AM whose brigades cannot
// act is spent at once.
func (m *sim) nextAM() {
	for {
		st := m.st
		var am string
		dr := -1
		switch {
		case st.Again != "":
			am, dr = st.Again, 0
		case len(st.First) > 0:
			am = st.First[0]
		case len(st.Pool) == 0:
			m.emit(kPhaseSet, aPhase.Arg(PhaseCommanders))
			m.say("The Activation Segment is over: each side moves its army and corps commanders (3.4.1).")
			return
		default:
			dr = m.roll("AM draw", len(st.Pool))
			am = st.Pool[dr-1]
		}
		side, what, _ := strings.Cut(am, "|")
		acting, skipping := st.actingFor(side, what)
		m.emit(kAmDrawn, aAm.Arg(am), aDr.Arg(int64(dr)), aActing.Arg(acting...), aSkipping.Arg(skipping...))
		if len(acting) == 0 {
			m.emit(kAmEnded, aAm.Arg(am))
			m.say("%s's %s AM activates no one.", side, what)
			continue
		}
		m.say("%s's %s AM is activated.", side, what)
		return
	}
}

// actingFor lists who acts on an AM: for a division's, its brigades not
// on March orders or in reserve, and not skipping this activation (5.5)
// or past their two activations if CI (20.2); for a March AM the
// brigades of the side's March columns (10.1). skipping lists the
// brigades and units that skip this one (5.5).
func (s *State) actingFor(side, what string) (acting, skipping []string) {
	if what == "March" {
		for _, b := range s.Scn.Brigades {
			for _, u := range s.unitsOf(b.Name) {
				if u.onMap() && u.Side == side && u.Order == March && !slices.Contains(acting, b.Name) {
					acting = append(acting, b.Name)
				}
			}
		}
		return acting, nil
	}
	for _, bn := range s.brigadesOf(what) {
		b := s.brigade(bn)
		if !b.Arrived || b.Order == Reserve || b.Order == March {
			continue
		}
		switch {
		case b.Skip > 0:
			// Its units out of command skip this one with it.
			skipping = append(skipping, bn)
			for _, u := range s.unitsOf(bn) {
				if u.onMap() && u.Skip > 0 {
					skipping = append(skipping, u.Name)
				}
			}
			continue
		case b.CI && b.Acts >= 2:
			continue
		}
		live := false
		for _, u := range s.unitsOf(bn) {
			if !u.onMap() || u.Order == March {
				continue
			}
			if u.Skip > 0 {
				skipping = append(skipping, u.Name)
				continue
			}
			live = true
		}
		if live {
			acting = append(acting, bn)
		}
	}
	return acting, skipping
}

// --- the End of Turn Segment (3.4) ---

// commanders takes a side's Commander Movement mail (3.4.1): its army
// commander and corps leaders move (MA 40, 17.2), and it may release
// brigades from reserve (3.4.2).
func (m *sim) commanders(side string, os []Order) []events.Problem {
	st := m.st
	for _, o := range os {
		switch {
		case o.Kind == oDone || o.Kind == oPass:
		case o.Kind == oRelease:
			b := st.brigade(o.Brigade)
			if st.Scn.sideOfBrigade(b.Name) != side {
				return one(o, b.Name+" is not yours", "")
			}
			if b.Order != Reserve {
				return one(o, b.Name+" is not in reserve", "")
			}
			if o.Order == Reserve {
				return one(o, "RELEASE gives the brigade a new order", "RELEASE "+b.Name+" ADVANCE")
			}
			m.emit(kReleaseOrdered, aBrigade.Arg(b.Name), aOrder.Arg(o.Order))
			m.say("%s will be released on %s orders in the Replacement / Recovery Phase (3.4.2).", b.Name, o.Order)
		case o.Kind == aMove && o.Leader:
			l := st.leader(o.Unit)
			if rank, _ := st.command(l); rank != "army" && rank != "corps" {
				return one(o, l.Name+" is not an army or corps commander: he moves with his brigades' activations (17.1)", "")
			}
			if p := m.leaderMarch(&o, l, 2*40); p != nil {
				return []events.Problem{*p}
			}
		default:
			return one(o, "in the Commander Movement Phase you move your army and corps commanders, release reserves, or send DONE",
				"<corps leader>: MOVE <hex> ... | RELEASE <brigade> ADVANCE | DONE")
		}
	}
	m.emit(kSideDone, aSide.Arg(side))
	m.say("%s's commanders have moved.", side)
	if len(m.st.Done) == 2 {
		m.endTurn()
	}
	return nil
}

// endTurn plays the Replacement / Recovery Phase (3.4.2), the Combat
// Effectiveness Phase (3.4.3) and the Turn Record Phase (3.5).
func (m *sim) endTurn() {
	st := m.st
	// Leader replacement (17.7): a killed leader comes back reverse side
	// up on a unit under his command.
	for i := range st.Leaders {
		l := &m.st.Leaders[i]
		if !l.Killed || l.Replaced {
			continue
		}
		for j := range m.st.Units {
			u := m.st.Units[j]
			if u.onMap() && m.st.underCommand(l, u) {
				m.emit(kLeaderReplaced, aLeader.Arg(l.Name), aHex.Arg(hexInt(u.Hex)))
				break
			}
		}
	}
	// Reserves recover from rout and fatigue (3.4.2).
	for i := range m.st.Units {
		u := m.st.Units[i]
		if !u.onMap() || m.st.brigade(u.Brigade).Order != Reserve {
			continue
		}
		if u.Routed {
			m.emit(kUnitRallied, aUnit.Arg(u.Name), aWhy.Arg("in reserve (3.4.2)"))
		}
		if u.Fatigue > 0 {
			m.emit(kUnitFatigue, aUnit.Arg(u.Name), aFatigue.Arg(int64(u.Fatigue-1)), aWhy.Arg("in reserve (3.4.2)"))
		}
	}
	// Release of reserves (3.4.2), after their recovery.
	for _, r := range m.st.Releases {
		b, ord, _ := strings.Cut(r, "=")
		if m.st.brigade(b).Order == Reserve {
			m.orderBrigade(b, ord, "release of reserves (3.4.2)", false, -1)
		}
	}
	// 19.6: every unit in command that did not move, fire in its phase or
	// shock this turn recovers and its fatigue drops one (B11: both;
	// option b11-either: recovery, else fatigue).
	for i := range m.st.Units {
		u := m.st.Units[i]
		if !u.onMap() || u.OOC || u.Turn != 0 {
			continue
		}
		rec := u.Disordered && !u.Routed
		if rec {
			m.emit(kUnitRecovered, aUnit.Arg(u.Name), aWhy.Arg("end-of-turn recovery (19.6)"))
		}
		if u.Fatigue > 0 && (!rec || !m.st.Scn.Options.EitherRecovery) {
			m.emit(kUnitFatigue, aUnit.Arg(u.Name), aFatigue.Arg(int64(u.Fatigue-1)), aWhy.Arg("end-of-turn recovery (19.6)"))
		}
	}
	m.construction()
	m.combatEffectiveness()
	if m.st.Turn >= m.st.Scn.Turns {
		m.gameOver()
		return
	}
	m.beginTurn(m.st.Turn + 1)
}

// construction completes the works of units that built this turn (R13).
func (m *sim) construction() {
	for i := range m.st.Units {
		u := m.st.Units[i]
		if !u.onMap() || !u.Build {
			continue
		}
		w := m.st.Scn.Tables.Construction["breastworks"]
		m.emit(kUnitWorks, aUnit.Arg(u.Name), aWorks.Arg(int64(u.Works+1)))
		if u.Works+1 >= w.Turns && !slices.Contains(m.st.Works, u.Hex) {
			m.emit(kWorksBuilt, aHex.Arg(hexInt(u.Hex)))
		}
	}
}

// combatEffectiveness marks brigades and divisions Combat Ineffective
// (20.2, 20.3).
func (m *sim) combatEffectiveness() {
	st := m.st
	for _, b := range st.Brigades {
		ci := st.brigadeCI(b.Name)
		if ci != b.CI {
			m.emit(kBrigadeCi, aBrigade.Arg(b.Name), aCi.Arg(ci))
		}
	}
	for _, d := range m.st.Divisions {
		bs := m.st.brigadesOf(d.Name)
		n := 0
		for _, b := range bs {
			if m.st.brigade(b).CI {
				n++
			}
		}
		ci := 2*n > len(bs)
		if ci != d.CI {
			m.emit(kDivisionCi, aDivision.Arg(d.Name), aCi.Arg(ci))
		}
	}
}

// brigadeCI: all its regiments removed, collapsed, disordered or routed,
// or more than half removed, collapsed or routed (20.2). Artillery is no
// regiment.
func (s *State) brigadeCI(b string) bool {
	if !s.brigade(b).Arrived {
		return false
	}
	var regs, bad, worse int
	for _, u := range s.unitsOf(b) {
		if s.def(u).Type == Artillery || s.def(u).Type == HorseArt {
			continue
		}
		regs++
		if u.Removed || s.collapsed(u) || u.Routed {
			worse++
			bad++
		} else if u.Disordered {
			bad++
		}
	}
	return regs > 0 && (bad == regs || 2*worse > regs)
}

// gameOver scores the scenario's victory conditions (R18), or hands the
// result to the referee if it has none.
func (m *sim) gameOver() {
	st := m.st
	if !st.Scn.Victory {
		m.emit(kPhaseSet, aPhase.Arg(PhaseVerdict))
		m.say("The last turn is over; the scenario sets no victory conditions: the referee declares the result.")
		return
	}
	vp := []int{0, 0}
	var why []string
	for i, o := range st.Scn.Objectives {
		holder := st.Held[i]
		vp[st.sideIndex(holder)] += o.VP
		why = append(why, fmt.Sprintf("%s holds %s (%d)", holder, placeName(st, o.Hex), o.VP))
	}
	vp[0] += st.Lost[1] * st.Scn.LossVP
	vp[1] += st.Lost[0] * st.Scn.LossVP
	why = append(why, fmt.Sprintf("losses: USA lost %d SP, CSA %d SP", st.Lost[0], st.Lost[1]))
	winner, res := "", "a draw"
	switch {
	case vp[0] > vp[1]:
		winner, res = USA, "USA wins"
	case vp[1] > vp[0]:
		winner, res = CSA, "CSA wins"
	}
	result := fmt.Sprintf("victory points USA %d, CSA %d (%s): %s", vp[0], vp[1], strings.Join(why, "; "), res)
	m.emit(kGameOver, aWinner.Arg(winner), aResult.Arg(result), aVp.Arg(int64(vp[0]), int64(vp[1])))
	m.say("The game is over: %s.", result)
}

// PhaseVerdict waits for the referee to declare the result.
const PhaseVerdict = "verdict"

func placeName(st *State, h hex.Hex) string {
	for _, p := range st.Scn.Places {
		if p.Hex == h {
			return p.Name + " (" + h.String() + ")"
		}
	}
	return h.String()
}

func hexInt(h hex.Hex) int64 { return int64(h.Col*100 + h.Row) }

func intHex(n int64) hex.Hex { return hex.At(int(n/100), int(n%100)) }
