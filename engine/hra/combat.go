package hra

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine/table"
	"pbem/events"
)

// declare records a side's sealed volleys (HRA 4.III.a, H23).
func (m *sim) declare(side string, os []Order) []events.Problem {
	st := m.State
	var probs []events.Problem
	var firers, targets []string
	var picks []Order
	none := false
	for _, o := range os {
		switch o.Kind {
		case oPick:
			picks = append(picks, o)
		case oNoFire:
			none = true
		case oFire:
			f, t := st.unit(o.Units[0]), st.unit(o.Target)
			if f.Side != side {
				probs = append(probs, problem(o, fmt.Sprintf("%s is not yours", f.Name), ""))
				continue
			}
			if slices.Contains(firers, f.Name) {
				probs = append(probs, problem(o, fmt.Sprintf("%s fires at most one volley a round (HRA 4.III.a)", f.Name), ""))
				continue
			}
			if as := st.newAttackers(f.Name); len(as) > 0 {
				// HRA 11f: the defender picks which attacker its extra
				// volley is fired at.
				if !slices.Contains(as, t.Name) {
					probs = append(probs, problem(o, fmt.Sprintf("%s is attacked in melee by %s: its extra volley goes at one of them (HRA 11c, 11f)", f.Name, strings.Join(as, " and ")), "FIRE "+f.Name+" AT "+as[0]))
					continue
				}
				firers, targets = append(firers, f.Name), append(targets, t.Name)
				continue
			}
			if _, err := st.canFire(f, t, false, false); err != nil {
				probs = append(probs, problem(o, err.Error(), "HELP lists the volleys you may fire"))
				continue
			}
			firers, targets = append(firers, f.Name), append(targets, t.Name)
		default:
			probs = append(probs, problem(o, "in Phase III declare volleys: FIRE <unit> AT <enemy>, or FIRE NONE; PICK <unit>, ... to choose your confrontations' order", ""))
		}
	}
	if none && len(firers) > 0 {
		probs = append(probs, problem(os[0], "FIRE NONE and volleys in one mail", ""))
	}
	// HRA 11f: a defender attacked by several units names the one its
	// extra volley goes at; the engine does not choose for it.
	for i := range st.Units {
		u := &st.Units[i]
		if as := st.newAttackers(u.Name); u.Side == side && len(as) > 1 && !slices.Contains(firers, u.Name) {
			probs = append(probs, problem(os[0], fmt.Sprintf("%s is attacked in melee by %s: say which one its extra volley goes at (HRA 11f)", u.Name, strings.Join(as, " and ")),
				"FIRE "+u.Name+" AT "+as[0]))
		}
	}
	if len(picks) > 1 {
		probs = append(probs, problem(picks[1], "one PICK line a mail: list every unit on it", ""))
	}
	if len(probs) > 0 {
		return probs
	}
	if len(picks) == 1 {
		if p := m.statePicks(side, "fire", picks[0], firers...); p != nil {
			return []events.Problem{*p}
		}
	}
	m.Emit(kVolleysDeclared, aSide.Arg(side), aFirers.Arg(firers...), aTargets.Arg(targets...))
	if len(firers) == 0 {
		m.Say("%s fires no volley", side)
	} else {
		m.Say("%s declares %d volley(s); they are revealed when both sides have declared (H23)", side, len(firers))
	}
	if len(m.State.Declared) == 2 {
		m.resolveFire()
	}
	return nil
}

// hit is one unit's fire in a confrontation.
type hit struct {
	firer, target string
	loss          int
	flank         bool // HRA 12a c
}

