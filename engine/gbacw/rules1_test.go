package gbacw

import (
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// --- 1 Basics ---

func TestGBACW_1_1_D10ZeroIsZero(t *testing.T) {
	for face, want := range map[int]int{10: 0, 1: 1, 9: 9} {
		m := &sim{dice: engine.FixedDice(face)}
		if got := m.d10("test", 0); got != want {
			t.Errorf("the die's face %d reads %d, want %d", face, got, want)
		}
	}
	// The game's own stream gives every value 0-9 and no 10.
	m := &sim{dice: play.NewStream([]byte("seed"), "g", 0)}
	seen := map[int]bool{}
	for range 500 {
		v := m.d10("test", 0)
		if v < 0 || v > 9 {
			t.Fatalf("a d10 of %d", v)
		}
		seen[v] = true
	}
	if len(seen) != 10 {
		t.Errorf("500 rolls gave only %d values", len(seen))
	}
}

func TestGBACW_1_2_UDDSucceedsOnDrAtMostCohesion(t *testing.T) {
	for _, tc := range []struct {
		roll, drm int
		ok        bool
	}{{6, 0, true}, {7, 0, false}, {0, 0, true}, {5, 1, true}, {6, 1, false}} {
		h := newField(t, "", "")
		h.rolls = []int{tc.roll}
		m := &sim{st: h.st, dice: h.dice}
		if got := m.udd(m.st.unit("U1b"), "test", tc.drm, 0); got != tc.ok {
			t.Errorf("dr %d DRM %+d against cohesion 6: %v, want %v", tc.roll, tc.drm, got, tc.ok)
		}
	}
}

// --- 2 Counters ---

func TestGBACW_2_1_CounterDataComesFromTheScenario(t *testing.T) {
	h := newField(t, "", "")
	u := h.u("U2a")
	d := h.st.def(u)
	if d.SP != 7 || d.Cohesion != 5 || d.DCohesion != 3 || d.MA != 6 || d.DMA != 4 || !d.Green || d.Weapon != "rifle" {
		t.Errorf("U2a's counter: %+v", d)
	}
	bad := strings.Replace(string(fieldScn("", "")), "cohesion 6/4 ma 6/4   weapon rifle    hex 0101", "ma 6/4   weapon rifle    hex 0101", 1)
	if _, err := ParseScenario([]byte(bad)); err == nil || !strings.Contains(err.Error(), "cohesion") {
		t.Errorf("a unit without its cohesion: %v", err)
	}
}

// --- 3 Sequence of play ---

func TestGBACW_3_1_InitiativeToTheHigherDrNoneOnATie(t *testing.T) {
	for _, tc := range []struct {
		usa, csa int
		want     string
	}{{7, 3, USA}, {2, 8, CSA}, {4, 4, ""}} {
		h := newField(t, "", "")
		h.set("U Army KILLED on", "C Army KILLED on", "GAME INITIATIVE NONE")
		h.rolls = []int{tc.usa, tc.csa}
		m := &sim{st: h.st, dice: h.dice}
		m.initiative()
		if m.st.Initiative != tc.want {
			t.Errorf("USA %d, CSA %d: initiative %q, want %q", tc.usa, tc.csa, m.st.Initiative, tc.want)
		}
	}
}

func TestGBACW_3_2_CommandSegmentInOrder(t *testing.T) {
	h := newHarnessOf(t, "cmd", fieldScn("", ""))
	h.must(USA, "BEGIN")
	var kinds []string
	for _, f := range h.last.Facts {
		if len(kinds) == 0 || kinds[len(kinds)-1] != f.Kind {
			kinds = append(kinds, f.Kind)
		}
	}
	want := []string{"turn.begun", "initiative.rolled", "command.traced", "division.ams", "march.ams", "phase.set"}
	if !slices.Equal(kinds, want) {
		t.Errorf("the turn opens with %v, want %v (3.1, 3.2.1, 3.2.2)", kinds, want)
	}
	if h.st.Phase != PhaseCommand {
		t.Fatalf("phase %s", h.st.Phase)
	}
	// Division Orders need no dr (3.2.3): no die is rolled for them.
	rolled := 0
	h.dice = engine.DiceFunc(func(string, int) int { rolled++; return 5 })
	h.must(USA, "ORDER U1 ATTACK\nDONE")
	if rolled != 0 || h.st.brigade("U1").Order != Attack || h.u("U1a").Order != Attack {
		t.Errorf("Division Orders: %d dice, U1 %s", rolled, h.st.brigade("U1").Order)
	}
}

func TestGBACW_3_2_EfficiencyMarkerGivesEachDivisionItsAMs(t *testing.T) {
	h := newHarnessOf(t, "em", fieldScn("", ""))
	// initiative USA, CSA; EM U Corps, C Corps; March USA, CSA.
	h.rolls = []int{5, 1, 9, 0, 8, 0}
	h.must(USA, "BEGIN")
	for d, want := range map[string]int{"U Div": 3, "U Cav Div": 3, "C Div": 1, "C Cav Div": 1} {
		if got := h.st.division(d).AMs; got != want {
			t.Errorf("%s has %d AMs, want %d (rating B, dr %d)", d, got, want, map[bool]int{true: 9, false: 0}[strings.HasPrefix(d, "U")])
		}
	}
	if h.st.MarchAMs[0] != 4 || h.st.MarchAMs[1] != 1 {
		t.Errorf("March AMs %v, want [4 1] (B5)", h.st.MarchAMs)
	}
}

func TestGBACW_3_2_ReinforcementOrders(t *testing.T) {
	scn := strings.Replace(string(fieldScn("", "")), `brigade "U2" division "U Div" leader "U2 Leader" order advance`,
		`brigade "U2" division "U Div" leader "U2 Leader" order march arrives 2`, 1)
	h := newHarnessOf(t, "reinf", []byte(scn))
	if !h.u("U2a").Off || len(h.st.unitsAt(h.st.Scn.unitDef("U2a").Hex)) > 0 {
		t.Fatal("a reinforcement is on the map before its turn")
	}
	h.must(USA, "BEGIN")
	h.refused(USA, "ORDER U2 ATTACK", "arrives on turn 2")
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	h.playTo(2)
	if h.u("U2a").Off || !h.st.brigade("U2").Arrived {
		t.Fatal("U2 did not arrive on turn 2")
	}
	// Its leader is far from his division leader: out of command, yet
	// the Reinforcement Orders step orders it (3.2.4).
	h.must(USA, "ORDER U2 ATTACK\nDONE")
	if h.u("U2a").Order != Attack || !strings.Contains(h.facts(), "Reinforcement Orders") {
		t.Errorf("U2's order %s; facts\n%s", h.u("U2a").Order, h.facts())
	}
}

// playTo plays DONE for both sides in every Command Segment, activation
// and Commander Movement until turn n's Command Segment.
func (h *harness) playTo(n int) {
	h.t.Helper()
	for i := 0; i < 200 && !(h.st.Turn == n && h.st.Phase == PhaseCommand); i++ {
		ps := prompts(h.st)
		if len(ps) == 0 {
			h.t.Fatalf("no prompt in %s", h.st.Phase)
		}
		side := ps[0].Side
		if ps[0].Referee {
			h.must(engine.RefereeSide, ps[0].Examples[0])
			continue
		}
		if h.st.asked() != nil {
			h.must(side, "PASS")
			continue
		}
		h.must(side, "DONE")
	}
	if h.st.Turn != n {
		h.t.Fatalf("did not get to turn %d", n)
	}
}

func TestGBACW_3_2_ReserveDesignation(t *testing.T) {
	h := newHarnessOf(t, "res", fieldScn("", ""))
	h.must(USA, "BEGIN")
	h.must(USA, "ORDER U2 RESERVE")
	if h.st.brigade("U2").Order != Reserve {
		t.Fatal("U2 not in reserve")
	}
	acting, _ := h.st.actingFor(USA, "U Div")
	if slices.Contains(acting, "U2") || !slices.Contains(acting, "U1") {
		t.Errorf("acting on U Div's AM: %v (a reserve brigade is not activated)", acting)
	}
	// Not a brigade next to the enemy.
	h2 := newHarnessOf(t, "res2", fieldScn("", ""))
	h2.put("C1a", "0110", "NNW")
	h2.must(USA, "BEGIN")
	h2.put("U2b", "0109", "SSE")
	h2.refused(USA, "ORDER U2 RESERVE", "next to the enemy")
}

func TestGBACW_3_3_AMsDrawnBlindWithTheGameDice(t *testing.T) {
	h := newField(t, "", "")
	pool := []string{"CSA|C Div", "CSA|C Div", "USA|U Cav Div", "USA|U Div"}
	h.facts0(events.NewFact("pool.filled", events.SL("ams", pool...)))
	var purposes []string
	h.dice = engine.DiceFunc(func(p string, n int) int { purposes = append(purposes, p); return 3 })
	m := &sim{st: h.st, dice: h.dice}
	m.nextAM()
	if m.st.Act == nil || m.st.Act.AM != "USA|U Cav Div" || len(m.st.Pool) != 3 {
		t.Fatalf("drew %+v, pool %v", m.st.Act, m.st.Pool)
	}
	if !slices.Equal(purposes, []string{"AM draw"}) {
		t.Errorf("dice %v", purposes)
	}
	// The draw is public: every viewer reads it.
	for _, f := range m.facts {
		if !f.Vis.Public() {
			t.Errorf("%s is hidden", f)
		}
	}
}

func TestGBACW_3_3_OrderChangeNeedsADrWithLeaderDRMs(t *testing.T) {
	for _, tc := range []struct {
		with string // where the brigade leader stands: alone, with the division or corps leader
		dr   int
		ok   bool
	}{{"alone", 4, false}, {"alone", 5, true}, {"division", 4, true}, {"corps", 3, true}, {"corps", 2, false}} {
		h := newField(t, "", "")
		h.leaderAt("U1 Leader", "0303")
		switch tc.with {
		case "division":
			h.leaderAt("U Div Leader", "0303")
		case "corps":
			h.leaderAt("U Corps Leader", "0303")
		}
		h.activate(USA, "U Div")
		h.rolls = []int{tc.dr}
		h.must(USA, "CHANGE U1 ATTACK")
		if got := h.st.brigade("U1").Order == Attack; got != tc.ok {
			t.Errorf("with %s, dr %d: changed %v, want %v\n%s", tc.with, tc.dr, got, tc.ok, h.facts())
		}
	}
}

func TestGBACW_3_3_CoordinationNeedsADr(t *testing.T) {
	for _, dr := range []int{4, 5} {
		h := newField(t, "", "")
		h.activate(USA, "U Div")
		h.rolls = []int{dr}
		h.must(USA, "COORDINATE U1 AND U2")
		if got, want := len(h.last.Facts) > 0 && h.told("act together"), dr >= 5; got != want {
			t.Errorf("dr %d: coordinated %v, want %v\n%s", dr, got, want, h.facts())
		}
	}
}

func TestGBACW_3_3_ActionPhaseMovementAndFireThenShockThenRecovery(t *testing.T) {
	h := newField(t, "", "")
	h.put("U1a", "0505", "E")
	h.put("U1b", "0404", "E")
	h.set("U1b DISORDERED on", "U1 ORDER attack", "U1a ORDER attack", "U1b ORDER attack")
	h.put("C1a", "0605", "W")
	h.noReactions(CSA)
	h.activate(USA, "U Div")
	h.rolls = []int{0, 0, 0, 0, 0, 0, 0, 0}
	// Whatever order the mail gives them, the phase runs movement and
	// fire, then shock (14.1), then recovery (3.3).
	h.must(USA, "U1b: RECOVER\nU1a: SHOCK 0605\nU Bat: MOVE 0203")
	var order []string
	for _, f := range h.last.Facts {
		switch f.Kind {
		case "unit.moved", "shock.declared":
			order = append(order, f.Kind)
		case "udd.rolled":
			if strings.Contains(f.Str("why"), "recovery") {
				order = append(order, "recovery")
			}
		}
	}
	if len(order) < 3 || order[0] != "unit.moved" || order[len(order)-1] != "recovery" || !slices.Contains(order, "shock.declared") {
		t.Errorf("the phase ran %v: movement first, then shock, then recovery (3.3, 14.1)", order)
	}
}

func TestGBACW_3_4_CommanderMovementPhase(t *testing.T) {
	h := newField(t, "", "")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.refused(USA, "U1 Leader: MOVE 0201", "moves with his brigades' activations")
	h.must(USA, "U Corps Leader: MOVE TO 0612")
	if got := h.st.leader("U Corps Leader").Hex.String(); got != "0612" {
		t.Errorf("the corps leader is at %s", got)
	}
	// 40 MP (17.2): across the map and back is too far.
	back := strings.Repeat("1112 1212 ", 20) + "1112"
	h.refused(CSA, "C Corps Leader: MOVE "+back, "costs")
}

func TestGBACW_3_4_ReplacementAndRecoveryPhase(t *testing.T) {
	h := newField(t, "", "")
	h.set("U1 Leader KILLED on", "U2 ORDER reserve", "U2a ROUTED on", "U2a DISORDERED on", "U2a FATIGUE 2", "U2a TURN 1")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "RELEASE U2 ADVANCE")
	h.must(CSA, "DONE")
	l := h.st.leader("U1 Leader")
	if l.Killed || !l.Replaced || l.Hex.String() != "0101" {
		t.Errorf("U1 Leader after the replacement phase: %+v (17.7: on a unit of his, reverse side up)", l)
	}
	if u := h.u("U2a"); u.Routed || u.Fatigue != 1 {
		t.Errorf("U2a: routed %v fatigue %d (3.4: reserves recover from rout and fatigue)", u.Routed, u.Fatigue)
	}
	if h.st.brigade("U2").Order != Advance {
		t.Errorf("U2's order %s after its release", h.st.brigade("U2").Order)
	}
}

