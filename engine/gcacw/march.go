package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// marchMA returns a unit's movement allowance from its dice (GCACW 5.1.1):
// Union infantry and artillery 1d6; Confederate infantry and artillery
// 1d6+1, but in OTR and AGA 1d6 with a minimum of 2; Union cavalry 2d6;
// Confederate cavalry 2d6+1.
func marchMA(game, side, typ string, sum int) int {
	switch {
	case typ == Cavalry && side == USA:
		return sum
	case typ == Cavalry:
		return sum + 1
	case side == USA:
		return sum // Ambiguity A12: no minimum is stated, so 1 stands
	case game == "OTR" || game == "AGA":
		return max(sum, 2)
	}
	return sum + 1
}

// marchMA is marchMA with the scenario's reading of Ambiguity A12: by
// default a Union infantry or artillery MA of 1 stands; read as
// "minimum-2", it is at least 2, as the OTR/AGA Confederate exception.
func (s *State) marchMA(side, typ string, sum int) int {
	ma := marchMA(s.Scn.Game, side, typ, sum)
	if s.Scn.Reading(ReadA12) == "minimum-2" && side == USA && typ != Cavalry {
		ma = max(ma, 2)
	}
	return ma
}

// diceFor returns how many d6 a roll of this unit type takes: two for
// cavalry, one otherwise (GCACW 5.1.1, 5.1-FM.2).
func diceFor(typ string) int {
	if typ == Cavalry {
		return 2
	}
	return 1
}

// forceMarch returns the extra MP and the Manpower loss of a Force March
// from its unmodified roll (GCACW 5.1-FM.2, 5.1-FM.3; the table of
// 5.1-FM.4): infantry 1d6, roll-1 with a minimum of 2, losing 2 on a 6
// (1 if Manpower is under 6), 1 on 2-5, none on 1; cavalry 2d6, roll-1 with
// a minimum of 4, losing 1 on 8 or more.
func forceMarch(typ string, roll, manpower int) (extra, loss int) {
	if typ == Cavalry {
		extra = max(roll-1, 4)
		if roll >= 8 {
			loss = 1
		}
		return extra, loss
	}
	extra = max(roll-1, 2)
	switch {
	case roll == 6 && manpower >= 6:
		loss = 2
	case roll >= 2:
		loss = 1
	}
	return extra, loss
}

// extendedMarch reports whether a march that raises fatigue to newF is an
// Extended March (GCACW 5.1.2; GCACW 5.1-EM.1; GCACW 5.1-EM.2): a normal unit reaching
// 3 or 4, an exhausted unit reaching 2, 3 or 4.
func extendedMarch(exhausted bool, newF int) bool {
	if exhausted {
		return newF >= 2
	}
	return newF >= 3
}

// drm sums the Extended March DRMs that apply to u (already at its new
// fatigue), and lists them.
func (t *EMTable) drm(u *Unit) (int, []string) {
	total := 0
	var used []string
	for _, d := range t.DRMs {
		ok := true
		for _, c := range d.When {
			k, v, _ := strings.Cut(c, "=")
			switch k {
			case "side":
				ok = ok && u.Side == v
			case "type":
				ok = ok && u.Type == v
			case "fatigue":
				n, _ := strconv.Atoi(v)
				ok = ok && u.Fatigue == n
			case "in":
				ok = ok && slices.Contains(u.In, v)
			case "not-in":
				ok = ok && !slices.Contains(u.In, v)
			case "exhausted":
				ok = ok && u.Exhausted
			case "normal":
				ok = ok && !u.Exhausted
			case "organized":
				ok = ok && !u.Disorganized
			case "disorganized":
				ok = ok && u.Disorganized
			}
		}
		if ok {
			total += d.Value
			desc := fmt.Sprintf("%+d %s", d.Value, strings.ReplaceAll(strings.Join(d.When, " "), "=", " "))
			if d.Note != "" {
				desc = fmt.Sprintf("%+d %s", d.Value, d.Note)
			}
			used = append(used, desc)
		}
	}
	return total, used
}

