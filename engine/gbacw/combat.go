package gbacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine/hex"
)

// --- the UDD (1.2), disorder (19), losses, rout (R11) ---

// starsWith is the star rating of the leaders stacked with u (18.4: the
// whole stack; several leaders' stars add).
func (s *State) starsWith(u *Unit) int {
	n := 0
	for _, l := range s.leadersAt(u.Hex) {
		if l.Side == u.Side {
			n += s.stars(l)
		}
	}
	return n
}

// udd rolls a UDD for u (1.2): success if dr + DRMs <= its cohesion; the
// stars of leaders in its stack are -1 each (18.4). drm is the rule's own
// DRM.
func (m *sim) udd(u *Unit, why string, drm, benign int) bool {
	dr := m.d10("UDD "+u.Name, benign)
	mods, total := modTexts([]mod{{drm, uddSource(why)}, {-m.st.starsWith(u), "leaders' stars (18.4)"}})
	need := m.st.cohesion(u)
	ok := dr+total <= need
	m.emit(kUddRolled, aUnit.Arg(u.Name), aWhy.Arg(why), aDr.Arg(int64(dr)), aDrm.Arg(int64(total)), aNeed.Arg(int64(need)), aOk.Arg(ok), aMods.Arg(mods...))
	return ok
}

// uddSource names the DRM a UDD's rule gives, by why the UDD is taken.
func uddSource(why string) string {
	switch {
	case strings.HasPrefix(why, "passing through"):
		return "the next hex's cost (8.4)"
	case strings.HasPrefix(why, "withdrawal"):
		return "the ground's cost (9.5)"
	case strings.HasPrefix(why, "March column"):
		return "March column shocked (10.8)"
	}
	return "DRM (1.2)"
}

// disorder flips u to its disordered side (19.1); a unit disordered
// already takes a second disorder (2D).
func (m *sim) disorder(u *Unit, why string) {
	u = m.st.unit(u.Name)
	if !u.onMap() {
		return
	}
	if u.Disordered {
		m.secondDisorder(u, why)
		return
	}
	m.emit(kUnitDisordered, aUnit.Arg(u.Name), aWhy.Arg(why))
}

// secondDisorder is 2D (R11 reading): the unit loses a strength point (a
// step loss, 17.3) and routs.
func (m *sim) secondDisorder(u *Unit, why string) {
	m.say("%s takes a second disorder (2D): %s.", u.Name, why)
	if m.loseSP(u, 1, "second disorder (2D)", true) {
		m.rout(m.st.unit(u.Name), "second disorder")
	}
}

// loseSP takes n strength points from u; a step loss from fire, shock or
// 2D checks the leaders with it (17.3). A unit at 0 is eliminated, and a
// leader whose every unit is gone dies with them (17.4). It reports
// whether the unit is still on the map.
func (m *sim) loseSP(u *Unit, n int, why string, step bool) bool {
	u = m.st.unit(u.Name)
	if !u.onMap() || n <= 0 {
		return u.onMap()
	}
	left := max(0, u.SP-n)
	m.emit(kUnitLost, aUnit.Arg(u.Name), aSp.Arg(int64(left)), aLost.Arg(int64(u.SP-left)), aWhy.Arg(why))
	if step {
		m.casualtyCheck(m.st.unit(u.Name))
	}
	if left == 0 {
		m.emit(kUnitRemoved, aUnit.Arg(u.Name), aWhy.Arg("eliminated"))
		m.commandGone()
		return false
	}
	return true
}

// rout: a collapsed unit (20.1) that routs goes off the map; another
// routs (R11 reading): it is on its disordered side, goes back two
// hexes keeping its facing (7.5), to the hex its owner chooses where
// there are two or more (routVia), and can do nothing but try to
// recover.
func (m *sim) rout(u *Unit, why string) {
	u = m.st.unit(u.Name)
	if !u.onMap() {
		return
	}
	if m.st.collapsed(u) {
		m.emit(kUnitRemoved, aUnit.Arg(u.Name), aWhy.Arg("collapsed and routed off the map (20.1)"))
		m.say("%s has collapsed and routs off the map (20.1).", u.Name)
		m.commandGone()
		return
	}
	via := m.routVia(u, why)
	m.emit(kUnitRouted, aUnit.Arg(u.Name), aWhy.Arg(why))
	m.retreatVia(m.st.unit(u.Name), 2, "rout", via)
}