func TestGBACW_3_4_CombatEffectivenessPhase(t *testing.T) {
	h := newField(t, "", "")
	// They moved this turn: no end-of-turn recovery for them (19.6).
	h.set("U1a DISORDERED on", "U1b DISORDERED on", "U1a TURN 1", "U1b TURN 1")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	if !h.st.brigade("U1").CI || h.st.brigade("U2").CI {
		t.Errorf("CI: U1 %v, U2 %v (20.2 in the Combat Effectiveness Phase)", h.st.brigade("U1").CI, h.st.brigade("U2").CI)
	}
}

func TestGBACW_3_5_TurnRecordAdvancesTheTurnAndEndsTheGame(t *testing.T) {
	h := newField(t, "", "")
	h.set("GAME TURN 3")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	if h.st.Phase != PhaseOver || !strings.Contains(h.st.Result, "victory points") {
		t.Errorf("after turn 3 of 3: %s %q", h.st.Phase, h.st.Result)
	}
	h2 := newField(t, "", "")
	h2.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h2.must(USA, "DONE")
	h2.must(CSA, "DONE")
	if h2.st.Turn != 2 || h2.st.Phase != PhaseCommand {
		t.Errorf("after turn 1: turn %d %s", h2.st.Turn, h2.st.Phase)
	}
}

