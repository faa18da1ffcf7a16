package gbacw

import (
	"strings"
	"testing"

	"pbem/engine/hex"
	"pbem/events"
)

// --- 17 Leaders ---

func TestGBACW_17_1_BrigadeAndDivisionLeadersMoveTenWithTheirBrigades(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.leaderAt("U1 Leader", "0101")
	h.activate(USA, "U Div")
	h.must(USA, "U1 Leader: MOVE TO 0111")
	if l := h.st.leader("U1 Leader"); l.Hex.String() != "0111" {
		t.Errorf("U1 Leader at %s", l.Hex)
	}
	h.activate(USA, "U Div")
	h.refused(USA, "U1 Leader: MOVE 0110 0109 0108 0107 0106 0105 0104 0103 0102 0101 0201", "costs")
	h.refused(USA, "U Corps Leader: MOVE 0111", "Commander Movement Phase")
	h.activate(USA, "U Cav Div")
	h.refused(USA, "U1 Leader: MOVE 0110", "does not move on this AM")
}

func TestGBACW_17_2_CorpsLeadersAndTheOCMoveFortyInTheirOwnPhase(t *testing.T) {
	h := clearField(t, "")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "U Army: MOVE TO 1201")
	if h.st.leader("U Army").Hex.String() != "1201" || h.st.OCMP[0] == 0 {
		t.Errorf("the OC: %s, %s MP recorded", h.st.leader("U Army").Hex, halfMP(h.st.OCMP[0]))
	}
}

func TestGBACW_17_3_LeaderCasualtyOnAStepLoss(t *testing.T) {
	for _, tc := range []struct {
		dr     int
		killed bool
	}{{0, true}, {1, false}, {9, false}} {
		h := clearField(t, "", "U1a", "C1a")
		h.set("C1a SP 9")
		h.put("U1a", "0505", "E")
		h.leaderAt("U1 Leader", "0505")
		h.put("C1a", "0705", "W")
		h.activate(CSA, "C Div")
		h.rolls = []int{9, tc.dr, 0} // the fire hits (a step lost), the casualty dr
		h.must(CSA, "C1a: FIRE AT 0505")
		if got := h.st.leader("U1 Leader").Killed; got != tc.killed {
			t.Errorf("casualty dr %d: killed %v\n%s", tc.dr, got, h.facts())
		}
	}
}

func TestGBACW_17_4_LeaderDiesWithTheLastOfHisUnits(t *testing.T) {
	h := clearField(t, "", "U2b", "C1a")
	h.set("U2a REMOVED on", "U2b SP 1", "C1a SP 9")
	h.put("U2b", "0505", "E")
	h.leaderAt("U2 Leader", "0101")
	h.put("C1a", "0705", "W")
	h.activate(CSA, "C Div")
	h.rolls = []int{9, 5, 5}
	h.must(CSA, "C1a: FIRE AT 0505")
	if !h.u("U2b").Removed || !h.st.leader("U2 Leader").Killed {
		t.Errorf("U2's last unit gone: leader killed %v\n%s", h.st.leader("U2 Leader").Killed, h.facts())
	}
}

func TestGBACW_17_5_ALeaderAloneGoesToHisUnits(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.set("C1a ORDER attack", "C1 ORDER attack")
	h.put("U1a", "0110", "E")
	h.leaderAt("U1 Leader", "0505")
	h.put("C1a", "0705", "W")
	h.activate(CSA, "C Div")
	h.rolls = make([]int, 6)
	h.must(CSA, "C1a: MOVE 0605")
	if l := h.st.leader("U1 Leader"); l.Hex.String() != "0110" {
		t.Errorf("the lone leader went to %s, want his unit at 0110\n%s", l.Hex, h.facts())
	}
	// No way to his units: killed.
	h2 := clearField(t, "", "C1a")
	h2.set("C1a ORDER attack", "C1 ORDER attack")
	h2.leaderAt("U1 Leader", "0505")
	h2.put("C1a", "0705", "W")
	h2.set("U1a REMOVED on")
	h2.activate(CSA, "C Div")
	h2.rolls = make([]int, 6)
	h2.must(CSA, "C1a: MOVE 0605")
	if !h2.st.leader("U1 Leader").Killed {
		t.Errorf("a lone leader with no unit to go to lives\n%s", h2.facts())
	}
}

