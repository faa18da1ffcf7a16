package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// Assaults (GCACW 5b: the Assault action; 5.1.5: a march that ends in an
// attack; 2.2k/l: the Grand Assault). The seed lists them and says who
// may start them, but gives no procedure (gcacw.md R10, Ambiguity A25).
// pbem checks an assault against everything the seed does say:
//
//   - 5a: one action, by one unit or one leader; 5.2b: never during a
//     Leader Activation (an ASSAULT inside ACTIVATE is refused when read);
//   - 2.2l, 2.2m: a district, corps or division leader initiates an
//     attack with units subordinate to it (5.2.2) and within its command
//     radius (2.5); 2.2k, 2.2l: an army or district leader starts a Grand
//     Assault, with the same conditions;
//   - a unit attacks a hex its ZOC reaches (2.4: not across a river except
//     at a crossing, into swamp or mountain only along a route), holding an
//     enemy unit;
//   - pbem's reading where the seed is silent (A26: "eligible" means able to
//     march): a unit at fatigue 4 cannot assault, as it cannot march (5.1b).
//
// How an assault is resolved is the scenario's choice: by its [combat]
// house-rule table (combat.go), or by the referee, who rules each outcome
// the game knows with a structured RULE command (LOSS, DISORGANIZED,
// RETREAT, FATIGUE, CASUALTY, ADVANCE), then RULE DONE.

// StepAssault is an assault handed to the referee (R10).
const StepAssault = "assault"

// Assault fact kinds.
const (
	kAssaultDeclared = "assault.declared"
	kAssaultRolled   = "assault.rolled"
	kUnitFellBack    = "unit.fell_back"
	kUnitAdvanced    = "unit.advanced"
)

var (
	aAttack  = factSet.Str("attack")
	aDefence = factSet.Str("defence")
)

var _ = []string{
	factSet.Kind(kAssaultDeclared, aSide, aUnits, aHex, aClass, engine.Opt(aLeader)),
	factSet.Kind(kAssaultRolled, aHex, aSide, aDie, aRoll, aColumn, aResult, aAttack, aDefence, engine.Opt(aDrms)),
	factSet.Kind(kUnitFellBack, aUnit, aPath, aBy),
	factSet.Kind(kUnitAdvanced, aUnit, aHex, aBy),
}

const (
	oAssault = "ASSAULT"
	oGrand   = "GRAND" // GRAND ASSAULT
)

const assaultForm = "ASSAULT <leader>: <unit> <unit>... ON <hex>  |  ASSAULT <unit> ON <hex>  |  GRAND ASSAULT <army leader>: <unit>... ON <hex>"

// assault reads an ASSAULT (or, grand, a GRAND ASSAULT) order.
func (p *parser) assault(o Order, grand bool) (Order, bool) {
	o.Grand = grand
	p.form = assaultForm
	if grand {
		t, more := p.next()
		if !more || !isWord(t, oAssault, 3) {
			if !more {
				t = p.endTok()
			}
			p.problem(t, "GRAND is followed by ASSAULT (GCACW 2.2k)", "GRAND ASSAULT <army leader>: <unit>... ON <hex>")
			return o, false
		}
	}
	t, more := p.next()
	if !more {
		p.problem(p.endTok(), "ASSAULT takes who attacks and the hex attacked", "")
		return o, false
	}
	if n, ok := p.peek(); ok && n.Punct && n.Text == ":" {
		id, ok := p.myLeader(t)
		if !ok {
			return o, false
		}
		o.Leader, o.LCol = id, t.Col
		p.next()
	} else {
		if grand {
			p.problem(t, "a Grand Assault is started by an army or district leader (GCACW 2.2k, 2.2l): name it first, then a colon", "GRAND ASSAULT <army leader>: <unit>... ON <hex>")
			return o, false
		}
		id, ok := p.myUnit(t)
		if !ok {
			return o, false
		}
		o.Entries = append(o.Entries, Entry{Unit: id, Line: t.Line, Col: t.Col, Text: t.Src})
	}
	for {
		n, more := p.next()
		if !more {
			break
		}
		switch {
		case n.Punct && (n.Text == ";" || n.Text == ":"):
			continue
		case isWord(n, "ON", 2) || isWord(n, "AT", 2):
			continue
		case isHexTok(n):
			h, ok := p.parseHex(n)
			if !ok {
				return o, false
			}
			o.At, o.AtCol = &h, n.Col
			if !p.done() {
				return o, false
			}
		default:
			id, ok := p.myUnit(n)
			if !ok {
				return o, false
			}
			o.Entries = append(o.Entries, Entry{Unit: id, Line: n.Line, Col: n.Col, Text: n.Src})
		}
	}
	if len(o.Entries) == 0 {
		p.problem(p.endTok(), "name the units that attack", "")
		return o, false
	}
	if o.At == nil {
		p.problem(p.endTok(), "name the hex attacked: ON <hex>", "")
		return o, false
	}
	return o, true
}