// --- 4 Initiative ---

func TestGBACW_4_1_InitiativeDr(t *testing.T) {
	h := newHarnessOf(t, "ini", fieldScn("", ""))
	h.rolls = []int{9, 2}
	h.must(USA, "BEGIN")
	if h.st.Initiative != USA || !h.told("USA has the initiative") {
		t.Errorf("initiative %q\n%s", h.st.Initiative, h.facts())
	}
}

func TestGBACW_4_1a_LastTurnsInitiativePlusOne(t *testing.T) {
	h := newField(t, "", "")
	h.set("U Army KILLED on", "C Army KILLED on") // no 4.1b
	h.rolls = []int{3, 3}
	m := &sim{st: h.st, dice: h.dice}
	m.initiative()
	if m.st.Initiative != USA {
		t.Errorf("a tie of 3s with USA's +1: %q", m.st.Initiative)
	}
}

func TestGBACW_4_1b_InitiativeRating(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup []string
		want  string
	}{
		{"OC still, corps in range", nil, USA},
		{"OC moved 12 MP", []string{"GAME OC-MP USA=12"}, CSA},
		{"OC moved 10 MP", []string{"GAME OC-MP USA=10"}, USA},
		{"no corps leader in range", []string{"U Corps Leader HEX 1212"}, CSA},
	} {
		h := newField(t, "", "")
		h.set(append([]string{"C Army KILLED on", "GAME INITIATIVE NONE"}, tc.setup...)...)
		h.rolls = []int{2, 3} // USA 2 (+2 rating), CSA 3
		m := &sim{st: h.st, dice: h.dice}
		m.initiative()
		if m.st.Initiative != tc.want {
			t.Errorf("%s: initiative %q, want %q", tc.name, m.st.Initiative, tc.want)
		}
	}
}