// --- fire (11, 12, 13) ---

// shot is one fire: a unit (or a combined split regiment, 11.5) at a
// target unit.
type shot struct {
	firer  string
	with   []string // split units combining with it (8.32)
	target string
	sp     int
	kind   string // phase, return, closing, withdrawal, pre-shock
}

// fireCap is the most SP u fires with from its stack (11.1): infantry 7,
// cavalry 4 (dismounted cavalry fires as infantry, 16.5), artillery 12.
func (s *State) fireCap(u *Unit) int {
	switch s.typ(u) {
	case Artillery:
		return 12
	case Cavalry:
		return 4
	}
	return 7
}

// fireShare is the SP u fires with from its stack (11.1): fire comes
// from the top of the stack, the stack's infantry (or dismounted
// cavalry) 7 SP at most together, its mounted cavalry 4, its artillery
// 12, each counted from the top down; a unit the caps do not reach
// fires nothing. The caps are the stack's, not each unit's: two
// batteries of 8 SP fire 8 and 4.
func (s *State) fireShare(u *Unit) int {
	art := s.isArt(u)
	above := 0
	for _, v := range s.unitsAt(u.Hex) {
		if v.Name == u.Name {
			break
		}
		if v.Side == u.Side && s.isArt(v) == art {
			above += s.strength(v)
		}
	}
	return max(0, min(s.strength(u), s.fireCap(u)-above))
}

// canFireFromStack reports whether u may fire from its stack (11.1,
// B14): each unit from the top that the stack's caps reach (the
// specification's reading of 11.5a); option b14-top-non-artillery: the
// top unit other than artillery and each battery the artillery cap
// reaches; option b14-one-firer: the top unit only.
func (s *State) canFireFromStack(u *Unit) bool {
	us := s.unitsAt(u.Hex)
	switch {
	case s.Scn.Options.OneFirer:
		return us[0].Name == u.Name
	case s.fireShare(u) == 0:
		return false
	case s.Scn.Options.TopNonArtillery && !s.isArt(u):
		for _, v := range us {
			if !s.isArt(v) {
				return v.Name == u.Name
			}
		}
	}
	return true
}

// fireWhy says why u may not fire at the unit in h now, or "": its orders
// (10.7, 11.2, 11.3), its stack (11.1), range, line of sight (12), its
// front (7.2; for phase fire, turn says a point of turn would bring h in
// front; non-phase fire has no such turn), mounted
// cavalry's range (16.3c) and charge (16.3b).
func (s *State) fireWhy(u *Unit, h hex.Hex, kind string) (why string, turn int) {
	w := s.Scn.Tables.Weapons[s.def(u).Weapon]
	dist := hex.Distance(u.Hex, h)
	turn = -1
	switch {
	case !u.onMap() || u.Routed:
		return u.Name + " cannot fire: routed or gone", turn
	case u.Order == March:
		return u.Name + " is on March orders: no fire (10.7)", turn
	case u.Order == Reserve:
		return u.Name + " is in reserve", turn
	case kind == "phase" && u.Order == Advance && u.Moved:
		return u.Name + " is on Advance orders and has moved: it may fire only if it has not (11.2)", turn
	case kind == "phase" && u.Order == Attack && u.WM:
		return u.Name + " made a withdrawal movement: no fire (11.3)", turn
	case u.Charged:
		return u.Name + " charged this phase: no fire (16.3b)", turn
	case !s.canFireFromStack(u):
		return u.Name + " is not the top unit of its stack, or the units above it fire the stack's whole cap: fire comes from the top (11.1)", turn
	case dist == 0 || dist > w.Range:
		return fmt.Sprintf("%s is %d hexes away: %s's %s reaches %d", h, dist, u.Name, s.def(u).Weapon, w.Range), turn
	case s.mountedCav(u) && dist > 2 && kind != "return":
		return fmt.Sprintf("mounted cavalry fires at 2 hexes at most (16.3c): %s is %d away", h, dist), turn
	case !s.los(u.Hex, h, s.losKind(u)):
		return fmt.Sprintf("%s has no line of sight to %s (12)", u.Name, h), turn
	}
	if !inFront(u, h) {
		// The free point of turn to fire (7.3) is the phasing unit's:
		// non-phase fire (return, pre-shock, withdrawal, closing fire)
		// is at its front as it stands, a reaction facing change (7.6)
		// being its only turn.
		if kind != "phase" {
			return fmt.Sprintf("%s is not in %s's front: units fire only into their front (7.2)", h, u.Name), turn
		}
		for _, n := range []int{1, -1} {
			v := *u
			v.Facing = (u.Facing + n + 6) % 6
			if inFront(&v, h) {
				return "", v.Facing
			}
		}
		return fmt.Sprintf("%s is not in %s's front: units fire only into their front (7.2)", h, u.Name), turn
	}
	return "", turn
}

