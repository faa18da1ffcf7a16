package gbacw

import (
	"strings"
	"testing"

	"pbem/engine/hex"
	"pbem/events"
)

// The ambiguities of gbacw.md (B1-B21) are read as the spec reads them;
// a scenario option gives the other reading. Each test plays both.

func TestGBACW_B2_CorpsOrdersOption(t *testing.T) {
	for _, opt := range []string{"", "b2-corps-orders"} {
		h := newHarnessOf(t, "b2", fieldScn(opt, ""))
		h.set("U Div Leader HEX 0101") // out of his corps leader's range, with U1's
		h.must(USA, "BEGIN")
		probs := h.send(USA, "ORDER U1 ATTACK")
		if (len(probs) == 0) != (opt != "") {
			t.Errorf("option %q: ORDER with the division leader out of command: %v", opt, probs)
		}
	}
}

func TestGBACW_B3_OCMovementMeasuredInHexesOption(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		want string
	}{{"", CSA}, {"b3-oc-hexes", USA}} {
		h := newField(t, tc.opt, "")
		// 12 MP spent over 6 hexes (say, through marsh).
		h.set("C Army KILLED on", "GAME INITIATIVE NONE", "GAME OC-MP USA=12", "GAME OC-HEXES USA=6")
		h.rolls = []int{2, 3}
		m := &sim{st: h.st, dice: h.dice}
		m.initiative()
		if m.st.Initiative != tc.want {
			t.Errorf("option %q: %q, want %q", tc.opt, m.st.Initiative, tc.want)
		}
	}
}

func TestGBACW_B4_TieLastInitiativePicksOption(t *testing.T) {
	for _, opt := range []string{"", "b4-tie-previous"} {
		h := newHarnessOf(t, "b4", fieldScn(opt, ""))
		h.set("U Army KILLED on", "C Army KILLED on", "GAME INITIATIVE USA")
		h.rolls = []int{4, 5} // USA 4+1 ties CSA 5
		h.must(USA, "BEGIN")
		if h.st.Initiative != "" {
			t.Fatalf("initiative %q", h.st.Initiative)
		}
		probs := h.send(USA, "FIRST U Div")
		if (len(probs) == 0) != (opt != "") {
			t.Errorf("option %q: USA picks on a tie: %v", opt, probs)
		}
	}
}

func TestGBACW_B5_MarchAMsFixedOption(t *testing.T) {
	h := newHarnessOf(t, "b5", fieldScn("b5-march-fixed=2", ""))
	h.must(USA, "BEGIN")
	if h.st.MarchAMs[0] != 2 || h.st.MarchAMs[1] != 2 {
		t.Errorf("March AMs %v with b5-march-fixed=2", h.st.MarchAMs)
	}
	if _, err := ParseScenario(fieldScn("b5-march-fixed=5", "")); err == nil {
		t.Error("b5-march-fixed=5 accepted (1-4)")
	}
}

func TestGBACW_B6_TrailFullOption(t *testing.T) {
	for _, tc := range []struct {
		opt string
		mp  int
	}{{"", 4}, {"b6-trail-full", 6}} {
		h := clearField(t, tc.opt, "U1a")
		h.put("U1a", "0410", "E")
		h.activate(USA, "U Div")
		h.must(USA, "U1a: MOVE 0510")
		if h.u("U1a").MP != tc.mp {
			t.Errorf("option %q: the marsh along the trail costs %s MP", tc.opt, halfMP(h.u("U1a").MP))
		}
	}
}

func TestGBACW_B7_AttackCrossingsOption(t *testing.T) {
	for _, tc := range []struct {
		opt string
		mp  int
	}{{"", 6}, {"b7-attack-crossings", 2}} {
		h := clearField(t, tc.opt, "U1a")
		h.set("U1a ORDER attack")
		h.put("U1a", "0806", "E")
		h.activate(USA, "U Div")
		h.must(USA, "U1a: MOVE 0906") // across the ford
		if h.u("U1a").MP != tc.mp {
			t.Errorf("option %q: across the ford on Attack orders %s MP", tc.opt, halfMP(h.u("U1a").MP))
		}
	}
}

func TestGBACW_B8_TwoUnitsAndABatteryOption(t *testing.T) {
	for _, opt := range []string{"", "b8-two-plus-battery"} {
		h := clearField(t, opt, "U1a", "U1b", "U Bat")
		why := h.st.stackWhy([]*Unit{h.u("U1a"), h.u("U1b"), h.u("U Bat")})
		if (why == "") != (opt != "") {
			t.Errorf("option %q: two units and a battery: %q", opt, why)
		}
	}
}