// validateAssault checks an ASSAULT or GRAND ASSAULT against the state,
// before any die is rolled.
func (m sim) validateAssault(side string, o Order) []events.Problem {
	st := m.State
	var probs []events.Problem
	bad := func(col int, msg string) { probs = append(probs, problemAt(o, col, msg, m.exampleAssault(side))) }
	if st.Act != nil {
		// GCACW 5.2b: no assault during a Leader Activation.
		bad(0, "an assault cannot be performed during a Leader Activation (GCACW 5.2b)")
		return probs
	}
	at := *o.At
	if !st.hasEnemy(side, at) {
		bad(o.AtCol, fmt.Sprintf("%s holds no enemy unit to attack", at))
		return probs
	}
	var l *Leader
	if o.Leader != "" {
		l = st.leader(o.Leader)
		if why := st.mayLead(l, o.Grand); why != "" {
			bad(o.LCol, why)
			return probs
		}
	}
	seen := map[string]bool{}
	for _, e := range o.Entries {
		u := st.unit(e.Unit)
		p := func(msg string) {
			probs = append(probs, events.Problem{Line: e.Line, Col: e.Col, Text: e.Text, Msg: msg, Hint: m.exampleAssault(side)})
		}
		if seen[u.ID] {
			p(fmt.Sprintf("%s is named twice", u.Name))
			continue
		}
		seen[u.ID] = true
		if l != nil {
			if why := st.mayAttackUnder(l, u); why != "" {
				p(why)
				continue
			}
		}
		if why := st.mayAttack(u, at); why != "" {
			p(why)
		}
	}
	return probs
}

// mayLead says why leader l may not start an assault (grand: a Grand
// Assault), or "".
func (st *State) mayLead(l *Leader, grand bool) string {
	switch {
	case l.Removed:
		return l.Name + " has left play"
	case grand && l.Kind != ArmyLeader && l.Kind != DistrictLeader:
		// GCACW 2.2k, 2.2l.
		return fmt.Sprintf("%s is a %s leader: a Grand Assault is started by an army or district leader (GCACW 2.2k, 2.2l)", l.Name, l.Kind)
	case !grand && l.Kind == ArmyLeader:
		// GCACW 2.2k: army leaders start Grand Assaults; 2.2l/m: the others
		// initiate attacks.
		return fmt.Sprintf("%s is an army leader, who starts a Grand Assault (GCACW 2.2k): write GRAND ASSAULT %s: …", l.Name, l.Name)
	}
	if _, ok := st.leaderHex(l); !ok {
		return l.Name + " stands with no unit"
	}
	return ""
}

// mayAttackUnder says why unit u may not attack under leader l, or "":
// it must be subordinate to it (GCACW 2.2m, 5.2.2) and within its
// command radius (2.5).
func (st *State) mayAttackUnder(l *Leader, u *Unit) string {
	if !st.commands(l, u) {
		return fmt.Sprintf("%s is not under %s's command (GCACW 2.2m)", u.Name, l.Name)
	}
	if !st.inRadius(l, u) {
		return fmt.Sprintf("%s is not within %s's command radius of three hexes (GCACW 2.5)", u.Name, l.Name)
	}
	return ""
}

