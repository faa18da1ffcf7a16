package hra

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// sim is a decision in the making: the kit's engine.Sim (each fact
// applied as it is made, so every step sees the state the facts before it
// made) with HRA's own steps as methods.
type sim struct{ *engine.Sim[*State] }

// roll throws a d6, the only die HRA uses (HRA 1c).
func (m *sim) roll(purpose string) int { return m.Dice.Roll(purpose, 6) }

func problem(o Order, msg, hint string) events.Problem {
	return events.Problem{Line: o.Line, Col: max(o.Col, 1), Text: o.Text, Msg: msg, Hint: hint}
}

// problemAt is a problem with the caret under column col of the line.
func problemAt(o Order, col int, msg, hint string) events.Problem {
	p := problem(o, msg, hint)
	if col > 0 {
		p.Col = col
	}
	return p
}

func decide(st *State, side string, os []Order, dice engine.Dice) (engine.Decision, error) {
	d, err := engine.Decide(st, dice, evolve, func(s *engine.Sim[*State]) []events.Problem {
		m := &sim{s}
		var probs []events.Problem
		switch {
		case side == engine.RefereeSide:
			probs = m.referee(os)
		case side != Union && side != Confederate:
			probs = []events.Problem{problem(os[0], fmt.Sprintf("side %q plays no part in HRA", side), "")}
		default:
			probs = m.player(side, os)
		}
		for i := range probs {
			if probs[i].Hint == "" {
				probs[i].Hint = "HELP shows what you may send now"
			}
		}
		return probs
	})
	if err != nil {
		return engine.Decision{}, fmt.Errorf("hra: %w", err)
	}
	return d, nil
}

func (m *sim) player(side string, os []Order) []events.Problem {
	st := m.State
	switch st.Phase {
	case PhaseOver:
		return []events.Problem{problem(os[0], "the game is over: "+st.Result, "")}
	case PhaseStart:
		if len(os) != 1 || os[0].Kind != oBegin {
			return []events.Problem{problem(os[0], "the game has not begun: send BEGIN to roll the generals' status and the supply (HRA 3c, 3e)", "BEGIN")}
		}
		m.begin()
		return nil
	}
	// RETREAT ORDER may come in any mail of Phase II or III, from either
	// side; it stands until restated (HRA 4.I.b, doc.go).
	var rest []Order
	for _, o := range os {
		switch o.Kind {
		case oRetreatOrder:
			if p := m.statePicks(side, "retreat", o); p != nil {
				return []events.Problem{*p}
			}
		case oGenerals:
			if st.Phase != PhaseGenerals {
				return []events.Problem{problem(o, "the generals were assigned to their brigades at the start (HRA 3c); in Phase II a general moves with <brigade>: GENERAL TO <unit> (HRA 4.II.f)", "")}
			}
			rest = append(rest, o)
		case oPick:
			if st.Phase != PhaseFire {
				return []events.Problem{problem(o, "PICK comes with your volleys in Phase III: it names, by one of your units in each, the confrontations you pick first (HRA 4.III.c)",
					"for Phase I's forced moves: RETREAT ORDER <unit>, <unit>, ...")}
			}
			rest = append(rest, o)
		default:
			rest = append(rest, o)
		}
	}
	if len(rest) == 0 {
		return nil
	}
	os = rest
	switch st.Phase {
	case PhaseGenerals:
		return m.assignGenerals(side, os)
	case PhaseOrders:
		if st.ToAct != side {
			return []events.Problem{problem(os[0], fmt.Sprintf("it is %s's turn to give orders (HRA 4.II.a)", st.ToAct), "wait for your turn")}
		}
		return m.brigadeOrders(side, os)
	case PhaseFire:
		if slices.Contains(st.Declared, side) {
			return []events.Problem{problem(os[0], "you have declared your volleys this round; waiting for the other side (H23)", "")}
		}
		return m.declare(side, os)
	}
	return []events.Problem{problem(os[0], "nothing to do now", "")}
}