func TestGBACW_B9_FaceIfFrontBlockedOption(t *testing.T) {
	scn := func(opt string) []byte {
		return []byte(strings.Replace(string(fieldScn(opt, "")), "0909 water", "0909 water\n0906 water\n0907 water", 1))
	}
	for _, opt := range []string{"", "b9-face-if-blocked"} {
		h := newHarnessOf(t, "b9", scn(opt))
		h.facts0(events.NewFact("turn.begun", events.I("turn", 1)), events.NewFact("phase.set", events.S("phase", PhaseActivation)))
		for _, u := range h.st.Units {
			if u.Name != "U1a" && u.Name != "C1a" {
				h.set(u.Name + " REMOVED on")
			}
		}
		h.noReactions(CSA)
		h.set("U1a ORDER attack")
		// 0806's front facing E: 0906 and 0907, both water.
		h.put("U1a", "0706", "E")
		h.put("C1a", "0807", "NNW")
		h.activate(USA, "U Div")
		probs := h.send(USA, "U1a: MOVE 0806 FACE SSE\nU1a: FIRE AT 0807")
		if (len(probs) == 0) != (opt != "") {
			t.Errorf("option %q: facing after entering with the front impassable: %v", opt, probs)
		}
	}
}

func TestGBACW_B10_RecoveryLossOnlyAtTwiceCohesionOption(t *testing.T) {
	for _, tc := range []struct {
		opt  string
		lost bool
	}{{"", true}, {"b10-double-only", false}} {
		h := clearField(t, tc.opt, "U1a")
		h.set("U1a DISORDERED on")
		h.put("U1a", "0505", "E")
		h.activate(USA, "U Div")
		// Cohesion 4: a 9 is not twice 4 (8)... it is; use cohesion 6.
		h.set("U1a DISORDERED on")
		h.rolls = []int{9}
		scnCoh := h.st.cohesion(h.u("U1a"))
		_ = scnCoh
		h.must(USA, "U1a: RECOVER")
		if got := h.u("U1a").SP < 6; got != (tc.lost || 9 >= 2*scnCoh) {
			t.Errorf("option %q: lost %v", tc.opt, got)
		}
	}
	// With cohesion 5 (disordered side), a 9 is under 10: only the "9"
	// reading loses a point.
	for _, tc := range []struct {
		opt  string
		lost bool
	}{{"", true}, {"b10-double-only", false}} {
		scn := strings.Replace(string(fieldScn(tc.opt, "")), "sp 6 cohesion 6/4 ma 6/4   weapon rifle    hex 0101", "sp 6 cohesion 6/5 ma 6/4   weapon rifle    hex 0101", 1)
		h := newHarnessOf(t, "b10", []byte(scn))
		h.facts0(events.NewFact("turn.begun", events.I("turn", 1)), events.NewFact("phase.set", events.S("phase", PhaseActivation)))
		h.set("U1a DISORDERED on", "U1 Leader HEX 0112")
		h.activate(USA, "U Div")
		h.rolls = []int{9}
		h.must(USA, "U1a: RECOVER")
		if got := h.u("U1a").SP < 6; got != tc.lost {
			t.Errorf("option %q, cohesion 5, dr 9: lost %v, want %v", tc.opt, got, tc.lost)
		}
	}
}

func TestGBACW_B11_EitherRecoveryOption(t *testing.T) {
	for _, tc := range []struct {
		opt     string
		fatigue int
	}{{"", 1}, {"b11-either", 2}} {
		h := clearField(t, tc.opt, "U1a")
		h.set("U1a DISORDERED on", "U1a FATIGUE 2")
		h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
		h.must(USA, "DONE")
		h.must(CSA, "DONE")
		if u := h.u("U1a"); u.Disordered || u.Fatigue != tc.fatigue {
			t.Errorf("option %q: disordered %v fatigue %d", tc.opt, u.Disordered, u.Fatigue)
		}
	}
}

func TestGBACW_B12_ReturnFireOncePerActivationOption(t *testing.T) {
	for _, tc := range []struct {
		opt     string
		returns int
	}{{"", 2}, {"b12-once-per-am", 1}} {
		h := clearField(t, tc.opt, "U1a", "U2a", "C1a")
		h.put("U1a", "0505", "E")
		h.put("U2a", "0506", "E")
		h.put("C1a", "0705", "W")
		h.standing(CSA, "RETURN FIRE C1a ALWAYS")
		h.activate(USA, "U Div")
		h.rolls = make([]int, 10)
		// Two brigades: two brigade activations in one AM.
		h.must(USA, "U1a: FIRE AT 0705\nU2a: FIRE AT 0705")
		if n := strings.Count(h.facts(), "kind=return"); n != tc.returns {
			t.Errorf("option %q: %d return fires", tc.opt, n)
		}
	}
}