// mayAttack says why unit u may not attack hex at, or "".
func (st *State) mayAttack(u *Unit, at hex.Hex) string {
	switch {
	case u.Fatigue >= 4:
		// Ambiguity A26: eligible means able to march (5.1b).
		return fmt.Sprintf("%s is at fatigue 4: a unit that cannot march cannot assault either (GCACW 5.1b, pbem's reading)", u.Name)
	case !hex.Adjacent(u.Hex, at):
		return fmt.Sprintf("%s in %s is not next to %s", u.Name, u.Hex, at)
	case st.Scn.Map.zocInto(u.Hex, at, st.Scn.provisionalSwampBlocksZOC()) == NoZOC:
		// GCACW 2.4b-d: a unit attacks only where its ZOC reaches.
		return fmt.Sprintf("%s's zone of control does not reach %s (a river without a crossing, or swamp or mountain off a road: GCACW 2.4), so it cannot attack there", u.Name, at)
	}
	return ""
}

// exampleAssault is an ASSAULT side could send now, or "".
func (m sim) exampleAssault(side string) string {
	st := m.State
	for _, u := range st.live() {
		if u.Side != side {
			continue
		}
		for _, n := range u.Hex.Neighbors() {
			if st.hasEnemy(side, n) && st.mayAttack(u, n) == "" {
				return fmt.Sprintf("ASSAULT %s ON %s", st.uref(u), n)
			}
		}
	}
	return ""
}

// doAssault performs a validated ASSAULT or GRAND ASSAULT.
func (m sim) doAssault(side string, o Order) {
	m.take(side)
	var ids []string
	for _, e := range o.Entries {
		ids = append(ids, e.Unit)
	}
	class := "assault"
	if o.Grand {
		class = "grand"
	}
	args := []events.Arg{aSide.Arg(side), aUnits.Arg(ids...), aHex.Arg(o.At.String()), aClass.Arg(class)}
	if o.Leader != "" {
		args = append(args, aLeader.Arg(o.Leader))
	}
	m.Emit(kAssaultDeclared, args...)
	if m.resolveAssault(side, ids, *o.At, o.Leader, o.Grand, StepAssault) {
		m.endAction()
	}
}

// resolveAssault resolves an attack by side's units on hex at: by the
// scenario's combat table, or by handing it to the referee (step, with
// the action kept open until RULE DONE: Ambiguity A25). It reports whether
// the attack is over.
func (m sim) resolveAssault(side string, ids []string, at hex.Hex, leader string, grand bool, step string) bool {
	st := m.State
	if b := st.Scn.BattleFor(at); b != nil {
		m.openBattle(side, ids, at, leader, b.System, b.Scenario, b.Sides)
		return false
	}
	ct := st.Scn.Tables.Combat
	if ct == nil {
		who := strings.Join(ids, ", ")
		if leader != "" {
			who = leader + " with " + who
		}
		args := []events.Arg{aStep.Arg(step), aUnits.Arg(ids...), aPath.Arg(at.String()),
			aNote.Arg(fmt.Sprintf("%s attack%s the enemy in %s; the combat rules are not in the Standard Series Rules: rule what it costs each side (RULE LOSS <unit> <n>, RULE DISORGANIZED <unit>, RULE RETREAT <unit> <hex>..., RULE FATIGUE <unit> <n>, RULE CASUALTY <leader>, RULE ADVANCE <unit> <hex>), then RULE DONE", who, map[bool]string{true: "", false: "s"}[len(ids) > 1 && leader == ""], at))}
		if len(ids) == 1 {
			args = append(args, aUnit.Arg(ids[0]))
		}
		if leader != "" {
			args = append(args, aLeader.Arg(leader))
		}
		m.Emit(kRefereePending, args...)
		return false
	}
	return m.tableAssault(side, ids, at, leader, grand, step)
}

