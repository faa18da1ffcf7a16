package gbacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine/hex"
)

// shockStep carries out one shock combination (14): the units of o at
// the enemy hex o.Targets[0], in the order of 14.3: step 0 the
// combination (a) and the defender's pre-shock retreat (b); step 1 the
// green attackers' UDD (c), the defender's UDD (d) and a counter-charge;
// step 2 the defender's pre-shock fire (e); step 3 the resolution (f),
// disorder (g), with the charge bonuses (h, i).
func (m *sim) shockStep(o *Order, k int) int {
	switch k {
	case 0:
		return m.shockDeclare(o)
	case 1:
		return m.shockChecks(o)
	case 2:
		return m.preShockFire(o)
	}
	m.shockResolve(o)
	return -1
}

// attackers are the combination's units still in it: next to one of
// its defender hexes.
func (m *sim) attackers(o *Order) []*Unit {
	var out []*Unit
	for _, n := range o.Units {
		u := m.st.unit(n)
		if u.onMap() && !u.Routed && !slices.Contains(u.Used, "noshock") && slices.ContainsFunc(o.Targets, func(h hex.Hex) bool { return hex.Adjacent(u.Hex, h) }) {
			out = append(out, u)
		}
	}
	return out
}

// defenders are the enemy units in the combination's hexes, hex by hex
// in the order the shock names them (14.3a).
func (m *sim) defenders(o *Order) []*Unit {
	var out []*Unit
	for _, h := range o.Targets {
		out = append(out, m.st.enemiesAt(h, m.st.Act.Side)...)
	}
	return out
}

// targetsText names the combination's defender hexes.
func targetsText(o *Order) string {
	var hs []string
	for _, h := range o.Targets {
		hs = append(hs, h.String())
	}
	return joinAnd(hs)
}

// shockWhy says why u may not shock h (14.2): its orders, its arm, its
// brigade's activation, recovery or construction, the hex in its front
// and enterable (7.2), a mounted unit that fired (16.3b).
func (s *State) shockWhy(u *Unit, h hex.Hex) string {
	switch {
	case !u.onMap() || u.Routed:
		return u.Name + " is routed or gone"
	case u.Order != Attack && u.Order != Advance:
		return fmt.Sprintf("%s is on %s orders: only Attack and Advance orders shock (14.2, 10.7)", u.Name, u.Order)
	case s.isArt(u):
		return u.Name + " is artillery: artillery does not shock (14.2)"
	case u.Recover || u.Build:
		return u.Name + " is recovering or building: it does not shock (14.2)"
	case u.Shocked:
		return u.Name + " has shocked this phase"
	case !hex.Adjacent(u.Hex, h):
		return fmt.Sprintf("%s is not next to %s", u.Name, h)
	case !inFront(u, h):
		return fmt.Sprintf("%s is not in %s's front: units shock only into their front (7.2)", h, u.Name)
	case s.mountedCav(u) && u.Fired:
		return u.Name + " fired this phase: mounted cavalry that fires does not charge (16.3b)"
	}
	if _, why := s.otherTerrain(u.Hex, h, u.Order != Attack || s.Scn.Options.AttackCrossings); why != "" {
		return fmt.Sprintf("%s cannot enter %s: %s (14.2: an enterable front hex)", u.Name, h, why)
	}
	return ""
}