func TestGBACW_17_6_LeadersRetreatWithTheirUnit(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0505", "E")
	h.leaderAt("U1 Leader", "0505")
	m := &sim{st: h.st, dice: h.dice}
	m.retreat(m.st.unit("U1a"), 1, "test")
	if l := m.st.leader("U1 Leader"); l.Hex != m.st.unit("U1a").Hex {
		t.Errorf("the leader stayed at %s; the unit went to %s", l.Hex, m.st.unit("U1a").Hex)
	}
}

func TestGBACW_17_7_AKilledLeaderIsReplacedReverseSideUp(t *testing.T) {
	h := clearField(t, "", "U1b")
	h.put("U1b", "0306", "E")
	h.set("U1 Leader KILLED on")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	l := h.st.leader("U1 Leader")
	if l.Killed || !l.Replaced || l.Hex.String() != "0306" || h.st.stars(l) != 0 || h.st.cmdRange(l) != 3 || h.st.aggressive(l) {
		t.Errorf("the replacement: %+v, stars %d range %d aggressive %v", l, h.st.stars(l), h.st.cmdRange(l), h.st.aggressive(l))
	}
}

func TestGBACW_17_8_OneChanceInTenPerStepLoss(t *testing.T) {
	killed := 0
	for face := 1; face <= 10; face++ {
		h := clearField(t, "", "U1a")
		h.leaderAt("U1 Leader", h.u("U1a").Hex.String())
		m := &sim{st: h.st, dice: fixedFace(face)}
		m.casualtyCheck(m.st.unit("U1a"))
		if m.st.leader("U1 Leader").Killed {
			killed++
		}
	}
	if killed != 1 {
		t.Errorf("%d of the ten faces kill", killed)
	}
}

type fixedFace int

func (f fixedFace) Roll(string, int) int     { return int(f) }
func (f fixedFace) As(events.Vis) engineDice { return f }

// --- 18 Leader effects ---

func TestGBACW_18_1_LeadersDoNotAffectFire(t *testing.T) {
	drm := func(leader bool) int64 {
		h := clearField(t, "", "U1a", "C1a")
		h.put("U1a", "0402", "E")
		h.put("C1a", "0702", "W")
		if leader {
			h.leaderAt("U1 Leader", "0402")
			h.leaderAt("U Corps Leader", "0402")
		}
		h.activate(USA, "U Div")
		h.rolls = []int{0}
		h.must(USA, "U1a: FIRE AT 0702")
		return h.fires()[0].Int("drm")
	}
	if a, b := drm(false), drm(true); a != b {
		t.Errorf("fire DRM %+d alone, %+d with leaders", a, b)
	}
}

func shockDRM(t *testing.T, leaderAt string, aggressive bool) int64 {
	t.Helper()
	h := clearField(t, "", "U1a", "U1b", "C1a")
	h.set("U1a ORDER attack", "U1b ORDER attack")
	h.put("U1a", "0605", "E")
	h.put("U1b", "0104", "E")
	h.put("C1a", "0705", "W")
	h.leaderAt("U1 Leader", leaderAt)
	h.activate(USA, "U Div")
	h.rolls = make([]int, 8)
	h.must(USA, "U1a: SHOCK 0705")
	for _, f := range h.last.Facts {
		if f.Kind == "shock.resolved" {
			return f.Int("drm")
		}
	}
	t.Fatalf("no shock\n%s", h.facts())
	return 0
}

func TestGBACW_18_2_BrigadeLeaderNotWithAnAttackerMinusOne(t *testing.T) {
	// U1 Leader is aggressive: +1 with the attacker (18.3); away, -1.
	with, away, other := shockDRM(t, "0605", true), shockDRM(t, "0101", true), shockDRM(t, "0104", true)
	if with-away != 2 || other != away {
		t.Errorf("DRM with the leader %+d, away %+d, with a regiment not attacking %+d", with, away, other)
	}
}

