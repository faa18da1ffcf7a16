package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// The defender's retreat after a combat table's Dr result (combat.go, a
// house rule; the Standard Series Rules give no combat procedure: GCACW
// 5b, 5.1.5, R10). The table says how far the defenders retreat, not
// where: that choice is the defender's, as a retreat is its owner's in
// the published series. Where a defending unit has more than one retreat
// of the length the table allows, the defender is asked by mail, with
// deadlines and a missed deadline working as for any other step:
//
//	RETREAT <unit> <hex>...    PASS (every unit retreats as pbem picks)
//
// The default, on PASS, on a unit the answer does not name, and on a
// missed deadline whose default order is PASS, is the retreat the table
// mode takes by itself (fallBackPath: the longest open, then the one
// ending in the lowest-numbered hex); the question says which it is.
//
// The other result the table mode applies by itself, the Manpower a
// defender loses, the house rule gives to the defending unit with the
// most (combat.go): no choice is left there, and none is asked.

// Fall-back fact kinds.
const (
	kFallBackAsked = "fall_back.asked"
	kFallBackDone  = "fall_back.done"
)

var (
	aAttackers = factSet.Strs("attackers")
	aDefenders = factSet.Strs("defenders")
)

var _ = []string{
	factSet.Kind(kFallBackAsked, aSide, aHex, aUnits, aAttackers, aDefenders, aStep),
	factSet.Kind(kFallBackDone, aHex),
}

// oFallBack is the defender's answer: RETREAT <unit> <hex>....
const oFallBack = "RETREAT"

const fallBackForm = "RETREAT <unit> <hex>...  (or PASS: each unit retreats as pbem picks)"

// fallBackOptions are the retreats open to defending unit u from the
// attack on at: every path of the length the table mode would take (the
// longest open, up to n hexes), each step allowed by fallBackStep.
func (st *State) fallBackOptions(u *Unit, at hex.Hex, n int) [][]hex.Hex {
	want := len(st.fallBackPath(u, at, n))
	if want == 0 {
		return nil
	}
	var out [][]hex.Hex
	var walk func(path []hex.Hex, cur hex.Hex)
	walk = func(path []hex.Hex, cur hex.Hex) {
		if len(path) == want {
			out = append(out, slices.Clone(path))
			return
		}
		for _, h := range cur.Neighbors() {
			if st.fallBackStep(u, at, cur, h) == "" {
				walk(append(path, h), h)
			}
		}
	}
	walk(nil, u.Hex)
	return out
}

// askFallBack asks the defender where its units retreat, if any has a
// choice; it reports whether it asked.
func (m sim) askFallBack(side string, attackers, defIDs []string, at hex.Hex, step string) bool {
	st := m.State
	n := st.retreatHexes()
	var units []string
	choice := false
	for _, id := range st.defendersAt(side, at) {
		units = append(units, id)
		choice = choice || len(st.fallBackOptions(st.unit(id), at, n)) > 1
	}
	if !choice {
		return false
	}
	m.Emit(kFallBackAsked, aSide.Arg(opponent(side)), aHex.Arg(at.String()), aUnits.Arg(units...),
		aAttackers.Arg(attackers...), aDefenders.Arg(defIDs...), aStep.Arg(step))
	return true
}

// fallBack retreats the defenders still in at: along the path chosen for
// a unit, else the table mode's own; a unit with no retreat open loses 1
// Manpower instead (combat.go).
func (m sim) fallBack(side string, at hex.Hex, chosen map[string][]hex.Hex) {
	why := combatWhy(at)
	for _, id := range m.State.defendersAt(side, at) {
		u := m.State.unit(id)
		path, by := chosen[id], why+"; its owner's choice"
		if path == nil {
			path, by = m.State.fallBackPath(u, at, m.State.retreatHexes()), why
		}
		if len(path) > 0 {
			m.Emit(kUnitFellBack, aUnit.Arg(id), aPath.Arg(hexStrs(append([]hex.Hex{u.Hex}, path...))...), aBy.Arg(by))
		} else {
			m.loseStrength(id, 1, why+": no hex open to retreat into")
		}
	}
}

// checkFallBack says why path is not a retreat open to u from the attack
// on at, or "".
func (st *State) checkFallBack(u *Unit, at hex.Hex, path []hex.Hex) string {
	n := st.retreatHexes()
	want := len(st.fallBackPath(u, at, n))
	if len(path) != want {
		return fmt.Sprintf("%s retreats %d %s (the combat table's retreat, as far as it can go): give %d", u.Name, want, plural(want, "hex", "hexes"), want)
	}
	cur := u.Hex
	for _, h := range path {
		if why := st.fallBackStep(u, at, cur, h); why != "" {
			return fmt.Sprintf("%s cannot retreat from %s to %s: %s", u.Name, cur, h, why)
		}
		cur = h
	}
	return ""
}