// statePicks records a side's priority list (what: "fire" or "retreat").
// Each unit must be the side's and on the table; a PICK unit must also be
// in one of the side's confrontations: firing this round (firers) or in
// melee.
func (m *sim) statePicks(side, what string, o Order, firers ...string) *events.Problem {
	st := m.State
	var own []string
	for _, u := range st.Units {
		if u.Side == side && !u.Removed() && (what == "retreat" || slices.Contains(firers, u.Name) || st.inMelee(u.Name)) {
			own = append(own, u.Name)
		}
	}
	for i, n := range o.Units {
		if slices.Contains(own, n) {
			continue
		}
		u := st.unit(n)
		var msg string
		switch {
		case u.Side != side:
			msg = fmt.Sprintf("%s is not yours: name your own units", n)
		case u.Removed():
			msg = fmt.Sprintf("%s has left the battlefield", n)
		default:
			msg = fmt.Sprintf("%s fires no volley in this mail and is in no melee: it is in none of your confrontations (HRA 4.III.c)", n)
		}
		best, bd := "", 1<<30
		for _, c := range own {
			if d := editDistance(normName(n), normName(c)); d < bd {
				best, bd = c, d
			}
		}
		hint := "you have no unit to name here"
		if best != "" {
			hint = fmt.Sprintf("did you mean %q? you may name %s", best, strings.Join(own, ", "))
		}
		p := events.Problem{Line: o.Line, Col: o.Col, Text: o.Text, Msg: msg, Hint: hint}
		if i < len(o.Cols) {
			p.Col = o.Cols[i]
		}
		return &p
	}
	m.Emit(kPicksStated, aSide.Arg(side), aWhat.Arg(what), aUnits.Arg(o.Units...))
	if what == "retreat" {
		if len(o.Units) == 0 {
			m.Say("%s: no retreat order; forced moves go in roster order (HRA 4.I.b)", side)
		} else {
			m.Say("%s: forced moves in this order, then the roster's: %s (HRA 4.I.b)", side, strings.Join(o.Units, ", "))
		}
	}
	return nil
}

// begin makes the opening rolls: the status of each side's generals (HRA
// 3c: d6, -1 for the Union, minimum 1), which the players then assign to
// their brigades, and each unit's supply (HRA 3e: d6, +2 artillery, -1
// Confederate, minimum 1).
func (m *sim) begin() {
	m.Emit(kBattleBegun)
	for _, side := range Sides {
		var dice, statuses []int64
		for _, b := range m.State.Brigades {
			if b.Side != side {
				continue
			}
			d := m.roll(fmt.Sprintf("general status %s %d", side, len(dice)+1))
			v := d
			if side == Union {
				v--
			}
			dice, statuses = append(dice, int64(d)), append(statuses, int64(max(v, 1)))
		}
		if len(dice) == 0 {
			continue
		}
		m.Emit(kGeneralsRolled, aSide.Arg(side), aDice.Arg(dice...), aStatuses.Arg(statuses...))
		m.Say("%s's generals: d6 %s → status %s (HRA 3c)", side, joinInts(dice), joinInts(statuses))
	}
	for _, u := range m.State.Units {
		d := m.roll("supply " + u.Name)
		v := d
		if u.Arm == Artillery {
			v += 2
		}
		if u.Side == Confederate {
			v--
		}
		v = max(v, 1)
		m.Emit(kSupplyRolled, aUnit.Arg(u.Name), aDie.Arg(int64(d)), aSupply.Arg(int64(v)))
		m.Say("%s: supply d6=%d → %d (HRA 3e)", u.Name, d, v)
	}
	// A side whose generals are all alike (or who has one brigade) has no
	// choice to make: they are assigned at once.
	for _, side := range Sides {
		pool := m.State.Generals[side]
		if len(pool) == 0 || slices.ContainsFunc(pool, func(v int) bool { return v != pool[0] }) {
			if len(pool) > 0 {
				m.Say("%s assigns the generals to its brigades: GENERALS <brigade>, <brigade>, ... (the best first) (HRA 3c)", side)
			}
			continue
		}
		for _, b := range m.State.Brigades {
			if b.Side == side {
				m.Emit(kGeneralAssigned, aBrigade.Arg(b.Name), aStatus.Arg(int64(pool[0])))
			}
		}
		m.Say("%s's generals are alike: each brigade's has status %d (HRA 3c)", side, pool[0])
	}
	m.generalsDone()
}