func TestGBACW_4_2_InitiativeSideChoosesTheFirstAM(t *testing.T) {
	h := newHarnessOf(t, "first", fieldScn("", ""))
	h.rolls = []int{9, 0, 5, 5, 5, 5}
	h.must(USA, "BEGIN")
	h.refused(CSA, "FIRST C Div", "only it picks")
	h.must(CSA, "DONE")
	h.must(USA, "FIRST U Cav Div")
	if h.st.Act == nil || h.st.Act.AM != "USA|U Cav Div" || !h.told("chosen first") {
		t.Errorf("the first activation: %+v", h.st.Act)
	}
	// A March AM may be chosen too.
	h2 := newHarnessOf(t, "first2", fieldScn("", ""))
	h2.rolls = []int{9, 0, 5, 5, 5, 5}
	h2.must(USA, "BEGIN")
	h2.must(USA, "FIRST MARCH")
	if len(h2.st.First) != 1 || h2.st.First[0] != "USA|March" {
		t.Errorf("FIRST MARCH: %v", h2.st.First)
	}
}

func TestGBACW_3_1_OnATieNoOnePicksTheFirstAM(t *testing.T) {
	h := newHarnessOf(t, "tie", fieldScn("", ""))
	h.rolls = []int{4, 4}
	h.set("U Army KILLED on", "C Army KILLED on")
	h.must(USA, "BEGIN")
	if h.st.Initiative != "" {
		t.Fatalf("initiative %q", h.st.Initiative)
	}
	h.refused(USA, "FIRST U Div", "no one picks")
	h.refused(CSA, "FIRST C Div", "no one picks")
}

