package gcacw

import (
	"strings"
	"testing"

	"pbem/engine"
)

const reorgTable = `[reorganization]
fatigue   marched=1 rested=2
exhaust   fatigue=4
rest      fatigue=0-1
organize  fatigue=0-1 on=1-5
organize  fatigue=2-3 on=1-3
organize  fatigue=4   on=1
`

// R14 (GCACW 3, phase 4; 4.4c): with a [reorganization] table the
// Reorganization Phase plays itself when the action cycle ends: fatigue
// falls by 1 for a unit that marched this turn and by 2 for one that did
// not; a unit still at fatigue 4 turns exhausted, an exhausted unit at 0
// or 1 turns back; a disorganized unit rolls to reorganize, by its
// fatigue. Then the turn ends and the next begins (GCACW 3, phase 5).
func TestR14_HouseRuleReorganization(t *testing.T) {
	h := newHarness(t, scn{
		units: `USA A "Able" inf X str=5 at=0505 in=I fatigue=2
USA B "Baker" inf X str=5 at=0707 in=I fatigue=3 disorganized
USA C "Cobb" inf X str=5 at=0808 in=I fatigue=4 exhausted disorganized
USA D "Dodd" inf X str=5 at=0909 in=I fatigue=2 exhausted
CSA Z "Zulu" inf X str=3 at=0101 in=Z fatigue=3`,
		tables: flatTEC + emTable("") + reorgTable,
	}.bytes())
	h.start(5, 2)
	// Able marches (fatigue 2 -> 3, an Extended March: NE); then both pass.
	h.do(USA, "MARCH Able 0504", "march MA A=2", "extended march A=1", "initiative USA=1", "initiative CSA=6")
	h.do(CSA, "PASS")
	dec := h.do(USA, "PASS", "reorganization B=3", "reorganization C=2")
	// Able marched: 3 -> 2. Baker rested: 3 -> 1, and reorganizes on 3
	// (fatigue 0-1: on 1-5). Cobb rested: 4 -> 2, stays exhausted (rest
	// is 0-1) and reorganizes on 2 (fatigue 2-3: on 1-3). Dodd: 2 -> 0,
	// exhausted, turns back. Zulu: 3 -> 1.
	for _, tc := range []struct {
		id                string
		fatigue           int
		exhausted, disorg bool
	}{
		{"A", 2, false, false},
		{"B", 1, false, false},
		{"C", 2, true, false},
		{"D", 0, false, false},
		{"Z", 1, false, false},
	} {
		u := h.unit(tc.id)
		if u.Fatigue != tc.fatigue || u.Exhausted != tc.exhausted || u.Disorganized != tc.disorg {
			t.Errorf("%s after the Reorganization Phase: fatigue %d exhausted %v disorganized %v; want %d %v %v",
				tc.id, u.Fatigue, u.Exhausted, u.Disorganized, tc.fatigue, tc.exhausted, tc.disorg)
		}
	}
	rolls := facts(dec, "reorganization.rolled")
	if len(rolls) != 2 || rolls[0].Str("on") != "1-5" || rolls[1].Str("on") != "1-3" {
		t.Errorf("reorganization rolls: %v", rolls)
	}
	fact(t, dec, "reorganization.ended")
	if h.st.Turn != 2 || h.st.Phase != PhaseTransfer {
		t.Errorf("after the phase: turn %d, %s; want turn 2's Leader Transfer Phase", h.st.Turn, h.st.Phase)
	}
	if h.unit("A").MarchedTurn {
		t.Errorf("Able still counts as having marched in turn 2")
	}
	// A unit left at fatigue 4 turns exhausted; a failed roll leaves it
	// disorganized.
	h = newHarness(t, scn{
		units: `USA A "Able" inf X str=5 at=0505 in=I fatigue=4 disorganized
CSA Z "Zulu" inf X str=3 at=0101 in=Z fatigue=4`,
		tables: flatTEC + emTable("") + strings.Replace(reorgTable, "rested=2", "rested=0", 1),
	}.bytes())
	h.do(USA, "PASS")
	// Neither side has a unit able to act: the cycle ends at once (4.4b).
	h.do(CSA, "PASS", "reorganization A=2")
	if u := h.unit("A"); !u.Exhausted || !u.Disorganized || u.Fatigue != 4 {
		t.Errorf("Able: %+v, want exhausted, disorganized, fatigue 4", u)
	}
}

const victoryTable = `[victory]
hex 0505 vp=3 owner=USA "Ashby"
hex 0909 vp=2 owner=CSA
manpower per=2
margin 2
`