// resolveFire is Phase III after both sides have declared (HRA 4.III.g):
// the defenders' extra volleys (HRA 11c), then the confrontations in turn
// (HRA 4.III.b, 4.III.c, H24), then the end of the round.
func (m *sim) resolveFire() {
	for _, v := range m.State.Volleys {
		m.Say("volley declared: %s at %s", v.Firer, v.Target)
	}
	// 1. The defenders' extra volleys, all at once (HRA 11c, 11f, 11g):
	// at the attacker, or the one of several its side named.
	var defs []Volley
	seen := map[string]bool{}
	for _, ml := range m.State.Melees {
		if !ml.New || seen[ml.Defender] {
			continue
		}
		seen[ml.Defender] = true
		as := m.State.newAttackers(ml.Defender)
		target := ""
		if len(as) == 1 {
			target = as[0]
		}
		for _, v := range m.State.Volleys {
			if v.Firer == ml.Defender && slices.Contains(as, v.Target) {
				target = v.Target
			}
		}
		if target == "" {
			m.Say("%s named none of %s for its extra volley: it fires none (HRA 11f)", ml.Defender, strings.Join(as, ", "))
			continue
		}
		defs = append(defs, Volley{Firer: ml.Defender, Target: target})
	}
	if len(defs) > 0 {
		m.Say("defensive volleys before melee (HRA 11c)")
		hits := m.fireAll(defs, nil, true)
		broken := m.afterFire(hits, defs)
		for _, v := range defs {
			a, d := m.State.unit(v.Target), m.State.unit(v.Firer)
			survived := !a.Removed() && !broken[a.Name] // H8
			if !survived {
				m.endMelee(a.Name, d.Name)
				m.Say("%s did not survive the defensive volley: no melee with %s (HRA 11d)", a.Name, d.Name)
				continue
			}
			if d.Arm == Artillery && !d.Removed() {
				m.setState(d.Name, 0, "overrun in melee (HRA 11g)")
			}
		}
	}
	// 2. Confrontations: firer-target edges and melee pairs, grouped.
	var vols []Volley
	for _, v := range m.State.Volleys {
		f, t := m.State.unit(v.Firer), m.State.unit(v.Target)
		if f.Removed() || t.Removed() || m.State.inMelee(f.Name) {
			continue
		}
		vols = append(vols, v)
	}
	for _, ml := range m.State.Melees {
		vols = append(vols, Volley{Firer: ml.Attacker, Target: ml.Defender}, Volley{Firer: ml.Defender, Target: ml.Attacker})
	}
	groups := confrontations(vols)
	// HRA 4.III.c: the players pick confrontations alternately, the
	// initiative side first; each takes the next of its PICK list, else
	// its first unresolved one (doc.go).
	picker := m.State.Initiative
	done := make([]bool, len(groups))
	for left := len(groups); left > 0; left-- {
		pick, by, how := -1, "", ""
		for _, side := range []string{picker, opponent(picker)} {
			pick, by, how = m.pickConfrontation(groups, done, side)
			if pick >= 0 {
				picker = opponent(side)
				m.Say("%s picks the confrontation of %s (%s, HRA 4.III.c)", side, by, how)
				break
			}
		}
		if pick < 0 {
			break
		}
		done[pick] = true
		m.Say("confrontation %d (HRA 4.III.b)", pick+1)
		melee := func(v Volley) bool {
			for _, ml := range m.State.Melees {
				if (ml.Attacker == v.Firer && ml.Defender == v.Target) || (ml.Defender == v.Firer && ml.Attacker == v.Target) {
					return true
				}
			}
			return false
		}
		var normal, inMelee []Volley
		shot := map[string]bool{}
		for _, v := range groups[pick] {
			if shot[v.Firer] {
				continue // one volley a unit (HRA 4.III.a, 11f)
			}
			shot[v.Firer] = true
			if melee(v) {
				inMelee = append(inMelee, v)
			} else {
				normal = append(normal, v)
			}
		}
		hits := m.fireAll(normal, inMelee, false)
		m.afterFire(hits, append(normal, inMelee...))
	}
	// Melees whose units no longer touch are over.
	for _, ml := range m.State.Melees {
		a, d := m.State.unit(ml.Attacker), m.State.unit(ml.Defender)
		if !table.Touch(m.State.footprint(a), m.State.footprint(d)) {
			m.endMelee(a.Name, d.Name)
		}
	}
	m.checkEnd()
	if m.State.Phase == PhaseOver {
		return
	}
	if m.State.Round >= m.State.Scn.Rounds {
		m.endGame(fmt.Sprintf("the scenario's %d rounds have been played", m.State.Scn.Rounds))
		return
	}
	m.beginRound(m.State.Round + 1)
}

// pickConfrontation is side's next pick among the unresolved groups: the
// first one holding a unit of its PICK list, else the first with one of
// its firers (roster order). It returns the group, the unit that names it
// and how it was chosen; -1 if side has none left.
func (m *sim) pickConfrontation(groups [][]Volley, done []bool, side string) (int, string, string) {
	for _, n := range m.State.FirePicks[side] {
		for i, g := range groups {
			if done[i] || !m.involves(g, side) {
				continue
			}
			for _, v := range g {
				if v.Firer == n || v.Target == n {
					return i, n, "its list"
				}
			}
		}
	}
	for i, g := range groups {
		if done[i] {
			continue
		}
		for _, v := range g {
			if m.State.unit(v.Firer).Side == side {
				return i, v.Firer, "roster order"
			}
		}
	}
	return -1, "", ""
}