// --- 5 Command ---

func TestGBACW_5_1_CommandRangeCountedInTheLeadersMP(t *testing.T) {
	h := newField(t, "", "")
	h.leaderAt("U1 Leader", "0106")
	reach := h.st.commandReach(h.st.leader("U1 Leader"))
	for _, tc := range []struct {
		at   string
		mp   int // half MPs: the leader's hex not counted, the unit's counted
		want bool
	}{{"0206", 2, true}, {"0506", 8, true}, {"0606", 12, false}, {"0505", 10, false}} {
		cost, ok := reach.Cost(hexOf(tc.at))
		if ok != tc.want || (ok && cost != tc.mp) {
			t.Errorf("%s from 0106 (range 4): in reach %v at %d half MP, want %v at %d", tc.at, ok, cost, tc.want, tc.mp)
		}
	}
	h.put("U1a", "0506", "SSE")
	h.put("U1b", "0112", "SSE")
	h.put("U Bat", "0111", "SSE")
	if out := h.st.unitsOutOfCommand("U1", h.st.leader("U1 Leader")); !slices.Equal(out, []string{"U1b", "U Bat"}) {
		t.Errorf("out of command: %v", out)
	}
}

func TestGBACW_5_2_NotThroughImpassableNorEmptyEnemyAdjacentHexes(t *testing.T) {
	h := newField(t, "", "")
	h.leaderAt("U1 Leader", "0707")
	h.put("U1a", "0711", "SSE") // 0708-0709-0710: clear
	h.put("U1b", "0112", "SSE")
	if out := h.st.unitsOutOfCommand("U1", h.st.leader("U1 Leader")); slices.Contains(out, "U1a") {
		t.Fatalf("U1a out of command in the open: %v", out)
	}
	// An enemy next to the path with no friendly unit there cuts it.
	h.put("C1a", "0809", "W")
	h.put("C1b", "0609", "E")
	if out := h.st.unitsOutOfCommand("U1", h.st.leader("U1 Leader")); !slices.Contains(out, "U1a") {
		t.Errorf("command traced through hexes next to the enemy: %v", out)
	}
	// Water (0909) cannot be crossed.
	h2 := newField(t, "", "")
	if h2.st.commandReach(h2.st.leader("U1 Leader")).Contains(h2.st.Scn.Grid.First()) == false {
		t.Fatal("a leader's own hex")
	}
	h2.leaderAt("U1 Leader", "0809")
	if h2.st.commandReach(h2.st.leader("U1 Leader")).Contains(hexOf("0909")) {
		t.Error("command range into water")
	}
}

func TestGBACW_5_3_UnitNextToItsLeaderIsInCommand(t *testing.T) {
	scn := strings.Replace(string(fieldScn("", "")), `code UL1 hex 0101 stars 1 range 4`, `code UL1 hex 0101 stars 1 range 1`, 1)
	h := newHarnessOf(t, "adj", []byte(scn))
	h.leaderAt("U1 Leader", "0504")
	h.put("U1a", "0505", "SSE") // woods, 2 MP: beyond range 1, yet next to him
	h.put("U1b", "0112", "SSE")
	if out := h.st.unitsOutOfCommand("U1", h.st.leader("U1 Leader")); slices.Contains(out, "U1a") {
		t.Errorf("a unit next to its leader out of command: %v", out)
	}
}