// generalsDone begins round 1 once every side has assigned its generals.
func (m *sim) generalsDone() {
	if len(m.State.Generals) == 0 {
		m.beginRound(1)
	}
}

// assignGenerals gives the side's rolled statuses to its brigades (HRA
// 3c), as its GENERALS line says: each brigade once, with the statuses
// rolled, or in order of preference, the best general first.
func (m *sim) assignGenerals(side string, os []Order) []events.Problem {
	st := m.State
	pool := slices.Clone(st.Generals[side])
	if len(pool) == 0 {
		return []events.Problem{problem(os[0], fmt.Sprintf("%s's generals are assigned; waiting for %s's (HRA 3c)", side, opponent(side)), "")}
	}
	var mine []string
	for _, b := range st.Brigades {
		if b.Side == side {
			mine = append(mine, b.Name)
		}
	}
	example := "GENERALS " + strings.Join(mine, ", ")
	if len(os) != 1 || os[0].Kind != oGenerals {
		return []events.Problem{problem(os[0], fmt.Sprintf("assign your generals (status %s) to your brigades first (HRA 3c)", joinInts(pool)), example)}
	}
	o := os[0]
	for i, b := range o.Units {
		if st.brigade(b).Side != side {
			return []events.Problem{problemAt(o, o.Cols[i], fmt.Sprintf("%s is not yours", b), example)}
		}
	}
	if len(o.Units) != len(mine) {
		var left []string
		for _, b := range mine {
			if !slices.Contains(o.Units, b) {
				left = append(left, b)
			}
		}
		return []events.Problem{problem(o, fmt.Sprintf("every brigade gets a general: %s %s missing (HRA 3c)", strings.Join(left, ", "), map[bool]string{true: "is", false: "are"}[len(left) == 1]), example)}
	}
	statuses := slices.Clone(o.Statuses)
	if statuses == nil {
		statuses = slices.Clone(pool)
		slices.SortFunc(statuses, func(a, b int) int { return b - a }) // the best first
	} else {
		a, b := slices.Clone(statuses), slices.Clone(pool)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return []events.Problem{problem(o, fmt.Sprintf("the statuses rolled for your generals are %s; this gives %s (HRA 3c)", joinInts(pool), joinInts(o.Statuses)), example)}
		}
	}
	for i, b := range o.Units {
		m.Emit(kGeneralAssigned, aBrigade.Arg(b), aStatus.Arg(int64(statuses[i])))
		m.Say("%s's general: status %d (HRA 3c)", b, statuses[i])
	}
	m.generalsDone()
	return nil
}

// joinInts writes numbers as "4, 2".
func joinInts[T int | int64](vs []T) string {
	var s []string
	for _, v := range vs {
		s = append(s, fmt.Sprint(v))
	}
	return strings.Join(s, ", ")
}

// maxInitiativeTies bounds round 1's re-rolls (H12). Fair dice tie 100
// times in a row with a chance of 6^-100; dice that do are constant (the
// trial decisions made with fixed dice), and then no side is handed the
// initiative: the referee decides it (SET INITIATIVE).
const maxInitiativeTies = 100

// beginRound: initiative (HRA 4.0), Phase I (HRA 4.I), and the start of
// Phase II.
func (m *sim) beginRound(n int) {
	prev := m.State.Initiative
	m.Emit(kRoundBegun, aRound.Arg(int64(n)))
	m.Say("— round %d —", n)
	for try := 0; ; try++ {
		a, b := m.roll("initiative "+Union), m.roll("initiative "+Confederate)
		side := ""
		switch {
		case a > b:
			side = Union
		case b > a:
			side = Confederate
		case prev == "" && try+1 == maxInitiativeTies:
			m.Emit(kInitiativeRolled, aUnion.Arg(int64(a)), aConfederate.Arg(int64(b)), aSide.Arg(""))
			m.Say("initiative: the dice tied %d times in a row: the referee decides it (SET INITIATIVE Union or Confederate; H12)", maxInitiativeTies)
			return
		case prev == "":
			m.Say("initiative: Union %d, Confederate %d: a tie in the first round, rolled again (H12)", a, b)
			continue
		default:
			side = opponent(prev) // HRA 4.0b
		}
		m.Emit(kInitiativeRolled, aUnion.Arg(int64(a)), aConfederate.Arg(int64(b)), aSide.Arg(side))
		m.Say("initiative: Union %d, Confederate %d: %s acts first (HRA 4.0)", a, b, side)
		break
	}
	m.openRound()
}