func (m *sim) involves(g []Volley, side string) bool {
	for _, v := range g {
		if m.State.unit(v.Firer).Side == side {
			return true
		}
	}
	return false
}

// newAttackers lists the units that attacked name in melee this round
// (new melees it defends), in the order the melees began.
func (s *State) newAttackers(name string) []string {
	var out []string
	for _, ml := range s.Melees {
		if ml.New && ml.Defender == name && !slices.Contains(out, ml.Attacker) {
			out = append(out, ml.Attacker)
		}
	}
	return out
}

func (m *sim) endMelee(a, b string) {
	for _, ml := range m.State.Melees {
		if (ml.Attacker == a && ml.Defender == b) || (ml.Attacker == b && ml.Defender == a) {
			m.Emit(kMeleeEnded, aAttacker.Arg(ml.Attacker), aDefender.Arg(ml.Defender))
		}
	}
}

// confrontations groups volleys into connected components (H24), in the
// order of their first volley.
func confrontations(vs []Volley) [][]Volley {
	comp := map[string]int{}
	var groups [][]Volley
	for _, v := range vs {
		a, okA := comp[v.Firer]
		b, okB := comp[v.Target]
		switch {
		case !okA && !okB:
			groups = append(groups, []Volley{v})
			comp[v.Firer], comp[v.Target] = len(groups)-1, len(groups)-1
		case okA && !okB:
			groups[a] = append(groups[a], v)
			comp[v.Target] = a
		case !okA && okB:
			groups[b] = append(groups[b], v)
			comp[v.Firer] = b
		default:
			groups[a] = append(groups[a], v)
			if a != b {
				lo, hi := min(a, b), max(a, b)
				merged := append(groups[lo], groups[hi]...)
				if lo == b {
					merged = append(groups[b], groups[a]...)
				}
				groups[lo] = merged
				groups[hi] = nil
				for k, c := range comp {
					if c == hi {
						comp[k] = lo
					}
				}
			}
		}
	}
	var out [][]Volley
	for _, g := range groups {
		if len(g) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// fireAll resolves volleys against the battlefield as it stands (HRA 14a)
// and returns each result; nothing changes until afterFire (HRA 14b).
func (m *sim) fireAll(normal, melee []Volley, defensive bool) []hit {
	var hits []hit
	do := func(v Volley, inMelee bool) {
		f, t := m.State.unit(v.Firer), m.State.unit(v.Target)
		sh, err := m.State.canFire(f, t, inMelee, defensive)
		if err != nil {
			m.Say("%s cannot fire at %s: %v", f.Name, t.Name, err)
			return
		}
		die := m.roll(fmt.Sprintf("fire %s at %s", f.Name, t.Name))
		mod := die + sh.Mod
		loss := FireLoss(sh.Weapon, sh.Short, sh.State, cavTarget(t), sh.Hindered, mod)
		rng := "long"
		if sh.Short {
			rng = "short"
		}
		how := "normal"
		if sh.Hindered {
			how = "hindered: " + sh.Why
		}
		kind := "volley"
		switch {
		case defensive:
			kind = "defensive volley"
		case inMelee:
			kind = "melee"
		}
		// HRA 12a c: fired on from the flank or rear, in melee too (HRA
		// 11d: the normal rules), but not by artillery at long range.
		flank := m.State.flankOrRear(f, t) && !(sh.Weapon == Guns && !sh.Short)
		m.Emit(kVolleyFired, aFirer.Arg(f.Name), aTarget.Arg(t.Name), aKind.Arg(kind), aWeapon.Arg(sh.Weapon),
			aRange.Arg(rng), aHindered.Arg(sh.Hindered), aState.Arg(int64(sh.State)), aDie.Arg(int64(die)),
			aMod.Arg(int64(sh.Mod)), aLoss.Arg(int64(loss)), aFlank.Arg(flank))
		modTxt := ""
		if sh.Mod != 0 {
			modTxt = fmt.Sprintf("%+d (cavalry, HRA 16a)", sh.Mod)
		}
		m.Say("%s: %s at %s, %s, %s range, %s fire, state %d: d6=%d%s → %d loss (T2)", kind, f.Name, t.Name, sh.Weapon, rng, how, sh.State, die, modTxt, loss)
		hits = append(hits, hit{firer: f.Name, target: t.Name, loss: loss, flank: flank})
	}
	for _, v := range normal {
		do(v, false)
	}
	for _, v := range melee {
		do(v, true)
	}
	return hits
}

// afterFire applies a confrontation's results at once (HRA 14b): losses,
// the general's fate (HRA 12a d), supply (HRA 3f), then the morale tests
// (HRA 12, 4.III.f) and their immediate forced moves. It returns the units
// whose test sent them back at once (H8).
func (m *sim) afterFire(hits []hit, vols []Volley) map[string]bool {
	loss := map[string]int{}
	var order []string
	causes := map[string][]string{}
	cause := func(u, c string) {
		if !slices.Contains(causes[u], c) {
			causes[u] = append(causes[u], c)
		}
	}
	var killed []string
	for _, h := range hits {
		if _, ok := loss[h.target]; !ok {
			order = append(order, h.target)
		}
		loss[h.target] += h.loss
		if h.flank {
			cause(h.target, "fired on from the flank or rear (HRA 12a c)")
		}
		if h.loss > 0 {
			t := m.State.unit(h.target)
			for _, b := range m.State.Brigades {
				if b.With == t.Name && !b.Killed && !slices.Contains(killed, b.Name) {
					d := m.roll("general " + b.Name)
					m.Say("%s's general is with %s, which suffered losses: d6=%d%s (HRA 12a d)", b.Name, t.Name, d, map[bool]string{true: " — killed", false: ""}[d == 1])
					if d == 1 {
						killed = append(killed, b.Name)
					}
				}
			}
		}
	}
	for _, name := range order {
		u := m.State.unit(name)
		if loss[name] == 0 {
			continue
		}
		before := u.State
		m.setState(name, before-loss[name], "fire (T2)")
		if before > 1 && before-loss[name] == 1 {
			cause(name, "fell to low state (HRA 12a a)")
		}
	}
	for _, b := range killed {
		m.Emit(kGeneralKilled, aBrigade.Arg(b))
		for _, u := range m.State.brigadeUnits(b) {
			cause(u.Name, "general killed (HRA 12a d, 12c)")
		}
	}
	// The general of a removed unit goes to another of his brigade.
	for _, b := range m.State.Brigades {
		if b.With != "" && m.State.unit(b.With).Removed() {
			if us := m.State.brigadeUnits(b.Name); len(us) > 0 {
				m.Emit(kGeneralMoved, aBrigade.Arg(b.Name), aUnit.Arg(us[0].Name))
				m.Say("%s's general rides to %s", b.Name, us[0].Name)
			}
		}
	}
	// HRA 3f: supply drops for each unit that fired in the confrontation;
	// a declared volley that proved impossible was not fired.
	fired := map[string]bool{}
	for _, h := range hits {
		if f := m.State.unit(h.firer); !fired[h.firer] && !f.Removed() {
			fired[h.firer] = true
			if f.Supply > 0 {
				m.Emit(kUnitSet, aUnit.Arg(f.Name), aField.Arg("supply"), aTo.Arg(int64(f.Supply-1)))
			}
		}
	}
	var tests []string
	for _, u := range m.State.Units {
		if len(causes[u.Name]) > 0 && !u.Removed() {
			tests = append(tests, u.Name)
		}
	}
	return m.moraleTests(tests, causes, false)
}

func (m *sim) setState(name string, to int, why string) {
	u := m.State.unit(name)
	to = max(to, 0)
	m.Emit(kUnitSet, aUnit.Arg(name), aField.Arg("state"), aFrom.Arg(int64(u.State)), aTo.Arg(int64(to)), aCause.Arg(why))
	if to == 0 {
		m.Say("%s: state %d → 0: it breaks and leaves the battlefield (HRA 3a) — %s", name, u.State, why)
	} else {
		m.Say("%s: state %d → %d — %s", name, u.State, to, why)
	}
}

// moraleTests tests the units at once (HRA 12b: one test whatever the
// causes; HRA 14: simultaneously), then applies the results (HRA 12e).
// phaseOne tests units in retreat (HRA 4.I.a, 5c; H5). It returns the
// units sent back at once.
func (m *sim) moraleTests(names []string, causes map[string][]string, phaseOne bool) map[string]bool {
	type res struct {
		name string
		r    MoraleResult
	}
	var rs []res
	for _, n := range names {
		u := m.State.unit(n)
		b := m.State.brigade(u.Brigade)
		status := m.State.status(b)
		losses := m.State.BrigadeLosses(b.Name)
		gen, stMod, lossMod := MoraleModifiers(b.With == n && !b.Killed, u.State, losses, status)
		mod := gen + stMod + lossMod
		d := m.roll("morale " + n)
		why := strings.Join(causes[n], "; ")
		if phaseOne {
			why = "in retreat (HRA 12a e, 5c)"
		}
		r := Morale(d + mod)
		args := []events.Arg{aUnit.Arg(n), aDie.Arg(int64(d)), aMod.Arg(int64(mod)), aTotal.Arg(int64(d + mod)), aResult.Arg(r.String())}
		if gen != 0 {
			args = append(args, aGeneral.Arg(int64(gen)))
		}
		if stMod != 0 {
			args = append(args, aStateMod.Arg(int64(stMod)))
		}
		if lossMod != 0 {
			args = append(args, aLosses.Arg(int64(losses)), aStatus.Arg(int64(status)))
		}
		m.Emit(kMoraleTested, args...)
		m.Say("morale %s (%s): d6=%d %+d = %d: %s (HRA 12d, 12e)", n, why, d, mod, d+mod, r)
		rs = append(rs, res{n, r})
	}
	back := map[string]bool{}
	var now []string
	for _, x := range rs {
		u := m.State.unit(x.name)
		set := func(field string, v bool) {
			m.Emit(kUnitSet, aUnit.Arg(x.name), aField.Arg(field), aTo.Arg(b2i(v)))
		}
		if phaseOne {
			if x.r != MoraleBroken {
				set("retreating", false) // H5: it stops fleeing
				m.Say("%s stops retreating (H5)", x.name)
			}
			switch x.r {
			case MoraleWithdraw:
				set("withdraw_next", true)
			case MoraleShaken, MoraleBroken:
				m.setState(x.name, u.State-1, "morale (HRA 12e)")
				if x.r == MoraleShaken {
					set("withdraw_next", true)
				}
			}
			continue
		}
		switch x.r {
		case MoraleWithdraw:
			set("withdraw_next", true)
		case MoraleShaken:
			m.setState(x.name, u.State-1, "morale (HRA 12e)")
			set("withdraw_next", true)
		case MoraleBroken:
			m.setState(x.name, u.State-1, "morale (HRA 12e)")
			back[x.name] = true
			if !m.State.unit(x.name).Removed() {
				now = append(now, x.name)
			}
		}
	}
	for _, n := range now {
		u := m.State.unit(n)
		if u.Removed() {
			continue
		}
		if u.Retreating {
			m.forced(n, true, false) // HRA 12e: already in retreat, one full move forward
			continue
		}
		m.forced(n, false, false) // withdraws immediately
		if v := m.State.unit(n); !v.Removed() {
			m.Emit(kUnitSet, aUnit.Arg(n), aField.Arg("retreat_next"), aTo.Arg(1))
		}
	}
	return back
}

// checkEnd ends the game when a side has no unit left on the table.
func (m *sim) checkEnd() {
	if m.State.Phase == PhaseOver {
		return
	}
	for _, side := range Sides {
		left := false
		for _, u := range m.State.Units {
			left = left || (u.Side == side && !u.Removed())
		}
		if !left {
			m.endGame(fmt.Sprintf("%s has no unit left on the battlefield", side))
			return
		}
	}
}

// endGame scores the scenario's victory conditions (R12: scenario data):
// removed enemy units and objectives held.
func (m *sim) endGame(reason string) {
	sc := m.State.Score
	_ = sc
	score := map[string]int{}
	for _, u := range m.State.Units {
		if u.Removed() {
			score[opponent(u.Side)] += m.State.Scn.RemovedVP
		}
	}
	var held []string
	for _, p := range m.State.Scn.Points {
		if p.VP == 0 {
			continue
		}
		near := map[string]bool{}
		for i := range m.State.Units {
			u := &m.State.Units[i]
			if !u.Removed() && !u.Retreating && m.State.footprint(u).PointWithin(p.At, table.CM(5)) {
				near[u.Side] = true
			}
		}
		if len(near) == 1 {
			for _, side := range Sides {
				if near[side] {
					score[side] += p.VP
					held = append(held, fmt.Sprintf("%s holds %s (%d)", side, p.Name, p.VP))
				}
			}
		}
	}
	winner := ""
	switch {
	case score[Union] > score[Confederate]:
		winner = Union
	case score[Confederate] > score[Union]:
		winner = Confederate
	}
	res := fmt.Sprintf("%s; victory points Union %d, Confederate %d", reason, score[Union], score[Confederate])
	if len(held) > 0 {
		res += " (" + strings.Join(held, ", ") + ")"
	}
	if winner == "" {
		res += ": a draw"
	} else {
		res += ": " + winner + " wins"
	}
	m.Emit(kBattleEnded, aWinner.Arg(winner), aReason.Arg(res), aUnion.Arg(int64(score[Union])), aConfederate.Arg(int64(score[Confederate])))
	m.Say("game over: %s", res)
}