// answerFallBack decides the defender's answer: each named unit retreats
// along its path, the others as pbem picks; then the attack ends (the
// attacker's advance and the fatigue it costs) and play goes on.
func (m sim) answerFallBack(side string, answers []Order) []events.Problem {
	st := m.State
	a := st.Ask
	at := hex.MustParse(a.Hex)
	var probs []events.Problem
	chosen := map[string][]hex.Hex{}
	for _, o := range answers {
		u := st.unit(o.Unit)
		switch {
		case !slices.Contains(a.Units, o.Unit):
			probs = append(probs, problemAt(o, o.UnitCol, fmt.Sprintf("%s does not retreat now: the units retreating from %s are %s", u.Name, a.Hex, strings.Join(a.Units, ", ")), ""))
		case chosen[o.Unit] != nil:
			probs = append(probs, problemAt(o, o.UnitCol, fmt.Sprintf("%s is named twice", u.Name), ""))
		default:
			if why := st.checkFallBack(u, at, o.Rule.Hexes); why != "" {
				probs = append(probs, problemAt(o, o.Col, why, st.fallBackExample(u, at)))
				continue
			}
			chosen[o.Unit] = o.Rule.Hexes
		}
	}
	if len(probs) > 0 {
		return probs
	}
	attackSide := opponent(a.Side)
	attackers, defIDs, step := slices.Clone(a.Attackers), slices.Clone(a.Defenders), a.Step
	m.fallBack(attackSide, at, chosen)
	m.Emit(kFallBackDone, aHex.Arg(a.Hex))
	m.afterCombat(attackSide, attackers, defIDs, at)
	if step == StepAttack {
		m.afterMarch()
	} else {
		m.endAction()
	}
	return nil
}

// fallBackExample is the retreat pbem would pick for u, as an order.
func (st *State) fallBackExample(u *Unit, at hex.Hex) string {
	p := st.fallBackPath(u, at, st.retreatHexes())
	if len(p) == 0 {
		return ""
	}
	return "RETREAT " + st.uref(u) + " " + strings.Join(hexStrs(p), " ")
}

// fallBackPrompt asks the defender where its units retreat, saying what
// the table allows and what no answer (PASS, or a missed deadline whose
// default order is PASS) does.
func fallBackPrompt(st *State, a *Ask) engine.Prompt {
	at := hex.MustParse(a.Hex)
	var picks, ex []string
	for _, id := range a.Units {
		u := st.unit(id)
		p := st.fallBackPath(u, at, st.retreatHexes())
		if len(p) == 0 {
			picks = append(picks, fmt.Sprintf("%s (%s) has no retreat open and loses 1 Manpower instead", u.Name, u.ID))
			continue
		}
		picks = append(picks, fmt.Sprintf("%s (%s) to %s", u.Name, u.ID, strings.Join(hexStrs(p), "-")))
		if len(ex) < 2 {
			if opts := st.fallBackOptions(u, at, st.retreatHexes()); len(opts) > 1 {
				// Another open retreat than pbem's, to show the choice.
				for _, o := range opts {
					if !slices.Equal(o, p) {
						ex = append(ex, "RETREAT "+st.uref(u)+" "+strings.Join(hexStrs(o), " "))
						break
					}
				}
			}
		}
	}
	n := len(st.fallBackPath(st.unit(a.Units[0]), at, st.retreatHexes()))
	what := fmt.Sprintf("the assault on %s drives your units back (the combat table's Dr result, a house rule): each retreats as far as it can, up to %d %s, each hex farther from %s, not into enemy units, nor enemy ZOC unless a friendly unit is there. RETREAT <unit> <hex>... says where a unit goes (here %d %s). A unit you do not name retreats as pbem picks; PASS lets pbem pick for all, as does a missed deadline whose default order is PASS. pbem picks: %s",
		a.Hex, st.retreatHexes(), plural(st.retreatHexes(), "hex", "hexes"), a.Hex, n, plural(n, "hex", "hexes"), strings.Join(picks, "; "))
	return engine.Prompt{Side: a.Side, What: what, Examples: append(ex, "PASS")}
}

// plural is one or many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fallBack reads RETREAT <unit> <hex>....
func (p *parser) fallBack(o Order) (Order, bool) {
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "name the unit that retreats and its path", fallBackForm)
		return o, false
	}
	id, ok := p.myUnit(t)
	if !ok {
		return o, false
	}
	o.Unit, o.UnitCol = id, t.Col
	for {
		h, more := p.next()
		if !more {
			break
		}
		hx, ok := p.parseHex(h)
		if !ok {
			return o, false
		}
		o.Rule.Hexes = append(o.Rule.Hexes, hx)
	}
	if len(o.Rule.Hexes) == 0 {
		p.problem(p.endTok(), "give the hexes the unit retreats through", fallBackForm)
		return o, false
	}
	return o, true
}

// retreatHexes is how far a retreat by the combat table goes: the
// [combat] table's retreat, or one hex for a battle's result in a
// scenario with no [combat] table (battles.go).
func (st *State) retreatHexes() int {
	if ct := st.Scn.Tables.Combat; ct != nil {
		return ct.Retreat
	}
	return 1
}