func TestGBACW_B13_EnemyInFrontOption(t *testing.T) {
	// C1a faces E; U1b stands in C1a's front (not C1a in U1b's): the
	// spec's reading lets C1a turn, the option does not.
	for _, tc := range []struct {
		opt  string
		turn bool
	}{{"", true}, {"b13-enemy-in-front", false}} {
		h := clearField(t, tc.opt, "U1a", "U1b", "C1a")
		h.put("C1a", "0505", "E")
		h.put("U1b", nb("0505", hex.NE), "NNE")
		h.put("U1a", "0503", "SSE")
		h.set("U1a ORDER attack")
		h.standing(CSA, "REACTION FACE C1a ALWAYS")
		h.activate(USA, "U Div")
		h.rolls = make([]int, 6)
		h.must(USA, "U1a: MOVE 0504\nU1a: FIRE AT 0505")
		if got := h.told("turns to face"); got != tc.turn {
			t.Errorf("option %q: turned %v", tc.opt, got)
		}
	}
}

func TestGBACW_B14_OneFirerOption(t *testing.T) {
	TestGBACW_11_5a_SeveralUnitsFireFromOneHex(t)
}

func TestGBACW_B15_CollapseFromStartingStrengthOption(t *testing.T) {
	scn := func(opt string) []byte {
		return []byte(strings.Replace(string(fieldScn(opt, "")), "sp 6 cohesion 6/4 ma 6/4   weapon rifle    hex 0101", "sp 6 start 4 cohesion 6/4 ma 6/4   weapon rifle    hex 0101", 1))
	}
	for _, tc := range []struct {
		opt       string
		collapsed bool
	}{{"", true}, {"b15-start-half", false}} {
		h := newHarnessOf(t, "b15", scn(tc.opt))
		h.set("U1a DISORDERED on", "U1a SP 2")
		if got := h.st.collapsed(h.u("U1a")); got != tc.collapsed {
			t.Errorf("option %q: 2 SP of 6 printed, 4 at the start: collapsed %v", tc.opt, got)
		}
	}
}

func TestGBACW_B16_RetreatFromCavalryOption(t *testing.T) {
	for _, tc := range []struct {
		opt     string
		retreat bool
	}{{"", false}, {"b16-retreat-from-cavalry", true}} {
		h := clearField(t, tc.opt, "UCa", "C1a")
		h.put("UCa", "0605", "E")
		h.put("C1a", "0705", "W")
		h.standing(CSA, "PRE-SHOCK RETREAT ALL ALWAYS")
		h.activate(USA, "U Cav Div")
		h.rolls = make([]int, 10)
		h.must(USA, "UCa: CHARGE 0705")
		if got := strings.Contains(h.facts(), "used:PRE-SHOCK RETREAT"); got != tc.retreat {
			t.Errorf("option %q: retreat from cavalry %v", tc.opt, got)
		}
	}
}

func TestGBACW_B19_TwoFiresOption(t *testing.T) {
	for _, tc := range []struct {
		opt   string
		fires int
	}{{"", 1}, {"b19-two-fires", 2}} {
		h := clearField(t, tc.opt, "U1a", "C1a")
		h.set("U1a ORDER attack", "U1a SP 9")
		h.put("U1a", "0605", "E")
		h.put("C1a", "0705", "W")
		h.standing(CSA, "PRE-SHOCK FIRE ALL ALWAYS")
		h.must(CSA, "STANDING PRE-SHOCK FIRE C1a ALWAYS")
		h.activate(USA, "U Div")
		h.rolls = make([]int, 12)
		h.must(USA, "U1a: SHOCK 0705")
		if n := strings.Count(h.facts(), "kind=pre-shock"); n != tc.fires {
			t.Errorf("option %q: %d pre-shock fires\n%s", tc.opt, n, h.facts())
		}
	}
}

func TestGBACW_B21_UnitStackedOption(t *testing.T) {
	for _, tc := range []struct {
		opt string
		ok  bool
	}{{"", false}, {"b21-unit-stacked", true}} {
		h := clearField(t, tc.opt, "U1a")
		h.put("U1a", "0303", "E")
		h.leaderAt("U1 Leader", "0101")
		h.leaderAt("U Div Leader", "0303") // with a unit of U1, not its leader
		h.activate(USA, "U Div")
		h.rolls = []int{4}
		h.must(USA, "CHANGE U1 ATTACK")
		if got := h.st.brigade("U1").Order == Attack; got != tc.ok {
			t.Errorf("option %q: changed %v", tc.opt, got)
		}
	}
}

func TestGBACW_UnknownOptionIsRefused(t *testing.T) {
	if _, err := ParseScenario(fieldScn("b99-nothing", "")); err == nil || !strings.Contains(err.Error(), "unknown option") {
		t.Errorf("%v", err)
	}
}