// tableAssault resolves an attack by the scenario's combat table (a house
// rule: combat.go). It reports whether the attack is over (false: the
// defender is asked where its units retreat, fallback.go).
func (m sim) tableAssault(side string, ids []string, at hex.Hex, leader string, grand bool, step string) bool {
	st := m.State
	ct := st.Scn.Tables.Combat
	var att, def []*Unit
	for _, id := range ids {
		att = append(att, st.unit(id))
	}
	for _, u := range st.unitsAt(at) {
		if u.Side != side {
			def = append(def, u)
		}
	}
	sum := func(us []*Unit, f func(*Unit) int) (n int) {
		for _, u := range us {
			n += f(u)
		}
		return n
	}
	best := func(us []*Unit) (n int) {
		for _, u := range us {
			n = max(n, u.Tactical)
		}
		return n
	}
	attack, defence := sum(att, st.combatHalves), sum(def, st.combatHalves)
	col := ct.column(attack, defence)
	var drms []string
	total := 0
	add := func(v int, source string) {
		if v != 0 {
			drms = append(drms, fmt.Sprintf("%+d %s", v, source))
			total += v
		}
	}
	if l := st.leader(leader); l != nil && l.Tactical > 0 {
		add(l.Tactical, "leader "+l.Name+"'s tactical value (2.2m)")
	}
	add(best(att)-best(def), "Tactical values (2.2h)")
	switch a, d := sum(att, func(u *Unit) int { return u.Artillery }), sum(def, func(u *Unit) int { return u.Artillery }); {
	case a > d:
		add(1, "Artillery values (2.2h)")
	case a < d:
		add(-1, "Artillery values (2.2h)")
	}
	for _, d := range ct.DRMs {
		switch {
		case d.Terrain != "" && st.Scn.Map.Terrain(at) == d.Terrain,
			d.Grand && grand:
			add(d.Value, d.source())
		case d.Hexside != "":
			every := true
			for _, u := range att {
				every = every && st.hexsideCrossed(u.Hex, at, d.Hexside)
			}
			if every {
				add(d.Value, d.source())
			}
		}
	}
	die := m.Dice.Roll("assault "+at.String(), 6)
	roll := die + total
	res := ct.result(roll, col)
	args := []events.Arg{aHex.Arg(at.String()), aSide.Arg(side), aDie.Arg(int64(die)), aRoll.Arg(int64(roll)),
		aColumn.Arg(ct.Columns[col].String()), aResult.Arg(res), aAttack.Arg(halves(attack)), aDefence.Arg(halves(defence))}
	if len(drms) > 0 {
		args = append(args, aDrms.Arg(drms...))
	}
	m.Emit(kAssaultRolled, args...)
	return m.applyCombat(side, ids, at, res, step)
}

// combatWhy is the reason a combat table result gives its facts.
func combatWhy(at hex.Hex) string {
	return fmt.Sprintf("the assault on %s, by the combat table (a house rule)", at)
}

// defendersAt are the units of side's enemy in at.
func (st *State) defendersAt(side string, at hex.Hex) []string {
	var out []string
	for _, u := range st.unitsAt(at) {
		if u.Side != side {
			out = append(out, u.ID)
		}
	}
	return out
}

// applyCombat applies a combat table result (combat.go). It reports
// whether the attack is over: a Dr result that leaves the defender a
// choice of retreat asks the defender first (fallback.go).
func (m sim) applyCombat(side string, ids []string, at hex.Hex, res, step string) bool {
	why := combatWhy(at)
	defenders := func() []string { return m.State.defendersAt(side, at) }
	attackers := func() []string {
		return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return m.State.unit(id).Eliminated })
	}
	defIDs := defenders()
	retreat := false
	for _, p := range strings.Split(res, "/") {
		switch {
		case p == "NE":
		case p == "Ad" || p == "Dd":
			us := attackers()
			if p == "Dd" {
				us = defenders()
			}
			for _, id := range us {
				if !m.State.unit(id).Disorganized {
					m.Emit(kUnitDisorganized, aUnit.Arg(id), aReason.Arg(why))
				}
			}
		case p == "Dr":
			retreat = true
		default:
			us := attackers()
			if p[0] == 'D' {
				us = defenders()
			}
			if id := m.State.strongest(us); id != "" {
				m.loseStrength(id, min(int(p[1]-'0'), m.State.unit(id).Manpower), why)
			}
		}
	}
	if retreat {
		// A battle's result carried back retreats as pbem picks: the
		// battle was the defender's say (battles.go).
		if step != StepBattle && m.askFallBack(side, attackers(), defIDs, at, step) {
			return false
		}
		m.fallBack(side, at, nil)
	}
	m.afterCombat(side, attackers(), defIDs, at)
	return true
}