// stepCost returns what unit u pays to move from a to the adjacent b, or
// why it may not. known is false when the Terrain Effects Chart is not
// loaded, or has no row for something the step needs: the chart is
// silent, so the referee rules the move (R1); the checks that need no
// chart still apply.
//
// GCACW 2.3b: a unit pays the Terrain Effects Chart's cost of the
// terrain type of the hex it enters (2.3a). GCACW 2.3f, 2.3g: hexside and
// in-hex features add their own costs but leave the hex's terrain type
// as it is.
//
// Costs (R1, from the chart): along a route that crosses the hexside, the
// cheapest such route's cost; otherwise the terrain of b, plus b's in-hex
// features, plus the creek, ridge and county-border costs of the
// hexside. A river hexside (major or minor) adds the cheapest of its
// crossings usable by this move (a ford, ferry or dam, or a bridge when
// the move follows a route across it) and the chart's own row for the
// river: where that row gives a cost, the river may be crossed anywhere
// at that cost; where it says P, only at a crossing.
func (s *State) stepCost(u *Unit, a, b hex.Hex) (cost int, known bool, why string) {
	c, silent, why := s.step(u, a, b)
	return c, silent == "" && why == "", why
}

// step is stepCost, saying what the chart is silent on ("chart" when no
// chart is loaded) instead of known.
func (s *State) step(u *Unit, a, b hex.Hex) (cost int, silent, why string) {
	m := &s.Scn.Map
	side, err := hex.Between(a, b)
	switch {
	case err != nil:
		return 0, "", fmt.Sprintf("%s is not next to %s", b, a)
	case !m.OnMap(b):
		return 0, "", fmt.Sprintf("%s is off the map (GCACW 2.3e)", b)
	case m.Terrain(b) == Water:
		return 0, "", fmt.Sprintf("%s is water", b)
	case s.hasEnemy(u.Side, b):
		if s.attacksAllowed() {
			return 0, "", fmt.Sprintf("%s holds an enemy unit: a march may attack only with the last hex of its path (GCACW 5.1.5)", b)
		}
		return 0, "", fmt.Sprintf("%s holds an enemy unit: a march that attacks it (GCACW 5.1.5) needs a referee to resolve the attack (R10); a referee may allow march attacks with RULE ATTACKS ALLOWED", b)
	}
	tec := s.Scn.Tables.Terrain
	// cost1 is the chart's cost of a row; a row the chart lacks is noted.
	cost1 := func(name string) int {
		if tec == nil {
			silent = "chart"
			return 0
		}
		c, ok := tec.Cost(name, u.Type)
		if !ok {
			if silent == "" {
				silent = name
			}
			return 0
		}
		return c
	}
	routeCost := -1
	for _, r := range m.RoutesAcross(side) {
		if c := cost1(r); c != Prohibited && (routeCost < 0 || c < routeCost) {
			routeCost = c
		}
	}
	onRoute := routeCost >= 0
	river := 0
	if m.River(side) {
		best := -1
		for _, f := range []string{Ford, Ferry, Dam, Bridge} {
			if !m.SideHas(side, f) || f == Bridge && !onRoute {
				continue
			}
			if c := cost1(f); c != Prohibited && (best < 0 || c < best) {
				best = c
			}
		}
		row := RiverMinor
		if m.SideHas(side, RiverMajor) {
			row = RiverMajor
		}
		rowCost, rowKnown := 0, false
		if tec != nil {
			rowCost, rowKnown = tec.Cost(row, u.Type)
		}
		if rowKnown && rowCost != Prohibited && (best < 0 || rowCost < best) {
			best = rowCost // R1: the chart lets the river itself be crossed
		}
		if best < 0 {
			if !rowKnown && silent == "" {
				silent = row
				if tec == nil {
					silent = "chart"
				}
			}
			if silent != "" {
				return 0, silent, "" // the referee rules whether it may cross
			}
			kind := "minor river"
			if row == RiverMajor {
				kind = "major river"
			}
			return 0, "", fmt.Sprintf("the %s at %s cannot be crossed here: the Terrain Effects Chart prohibits it (%s P), and there is no ford, ferry or dam, nor a bridge on a route", kind, side, row)
		}
		river = best
	}
	if onRoute {
		return routeCost + river, silent, ""
	}
	total := river
	d, _ := m.Hex(b)
	for _, name := range append([]string{d.Terrain}, d.Features...) {
		c := cost1(name)
		if c == Prohibited {
			return 0, "", fmt.Sprintf("%s: %s is prohibited to %s off a road (Terrain Effects Chart)", b, name, typeName(u.Type))
		}
		total += c
	}
	for _, f := range m.SideFeatures(side) {
		switch f {
		case Creek, Ridge, CountyBorder:
			c := cost1(f)
			if c == Prohibited {
				return 0, "", fmt.Sprintf("%s: crossing the %s at %s is prohibited to %s (Terrain Effects Chart)", b, f, side, typeName(u.Type))
			}
			total += c
		}
	}
	return total, silent, ""
}

