package gbacw

import (
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// bareTables are the charts a scenario cannot do without (terrain,
// hexsides, roads, weapons): every chart of results is left out, so
// each such step goes to the referee.
const bareTables = `[terrain]
clear 1 0 0 0
woods 2 1 -1 -1
town 2 1 -1 -1
marsh 3 0 0 -1
water P 0 0 0
climb 1
[hexside-features]
stream 2 0 -1
ford 0 0 -1
bridge 0 0 0
crest 0 0.5 0
wall 0 0.5 -1
[route-mp]
road 1
[weapons]
rifle 3 +1 0 -1
musket 2 +1 -1
carbine 2 0 -1
napoleon 6 +2 +1 0 0 -1 -1
`

func bareScn(t *testing.T) []byte {
	t.Helper()
	s := strings.Replace(string(fieldScn("", "")), "tables sample-tables\n", "", 1)
	s = s[:strings.Index(s, "[victory]")]
	return []byte(s + bareTables)
}

// newBare is the bare field in an activation of U Div, the units named
// kept.
func newBare(t *testing.T, keep ...string) *harness {
	t.Helper()
	h := newHarnessOf(t, "bare", bareScn(t))
	h.facts0(events.NewFact("turn.begun", events.I("turn", 1)), events.NewFact("phase.set", events.S("phase", PhaseActivation)))
	for _, u := range h.st.Units {
		if !slices.Contains(keep, u.Name) {
			h.set(u.Name + " REMOVED on")
		}
	}
	h.noReactions(USA)
	h.noReactions(CSA)
	return h
}

func TestGBACW_R_RefereeStepsNameEveryChartLeftOut(t *testing.T) {
	rs := New().(engine.RefereeStepper)
	sc, err := ParseScenario(bareScn(t))
	if err != nil {
		t.Fatal(err)
	}
	steps := rs.RefereeSteps(newState(sc))
	for _, want := range []string{"R5", "R6", "R7", "R2", "R3", "R13", "R18"} {
		if !slices.ContainsFunc(steps, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("RefereeSteps lacks %s: %v", want, steps)
		}
	}
	full, err := ParseScenario(mustScenario(t, "tanners-mill"))
	if err != nil {
		t.Fatal(err)
	}
	if steps := rs.RefereeSteps(newState(full)); len(steps) != 0 {
		t.Errorf("the sample scenario leaves steps to a referee: %v", steps)
	}
}

func TestGBACW_R4_TheTerrainChartIsRequired(t *testing.T) {
	s := strings.Replace(string(bareScn(t)), "[terrain]", "[terrain-not]", 1)
	if _, err := ParseScenario([]byte(s)); err == nil {
		t.Error("a scenario with no terrain chart")
	}
	s = strings.Replace(string(bareScn(t)), "[weapons]", "[notes]", 1)
	if _, err := ParseScenario([]byte(s)); err == nil || !strings.Contains(err.Error(), "weapons") {
		t.Errorf("a scenario with no weapons chart: %v", err)
	}
}

func TestGBACW_R2_FireWithoutATableIsRuledByTheReferee(t *testing.T) {
	h := newBare(t, "U1a", "C1a")
	h.put("U1a", "0402", "E")
	h.put("C1a", "0702", "W")
	h.activate(USA, "U Div")
	rolled := 0
	base := h.dice
	h.dice = engine.DiceFunc(func(p string, n int) int { rolled++; return base.Roll(p, n) })
	h.must(USA, "U1a: FIRE AT 0702")
	a := h.st.asked()
	if a == nil || a.Side != "" || !strings.Contains(a.What, "no Fire Results Table") {
		t.Fatalf("the referee is not asked: %+v", a)
	}
	ps := prompts(h.st)
	if len(ps) != 1 || !ps[0].Referee {
		t.Fatalf("prompts: %+v", ps)
	}
	h.refused(USA, "DONE", "waits for the referee")
	before := rolled
	// A ruling the chart could not give is refused, not read as no effect.
	h.refused(engine.RefereeSide, "RULE 1X", `"1X" is not a fire result`)
	h.must(engine.RefereeSide, "RULE 1")
	if rolled != before {
		t.Errorf("the fire's die was rolled again after the ruling (%d more)", rolled-before)
	}
	if h.u("C1a").SP != 5 || !strings.Contains(h.facts(), "result=1") {
		t.Errorf("the ruling 1 was not applied: C1a %d SP\n%s", h.u("C1a").SP, h.facts())
	}
}

func TestGBACW_R3_ShockWithoutATableIsRuledByTheReferee(t *testing.T) {
	h := newBare(t, "U1a", "C1a")
	h.set("U1a ORDER attack")
	h.put("U1a", "0605", "E")
	h.put("C1a", "0705", "W")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: SHOCK 0705 ADVANCE")
	if a := h.st.asked(); a == nil || !strings.Contains(a.What, "no Shock Results Table") {
		t.Fatalf("asked %+v", a)
	}
	h.refused(engine.RefereeSide, "RULE D1/Dx", `"D1/DX" is not a shock result`)
	h.must(engine.RefereeSide, "RULE D1/Dr")
	if h.u("C1a").SP != 5 || h.u("U1a").Hex.String() != "0705" {
		t.Errorf("D1/Dr ruled: C1a %d SP, U1a at %s", h.u("C1a").SP, h.u("U1a").Hex)
	}
}

func TestGBACW_R5_EfficiencyWithoutAChartIsRuledByTheReferee(t *testing.T) {
	h := newHarnessOf(t, "r5", bareScn(t))
	h.must(USA, "BEGIN")
	if h.st.Ruling == nil || !h.st.amsPending() {
		t.Fatal("no ruling asked for the AMs")
	}
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	if h.st.Phase != PhaseCommand || len(h.st.Pool) != 0 {
		t.Fatalf("the activations began without the AMs: %s", h.st.Phase)
	}
	h.must(engine.RefereeSide, "RULE U Div 2\nRULE U Cav Div 1\nRULE C Div 2")
	if h.st.Ruling == nil {
		t.Fatal("the ruling ended with a division left")
	}
	h.must(engine.RefereeSide, "RULE C Cav Div 1\nRULE MARCH USA 1\nRULE MARCH CSA 1")
	if h.st.Ruling != nil || h.st.Phase != PhaseActivation {
		t.Errorf("after the rulings: %s, ruling %+v", h.st.Phase, h.st.Ruling)
	}
	if h.st.division("U Div").AMs != 2 {
		t.Errorf("U Div has %d AMs", h.st.division("U Div").AMs)
	}
}

func TestGBACW_R6_R7_OrderChangeAndCoordinationWithoutChartsAreRuled(t *testing.T) {
	h := newBare(t, "U1a", "U2a")
	h.activate(USA, "U Div")
	h.must(USA, "CHANGE U1 ATTACK\nCOORDINATE U1 AND U2")
	if a := h.st.asked(); a == nil || !strings.Contains(a.What, "no order change chart") {
		t.Fatalf("asked %+v", a)
	}
	h.refused(engine.RefereeSide, "RULE SUCEEDS", "it is SUCCEEDS or FAILS") // a typo is not a failure
	h.must(engine.RefereeSide, "RULE SUCCEEDS")
	if h.st.brigade("U1").Order != Attack {
		t.Error("the ruling did not change the order")
	}
	if a := h.st.asked(); a == nil || !strings.Contains(a.What, "no coordination chart") {
		t.Fatalf("asked %+v", a)
	}
	h.must(engine.RefereeSide, "RULE FAILS")
	if h.st.asked() != nil {
		t.Error("still asking")
	}
}

func TestGBACW_R13_ConstructionWithoutAChartIsRuled(t *testing.T) {
	h := newBare(t, "U1a")
	h.activate(USA, "U Div")
	h.must(USA, "U1a: BUILD")
	h.refused(engine.RefereeSide, "RULE YES", "it is BUILT or NOT YET")
	h.must(engine.RefereeSide, "RULE BUILT")
	if !slices.Contains(h.st.Works, h.u("U1a").Hex) {
		t.Error("no works")
	}
	// With the chart, works stand at the end of the turn they take.
	h2 := clearField(t, "", "U1a", "C1a")
	h2.activate(USA, "U Div")
	h2.must(USA, "U1a: BUILD")
	h2.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h2.must(USA, "DONE")
	h2.must(CSA, "DONE")
	if !slices.Contains(h2.st.Works, h2.u("U1a").Hex) {
		t.Error("the breastworks did not stand after their turn")
	}
}

func TestGBACW_R18_NoVictoryConditionsTheRefereeDeclares(t *testing.T) {
	h := newBare(t)
	h.set("GAME TURN 3")
	h.facts0(events.NewFact("phase.set", events.S("phase", PhaseCommanders)))
	h.must(USA, "DONE")
	h.must(CSA, "DONE")
	ps := prompts(h.st)
	if h.st.Phase != PhaseVerdict || len(ps) != 1 || !ps[0].Referee || ps[0].Examples[0] != "END WINNER USA" {
		t.Errorf("after the last turn: %s, prompts %+v", h.st.Phase, ps)
	}
}

func TestGBACW_R1_ScenarioErrorsAreClear(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"hexes 0101 1212", "hexes 0101 1212x", "hexes"},
		{`leader "U1 Leader"      side USA`, `leader "U1 Leader"      side XXX`, "side"},
		{"weapon rifle    hex 0101", "weapon spear    hex 0101", "weapon"},
		{`brigade "U1" division "U Div"`, `brigade "U1" division "No Div"`, "no division"},
		{"0505 woods", "0505 jungle", "terrain"},
		{"0803/0903 stream bridge", "0803/0903 moat", "feature"},
		{"facing SSE\nunit \"U1b\"", "facing NORTH\nunit \"U1b\"", "facing"},
		{"hex 0101 facing SSE\nunit", "hex 9999 facing SSE\nunit", "off the map"},
	} {
		s := strings.Replace(string(fieldScn("", "")), tc.from, tc.to, 1)
		if s == string(fieldScn("", "")) {
			t.Fatalf("%q not in the scenario", tc.from)
		}
		_, err := ParseScenario([]byte(s))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q -> %q: %v", tc.from, tc.to, err)
		}
	}
}