// openRound plays Phase I (HRA 4.I) and opens Phase II, once the round's
// initiative is known.
func (m *sim) openRound() {
	m.phaseOne()
	if m.State.Phase == PhaseOver {
		return
	}
	m.startOrders()
}

// phaseOne is HRA 4.I: changes ordered last round complete (4.I.e, 16c,
// 17d), crossings and entrenching go on (T1), units in retreat test
// morale (4.I.a, 5c), then forced moves alternate (4.I.b).
func (m *sim) phaseOne() {
	for _, u := range m.State.Units {
		if u.Removed() {
			continue
		}
		switch u.Pending {
		case "dismount", "mount":
			m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("dismounted"), aTo.Arg(b2i(u.Pending == "dismount")))
			m.Say("%s has %sed (HRA 16c)", u.Name, u.Pending)
		case "limber", "unlimber":
			m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("limbered"), aTo.Arg(b2i(u.Pending == "limber")))
			m.Say("%s has %sed (HRA 17d)", u.Name, u.Pending)
		}
		if u.Pending != "" {
			m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("pending"), aWork.Arg(""))
		}
		if u.Busy > 0 {
			m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("busy"), aTo.Arg(int64(u.Busy-1)), aWork.Arg(u.Work))
			if u.Busy == 1 {
				m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("busy"), aTo.Arg(0), aWork.Arg(""))
				if u.Work == "entrench" {
					m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("entrenched"), aTo.Arg(1))
					m.Say("%s has entrenched (T1)", u.Name)
				}
			}
		}
	}
	// HRA 4.I.a: units in retreat test morale, simultaneously (HRA 14).
	// The forced moves due this round are the results of earlier rounds'
	// tests; a "must withdraw" these tests give is carried out next round
	// (HRA 12e).
	var tests []string
	due := map[string]bool{}
	for _, u := range m.State.Units {
		if !u.Removed() && u.Retreating {
			tests = append(tests, u.Name)
		}
		due[u.Name] = u.RetreatNext || u.WithdrawNext
	}
	m.moraleTests(tests, map[string][]string{}, true)
	// HRA 4.I.b: forced moves, alternating, the initiative side first.
	var queues [2][]string
	for _, u := range m.State.Units {
		if u.Removed() || !(u.Retreating || due[u.Name]) {
			continue
		}
		i := 0
		if u.Side != m.State.Initiative {
			i = 1
		}
		queues[i] = append(queues[i], u.Name)
	}
	sides := [2]string{m.State.Initiative, opponent(m.State.Initiative)}
	for k := 0; len(queues[0])+len(queues[1]) > 0; k++ {
		q := &queues[k%2]
		if len(*q) == 0 {
			continue
		}
		// The side's next pick: the first unit of its RETREAT ORDER still
		// to move, else the roster's first (doc.go).
		at, how := 0, "roster order"
		for _, n := range m.State.RetreatPicks[sides[k%2]] {
			if i := slices.Index(*q, n); i >= 0 {
				at, how = i, "its list"
				break
			}
		}
		name := (*q)[at]
		*q = slices.Delete(*q, at, at+1)
		m.Say("%s picks the forced move of %s (%s, HRA 4.I.b)", sides[k%2], name, how)
		u := m.State.unit(name)
		if u.Removed() {
			continue
		}
		switch {
		case u.RetreatNext || u.Retreating:
			if u.RetreatNext {
				m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("retreat_next"), aTo.Arg(0))
			}
			if u.WithdrawNext {
				m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("withdraw_next"), aTo.Arg(0))
			}
			m.forced(name, true, !u.Retreating)
			if v := m.State.unit(name); !v.Removed() {
				m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("acted"), aTo.Arg(1)) // HRA 4.I.c
			}
		case u.WithdrawNext:
			m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("withdraw_next"), aTo.Arg(0))
			m.forced(name, false, false)
		}
	}
	m.checkEnd()
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// autoHold says why a unit takes no order of its player this Phase II,
// "" if it may take one.
func (s *State) autoHold(u *Unit) string {
	switch {
	case u.Removed():
		return "removed"
	case u.Acted || u.Retreating:
		return "in retreat (HRA 4.I.c)"
	case u.Busy > 0:
		return u.Work
	case u.Pending != "":
		return u.Pending + "ing (HRA 16c, 17d)"
	}
	return ""
}