// afterCombat ends an attack by the combat table, after any retreat: the
// attacker's advance, then the fatigue the attack costs both sides.
func (m sim) afterCombat(side string, attackers, defIDs []string, at hex.Hex) {
	why := combatWhy(at)
	// The attacking unit with the most Manpower enters a hex the
	// defenders left.
	if len(m.State.defendersAt(side, at)) == 0 {
		if id := m.State.strongest(attackers); id != "" {
			m.Emit(kUnitAdvanced, aUnit.Arg(id), aHex.Arg(at.String()), aBy.Arg(why))
		}
	}
	ct := m.State.Scn.Tables.Combat
	if ct == nil {
		return // no table, no fatigue for the fight (a battle's result)
	}
	raise := func(us []string, n int) {
		for _, id := range us {
			u := m.State.unit(id)
			if n > 0 && !u.Eliminated && u.Fatigue < 4 {
				m.Emit(kUnitFatigueSet, aUnit.Arg(id), aFatigue.Arg(int64(min(u.Fatigue+n, 4))), aBy.Arg(why))
			}
		}
	}
	raise(slices.DeleteFunc(slices.Clone(attackers), func(id string) bool { return m.State.unit(id).Eliminated }), ct.Attacker)
	raise(slices.DeleteFunc(slices.Clone(defIDs), func(id string) bool { return m.State.unit(id).Eliminated }), ct.Defender)
}

// strongest is the unit among ids with the most Manpower (the first in
// the order given on a tie), or "".
func (st *State) strongest(ids []string) string {
	best, bm := "", 0
	for _, id := range ids {
		if u := st.unit(id); u != nil && !u.Eliminated && u.Manpower > bm {
			best, bm = id, u.Manpower
		}
	}
	return best
}

// fallBackPath is the retreat of a defending unit from at (the combat
// table's house rule): up to n hexes, each farther from at, into no enemy
// unit, no enemy ZOC unless a friendly unit is there, and no hex the
// Terrain Effects Chart closes to it; the longest such path, then the one
// ending in the lowest-numbered hex. nil if none is open.
func (st *State) fallBackPath(u *Unit, at hex.Hex, n int) []hex.Hex {
	var best []hex.Hex
	var walk func(path []hex.Hex, cur hex.Hex)
	walk = func(path []hex.Hex, cur hex.Hex) {
		if len(path) > len(best) || len(path) == len(best) && len(path) > 0 && hex.Compare(cur, best[len(best)-1]) < 0 {
			best = slices.Clone(path)
		}
		if len(path) == n {
			return
		}
		for _, h := range cur.Neighbors() {
			if st.fallBackStep(u, at, cur, h) == "" {
				walk(append(path, h), h)
			}
		}
	}
	walk(nil, u.Hex)
	return best
}

// fallBackStep says why unit u may not retreat from a to b away from the
// attack on at, or "".
func (st *State) fallBackStep(u *Unit, at, a, b hex.Hex) string {
	switch {
	case !hex.Adjacent(a, b):
		return fmt.Sprintf("%s is not next to %s", b, a)
	case hex.Distance(b, at) <= hex.Distance(a, at):
		return fmt.Sprintf("%s is not farther than %s from %s", b, a, at)
	case st.hasEnemy(u.Side, b):
		return fmt.Sprintf("%s holds an enemy unit", b)
	case st.inEnemyZOC(u.Side, b) && !st.hasFriend(u.Side, b):
		return fmt.Sprintf("%s is in enemy ZOC", b)
	}
	if st.Scn.Tables.Terrain != nil {
		if _, _, why := st.step(u, a, b); why != "" {
			return why
		}
	} else if !st.Scn.Map.OnMap(b) || st.Scn.Map.Terrain(b) == Water {
		return fmt.Sprintf("%s is off the map or water", b)
	}
	return ""
}