func TestGBACW_18_3_AggressiveBrigadeLeaderPlusOne(t *testing.T) {
	scn := strings.Replace(string(fieldScn("", "")), "range 4 aggressive reverse", "range 4 reverse", 1)
	h := newHarnessOf(t, "agg", []byte(scn))
	h.facts0(events.NewFact("turn.begun", events.I("turn", 1)), events.NewFact("phase.set", events.S("phase", PhaseActivation)))
	if h.st.aggressive(h.st.leader("U1 Leader")) {
		t.Fatal("not aggressive now")
	}
	for _, u := range h.st.Units {
		if u.Name != "U1a" && u.Name != "C1a" {
			h.set(u.Name + " REMOVED on")
		}
	}
	h.noReactions(CSA)
	h.set("U1a ORDER attack")
	h.put("U1a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.leaderAt("U1 Leader", "0605")
	h.activate(USA, "U Div")
	h.rolls = make([]int, 8)
	h.must(USA, "U1a: SHOCK 0705")
	var drm int64
	for _, f := range h.last.Facts {
		if f.Kind == "shock.resolved" {
			drm = f.Int("drm")
		}
	}
	if aggr := shockDRM(t, "0605", true); aggr-drm != 1 {
		t.Errorf("aggressive %+d, not %+d", aggr, drm)
	}
}

func TestGBACW_18_4_StarsHelpEveryUDDAndRecoveryInTheStack(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b")
	h.put("U1a", "0505", "E")
	h.put("U1b", "0505", "E")
	h.leaderAt("U1 Leader", "0505")      // 1 star
	h.leaderAt("U Corps Leader", "0505") // 1 star
	if got := h.st.starsWith(h.u("U1b")); got != 2 {
		t.Errorf("stars in the stack: %d", got)
	}
	h.rolls = []int{8}
	m := &sim{st: h.st, dice: h.dice}
	if !m.udd(m.st.unit("U1b"), "test", 0, 0) {
		t.Error("dr 8 -2 against cohesion 6 failed")
	}
}

// --- 19 Disorder ---

func TestGBACW_19_1_DisorderedSideLowerCohesionAndMA(t *testing.T) {
	h := clearField(t, "", "U1a", "U Bat")
	h.set("U1a DISORDERED on", "U Bat DISORDERED on")
	if h.st.cohesion(h.u("U1a")) != 4 || h.st.ma(h.u("U1a")) != 8 {
		t.Errorf("disordered U1a: cohesion %d, MA %s", h.st.cohesion(h.u("U1a")), halfMP(h.st.ma(h.u("U1a"))))
	}
	if h.st.ma(h.u("U Bat")) != 10 || h.st.cohesion(h.u("U Bat")) != 3 {
		t.Errorf("disordered battery: MA %s (unchanged), cohesion %d", halfMP(h.st.ma(h.u("U Bat"))), h.st.cohesion(h.u("U Bat")))
	}
}

func TestGBACW_19_2_DisorderedUnitsMoveNotNextToTheEnemyButMayShock(t *testing.T) {
	h := clearField(t, "", "U1a", "C1a")
	h.set("U1a ORDER attack", "U1a DISORDERED on")
	h.put("U1a", "0504", "SSE")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.refused(USA, "U1a: MOVE 0604", "disordered")
	h.put("U1a", "0605", "E")
	h.activate(USA, "U Div")
	h.rolls = make([]int, 8)
	h.must(USA, "U1a: SHOCK 0705")
}

func TestGBACW_19_3_Recovery(t *testing.T) {
	for _, tc := range []struct {
		dr        int
		recovered bool
		lost      bool
	}{{4, true, false}, {5, false, false}, {8, false, true}, {9, false, true}} {
		h := clearField(t, "", "U1a")
		h.set("U1a DISORDERED on")
		h.leaderAt("U1 Leader", "0112")
		h.activate(USA, "U Div")
		h.rolls = []int{tc.dr}
		h.must(USA, "U1a: RECOVER")
		u := h.u("U1a")
		if !u.Disordered != tc.recovered || (u.SP < 6) != tc.lost {
			t.Errorf("dr %d against cohesion 4: recovered %v lost %v", tc.dr, !u.Disordered, u.SP < 6)
		}
	}
	// It may turn a point on success.
	h := clearField(t, "", "U1a")
	h.set("U1a DISORDERED on", "U1a FACING E")
	h.activate(USA, "U Div")
	h.rolls = []int{0}
	h.must(USA, "U1a: RECOVER FACE SSE")
	if h.u("U1a").Facing != int(hex.SSE) {
		t.Error("no turn on recovery")
	}
}

func TestGBACW_19_4_RecoveryDRMs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		unit   string
		setup  []string
		dr     int
		wantOK bool
	}{
		{"next to the enemy +1", "U1a", []string{"C1a HEX 0506"}, 4, false},
		{"mounted cavalry -1", "UCa", nil, 5, true},
		{"a 1-star leader -1", "U1a", []string{"U1 Leader HEX 0505"}, 5, true},
	} {
		h := clearField(t, "", "U1a", "UCa", "C1a")
		h.put(tc.unit, "0505", "E")
		h.set(tc.unit + " DISORDERED on")
		h.set(tc.setup...)
		div := "U Div"
		if tc.unit == "UCa" {
			div = "U Cav Div"
		}
		h.activate(USA, div)
		h.rolls = []int{tc.dr}
		h.must(USA, tc.unit+": RECOVER")
		if ok := !h.u(tc.unit).Disordered; ok != tc.wantOK {
			t.Errorf("%s: dr %d recovered %v, want %v", tc.name, tc.dr, ok, tc.wantOK)
		}
	}
}