// freeHold says why a unit holds without an order, the hold not counting
// against the general's status (HRA 4.II.e): it is in melee (and may be
// ordered only to retreat, HRA 11e), or within an enemy's short range (and
// may still be given another order, which counts, as the seed allows the
// units a limber order leaves holding).
func (s *State) freeHold(u *Unit) string {
	switch {
	case s.inMelee(u.Name):
		return "in melee (HRA 11e, 4.II.e)"
	case s.underEnemyShortRange(u):
		return "within an enemy's short range (HRA 4.II.e)"
	}
	return ""
}

// needsOrders: the brigade has not had its orders and has a unit that may
// take one (HRA 4.II.a, H10).
func (s *State) needsOrders(b *Brigade) bool {
	if b.Done {
		return false
	}
	for _, u := range s.brigadeUnits(b.Name) {
		if s.autoHold(u) == "" {
			return true
		}
	}
	return false
}

func (s *State) sideNeedsOrders(side string) bool {
	for i := range s.Brigades {
		if b := &s.Brigades[i]; b.Side == side && s.needsOrders(b) {
			return true
		}
	}
	return false
}

// startOrders opens Phase II with the initiative side (HRA 4.0c).
func (m *sim) startOrders() {
	m.passTurn(m.State.Initiative)
}

// passTurn gives the orders turn to side, or the other side if side has no
// brigade left to order (H10), or ends Phase II.
func (m *sim) passTurn(side string) {
	for _, s := range []string{side, opponent(side)} {
		if m.State.sideNeedsOrders(s) {
			m.Emit(kTurnPassed, aToStr.Arg(s))
			return
		}
	}
	m.endOrders()
}

// endOrders: every brigade has its orders; the units not ordered hold
// (HRA 4.II.e) and Phase III begins.
func (m *sim) endOrders() {
	for _, b := range m.State.Brigades {
		if !b.Done {
			m.Emit(kBrigadeOrdered, aBrigade.Arg(b.Name))
		}
	}
	m.Emit(kPhaseFire)
	m.Say("Phase III: declare volleys (HRA 4.III.a)")
	for _, side := range Sides {
		if len(m.State.legalVolleys(side)) == 0 {
			m.Emit(kVolleysDeclared, aSide.Arg(side), aFirers.Arg(), aTargets.Arg(), aAuto.Arg(true))
			m.Say("%s has no unit that can fire", side)
		}
	}
	if len(m.State.Declared) == 2 {
		m.resolveFire()
	}
}

// legalVolleys lists, for each unit of side that can fire, its possible
// targets, nearest first; and for a defender attacked by several units,
// each of them as the target of its extra volley (HRA 11f).
func (s *State) legalVolleys(side string) []Volley {
	var out []Volley
	for i := range s.Units {
		f := &s.Units[i]
		if f.Side != side || f.Removed() {
			continue
		}
		if as := s.newAttackers(f.Name); len(as) > 1 {
			for _, a := range as {
				out = append(out, Volley{Firer: f.Name, Target: a})
			}
			continue
		}
		type cand struct {
			name string
			d    table.Length
		}
		var cs []cand
		for j := range s.Units {
			t := &s.Units[j]
			if t.Side == side || t.Removed() {
				continue
			}
			if table.Gap(s.footprint(f), s.footprint(t)) > maxRange(weapon(f)) {
				continue
			}
			if _, err := s.canFire(f, t, false, false); err == nil {
				cs = append(cs, cand{t.Name, table.Gap(s.footprint(f), s.footprint(t))})
			}
		}
		slices.SortStableFunc(cs, func(a, b cand) int { return int(a.d - b.d) })
		for _, c := range cs {
			out = append(out, Volley{Firer: f.Name, Target: c.name})
		}
	}
	return out
}