// shockDeclare is 14.3a and b. Each attacker shocks into its front
// (one of the combination's hexes there at least), and each hex of the
// combination is in the front of one attacker at least.
func (m *sim) shockDeclare(o *Order) int {
	st := m.st
	h := targetsText(o)
	for _, t := range o.Targets {
		if len(st.enemiesAt(t, st.Act.Side)) == 0 {
			m.fail(o, o.Col, fmt.Sprintf("no enemy unit at %s to shock", t), "")
		}
	}
	defenders := m.defenders(o)
	cav := false
	by := map[hex.Hex]bool{}
	for _, n := range o.Units {
		u := st.unit(n)
		first := ""
		for _, t := range o.Targets {
			why := st.shockWhy(u, t)
			if why == "" {
				by[t] = true
			} else if first == "" {
				first = why
			}
		}
		if !slices.ContainsFunc(o.Targets, func(t hex.Hex) bool { return st.shockWhy(u, t) == "" }) {
			m.fail(o, o.Col, first, "")
		}
		cav = cav || st.mountedCav(u)
	}
	for _, t := range o.Targets {
		if !by[t] {
			m.fail(o, o.Col, st.shockWhy(st.unit(o.Units[0]), t), "")
		}
	}
	if len(o.Targets) > 1 {
		var also []int64
		for _, t := range o.Targets[1:] {
			also = append(also, hexInt(t))
		}
		m.emit(kShockDeclared, aAttackers.Arg(o.Units...), aHex.Arg(hexInt(o.Targets[0])), aAlso.Arg(also...))
	} else {
		m.emit(kShockDeclared, aAttackers.Arg(o.Units...), aHex.Arg(hexInt(o.Targets[0])))
	}
	// b. Pre-shock retreat by the non-phasing side: not on Attack or
	// March orders, not artillery, not against mounted cavalry (B16).
	for _, d := range defenders {
		d = m.st.unit(d.Name)
		if !d.onMap() || d.Routed || m.st.isArt(d) || d.Order == Attack || d.Order == March || slices.Contains(d.Used, rRetreat) {
			continue
		}
		if cav && !st.Scn.Options.RetreatFromCav {
			continue
		}
		n := 1
		if m.st.mountedCav(d) {
			n = 2
		}
		ends, paths := m.st.retreatEnds(d, n)
		q := fmt.Sprintf("14.3b Pre-shock retreat: %s shock your %s at %s.", joinAnd(o.Units), d.Name, d.Hex)
		switch {
		case len(ends) > 1 && n == 1:
			q += fmt.Sprintf(" It may retreat into %s: PRE-SHOCK RETREAT <hex> chooses (the first if none is named).", joinOr(ends))
		case len(ends) > 1:
			q += fmt.Sprintf(" It retreats two hexes, mounted, and may end in %s: PRE-SHOCK RETREAT <hex> chooses (the first if none is named).", joinOr(ends))
		}
		ok, arg := m.react(rRetreat, d, reactCtx{enemy: st.unit(o.Units[0]), trigger: "shocked", odds: m.st.stackSP(st.unit(o.Units[0]).Hex)}, q)
		if !ok {
			continue
		}
		m.emit(kUnitMarked, aUnit.Arg(d.Name), aFlag.Arg("used:"+rRetreat), aOn.Arg(true))
		// The retreating unit makes no withdrawal movement as well.
		m.emit(kUnitMarked, aUnit.Arg(d.Name), aFlag.Arg("used:"+rWM), aOn.Arg(true))
		if d.Disordered && !m.udd(d, "pre-shock retreat while disordered (14.3b)", 0, 0) {
			m.secondDisorder(m.st.unit(d.Name), "failed its pre-shock retreat UDD (14.3b)")
			continue
		}
		m.retreatVia(m.st.unit(d.Name), n, "pre-shock retreat (14.3b)", viaEnd(ends, paths, arg))
	}
	if len(m.defenders(o)) == 0 {
		// The attacker may advance into the hex; no continued shock.
		m.say("%s is left empty before the shock: no continued shock (14.3b).", h)
		m.advance(o, m.attackers(o))
		m.markShocked(o)
		return -1
	}
	return 1
}

// shockChecks is 14.3c and d, and a counter-charge.
func (m *sim) shockChecks(o *Order) int {
	st := m.st
	for _, u := range m.attackers(o) {
		if st.def(u).Green && !m.udd(u, "green attacker (14.3c)", 0, 0) {
			m.emit(kUnitMarked, aUnit.Arg(u.Name), aFlag.Arg("used:noshock"), aOn.Arg(true))
			m.say("%s is green and fails its UDD: it does not attack (14.3c).", u.Name)
		}
	}
	if len(m.attackers(o)) == 0 {
		m.markShocked(o)
		return -1
	}
	// d. The top unit of each defender hex takes the UDD.
	for _, h := range o.Targets {
		ds := m.st.enemiesAt(h, st.Act.Side)
		if len(ds) == 0 {
			continue
		}
		top := ds[0]
		if top.Order == March {
			// 10.8: a March column shocked takes a UDD with a DRM: success
			// disorders it, failure routs it (14.3d).
			if m.udd(top, "March column shocked (10.8, 14.3d)", drm(st.Scn.Tables.UDDDRM, "march-shocked"), 0) {
				m.disorder(top, "shocked on March orders (14.3d)")
			} else {
				m.rout(m.st.unit(top.Name), "shocked on March orders (14.3d)")
			}
		} else if !m.udd(top, "shocked (14.3d)", 0, 0) {
			m.disorder(top, "failed its shock UDD (14.3d)")
		}
	}
	if def := m.defenders(o); len(def) > 0 && m.st.mountedCav(def[0]) {
		atk := m.attackers(o)
		if slices.ContainsFunc(atk, func(u *Unit) bool { return m.st.mountedCav(u) }) {
			d := def[0]
			ok, _ := m.react(rCounter, d, reactCtx{enemy: atk[0], trigger: "shocked", odds: m.st.stackSP(atk[0].Hex)},
				fmt.Sprintf("16 Counter-charge: %s charge your mounted %s at %s.", joinAnd(o.Units), d.Name, d.Hex))
			if ok {
				m.emit(kUnitMarked, aUnit.Arg(d.Name), aFlag.Arg("charged"), aOn.Arg(true))
				m.emit(kUnitMarked, aUnit.Arg(d.Name), aFlag.Arg("used:"+rCounter), aOn.Arg(true))
			}
		}
	}
	return 2
}