// pathCost is the MP the plan's path costs u, up to STOP AT (known=false
// where the chart is silent).
func (s *State) pathCost(u *Unit, pl Plan) (int, bool) {
	cur, total := u.Hex, 0
	for _, h := range pl.Path {
		c, known, why := s.stepCost(u, cur, h)
		if !known || why != "" {
			return 0, false
		}
		total += c
		cur = h
		if pl.StopAt == h.String() {
			break
		}
	}
	return total, true
}

// walk moves u along the plan with ma MP (GCACW 5.1.5): it stops at the
// end of the path, at STOP AT, on entering enemy ZOC if told so, or when
// the next hex costs more MP than are left. silent is set when the next
// step is one the chart is silent on: the referee rules the rest (R1).
func (s *State) walk(u *Unit, pl Plan, ma int) (path []hex.Hex, spent int, stop, silent string) {
	cur, left := u.Hex, ma
	path = []hex.Hex{cur}
	for i, h := range pl.Path {
		if i == len(pl.Path)-1 && s.attacksAllowed() && s.hasEnemy(u.Side, h) {
			// GCACW 5.1.5: the march ends in an attack (the referee's, R10).
			return path, spent, "attack " + h.String(), ""
		}
		c, sil, why := s.step(u, cur, h)
		if why != "" {
			return path, spent, why, ""
		}
		if sil != "" {
			return path, spent, "", sil
		}
		if c > left {
			return path, spent, fmt.Sprintf("out of MP: %s costs %d, %d left", h, c, left), ""
		}
		left -= c
		spent += c
		cur = h
		path = append(path, h)
		if pl.StopAt == h.String() {
			return path, spent, "STOP AT " + pl.StopAt, ""
		}
		if pl.ZOCStop && s.inEnemyZOC(u.Side, h) {
			return path, spent, "entered enemy ZOC at " + h.String(), ""
		}
	}
	if left == 0 {
		return path, spent, "end of path, all MP spent", ""
	}
	return path, spent, "end of path", ""
}

// attacksAllowed reports whether a march may end in an attack (GCACW
// 5.1.5): the scenario's option, or a referee's ruling.
func (s *State) attacksAllowed() bool {
	return s.Attacks || s.Scn.Option(OptMarchAttacks) || s.Scn.Tables.Combat != nil
}

// enemyCavalryInZOC lists enemy cavalry units in the marching unit's ZOC
// (GCACW 5.1.2: they may make a Cavalry Retreat [7.7]).
func (s *State) enemyCavalryInZOC(u *Unit) []string {
	var out []string
	for _, n := range u.Hex.Neighbors() {
		if s.Scn.Map.zocInto(u.Hex, n, s.Scn.provisionalSwampBlocksZOC()) == NoZOC {
			continue
		}
		for _, e := range s.unitsAt(n) {
			if e.Side != u.Side && e.Type == Cavalry {
				out = append(out, e.ID)
			}
		}
	}
	slices.Sort(out)
	return out
}

// forceProblem says why u cannot Force March (GCACW 5.1-FM.b, 5.1-OPT),
// or "".
func forceProblem(u *Unit, opt bool) string {
	switch {
	case opt:
		return "a unit marching at fatigue 4 cannot force march (GCACW 5.1-OPT)"
	case u.Type == Artillery:
		return "artillery cannot force march (GCACW 5.1-FM.b)"
	case u.Disorganized:
		return "only an organized unit may force march, and " + u.Name + " is disorganized (GCACW 5.1-FM.b)"
	}
	return ""
}