// brigadeOrders decides one brigade's orders (HRA 4.II.d, 4.II.e, 4.II.f).
func (m *sim) brigadeOrders(side string, os []Order) []events.Problem {
	st := m.State
	var probs []events.Problem
	brig := ""
	for _, o := range os {
		if o.Kind != oOrder {
			probs = append(probs, problem(o, "in Phase II send orders to one brigade: <brigade or units>: <order>", "e.g. "+exampleFor(st, side)))
			continue
		}
		if brig == "" {
			brig = o.Brigade
		} else if o.Brigade != brig {
			probs = append(probs, problem(o, fmt.Sprintf("one brigade per turn: this mail already orders %s (HRA 4.II.a)", brig), ""))
		}
	}
	if len(probs) > 0 {
		return probs
	}
	b := st.brigade(brig)
	if b.Side != side {
		return []events.Problem{problem(os[0], fmt.Sprintf("%s is not yours", b.Name), "")}
	}
	if b.Done {
		return []events.Problem{problem(os[0], fmt.Sprintf("%s has had its orders this round (HRA 4.II.a)", b.Name), "order another brigade")}
	}
	// Which unit gets which order; count the orders (HRA 4.II.d).
	got := map[string]int{} // unit -> line index
	count := 0
	limber := false
	for i, o := range os {
		if o.Verb == vGeneral {
			continue
		}
		if o.Verb == vLimber || o.Verb == vUnlimber {
			limber = true
		}
		counted := false
		for k, un := range o.Units {
			u := st.unit(un)
			col := o.Col
			if k < len(o.Cols) {
				col = o.Cols[k]
			}
			if why := st.autoHold(u); why != "" {
				if o.Whole || o.Verb == vHold {
					continue // it holds; no order needed
				}
				probs = append(probs, problemAt(o, col, fmt.Sprintf("%s holds automatically: %s", un, why), "leave it out"))
				continue
			}
			free := st.freeHold(u)
			if free != "" && (o.Whole || o.Verb == vHold) {
				continue // it holds automatically, not counted (HRA 4.II.e)
			}
			if st.inMelee(un) && o.Verb != vRetreat {
				probs = append(probs, problemAt(o, col, fmt.Sprintf("%s is in melee: it holds, or retreats (HRA 11e, 4.II.e)", un), un+": RETREAT, or leave it out"))
				continue
			}
			if j, dup := got[un]; dup {
				probs = append(probs, problemAt(o, col, fmt.Sprintf("%s already has an order on line %d", un, os[j].Line), ""))
				continue
			}
			got[un] = i
			counted = true
		}
		if counted {
			count++
		}
	}
	if len(probs) > 0 {
		return probs
	}
	if lim := st.status(b); count > lim {
		return []events.Problem{problem(os[len(os)-1], fmt.Sprintf("%d orders, but %s's general has status %d: at most %d orders (HRA 4.II.d)", count, b.Name, lim, lim),
			"give one order to the whole brigade or to groups of units")}
	}
	if !limber {
		var missing []string
		for _, u := range st.brigadeUnits(b.Name) {
			if _, ok := got[u.Name]; !ok && st.autoHold(u) == "" && st.freeHold(u) == "" {
				missing = append(missing, u.Name)
			}
		}
		// HRA 4.II.d: the brigade's other units must also receive orders;
		// those a mail leaves out hold, as one more order of the count.
		if len(missing) > 0 && count > 0 {
			if count+1 > st.status(b) {
				return []events.Problem{problem(os[len(os)-1], fmt.Sprintf("the brigade's other units (%s) must have orders too, and holding counts as one more order: %d, over the general's status %d (HRA 4.II.d)",
					strings.Join(missing, ", "), count+1, st.status(b)), "give one order to the whole brigade")}
			}
			m.Say("%s: hold (the units the mail leaves out, one order, HRA 4.II.d)", strings.Join(missing, ", "))
		}
	}
	// Carry the orders out, line by line.
	d := &dicer{roll: m.Dice.Roll}
	for i, o := range os {
		var units []string
		for _, un := range o.Units {
			if got[un] == i {
				if _, ok := got[un]; ok {
					units = append(units, un)
				}
			}
		}
		if o.Verb == vGeneral {
			if st.unit(o.Target).Brigade != b.Name || m.State.unit(o.Target).Removed() {
				return []events.Problem{problem(o, fmt.Sprintf("%s is not a unit of %s on the table", o.Target, b.Name), "")}
			}
			if b.Killed {
				return []events.Problem{problem(o, fmt.Sprintf("%s's general was killed (R9)", b.Name), "")}
			}
			m.Emit(kGeneralMoved, aBrigade.Arg(b.Name), aUnit.Arg(o.Target))
			m.Say("%s's general joins %s (HRA 4.II.f)", b.Name, o.Target)
			continue
		}
		if err := m.carryOut(o, units, d); err != nil {
			col, hint := errCol(err)
			if col == 0 {
				col = o.VerbCol
			}
			return []events.Problem{problemAt(o, col, err.Error(), hint)}
		}
	}
	for _, u := range m.State.brigadeUnits(b.Name) {
		if !u.Ordered {
			m.Emit(kUnitOrdered, aUnit.Arg(u.Name), aOrder.Arg("hold (automatic)"))
		}
	}
	m.Emit(kBrigadeOrdered, aBrigade.Arg(b.Name))
	m.passTurn(opponent(side))
	return nil
}