// preShockFire is 13.2 and 14.3e (one fire, B19): after the pre-shock
// check the top unit of each defender hex may fire at an attacker in its
// front (7.2), once per phase, unless another enemy unit is in its
// front. Option b19-two-fires: 13.2's fire and 14.3e's reaction fire are
// two.
func (m *sim) preShockFire(o *Order) int {
	st := m.st
	fires := []string{rPreFire}
	if st.Scn.Options.TwoFires {
		fires = append(fires, rPreFire+" 2")
	}
	for _, h := range o.Targets {
		def := m.st.enemiesAt(h, st.Act.Side)
		if len(def) == 0 || len(m.attackers(o)) == 0 {
			continue
		}
		d := def[0]
		for _, used := range fires {
			r := rPreFire
			d = m.st.unit(d.Name)
			if !d.onMap() || slices.Contains(d.Used, used) {
				continue
			}
			var target *Unit
			for _, a := range m.attackers(o) {
				if why, _ := m.st.fireWhy(d, a.Hex, "pre-shock"); why == "" {
					target = a
					break
				}
			}
			if target == nil {
				continue
			}
			blocked := false
			for _, x := range m.st.Units {
				if x.onMap() && x.Side != d.Side && !slices.Contains(o.Units, x.Name) && hex.Adjacent(x.Hex, d.Hex) && inFront(d, x.Hex) {
					blocked = true // another enemy in its front (13.2)
				}
			}
			if blocked {
				continue
			}
			ok, _ := m.react(r, d, reactCtx{enemy: target, trigger: "shocked", odds: m.st.stackSP(target.Hex)},
				fmt.Sprintf("13.2 Pre-shock fire: %s shock your %s at %s; fire at %s first?", joinAnd(o.Units), d.Name, h, target.Name))
			if !ok {
				continue
			}
			m.emit(kUnitMarked, aUnit.Arg(d.Name), aFlag.Arg("used:"+used), aOn.Arg(true))
			m.volley([]shot{{firer: d.Name, target: target.Name, sp: m.st.fireShare(d), kind: "pre-shock"}})
			if len(m.attackers(o)) == 0 {
				break
			}
		}
	}
	return 3
}

// shockResolve is 14.3f-i: the odds of the attackers' SP to the
// defenders', the DRMs, the Shock Results Table (R3; the referee rules
// without one), losses, retreats and the advance, then disorder.
func (m *sim) shockResolve(o *Order) {
	st := m.st
	h := targetsText(o)
	atk := m.attackers(o)
	def := m.defenders(o)
	if len(atk) == 0 {
		m.markShocked(o)
		return
	}
	if len(def) == 0 {
		m.advance(o, atk)
		m.markShocked(o)
		return
	}
	tab := st.Scn.Tables
	var asp, dsp int
	for _, u := range atk {
		asp += st.strength(u)
	}
	for _, u := range def {
		dsp += st.strength(u)
	}
	drmv, why := m.shockDRM(o, atk, def)
	dr := m.d10("shock at "+h, 0)
	var code, odds string
	if tab.Shock == nil {
		code = m.rule("shock|"+h, fmt.Sprintf("%s (%d SP) shock %s (%d SP) at %s, dr %d, DRM %+d (%s), and the scenario has no Shock Results Table (R3): rule the result (A/D attacker/defender: d disordered, r retreats, n SP lost; parts joined by /)",
			joinAnd(o.Units), asp, joinAnd(unitNames(def)), dsp, h, dr, drmv, strings.Join(why, ", ")), []string{"RULE Ad/Dd", "RULE D1/Dr", "RULE A1/Ar", "RULE -"}, "-")
		odds = "ruled"
	} else {
		c := tab.Shock.oddsColumn(asp, dsp)
		odds = tab.Shock.Cols[c].Name
		code = tab.Shock.look(c, dr+drmv)
	}
	if m.dry {
		code = "-"
	}
	res, err := parseShockResult(code)
	if err != nil {
		res = ShockResult{}
	}
	m.emit(kShockResolved, aAttackers.Arg(unitNames(atk)...), aDefenders.Arg(unitNames(def)...), aAsp.Arg(int64(asp)), aDsp.Arg(int64(dsp)),
		aOdds.Arg(odds), aDr.Arg(int64(dr)), aDrm.Arg(int64(drmv)), aResult.Arg(code), aMods.Arg(why...))
	// f. Losses, retreats, the advance.
	if res.ALoss > 0 {
		big := atk[0]
		for _, u := range atk {
			if u.SP > big.SP {
				big = u
			}
		}
		m.loseSP(big, res.ALoss, "shock", true)
	}
	if res.DLoss > 0 {
		m.loseSP(def[0], res.DLoss, "shock", true)
	}
	if res.DRet {
		for _, d := range def {
			if d = m.st.unit(d.Name); d.onMap() && !m.st.isArt(d) {
				n := 1
				if m.st.mountedCav(d) {
					n = 2
				}
				m.retreat(d, n, "shock result")
			}
		}
	}
	if res.ARet {
		for _, u := range atk {
			if u = m.st.unit(u.Name); u.onMap() {
				m.retreat(u, 1, "shock result")
			}
		}
	}
	m.advance(o, m.attackers(o))
	// g. Disorder.
	if res.ADis {
		for _, u := range atk {
			m.disorder(u, "shock result")
		}
	}
	if res.DDis {
		for _, d := range def {
			if d = m.st.unit(d.Name); d.onMap() {
				m.disorder(d, "shock result")
			}
		}
	}
	m.markShocked(o)
}