// roll throws n d6 for purpose and returns their sum and values.
func (m sim) roll(purpose string, n int) (int, []int) {
	var vals []int
	sum := 0
	for range n {
		v := m.Dice.Roll(purpose, 6)
		vals = append(vals, v)
		sum += v
	}
	return sum, vals
}

func diceArg(vals []int) events.Arg {
	if len(vals) == 1 {
		return aDie.Arg(int64(vals[0]))
	}
	is := make([]int64, len(vals))
	for i, v := range vals {
		is[i] = int64(v)
	}
	return aDice.Arg(is...)
}

// doMarch performs a March action (GCACW 5.1) for side.
func (m sim) doMarch(side string, o Order) {
	m.take(side)
	u := m.State.unit(o.Unit)
	// GCACW 5.1.1: the MA, rolled by the unit's side.
	sum, vals := m.roll("march MA "+u.ID, diceFor(u.Type))
	ma := m.State.marchMA(u.Side, u.Type, sum)
	m.Emit(kMarchBegun, aUnit.Arg(u.ID), aSide.Arg(side), aMa.Arg(int64(ma)), diceArg(vals),
		aPlan.Arg(o.Plan.String()), aOpt.Arg(u.Fatigue >= 4))
	m.continueMarch()
}

// beginActivatedMarch starts the march of a unit named in a Leader
// Activation, with the leader's MA (Ambiguity A14, scenario option
// activation-march).
func (m sim) beginActivatedMarch(id string, pl Plan) {
	u := m.State.unit(id)
	m.Emit(kMarchBegun, aUnit.Arg(u.ID), aSide.Arg(u.Side), aMa.Arg(int64(m.State.Act.MA)),
		aLeader.Arg(m.State.Act.Leader), aPlan.Arg(pl.String()), aOpt.Arg(u.Fatigue >= 4))
	m.continueMarch()
}

// continueMarch runs the march in progress from its next step until it
// ends or waits for the referee.
func (m sim) continueMarch() {
	if m.State.March == nil {
		return
	}
	next := m.State.March.Next
	for m.State.March != nil && m.State.Pending == nil && m.State.Ask == nil {
		mr := m.State.March
		u := m.State.unit(mr.Unit)
		switch next {
		case "fatigue":
			// GCACW 5.1.2: fatigue rises by 1 (at 4 it stays 4: A9).
			nf := min(u.Fatigue+1, 4)
			ext := !mr.Opt && extendedMarch(u.Exhausted, nf)
			m.Emit(kUnitFatigueRaised, aUnit.Arg(u.ID), aFromInt.Arg(int64(u.Fatigue)), aFatigue.Arg(int64(nf)), aExtended.Arg(ext))
			if u.Fatigue == 4 && !u.Exhausted && m.State.Scn.Reading(ReadA9) == "exhaust" {
				// Ambiguity A9, read as "exhaust": the fatigue a fatigue-4
				// march cannot add turns the counter to its exhausted side.
				m.Emit(kUnitExhausted, aUnit.Arg(u.ID), aBy.Arg("the fatigue above 4 (Ambiguity A9, the scenario's reading)"))
			}
			next = m.State.March.Next
		case "em":
			// GCACW 5.1-EM.5: unless eliminated (the loop ends), it goes on.
			m.extended(u)
			next = "retreat"
		case "retreat":
			// GCACW 5.1.2: enemy cavalry in the marching unit's ZOC may
			// retreat [7.7] before step 3, as its owner chooses (retreat.go).
			if m.cavalryRetreat(u) {
				return
			}
			next = "force"
		case "force":
			m.forceStep(u)
			next = "move"
		case "move":
			m.moveStep(u)
		default:
			panic(internal{fmt.Errorf("march step %q", next)})
		}
	}
	if m.State.March == nil && m.State.Pending == nil && m.State.Ask == nil {
		m.afterMarch()
	}
}