// carryOut executes one order line for the units it orders.
func (m *sim) carryOut(o Order, units []string, d *dicer) error {
	line := strings.TrimSpace(o.Text)
	if _, rest, ok := strings.Cut(line, ":"); ok {
		line = strings.TrimSpace(rest)
	}
	for _, un := range units {
		u := m.State.unit(un)
		switch o.Verb {
		case vHold:
			m.Emit(kUnitOrdered, aUnit.Arg(un), aOrder.Arg("hold"))
			m.Say("%s holds", un)
		case vMount, vDismount:
			if u.Arm != Cavalry {
				return fmt.Errorf("%s is not cavalry: only cavalry mounts and dismounts (HRA 4.II.c, 16c)", un)
			}
			if u.Dismounted != (o.Verb == vMount) {
				return fmt.Errorf("%s is already %sed", un, map[string]string{vMount: "mount", vDismount: "dismount"}[o.Verb])
			}
			m.Emit(kUnitSet, aUnit.Arg(un), aField.Arg("pending"), aWork.Arg(o.Verb))
			m.Emit(kUnitOrdered, aUnit.Arg(un), aOrder.Arg(o.Verb))
			m.Say("%s %ss: it takes the round, done in Phase I of the next (HRA 16c)", un, o.Verb)
		case vLimber, vUnlimber:
			if u.Arm != Artillery {
				return fmt.Errorf("%s is not a battery (HRA 4.II.c, 17)", un)
			}
			if u.Limbered == (o.Verb == vLimber) {
				return fmt.Errorf("%s is already %sed", un, o.Verb)
			}
			m.Emit(kUnitSet, aUnit.Arg(un), aField.Arg("pending"), aWork.Arg(o.Verb))
			m.Emit(kUnitOrdered, aUnit.Arg(un), aOrder.Arg(o.Verb))
			m.Say("%s %ss: it takes the round, done in Phase I of the next (HRA 17d)", un, o.Verb)
		case vEntrench:
			if u.Arm != Infantry {
				return fmt.Errorf("only infantry entrenches (T1)")
			}
			if u.Entrenched {
				return fmt.Errorf("%s is entrenched already", un)
			}
			a, b, c := m.roll("entrench "+un), m.roll("entrench "+un), m.roll("entrench "+un)
			m.Emit(kUnitSet, aUnit.Arg(un), aField.Arg("busy"), aTo.Arg(int64(a+b+c)), aWork.Arg("entrench"))
			m.Emit(kUnitOrdered, aUnit.Arg(un), aOrder.Arg("entrench"))
			m.Say("%s entrenches: 3d6 = %d+%d+%d = %d rounds (T1)", un, a, b, c, a+b+c)
		case vRetreat:
			if u.Arm == Artillery && !u.Limbered {
				return errAt(o.VerbCol, "%s is unlimbered and cannot move (HRA 17a): limber it first", un)
			}
			m.Emit(kUnitOrdered, aUnit.Arg(un), aOrder.Arg("retreat"))
			m.forced(un, true, true)
			if v := m.State.unit(un); !v.Removed() {
				m.Emit(kUnitSet, aUnit.Arg(un), aField.Arg("acted"), aTo.Arg(1))
			}
		case vRoad:
			mv, err := m.State.roadMove(u, o.Dist, o.To, d, o.VerbCol)
			if err != nil {
				return prefixErr(un, err)
			}
			m.applyMove(u, mv, "road "+line)
		case vMarch:
			mv, err := m.State.march(u, o.Steps, d)
			if err != nil {
				return prefixErr(un, err)
			}
			m.applyMove(u, mv, line)
		}
	}
	// HRA 9e (H22): a march order leaves its units facing roughly one way.
	if (o.Verb == vMarch || o.Verb == vRoad) && len(units) > 1 {
		f0 := m.State.unit(units[0]).Facing
		for _, un := range units[1:] {
			if table.Turn(f0, m.State.unit(un).Facing).Abs() > 45*table.Degree {
				return fmt.Errorf("one march order must leave its units facing roughly one way (within 45°, HRA 9e); %s and %s do not: order them separately", units[0], un)
			}
		}
	}
	return nil
}