func unitNames(us []*Unit) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Name)
	}
	return out
}

// shockDRM sums the shock DRMs (R3): 18.2 a brigade whose leader is with
// none of its attacking regiments this phase -1, 18.3 an Aggressive
// brigade leader stacked with an attacker +1, 14.3h infantry on Attack
// orders that did not fire, 14.3i mounted cavalry charging, a
// counter-charge, an attacker at the defender's flank or rear, the
// defender's terrain, works and hexside, disorder on either side.
func (m *sim) shockDRM(o *Order, atk, def []*Unit) (int, []string) {
	st := m.st
	tab := st.Scn.Tables.ShockDRM
	var why []string
	total := 0
	add := func(n int, what string) {
		if n != 0 {
			total += n
			why = append(why, fmt.Sprintf("%+d %s", n, what))
		}
	}
	// 18.2 and 18.3.
	attacking := m.phaseAttackers()
	var brigades []string
	for _, u := range atk {
		if !slices.Contains(brigades, u.Brigade) {
			brigades = append(brigades, u.Brigade)
		}
	}
	for _, b := range brigades {
		bl := st.leader(st.Scn.brigadeDef(b).Leader)
		with := false
		for _, n := range attacking {
			if u := st.unit(n); u.Brigade == b && bl != nil && bl.onMap() && bl.Hex == u.Hex {
				with = true
			}
		}
		if !with {
			add(-1, b+"'s leader with none of its attackers (18.2)")
		}
	}
	for _, u := range atk {
		if bl := st.leader(st.Scn.brigadeDef(u.Brigade).Leader); bl != nil && bl.onMap() && bl.Hex == u.Hex && st.aggressive(bl) {
			add(1, "aggressive "+bl.Name+" (18.3)")
			break
		}
	}
	inf, infCharge, cav := 0, 0, false
	for _, u := range atk {
		switch {
		case st.mountedCav(u):
			cav = true
		default:
			inf++
			if u.Order == Attack && !u.Fired {
				infCharge++
			}
		}
	}
	if inf > 0 && infCharge == inf {
		add(tab["charge-infantry"], "infantry charge (14.3h)")
	}
	if cav {
		add(tab["charge-cavalry"], "cavalry charge (14.3i)")
	}
	if d := def[0]; slices.Contains(d.Used, rCounter) {
		add(tab["counter-charge"], "counter-charge (16.3b)")
	}
	// The defender's hex: facing, terrain, works and hexside, those of
	// the first hex named (option shock-best-hex: of the hex named that
	// is best for the defender).
	n, w := st.shockHexDRM(atk, def[0])
	if st.Scn.Options.ShockBestHex {
		for _, d := range def[1:] {
			if d.Hex == def[0].Hex {
				continue
			}
			if n2, w2 := st.shockHexDRM(atk, d); n2 < n {
				n, w = n2, w2
			}
		}
	}
	total += n
	why = append(why, w...)
	if slices.ContainsFunc(atk, func(u *Unit) bool { return u.Disordered }) {
		add(tab["attacker-disordered"], "attacker disordered (R3)")
	}
	if def[0].Disordered {
		add(tab["defender-disordered"], "defender disordered (R3)")
	}
	return total, why
}