// extended resolves an Extended March (GCACW 5.1-EM.3, 5.1-EM.4).
func (m sim) extended(u *Unit) {
	tab := m.State.Scn.Tables.Extended
	die := m.Dice.Roll("extended march "+u.ID, 6)
	if tab == nil {
		// R2: no table loaded, so the referee reads it.
		m.Emit(kExtendedMarchRolled, aUnit.Arg(u.ID), aDie.Arg(int64(die)))
		m.Emit(kRefereePending, aStep.Arg(StepExtended), aUnit.Arg(u.ID), aDie.Arg(int64(die)),
			aNote.Arg(fmt.Sprintf("read the Extended March Table for %s: die %d plus the game's DRMs, %s column, Manpower %d, fatigue %d", u.ID, die, orgWord(u), u.Manpower, u.Fatigue)))
		return
	}
	drm, used := tab.drm(u)
	roll := die + drm
	col, res, _ := tab.Lookup(!u.Disorganized, u.Manpower, roll)
	args := []events.Arg{aUnit.Arg(u.ID), aDie.Arg(int64(die)), aDrm.Arg(int64(drm)), aRoll.Arg(int64(roll)),
		aColumn.Arg(col.String()), aResult.Arg(res), aBy.Arg("table")}
	if len(used) > 0 {
		args = append(args, aDrms.Arg(used...))
	}
	m.Emit(kExtendedMarchResolved, args...)
	m.applyEM(u.ID, res)
}

// applyEM applies an Extended March result (GCACW 5.1-EM.4).
func (m sim) applyEM(id, res string) {
	u := m.State.unit(id)
	switch res {
	case "D":
		if !u.Disorganized {
			m.Emit(kUnitDisorganized, aUnit.Arg(id), aReason.Arg("extended march (GCACW 5.1-EM.4)"))
		}
	case "1", "2", "3":
		n, _ := strconv.Atoi(res)
		m.loseStrength(id, n, "extended march (GCACW 5.1-EM.4)")
	}
}

// loseStrength takes n Manpower from a unit; at 0 it has no Strength
// marker left and is eliminated (2.2o, R19).
func (m sim) loseStrength(id string, n int, reason string) {
	u := m.State.unit(id)
	left := max(u.Manpower-n, 0)
	m.Emit(kStrengthLost, aUnit.Arg(id), aManpower.Arg(int64(n)), aLeft.Arg(int64(left)), aReason.Arg(reason))
	if left > 0 {
		return
	}
	m.Emit(kUnitEliminated, aUnit.Arg(id), aReason.Arg("no Manpower left (GCACW 2.2o)"))
	m.leadersAloneBy(false)
}

// leadersAlone hands leaders left without a unit to the referee: a leader
// never occupies a hex alone (GCACW 2.2j), and where it goes is not in
// the rules.
func (m sim) leadersAlone() { m.leadersAloneBy(true) }

// leadersAloneBy handles the leaders a unit's elimination left alone.
// byReferee: the referee eliminated the unit (SET, RULE), and may bring
// it back, so every alone leader waits for the referee's ruling.
// Otherwise (the rules eliminated it) a leader that no live unit could
// take leaves play at once (GCACW 2.2j), since no TRANSFER the referee
// could send would be accepted and the game would wait for good.
func (m sim) leadersAloneBy(byReferee bool) {
	if h := m.State.Scn.Tables.House; h != nil && h.LeaderAlone != "" {
		m.placeAloneLeaders()
		return
	}
	if m.State.Pending != nil {
		return
	}
	var alone []string
	for _, l := range m.State.Leaders {
		if u := m.State.unit(l.With); !l.Removed && (u == nil || u.Eliminated) {
			if !byReferee && !m.State.mayStandAnywhere(l) {
				// No unit it may stand with is left (GCACW 2.2j): no
				// TRANSFER a referee could rule would be accepted, so
				// asking for one would leave the game waiting for good.
				m.Emit(kLeaderRemoved, aLeader.Arg(l.ID), aReason.Arg("no unit it may stand with is left (GCACW 2.2j)"))
				continue
			}
			alone = append(alone, l.ID)
		}
	}
	if len(alone) > 0 {
		m.Emit(kRefereePending, aStep.Arg(StepLeaderAlone), aUnits.Arg(alone...),
			aNote.Arg("leader(s) "+strings.Join(alone, ", ")+" lost their unit; a leader never stands alone (GCACW 2.2j): RULE TRANSFER <leader> TO <unit>"))
	}
}

// mayStandAnywhere says whether some live unit would take leader l by a
// referee's ruling (transferWhy with the referee's latitude).
func (st *State) mayStandAnywhere(l *Leader) bool {
	for _, u := range st.live() {
		if st.transferWhy(l, u, true) == "" {
			return true
		}
	}
	return false
}