// assaultPending is the attack waiting for the referee (an ASSAULT or the
// attack that ends a march), or nil.
func (st *State) assaultPending() *Pending {
	if p := st.Pending; p != nil && (p.Step == StepAssault || p.Step == StepAttack) {
		return p
	}
	return nil
}

// inAssault reports whether unit u takes part in the attack p: one of its
// attackers, or a unit in the hex attacked.
func (st *State) inAssault(p *Pending, u *Unit) bool {
	if u.ID == p.Unit || slices.Contains(p.Units, u.ID) {
		return true
	}
	return len(p.Path) > 0 && u.Hex.String() == p.Path[len(p.Path)-1]
}

// attackers are the attacking units of the attack p.
func (p *Pending) attackers() []string {
	if len(p.Units) > 0 {
		return p.Units
	}
	return []string{p.Unit}
}

// adjustAssault applies a referee's command that rules an outcome of the
// attack waiting (LOSS, CASUALTY, ADVANCE, and RETREAT by path), each an
// audited fact; it returns a problem, or nil.
func (m sim) adjustAssault(o Order) *events.Problem {
	st, r := m.State, o.Rule
	bad := func(msg string) *events.Problem {
		p := problemAt(o, o.UnitCol, msg, "")
		return &p
	}
	p := st.assaultPending()
	if p == nil {
		return bad("no assault waits for the referee: RULE " + strings.ToUpper(r.What) + " rules an outcome of one")
	}
	at := hex.MustParse(p.Path[len(p.Path)-1])
	by := aBy.Arg("referee")
	switch r.What {
	case "loss":
		u := st.unit(r.Unit)
		if !st.inAssault(p, u) {
			return bad(fmt.Sprintf("%s takes no part in the assault on %s", u.Name, at))
		}
		if r.N > u.Manpower {
			return bad(fmt.Sprintf("%s has %d Manpower; a loss of %d would be more than it has", u.Name, u.Manpower, r.N))
		}
		m.Emit(kStrengthLost, aUnit.Arg(u.ID), aManpower.Arg(int64(r.N)), aLeft.Arg(int64(u.Manpower-r.N)), aReason.Arg(fmt.Sprintf("the assault on %s, by the referee's ruling", at)))
		if u.Manpower == r.N {
			m.Emit(kUnitEliminated, aUnit.Arg(u.ID), aReason.Arg("no Manpower left (GCACW 2.2o)"))
			m.leadersAlone()
		}
	case "casualty":
		l := st.leader(r.Leader)
		if l.Removed {
			return bad(l.Name + " has left play already")
		}
		u := st.unit(l.With)
		if u == nil || !st.inAssault(p, u) && l.ID != p.Leader {
			return bad(fmt.Sprintf("%s takes no part in the assault on %s", l.Name, at))
		}
		m.Emit(kLeaderRemoved, aLeader.Arg(l.ID), aReason.Arg(fmt.Sprintf("a casualty of the assault on %s, by the referee's ruling", at)))
	case "advance":
		u := st.unit(r.Unit)
		switch {
		case !slices.Contains(p.attackers(), u.ID):
			return bad(fmt.Sprintf("%s is not one of the attackers (%s)", u.Name, st.unitNames(p.attackers())))
		case r.Hexes[0] != at:
			return bad(fmt.Sprintf("the attacker advances into the hex attacked, %s", at))
		case st.hasEnemy(u.Side, at):
			return bad(fmt.Sprintf("%s still holds an enemy unit: retreat or eliminate it first", at))
		case !hex.Adjacent(u.Hex, at):
			return bad(fmt.Sprintf("%s in %s is not next to %s", u.Name, u.Hex, at))
		}
		m.Emit(kUnitAdvanced, aUnit.Arg(u.ID), aHex.Arg(at.String()), by)
	case "retreat":
		u := st.unit(r.Unit)
		if !st.inAssault(p, u) {
			return bad(fmt.Sprintf("%s takes no part in the assault on %s", u.Name, at))
		}
		cur := u.Hex
		path := []hex.Hex{cur}
		for _, h := range r.Hexes {
			if !hex.Adjacent(cur, h) || !st.Scn.Map.OnMap(h) || st.Scn.Map.Terrain(h) == Water || st.hasEnemy(u.Side, h) {
				return bad(fmt.Sprintf("the retreat cannot go from %s to %s (not next to it, off the map, water or enemy-held)", cur, h))
			}
			cur = h
			path = append(path, h)
		}
		m.Emit(kUnitFellBack, aUnit.Arg(u.ID), aPath.Arg(hexStrs(path)...), by)
	}
	return nil
}