// R24: with a [victory] table the result is counted after the last turn:
// objectives score for the side with a unit in them, or their owner; each
// side scores a VP for every 2 Manpower the enemy lost; a lead of the
// margin wins, less is a draw.
func TestR24_HouseRuleVictory(t *testing.T) {
	for _, tc := range []struct {
		name, units    string
		usa, csa       int64
		winner, reason string
	}{
		{"owners keep their objectives: USA 3, CSA 2, a draw",
			`USA A "Able" inf X str=5 at=0101 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`, 3, 2, "", "a draw"},
		{"CSA holds Ashby: CSA 5",
			`USA A "Able" inf X str=5 at=0101 in=I
CSA Z "Zulu" inf X str=3 at=0505 in=Z`, 0, 5, CSA, "CSA wins"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := scn{units: tc.units, tables: flatTEC + emTable("") + reorgTable + victoryTable, turns: 1}
			h := newHarness(t, s.bytes())
			h.st = setUnits(h.st, func(u *Unit) { u.Fatigue = 4 }) // no one can act: the cycle ends at once
			h.do(USA, "PASS")
			dec := h.do(CSA, "PASS")
			v := fact(t, dec, "victory.counted")
			if v.Int("usa") != tc.usa || v.Int("csa") != tc.csa {
				t.Errorf("%s, want USA %d CSA %d", v, tc.usa, tc.csa)
			}
			end := fact(t, dec, "game.ended")
			if end.Str("winner") != tc.winner || !strings.Contains(end.Str("reason"), tc.reason) {
				t.Errorf("%s, want winner %q (%s)", end, tc.winner, tc.reason)
			}
			if o := New().Outcome(h.st); !o.Over || o.Winner != tc.winner {
				t.Errorf("outcome %+v", o)
			}
		})
	}
	// Manpower lost scores for the enemy.
	h := newHarness(t, scn{units: `USA A "Able" inf X str=5 at=0101 in=I
CSA Z "Zulu" inf X str=7 at=1010 in=Z`, tables: flatTEC + emTable("") + reorgTable + victoryTable, turns: 1}.bytes())
	h.st = setUnits(h.st, func(u *Unit) {
		u.Fatigue = 4
		if u.ID == "Z" {
			u.Manpower = 2 // lost 5: 2 VP to USA
		}
	})
	h.do(USA, "PASS")
	dec := h.do(CSA, "PASS")
	if v := fact(t, dec, "victory.counted"); v.Int("usa") != 5 || v.Int("csa") != 2 {
		t.Errorf("%s, want USA 3+2, CSA 2", v)
	}
}

// R24: where the scenario says "decide referee", its victory conditions
// are what the referee weighs: pbem counts nothing after the last turn,
// the referee is asked with the conditions' state, and the game-over
// mail shows them beside the referee's ruling.
func TestR24_RefereeDecidesByTheScenarioConditions(t *testing.T) {
	s := scn{units: `USA A "Able" inf X str=5 at=0101 in=I
CSA Z "Zulu" inf X str=3 at=0505 in=Z`, tables: flatTEC + emTable("") + reorgTable + victoryTable + "decide referee\n", turns: 1}
	h := newHarness(t, s.bytes())
	if steps := strings.Join(refereeSteps(h.st), "\n"); !strings.Contains(steps, "the referee decides it, weighing the scenario's victory conditions (objectives score for the side with a unit in them, or their owner: 0505 (Ashby) 3 VP, 0909 2 VP; 1 VP for every 2 Manpower the enemy lost; a lead of 2 VP wins, less is a draw)") {
		t.Errorf("referee steps do not state the conditions:\n%s", steps)
	}
	h.st = setUnits(h.st, func(u *Unit) { u.Fatigue = 4 })
	h.do(USA, "PASS")
	dec := h.do(CSA, "PASS")
	for _, f := range dec.Facts {
		if f.Kind == "victory.counted" || f.Kind == "game.ended" {
			t.Fatalf("pbem decided what the referee decides: %s", f)
		}
	}
	var asked string
	for _, p := range prompts(h.st) {
		if p.Referee {
			asked = p.What
		}
	}
	mustContain(t, "the referee's question", asked, "rule the result, weighing the scenario's victory conditions (R24): Ashby 0505 3 VP (CSA holds it), 0909 2 VP (empty, CSA's); Manpower lost USA 0, CSA 0; their count now USA 0 VP, CSA 5 VP, a lead of 2 wins")
	dec = h.do(engine.RefereeSide, "RULE WINNER DRAW USA threatens Ashby")
	w := fact(t, dec, "victory.weighed")
	if w.Int("usa") != 0 || w.Int("csa") != 5 {
		t.Errorf("%s, want USA 0 CSA 5", w)
	}
	end := fact(t, dec, "game.ended")
	mustContain(t, "reason", end.Str("reason"), "the referee ruled the result after the last turn, weighing the scenario's victory conditions: USA threatens Ashby")
	var told []string
	for _, f := range dec.Facts {
		told = append(told, tell(h.st, f))
	}
	mustContain(t, "game-over report", strings.Join(told, "\n"), "The scenario's victory conditions, which the referee weighed: USA 0 VP, CSA 5 VP by their count (0505 Ashby: 3 VP to CSA (held); 0909: 2 VP to CSA (empty, its owner's); USA: 0 VP for 0 Manpower CSA lost; CSA: 0 VP for 0 Manpower USA lost; Manpower lost: USA 0, CSA 0).")
	if o := New().Outcome(h.st); !o.Over || o.Winner != "" {
		t.Errorf("outcome %+v", o)
	}
	mustContain(t, "decide", scenarioErr(t, string(scn{tables: flatTEC + victoryTable + "decide players\n"}.bytes())), `write "decide referee"`)
}