func (s *State) losKind(u *Unit) int {
	if s.isArt(u) {
		return losArtillery
	}
	return losSmallArms
}

// fireStep is a phasing unit's FIRE (11): step 0 checks it, turns it a
// free point if it must (7.3), and lets each unit fired on from other
// than its front face it (7.6); step 1 takes the return fire declared
// before the fire is resolved (13.1) and resolves both.
func (m *sim) fireStep(o *Order, k int) int {
	st := m.st
	u := st.unit(o.Unit)
	if k == 0 {
		if u.Fired {
			m.fail(o, o.Col, u.Name+" has fired this phase", "")
		}
		turn := -1
		for _, h := range o.Targets {
			if len(st.enemiesAt(h, u.Side)) == 0 {
				m.fail(o, o.Col, fmt.Sprintf("no enemy unit at %s", h), "")
			}
			why, t := st.fireWhy(u, h, "phase")
			if why != "" {
				m.fail(o, o.Col, why, "")
			}
			if t >= 0 {
				if turn >= 0 && turn != t {
					m.fail(o, o.Col, "one free point of turn to fire (7.3) cannot bring every target in front", "turn first: "+u.Name+": FACE ...")
				}
				turn = t
			}
		}
		if turn >= 0 {
			m.emit(kUnitFaced, aUnit.Arg(u.Name), aFacing.Arg(int64(turn)), aMp.Arg(int64(u.MP)), aMoved.Arg(false))
			v := m.st.unit(u.Name)
			for _, h := range o.Targets {
				if !inFront(v, h) {
					m.fail(o, o.Col, fmt.Sprintf("one free point of turn to fire (7.3) does not bring %s in front", h), "")
				}
			}
		}
		for _, h := range o.Targets {
			for _, e := range m.st.enemiesAt(h, u.Side) {
				if sector(e, u.Hex) != hex.Front {
					m.reactionFace(m.st.unit(e.Name), m.st.unit(u.Name), "fired")
				}
			}
		}
		return 1
	}
	// Split fire (11.6): as evenly as possible, the larger part first.
	sp := st.fireShare(u)
	var with []string
	for _, n := range o.Units[1:] {
		// Split units of one regiment in contact in a stack firing at the
		// same target fire as one (11.5, 8.32): the plan put their lines
		// together; units firing at other targets fire apart.
		v := st.unit(n)
		if v.Hex != u.Hex || st.def(v).Split == "" || st.def(v).Split != st.def(u).Split {
			m.fail(o, o.Col, fmt.Sprintf("%s and %s are not split units of one regiment in one stack: only those combine their fire (11.5)", u.Name, n), "one FIRE line for each unit")
		}
		if v.Fired {
			m.fail(o, o.Col, n+" has fired this phase", "")
		}
		if why, _ := st.fireWhy(v, o.Targets[0], "phase"); why != "" && !strings.Contains(why, "top unit") {
			m.fail(o, o.Col, why, "")
		}
		with = append(with, n)
		sp += st.fireShare(v)
	}
	sp = min(sp, st.fireCap(u))
	var shots []shot
	for i, h := range o.Targets {
		share := sp / len(o.Targets)
		if i < sp%len(o.Targets) {
			share++
		}
		if share == 0 {
			continue
		}
		if top := st.unitsAt(h); len(top) > 0 && top[0].Side != u.Side {
			shots = append(shots, shot{firer: u.Name, with: with, target: top[0].Name, sp: share, kind: "phase"})
		}
	}
	for _, f := range append([]string{u.Name}, with...) {
		m.emit(kUnitMarked, aUnit.Arg(f), aFlag.Arg("fired"), aOn.Arg(true))
	}
	// Return fire is declared before the fire is resolved (13.1).
	var back []shot
	for _, h := range o.Targets {
		for _, e := range m.st.enemiesAt(h, u.Side) {
			if sh, ok := m.returnFire(m.st.unit(e.Name), m.st.unit(u.Name)); ok {
				back = append(back, sh)
			}
		}
	}
	m.volley(append(shots, back...))
	return -1
}