// tellAssault tells the assault facts for the players' mails.
func tellAssault(s *State, f events.Fact) (string, bool) {
	if t, ok := tellBattle(s, f); ok {
		return t, true
	}
	unit := s.unitName(aUnit.OfAny(f))
	switch f.Kind {
	case kAssaultDeclared:
		who := s.unitNames(aUnits.Of(f))
		what := "assault"
		if aClass.Of(f) == "grand" {
			what = "Grand Assault (GCACW 2.2k)"
		}
		if l := aLeader.Of(f); l != "" {
			return fmt.Sprintf("%s leads a%s %s on %s with %s.", s.leaderName(l), an(what), what, aHex.Of(f), who), true
		}
		return fmt.Sprintf("%s makes an assault on %s (GCACW 5b).", who, aHex.Of(f)), true
	case kAssaultRolled:
		return fmt.Sprintf("The assault on %s, Combat values %s against %s, reads the %s column of the combat table (a house rule): %s rolls %s: %s.",
			aHex.Of(f), aAttack.Of(f), aDefence.Of(f), aColumn.Of(f), aSide.Of(f), dieWithMods(f), resultWords(aResult.Of(f))), true
	case kUnitFellBack:
		if aBy.Of(f) == "referee" {
			return fmt.Sprintf("The referee retreats %s %s.", unit, hexPath(aPath.Of(f))), true
		}
		return fmt.Sprintf("%s retreats %s: %s.", unit, hexPath(aPath.Of(f)), aBy.Of(f)), true
	case kUnitAdvanced:
		if aBy.Of(f) == "referee" {
			return fmt.Sprintf("The referee advances %s into %s.", unit, aHex.Of(f)), true
		}
		return fmt.Sprintf("%s advances into %s: %s.", unit, aHex.Of(f), aBy.Of(f)), true
	case kFallBackAsked:
		return fmt.Sprintf("The assault on %s waits: %s is asked where %s retreat%s.", aHex.Of(f), aSide.Of(f), s.unitNames(aUnits.Of(f)), map[bool]string{true: "s", false: ""}[len(aUnits.Of(f)) == 1]), true
	case kFallBackDone:
		return fmt.Sprintf("The retreat from %s is over.", aHex.Of(f)), true
	}
	return "", false
}

// dieWithMods writes a roll with its modifiers in the shared die-line
// shape: "4, +1 Artillery values (2.2h) = 5", or "4" alone.
func dieWithMods(f events.Fact) string {
	s := fmt.Sprint(aDie.Of(f))
	drms := aDrms.Of(f)
	if len(drms) == 0 {
		return s
	}
	return fmt.Sprintf("%s, %s = %d", s, strings.Join(drms, ", "), aRoll.Of(f))
}