func TestGBACW_19_5_LeaderMovesThenGivesHisDRM(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.put("U1a", "0105", "E")
	h.set("U1a DISORDERED on")
	h.leaderAt("U1 Leader", "0101")
	h.activate(USA, "U Div")
	h.rolls = []int{5} // 5 - 1 star <= 4
	h.must(USA, "U1a: RECOVER\nU1 Leader: MOVE 0102 0103 0104 0105")
	if h.u("U1a").Disordered {
		t.Errorf("the leader's star did not help after his move\n%s", h.facts())
	}
}

func TestGBACW_19_6_EndOfTurnRecovery(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b", "U2a")
	h.set("U1a DISORDERED on", "U1a FATIGUE 2", "U1b DISORDERED on", "U1b TURN 1", "U2a DISORDERED on", "U2a OOC on")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	if u := h.u("U1a"); u.Disordered || u.Fatigue != 1 {
		t.Errorf("U1a (still, in command): disordered %v fatigue %d", u.Disordered, u.Fatigue)
	}
	if !h.u("U1b").Disordered || !h.u("U2a").Disordered {
		t.Error("a unit that moved, or out of command, recovered")
	}
}

// --- 20 Collapse and CI ---

func TestGBACW_20_1_ACollapsedUnitThatRoutsGoesOffTheMap(t *testing.T) {
	h := clearField(t, "", "U1a")
	h.set("U1a SP 3", "U1a DISORDERED on")
	if h.st.collapsed(h.u("U1a")) {
		t.Error("3 of 6 is half, not less")
	}
	h.set("U1a SP 2")
	if !h.st.collapsed(h.u("U1a")) {
		t.Error("2 of 6, disordered: not collapsed")
	}
	m := &sim{st: h.st, dice: h.dice}
	m.rout(m.st.unit("U1a"), "test")
	if !m.st.unit("U1a").Removed {
		t.Error("a collapsed unit routed and stayed")
	}
}

func TestGBACW_20_2_BrigadeCombatIneffective(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b", "U2a", "U2b")
	for _, tc := range []struct {
		setup []string
		ci    bool
	}{
		{[]string{"U1a DISORDERED on"}, false},
		{[]string{"U1a DISORDERED on", "U1b DISORDERED on"}, true},
		{[]string{"U1a REMOVED on"}, false},
		{[]string{"U1a REMOVED on", "U1b ROUTED on"}, true},
	} {
		h2 := clearField(t, "", "U1a", "U1b")
		h2.set(tc.setup...)
		if got := h2.st.brigadeCI("U1"); got != tc.ci {
			t.Errorf("%v: CI %v, want %v", tc.setup, got, tc.ci)
		}
	}
	// At most two activations a turn.
	h.set("U1 CI on", "U1 ACTS 2")
	if acting, _ := h.st.actingFor(USA, "U Div"); len(acting) != 1 || acting[0] != "U2" {
		t.Errorf("a CI brigade after two activations: acting %v", acting)
	}
}

func TestGBACW_20_3_DivisionCombatIneffective(t *testing.T) {
	h := clearField(t, "", "U1a", "U1b", "U2a", "U2b")
	h.set("U1a DISORDERED on", "U1b DISORDERED on", "U2a DISORDERED on", "U2b DISORDERED on",
		"U1a TURN 1", "U1b TURN 1", "U2a TURN 1", "U2b TURN 1")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	if !h.st.division("U Div").CI {
		t.Fatalf("U Div not CI: U1 %v U2 %v", h.st.brigade("U1").CI, h.st.brigade("U2").CI)
	}
	// At most 2 AMs, and no coordination.
	m := &sim{st: h.st, dice: fixedFace(10)}
	m.drawEfficiency()
	if m.st.division("U Div").AMs > 2 {
		t.Errorf("a CI division has %d AMs", m.st.division("U Div").AMs)
	}
	h.activate(USA, "U Div")
	h.refused(USA, "COORDINATE U1 AND U2", "combat ineffective")
}