// returnFire is 13.1: a unit fired on may fire back at the hex that fired
// at it, once per brigade activation (B12), if it could fire at it; the
// phasing side never returns fire.
func (m *sim) returnFire(e, firer *Unit) (shot, bool) {
	st := m.st
	if st.Act == nil || e.Side == st.Act.Side || slices.Contains(e.Used, rReturn) {
		return shot{}, false
	}
	if why, _ := st.fireWhy(e, firer.Hex, "return"); why != "" {
		return shot{}, false
	}
	ok, _ := m.react(rReturn, e, reactCtx{enemy: firer, trigger: "fired", odds: st.stackSP(firer.Hex)},
		fmt.Sprintf("13.1 Return fire: %s (%s) fires at your %s (%s); return fire at it before the fire is resolved?", firer.Name, firer.Hex, e.Name, e.Hex))
	if !ok {
		return shot{}, false
	}
	m.emit(kUnitMarked, aUnit.Arg(e.Name), aFlag.Arg("used:"+rReturn), aOn.Arg(true))
	top := st.unitsAt(firer.Hex)[0]
	return shot{firer: e.Name, target: top.Name, sp: st.fireShare(e), kind: "return"}, true
}

// volley resolves fires at once: every die is rolled and every result
// found before any is applied (13.1: simultaneous), except that the
// results of artillery's return fire are found and applied afterwards.
func (m *sim) volley(shots []shot) {
	type found struct {
		sh  shot
		res FireResult
	}
	var now []found
	var later []shot
	for _, sh := range shots {
		if sh.kind == "return" && m.st.isArt(m.st.unit(sh.firer)) {
			later = append(later, sh)
			continue
		}
		now = append(now, found{sh, m.fireResult(sh)})
	}
	for _, f := range now {
		m.applyFire(f.sh, f.res)
	}
	for _, sh := range later {
		if u := m.st.unit(sh.firer); u.onMap() && !u.Routed {
			sh.sp = min(sh.sp, m.st.strength(u))
			m.applyFire(sh, m.fireResult(sh))
		}
	}
}

// fireResult rolls one fire on the Fire Results Table (R2), or asks the
// referee to rule it when the scenario has no table. DRMs: the weapon's
// at the range, Prepared Fire for a unit that has not moved this phase
// (11.4), the target's terrain and works, fire at its flank or rear, a
// disordered firer. Leaders give none (18.1).
func (m *sim) fireResult(sh shot) FireResult {
	st := m.st
	u, t := st.unit(sh.firer), st.unit(sh.target)
	tab := st.Scn.Tables
	dist := hex.Distance(u.Hex, t.Hex)
	ms := []mod{{tab.Weapons[st.def(u).Weapon].DRM[dist-1], fmt.Sprintf("%s at %d hex%s (R2)", st.def(u).Weapon, dist, yes(dist == 1, "", "es"))}}
	// Prepared Fire (11.4) is the phasing unit's fire when it has not
	// moved this phase; non-phase fire has none (option
	// prepared-fire-any: any fire by a unit that has not moved).
	if !u.Moved && (sh.kind == "phase" || st.Scn.Options.PreparedAll) {
		ms = append(ms, mod{tab.FireDRM["prepared"], "prepared fire (11.4)"})
	}
	if name, td, _ := st.hexDef(t.Hex); td.Fire != 0 {
		ms = append(ms, mod{td.Fire, name.Terrain + " (R4)"})
	}
	if slices.Contains(st.Works, t.Hex) {
		ms = append(ms, mod{tab.Construction["breastworks"].Fire, "works (R13)"})
	}
	switch sector(t, u.Hex) {
	case hex.Flank:
		ms = append(ms, mod{tab.FireDRM["target-flank"], "at its flank (R2)"})
	case hex.Rear:
		ms = append(ms, mod{tab.FireDRM["target-rear"], "at its rear (R2)"})
	}
	if u.Disordered {
		ms = append(ms, mod{tab.FireDRM["firer-disordered"], "firer disordered (R2)"})
	}
	why, drm := modTexts(ms)
	dr := m.d10("fire "+u.Name, 0)
	var code, col string
	if tab.Fire == nil {
		code = m.rule("fire|"+u.Name, fmt.Sprintf("%s fires %d SP at %s from %d hexes (%s fire), dr %d, DRM %+d (%s), and the scenario has no Fire Results Table (R2): rule the result (n SP lost, D a disorder check)",
			u.Name, sh.sp, t.Name, dist, sh.kind, dr, drm, strings.Join(why, ", ")), []string{"RULE -", "RULE D", "RULE 1", "RULE 1D"}, "-")
		col = "ruled"
	} else {
		c := tab.Fire.fireColumn(sh.sp)
		col = tab.Fire.Cols[c].Name
		code = tab.Fire.look(c, dr+drm)
	}
	if m.dry {
		code = "-"
	}
	res, err := parseFireResult(code)
	if err != nil {
		res = FireResult{}
	}
	m.emit(kFireResolved, aFirer.Arg(u.Name), aTarget.Arg(t.Name), aSp.Arg(int64(sh.sp)), aRange.Arg(int64(dist)),
		aCol.Arg(col), aDr.Arg(int64(dr)), aDrm.Arg(int64(drm)), aResult.Arg(code), aKind.Arg(sh.kind), aMods.Arg(why...))
	return res
}