// Every shipped scenario states its victory conditions as data (R24):
// counted by pbem as a house rule, or, in its refereed form, weighed by
// the referee, whose steps and the scenario list say so.
func TestShippedScenariosStateTheirVictoryConditions(t *testing.T) {
	for _, name := range Scenarios() {
		b, err := Scenario(name)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := ParseScenario(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		v := sc.Tables.Victory
		if v == nil || len(v.Hexes) == 0 {
			t.Errorf("%s states no victory conditions", name)
			continue
		}
		refereed := strings.HasSuffix(name, RefereedSuffix)
		if v.Referee != refereed {
			t.Errorf("%s: the referee decides: %v, want %v", name, v.Referee, refereed)
		}
		steps := strings.Join(refereeSteps(newHarness(t, b).st), "\n")
		if got := strings.Contains(steps, "weighing the scenario's victory conditions"); got != refereed {
			t.Errorf("%s: referee steps name the victory conditions: %v, want %v\n%s", name, got, refereed, steps)
		}
	}
}

// setUnits returns st with every unit changed by f (a test's setup).
func setUnits(st *State, f func(*Unit)) *State {
	for i := range st.Units {
		st = st.withUnitAt(i, f)
	}
	return st
}

// GCACW 2.2j: a leader never stands alone. With the house rule
// leader-alone nearest, a leader whose unit is eliminated joins the
// nearest unit it may stand with; with none left, it leaves play.
func TestGCACW_2_2j_HouseRuleLeaderAloneNearest(t *testing.T) {
	// Lyon stands with Able (Manpower 1), who force marches: roll 2, one
	// Manpower lost, none left.
	aloneGame := func(others string) (*harness, engine.Decision) {
		h := newHarness(t, scn{
			units:   "USA A \"Able\" inf X str=1 at=0505 in=I\n" + others + "\nCSA Z \"Zulu\" inf X str=3 at=0101 in=Z",
			leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=A`,
			tables:  flatTEC + emTable("") + "[house-rules]\nleader-alone nearest\n",
		}.bytes())
		h.start(5, 2)
		return h, h.do(USA, "MARCH Able 0504 FORCE", "march MA A=1", "force march A=2", "initiative USA=5", "initiative CSA=2")
	}
	h, dec := aloneGame(`USA B "Baker" inf X str=3 at=0909 in=I
USA C "Cobb" inf X str=3 at=0707 in=I
USA D "Dix" inf X str=3 at=0506 in=J`)
	fact(t, dec, "unit.eliminated")
	tr := fact(t, dec, "leader.transferred")
	if tr.Str("to") != "C" || !strings.Contains(tr.Str("by"), "2.2j") {
		t.Errorf("%s, want Lyon to Cobb (2 hexes from 0504; Baker is 5, Dix is not in I)", tr)
	}
	if h.st.Pending != nil {
		t.Errorf("the referee is asked: %+v", h.st.Pending)
	}
	// With no unit of I left, the leader leaves play.
	h, dec = aloneGame(`USA D "Dix" inf X str=3 at=0506 in=J`)
	fact(t, dec, "leader.removed")
	if l := h.st.leader("L"); !l.Removed || l.With != "" {
		t.Errorf("Lyon %+v, want out of play", l)
	}
	if p := h.reject(USA, "TRANSFER Lyon TO Dix"); !strings.Contains(problemsText(p), "Lyon") {
		t.Errorf("a leader out of play transfers: %s", problemsText(p))
	}
}

// The referee is needed exactly where a scenario's tables and house rules
// leave a step to one (engine.RefereeStepper): Harrow Creek covers every
// step; without its house rules it leaves the Reorganization Phase,
// victory, cavalry retreats and lone leaders; a chart without a row the
// map uses leaves those moves (R1).
func TestRefereeStepsOfAScenario(t *testing.T) {
	rs := New()
	steps := func(b []byte) string {
		t.Helper()
		st, err := rs.Setup(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(rs.(engine.RefereeStepper).RefereeSteps(st), "\n")
	}
	b, _ := Scenario("harrow-creek")
	if s := steps(b); s != "" {
		t.Errorf("Harrow Creek with its house rules leaves steps to a referee:\n%s", s)
	}
	s := steps(refereedHarrow(t))
	for _, want := range []string{"R14", "R24", "R9", "2.2j"} {
		mustContain(t, "refereed Harrow Creek's steps", s, want)
	}
	noWoods := scn{units: `USA A "Able" inf X str=5 at=0505 in=I
CSA Z "Zulu" inf X str=3 at=0101 in=Z`, mapL: "0303 woods",
		tables:  strings.Replace(flatTEC, "woods 2 2 2\n", "", 1) + emTable("") + reorgTable + victoryTable + "[house-rules]\nleader-alone nearest\n",
		options: "activation-march"}
	mustContain(t, "steps without a woods row", steps(noWoods.bytes()), "marches into or across woods: the Terrain Effects Chart has no row for it (R1)")
	noWoods.tables = ""
	mustContain(t, "steps without a chart", steps(noWoods.bytes()), "no Terrain Effects Chart")
}