// forceStep is step 3 of the march: the Force March the player asked for
// in advance (GCACW 5.1-FM.a: declared only now, in step 3, so the
// condition sees the MA of step 1 and any Extended March result), if
// allowed (GCACW 5.1.3, 5.1-FM.b; 5.1-FM.4: a unit an Extended March "D"
// disorganized cannot).
func (m sim) forceStep(u *Unit) {
	mr := m.State.March
	short := false
	if mr.Plan.Force == "short" {
		c, _ := m.State.pathCost(u, mr.Plan)
		short = c > mr.MA
	}
	if !mr.Plan.forceFor(mr.MA, short) {
		return
	}
	if why := forceProblem(u, mr.Opt); why != "" {
		m.Emit(kForceMarchSkipped, aUnit.Arg(u.ID), aReason.Arg(why))
		return
	}
	// GCACW 5.1-FM.1: first the unit becomes disorganized.
	m.Emit(kUnitDisorganized, aUnit.Arg(u.ID), aReason.Arg("force march (GCACW 5.1-FM.1)"))
	// GCACW 5.1-FM.2: extra MP, added to the MA of step 1.
	sum, vals := m.roll("force march "+u.ID, diceFor(u.Type))
	extra, loss := forceMarch(u.Type, sum, u.Manpower)
	m.Emit(kUnitForceMarched, aUnit.Arg(u.ID), diceArg(vals), aRoll.Arg(int64(sum)), aMp.Arg(int64(extra)), aMa.Arg(int64(mr.MA+extra)))
	// GCACW 5.1-FM.3: losses from the unmodified roll.
	if loss > 0 {
		m.loseStrength(u.ID, loss, "force march (GCACW 5.1-FM.3)")
	}
}

// moveStep moves the unit (GCACW 5.1.4, 5.1.5).
func (m sim) moveStep(u *Unit) {
	mr := m.State.March
	if m.State.Scn.Tables.Terrain == nil {
		// R1: no Terrain Effects Chart, so the referee rules how far it gets.
		m.Emit(kRefereePending, aStep.Arg(StepMove), aUnit.Arg(u.ID), aPath.Arg(hexStrs(mr.Plan.Path)...),
			aNote.Arg(fmt.Sprintf("%s has MA %d for the path %s; the scenario loads no Terrain Effects Chart: rule the hex where it stops", u.ID, mr.MA, strings.Join(hexStrs(mr.Plan.Path), " "))))
		return
	}
	path, spent, stop, silent := m.State.walk(u, mr.Plan, mr.MA)
	if silent != "" {
		// R1: where the chart has no row, the referee rules the move.
		at := path[len(path)-1]
		m.Emit(kRefereePending, aStep.Arg(StepMove), aUnit.Arg(u.ID), aPath.Arg(hexStrs(mr.Plan.Path)...),
			aNote.Arg(fmt.Sprintf("%s has MA %d for the path %s and reached %s with %d MP spent; the Terrain Effects Chart has no row for %s: rule the hex where it stops", u.ID, mr.MA, strings.Join(hexStrs(mr.Plan.Path), " "), at, spent, silent)))
		return
	}
	m.finishMarch(u, path, spent, stop)
	if target, ok := strings.CutPrefix(stop, "attack "); ok {
		// GCACW 5.1.5 (Ambiguity A25): the action stays open until the
		// attack is resolved; how is not in the rules (R10), so by the
		// scenario's combat table, or by the referee.
		if b := m.State.Scn.BattleFor(hex.MustParse(target)); b != nil {
			m.openBattle(u.Side, []string{u.ID}, hex.MustParse(target), "", b.System, b.Scenario, b.Sides)
			return
		}
		if m.State.Scn.Tables.Combat != nil {
			// A retreat asked of the defender (fallback.go) keeps the
			// march's action open until the answer.
			m.tableAssault(u.Side, []string{u.ID}, hex.MustParse(target), "", false, StepAttack)
			return
		}
		m.Emit(kRefereePending, aStep.Arg(StepAttack), aUnit.Arg(u.ID), aPath.Arg(target),
			aNote.Arg(fmt.Sprintf("%s attacks the enemy in %s at the end of its march, with %d of %d MP left (GCACW 5.1.5); the combat rules are not in the Standard Series Rules: rule what it costs each side (RULE LOSS <unit> <n>, RULE DISORGANIZED <unit>, RULE RETREAT <unit> <hex>..., RULE FATIGUE <unit> <n>, RULE CASUALTY <leader>, RULE ADVANCE <unit> <hex>), then RULE DONE", u.ID, target, mr.MA-spent, mr.MA)))
	}
}