// echoAssault is the echo line of an assault fact.
func echoAssault(f events.Fact) (string, bool) {
	if s, ok := echoBattle(f); ok {
		return s, true
	}
	u := aUnit.OfAny(f)
	switch f.Kind {
	case kAssaultDeclared:
		s := fmt.Sprintf("%s assaults %s with %s", aSide.Of(f), aHex.Of(f), strings.Join(aUnits.Of(f), ", "))
		if l := aLeader.Of(f); l != "" {
			s += " under " + l
		}
		if aClass.Of(f) == "grand" {
			s += " (a Grand Assault)"
		}
		return s + ".", true
	case kAssaultRolled:
		return fmt.Sprintf("Assault on %s: Combat %s against %s, column %s; %s rolls %s: %s.", aHex.Of(f), aAttack.Of(f), aDefence.Of(f), aColumn.Of(f), aSide.Of(f), dieWithMods(f), aResult.Of(f)), true
	case kUnitFellBack:
		return fmt.Sprintf("%s retreats %s.", u, strings.Join(aPath.Of(f), "-")), true
	case kUnitAdvanced:
		return fmt.Sprintf("%s advances into %s.", u, aHex.Of(f)), true
	case kFallBackAsked:
		return fmt.Sprintf("The assault on %s waits: %s is asked where %s retreat (the combat table's Dr).", aHex.Of(f), aSide.Of(f), strings.Join(aUnits.Of(f), ", ")), true
	case kFallBackDone:
		return "", true
	}
	return "", false
}

// costNote says what a referee's command changed for the unit or leader
// a fact names: "(Manpower 7 -> 5, Combat value 7 -> 5)", or "".
func costNote(before, after *State, f events.Fact) string {
	switch f.Kind {
	case kStrengthLost, kStrengthSet, kUnitDisorganized, kUnitOrganized, kUnitFatigueSet, kUnitFellBack,
		kUnitAdvanced, kLeaderRemoved, kCavalryRetreated, kUnitPlaced, kUnitExhausted, kUnitRested:
	default:
		return ""
	}
	if l := aLeader.OfAny(f); l != "" && f.Kind == kLeaderRemoved {
		return "(" + l + " is out of play for the rest of the game)"
	}
	id := aUnit.OfAny(f)
	b, a := before.unit(id), after.unit(id)
	if b == nil || a == nil {
		return ""
	}
	var out []string
	if b.Manpower != a.Manpower {
		out = append(out, fmt.Sprintf("Manpower %d -> %d", b.Manpower, a.Manpower))
	}
	if cb, ca := before.combatHalves(b), after.combatHalves(a); cb != ca && a.Manpower > 0 {
		out = append(out, fmt.Sprintf("Combat value %s -> %s", halves(cb), halves(ca)))
	}
	if b.Fatigue != a.Fatigue {
		out = append(out, fmt.Sprintf("fatigue %d -> %d", b.Fatigue, a.Fatigue))
	}
	if b.Hex != a.Hex {
		out = append(out, fmt.Sprintf("hex %s -> %s", b.Hex, a.Hex))
	}
	if !b.Eliminated && a.Eliminated {
		out = append(out, "eliminated")
	}
	if len(out) == 0 {
		return ""
	}
	return "(cost to " + id + ": " + strings.Join(out, ", ") + ")"
}

// assaultExamples are the referee's commands for the attack p, each one
// the state would take now: a defender's loss and retreat, an
// attacker's loss, and RULE DONE.
func assaultExamples(st *State, p *Pending) []string {
	at := hex.MustParse(p.Path[len(p.Path)-1])
	var out []string
	if us := st.unitsAt(at); len(us) > 0 {
		u := us[0]
		out = append(out, fmt.Sprintf("RULE LOSS %s 1", st.uref(u)))
		for _, n := range at.Neighbors() {
			if st.fallBackStep(u, at, at, n) == "" {
				out = append(out, fmt.Sprintf("RULE RETREAT %s %s", st.uref(u), n))
				break
			}
		}
	}
	if a := st.unit(p.attackers()[0]); a != nil && !a.Eliminated {
		out = append(out, fmt.Sprintf("RULE LOSS %s 1", st.uref(a)))
	}
	return append(out, "RULE DONE")
}