// shockHexDRM is the part of the shock DRMs that the defender's hex
// gives: an attacker at d's flank or rear, d's terrain and works, the
// hexsides the attackers cross.
func (s *State) shockHexDRM(atk []*Unit, d *Unit) (int, []string) {
	tab := s.Scn.Tables.ShockDRM
	total := 0
	var why []string
	add := func(n int, what string) {
		if n != 0 {
			total += n
			why = append(why, fmt.Sprintf("%+d %s", n, what))
		}
	}
	worst := hex.Front
	for _, u := range atk {
		if sc := sector(d, u.Hex); sc > worst {
			worst = sc
		}
	}
	switch worst {
	case hex.Flank:
		add(tab["flank"], "at the flank (R3)")
	case hex.Rear:
		add(tab["rear"], "at the rear (R3)")
	}
	if name, t, _ := s.hexDef(d.Hex); t.Shock != 0 {
		add(t.Shock, name.Terrain+" (R4)")
	}
	if slices.Contains(s.Works, d.Hex) {
		add(s.Scn.Tables.Construction["breastworks"].Shock, "works (R13)")
	}
	side := 0
	for _, u := range atk {
		hs, _ := hex.Between(u.Hex, d.Hex)
		for _, f := range s.Scn.Sides[hs] {
			side = min(side, s.Scn.Tables.SideFeat[f].Shock)
		}
	}
	add(side, "across the hexside (R4)")
	return total, why
}

// phaseAttackers are the units of the current brigade phase's shock
// lines (18.2 looks at the whole brigade's attack).
func (m *sim) phaseAttackers() []string {
	var out []string
	start := 0
	for i := m.at; i >= 0; i-- {
		if strings.HasPrefix(m.text[i], "|"+mGroup) {
			start = i
			break
		}
	}
	for _, e := range m.text[start+1:] {
		if strings.HasPrefix(e, "|"+mGroup) {
			break
		}
		if o, err := m.entry(m.st.Act.Side, e); err == nil && o.Kind == aShock {
			out = append(out, o.Units...)
		}
	}
	return out
}

// advance moves the attackers, if the order says ADVANCE, into the hex
// their shock emptied, while the stack takes them (14.3b, f); their
// facing is theirs to keep (7.3: turns after an advance are free).
//
// Of a combination of several hexes, the attackers advance into the
// first hex named that is left empty.
func (m *sim) advance(o *Order, atk []*Unit) {
	if !o.Advance {
		return
	}
	i := slices.IndexFunc(o.Targets, func(t hex.Hex) bool { return len(m.st.enemiesAt(t, m.st.Act.Side)) == 0 })
	if i < 0 {
		return
	}
	h := o.Targets[i]
	for _, u := range atk {
		u = m.st.unit(u.Name)
		if !u.onMap() {
			continue
		}
		us := append(slices.Clone(m.st.friendsAt(h, u.Side)), u)
		if m.st.stackWhy(us) != "" {
			continue
		}
		from := u.Hex
		m.emit(kUnitMoved, aUnit.Arg(u.Name), aHex.Arg(hexInt(h)), aFacing.Arg(int64(u.Facing)), aMp.Arg(int64(u.MP)), aExtended.Arg(false))
		m.carryLeaders(u, from, h)
		m.say("%s advances into %s.", u.Name, h)
		if v := m.st.unit(u.Name); o.HasFace && v.Facing != o.Face {
			// The free turn after an advance after combat (7.3), as the
			// order names it.
			m.emit(kUnitFaced, aUnit.Arg(u.Name), aFacing.Arg(int64(o.Face)), aMp.Arg(int64(v.MP)), aMoved.Arg(false))
		}
		m.place(o, m.st.unit(u.Name), from)
	}
}

// markShocked records the combination's units as having shocked, and
// mounted cavalry that charged as blown (R12 reading).
func (m *sim) markShocked(o *Order) {
	for _, n := range o.Units {
		u := m.st.unit(n)
		if !u.onMap() {
			continue
		}
		m.emit(kUnitMarked, aUnit.Arg(n), aFlag.Arg("shocked"), aOn.Arg(true))
		if m.st.mountedCav(u) && !slices.Contains(u.Used, "noshock") {
			m.emit(kUnitMarked, aUnit.Arg(n), aFlag.Arg("charged"), aOn.Arg(true))
			m.emit(kUnitMarked, aUnit.Arg(n), aFlag.Arg("blown"), aOn.Arg(true))
		}
	}
}