func (m sim) finishMarch(u *Unit, path []hex.Hex, spent int, stop string) {
	mr := m.State.March
	opt := mr.Opt
	m.Emit(kUnitMarched, aUnit.Arg(u.ID), aPath.Arg(hexStrs(path)...), aMp.Arg(int64(spent)),
		aMa.Arg(int64(mr.MA)), aFatigue.Arg(int64(u.Fatigue)), aStopped.Arg(stop))
	// GCACW 5.1-OPT: after a fatigue-4 march the marker turns disorganized.
	if opt && !m.State.unit(u.ID).Disorganized {
		m.Emit(kUnitDisorganized, aUnit.Arg(u.ID), aReason.Arg("marched at fatigue 4 (GCACW 5.1-OPT)"))
	}
}

// afterMarch goes on with the activation, or ends the action.
func (m sim) afterMarch() {
	if m.State.Act != nil {
		m.continueActivation()
		return
	}
	m.endAction()
}

func orgWord(u *Unit) string {
	if u.Disorganized {
		return "disorganized"
	}
	return "organized"
}

// planFromString reads a plan written by Plan.String.
func planFromString(s string) (Plan, error) {
	var buf [16]string // room for the words of most plans, without allocating
	toks := appendPlanWords(buf[:0], s)
	var p Plan
	bad := func() (Plan, error) { return Plan{}, fmt.Errorf("plan %q", s) }
	hexes := 0
	for _, t := range toks {
		if len(t) == 4 && t[0] >= '0' && t[0] <= '9' {
			hexes++
		}
	}
	if hexes > 0 {
		p.Path = make([]hex.Hex, 0, hexes)
	}
	for i := 0; i < len(toks); i++ {
		t := strings.ToUpper(toks[i])
		switch {
		case len(t) == 4 && t[0] >= '0' && t[0] <= '9':
			h, err := hex.Parse(t)
			if err != nil {
				return bad()
			}
			p.Path = append(p.Path, h)
		case t == "FORCE":
			p.Force = "always"
			if i+2 < len(toks) && strings.EqualFold(toks[i+1], "IF") {
				if strings.EqualFold(toks[i+2], "SHORT") {
					p.Force, i = "short", i+2
				} else if i+4 < len(toks) {
					p.Force, i = toks[i+3]+toks[i+4], i+4
				} else {
					return bad()
				}
			}
		case t == "STOP" && i+2 < len(toks):
			p.StopAt, i = toks[i+2], i+2
		case t == "IF" && i+3 < len(toks):
			p.ZOCStop, i = true, i+3
		default:
			return bad()
		}
	}
	return p, nil
}

// planWords splits a plan into the words planLexer reads in it. Evolve reads
// a plan for every march, so the plans Plan.String writes (ASCII letters
// and digits, and comparisons standing alone, separated by spaces) are
// split without planLexer's rune and token copies; planLexer gives the same
// words for them.
func planWords(s string) []string { return appendPlanWords(nil, s) }

// appendPlanWords appends the words of plan s to words, as planWords.
func appendPlanWords(words []string, s string) []string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c == ' ' || c == '<' || c == '>' || c == '=' || '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
	}
	if plain {
		n := len(words)
		for rest := s; rest != ""; {
			var w string
			w, rest, _ = strings.Cut(strings.TrimLeft(rest, " "), " ")
			if w == "" {
				continue
			}
			if strings.ContainsAny(w, "<>=") && w != "<" && w != "<=" && w != ">" && w != ">=" && w != "=" {
				plain = false
				break
			}
			words = append(words, w)
		}
		if plain {
			return words
		}
		words = words[:n]
	}
	toks, _ := planLexer.Line(s)
	for _, t := range toks {
		words = append(words, t.Text)
	}
	return words
}