// applyFire applies a fire's result to its target: SP lost (a step loss,
// 17.3), then a disorder check (UDD: failure disorders, or 2D for a unit
// disordered already).
func (m *sim) applyFire(sh shot, res FireResult) {
	t := m.st.unit(sh.target)
	if !t.onMap() {
		return
	}
	if res.Loss > 0 && !m.loseSP(t, res.Loss, sh.kind+" fire by "+sh.firer, true) {
		return
	}
	if res.Check {
		t = m.st.unit(sh.target)
		if !m.udd(t, "fired on by "+sh.firer, 0, 0) {
			m.disorder(t, "fired on by "+sh.firer)
		}
	}
}

// closingFire is 13.4: a unit may fire at an enemy that moved within 3
// hexes of it, once per phase.
func (m *sim) closingFire(e, mover *Unit) {
	st := m.st
	if !e.onMap() || !mover.onMap() || slices.Contains(e.Used, rClosing) || hex.Distance(e.Hex, mover.Hex) > 3 {
		return
	}
	if why, _ := st.fireWhy(e, mover.Hex, "closing"); why != "" || !inFront(e, mover.Hex) {
		return
	}
	ok, _ := m.react(rClosing, e, reactCtx{enemy: mover, trigger: "moved", odds: st.stackSP(mover.Hex)},
		fmt.Sprintf("13.4 Closing fire: %s moves to %s, %d hexes from your %s (%s).", mover.Name, mover.Hex, hex.Distance(e.Hex, mover.Hex), e.Name, e.Hex))
	if !ok {
		return
	}
	m.emit(kUnitMarked, aUnit.Arg(e.Name), aFlag.Arg("used:"+rClosing), aOn.Arg(true))
	m.volley([]shot{{firer: e.Name, target: mover.Name, sp: st.fireShare(e), kind: "closing"}})
}

// withdrawalFire is 9.6 and 13.3: non-phasing infantry and cavalry (not
// artillery) may fire at a unit leaving their front hex by its own
// movement, after its turn, before it goes.
func (m *sim) withdrawalFire(u *Unit) {
	st := m.st
	for i := range st.Units {
		e := m.st.Units[i]
		if !e.onMap() || e.Side == u.Side || m.st.isArt(e) || !hex.Adjacent(e.Hex, u.Hex) || !inFront(e, u.Hex) {
			continue
		}
		mover := m.st.unit(u.Name)
		if !mover.onMap() {
			return
		}
		if why, _ := m.st.fireWhy(e, mover.Hex, "withdrawal"); why != "" {
			continue
		}
		ok, _ := m.react(rWithdrawF, e, reactCtx{enemy: mover, trigger: "leaving", odds: m.st.stackSP(mover.Hex)},
			fmt.Sprintf("9.6 Withdrawal fire: %s is leaving %s, in the front of your %s (%s).", mover.Name, mover.Hex, e.Name, e.Hex))
		if ok {
			m.volley([]shot{{firer: e.Name, target: mover.Name, sp: m.st.fireShare(e), kind: "withdrawal"}})
		}
	}
}