func (m *sim) applyMove(u *Unit, mv moved, order string) {
	r := mv.Rect
	m.Emit(kUnitMoved, aUnit.Arg(u.Name), aX.Arg(int64(r.Front.X)), aY.Arg(int64(r.Front.Y)),
		aFacing.Arg(int64(r.Facing)), aColumn.Arg(mv.Column), aCost.Arg(int64(mv.Cost)))
	m.Emit(kUnitOrdered, aUnit.Arg(u.Name), aOrder.Arg(order))
	left := max(mv.Allowance-mv.Cost, 0)
	how := ""
	if b := mv.breakdown(cmText(mv.Cost)); b != cmText(mv.Cost) && strings.ContainsAny(b, "+×") {
		how = " (" + b + ")"
	}
	m.Say("%s: %s — used %s of %s%s, %s left; now at x=%s y=%s facing %v", u.Name, order, cmText(mv.Cost), cmText(mv.Allowance), how, cmText(left),
		cmText(r.Front.X), cmText(r.Front.Y), r.Facing)
	for _, n := range mv.Notes {
		m.Say("  %s", n)
	}
	if mv.Charged {
		m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("charges"), aTo.Arg(int64(u.Charges+1)))
		m.Say("  %s charges (%d of %d today, HRA 16b)", u.Name, u.Charges+1, m.State.Scn.Charges)
	}
	if mv.Through != "" {
		m.Emit(kUnitSet, aUnit.Arg(mv.Through), aField.Arg("passed_by"), aTo.Arg(1))
		m.Say("  passed through %s, which may move only 5 cm this round (HRA 10a, 10b)", mv.Through)
	}
	if mv.Busy > 0 {
		m.Emit(kUnitSet, aUnit.Arg(u.Name), aField.Arg("busy"), aTo.Arg(int64(mv.Busy)), aWork.Arg(mv.Work))
	}
	if mv.Contact != "" {
		m.Emit(kMeleeBegun, aAttacker.Arg(u.Name), aDefender.Arg(mv.Contact))
		m.Say("  melee: %s attacks %s (HRA 11a, 11b)", u.Name, mv.Contact)
	}
}

// exampleFor is a simple order the side could give now.
func exampleFor(st *State, side string) string {
	first := ""
	for i := range st.Brigades {
		b := &st.Brigades[i]
		if b.Side != side {
			continue
		}
		if st.needsOrders(b) {
			return b.Name + ": HOLD"
		}
		if first == "" {
			first = b.Name
		}
	}
	if first != "" {
		return first + ": HOLD"
	}
	return "<brigade>: HOLD"
}