func TestGBACW_5_4_NextToAnInCommandUnitOfItsBrigade(t *testing.T) {
	h := newField(t, "", "")
	h.leaderAt("U1 Leader", "0101")
	h.put("U1a", "0105", "SSE")   // 4 MP: in range
	h.put("U1b", "0106", "SSE")   // 5 MP, next to U1a
	h.put("U Bat", "0107", "SSE") // next to U1b: in by the chain
	h.put("U2a", "0108", "SSE")   // another brigade's: no link
	out := h.st.unitsOutOfCommand("U1", h.st.leader("U1 Leader"))
	if len(out) != 0 {
		t.Errorf("out of command: %v", out)
	}
	h.put("U1b", "0112", "SSE")
	out = h.st.unitsOutOfCommand("U1", h.st.leader("U1 Leader"))
	if !slices.Equal(out, []string{"U1b", "U Bat"}) && !slices.Equal(out, []string{"U Bat", "U1b"}) {
		t.Errorf("the chain broken: out %v, want U1b and U Bat", out)
	}
}

func TestGBACW_5_5_OutOfCommandEffects(t *testing.T) {
	h := newHarnessOf(t, "ooc", fieldScn("", ""))
	// The division leader far from his corps leader; U2's leader far
	// from the division leader; U1b far from its brigade leader.
	h.leaderAt("U Div Leader", "0612")
	h.leaderAt("U Corps Leader", "0101")
	h.set("U Corps Leader HEX 1201", "U Army HEX 1101")
	h.rolls = []int{9, 0, 9, 9, 5, 5}
	h.must(USA, "BEGIN")
	if !h.st.leader("U Div Leader").OOC {
		t.Fatalf("the division leader in command\n%s", h.facts())
	}
	// A division leader out of command gives no Division Orders, and his
	// division has one AM fewer.
	h.refused(USA, "ORDER U1 ATTACK", "division leader is out of command")
	if got := h.st.division("U Div").AMs; got != 2 {
		t.Errorf("U Div has %d AMs, want 3-1", got)
	}
	// A brigade leader out of command: his brigade skips an activation.
	h2 := newHarnessOf(t, "ooc2", fieldScn("", ""))
	h2.leaderAt("U2 Leader", "1101")
	h2.put("U1b", "0612", "SSE")
	h2.rolls = []int{9, 0, 9, 9, 5, 5}
	h2.must(USA, "BEGIN")
	h2.refused(USA, "ORDER U2 ATTACK", "cannot receive orders")
	// A unit out of command keeps its last order.
	h2.must(USA, "ORDER U1 ATTACK\nDONE")
	if h2.u("U1a").Order != Attack || h2.u("U1b").Order != Advance {
		t.Errorf("U1a %s, U1b (out of command) %s", h2.u("U1a").Order, h2.u("U1b").Order)
	}
	acting, skipping := h2.st.actingFor(USA, "U Div")
	if slices.Contains(acting, "U2") || !slices.Contains(skipping, "U2") || !slices.Contains(skipping, "U1b") {
		t.Errorf("first activation: acting %v skipping %v", acting, skipping)
	}
	h2.activate(USA, "U Div")
	acting, skipping = h2.st.actingFor(USA, "U Div")
	if !slices.Contains(acting, "U2") || len(skipping) != 0 {
		t.Errorf("second activation: acting %v skipping %v (one skipped only)", acting, skipping)
	}
}

func TestGBACW_5_6_ChainOfCommandTopDown(t *testing.T) {
	h := newHarnessOf(t, "chain", fieldScn("", ""))
	h.set("U Corps Leader KILLED on")
	h.must(USA, "BEGIN")
	var out []string
	for _, f := range h.last.Facts {
		if f.Kind == "command.traced" && f.Str("side") == USA {
			out = f.Strs("out")
		}
	}
	// With the corps leader dead, his division leaders are out of
	// command; the chain below them is traced on its own.
	if !slices.Contains(out, "U Div Leader") || !slices.Contains(out, "U Cav Leader") {
		t.Errorf("out of command: %v", out)
	}
}

func hexOf(s string) (h hexT) {
	return mustHex(s)
}
