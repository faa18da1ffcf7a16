package gcacw

import (
	"fmt"
	"strings"
	"testing"

	"pbem/engine"
)

func marchScn(unitA, mapL, options, tables string) scn {
	if tables == "" {
		tables = flatTEC + emTable("")
	}
	return scn{options: options, mapL: mapL,
		units: unitA + `
USA K "Knox" art X str=2 at=0305 in=I
USA C "Custer" cav X str=3 at=0303 in=I
CSA Z "Zulu" inf X str=3 at=1010 in=Z`,
		leaders: `USA L "Lyon" corps cmd=2 tac=2 commands=I with=K`,
		tables:  tables}
}

const ableA = `USA A "Able" inf X str=5 at=0505 in=I`

// GCACW 5.1.1: the MA by side, type and game.
func TestGCACW_5_1_1_MovementAllowance(t *testing.T) {
	for _, tc := range []struct {
		game, side, typ string
		sum, want       int
	}{
		{"SSR", USA, Infantry, 1, 1}, // A12: no minimum
		{"SSR", USA, Artillery, 6, 6},
		{"SSR", CSA, Infantry, 1, 2},
		{"SSR", CSA, Artillery, 6, 7},
		{"OTR", CSA, Infantry, 1, 2}, // minimum 2
		{"OTR", CSA, Infantry, 2, 2}, // no +1
		{"AGA", CSA, Artillery, 5, 5},
		{"AGA", USA, Infantry, 1, 1},
		{"SSR", USA, Cavalry, 7, 7},
		{"SSR", CSA, Cavalry, 7, 8},
		{"OTR", CSA, Cavalry, 2, 3},
	} {
		if got := marchMA(tc.game, tc.side, tc.typ, tc.sum); got != tc.want {
			t.Errorf("%s %s %s roll %d: MA %d, want %d", tc.game, tc.side, tc.typ, tc.sum, got, tc.want)
		}
	}
	// Cavalry rolls two dice, infantry and artillery one.
	h := newHarness(t, marchScn(ableA, "", "", "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "MARCH Custer 0302", "march MA C=3", "march MA C=4", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "march.begun"); f.Int("ma") != 7 || len(f.Ints("dice")) != 2 {
		t.Errorf("%s", f)
	}
}

// GCACW 5.1a: a unit marches, never a leader.
func TestGCACW_5_1a_LeadersDoNotMarch(t *testing.T) {
	h := newHarness(t, marchScn(ableA, "", "", "").bytes())
	h.start(5, 2)
	ps := h.reject(USA, "MARCH Lyon 0304")
	mustContain(t, "leader", problemsText(ps), "Lyon (L) is a USA leader")
}

// GCACW 5.1b, 5.1c: fatigue 4 cannot march; disorganized units may.
func TestGCACW_5_1b_5_1c_FatigueLimit(t *testing.T) {
	h := newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I fatigue=4`, "", "", "").bytes())
	h.start(5, 2)
	ps := h.reject(USA, "MARCH Able 0504")
	mustContain(t, "fatigue 4", problemsText(ps), "GCACW 5.1b")
	h = newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I fatigue=3 disorganized`, "", "", "").bytes())
	h.start(5, 2)
	h.do(USA, "MARCH Able 0504", "march MA A=2", "extended march A=1", "initiative USA=1", "initiative CSA=2")
	if u := h.unit("A"); u.Fatigue != 4 {
		t.Errorf("GCACW 5.1c: a disorganized unit at fatigue 3 marches to 4; got %d", u.Fatigue)
	}
}

// GCACW 5.1d: a unit marches at most once per Action Phase, but again in
// the next one.
func TestGCACW_5_1d_OncePerActionPhase(t *testing.T) {
	h := newHarness(t, marchScn(ableA, "", "activation-march", "").bytes())
	h.start(5, 2)
	ps := h.reject(USA, "ACTIVATE Lyon: Knox 0304; Knox 0205")
	mustContain(t, "twice", problemsText(ps), "GCACW 5.1d")
	h.do(USA, "MARCH Knox 0304", "march MA K=2", "initiative USA=4", "initiative CSA=2")
	if h.unit("K").Marched {
		t.Errorf("the march flag outlived its Action Phase")
	}
	h.do(USA, "MARCH Knox 0204", "march MA K=2", "initiative USA=4", "initiative CSA=2")
	if u := h.unit("K"); u.Hex.String() != "0204" || u.Fatigue != 2 {
		t.Errorf("Knox %s fatigue %d", u.Hex, u.Fatigue)
	}
}

// GCACW 5.1.2, 5.1-EM.1, 5.1-EM.2: fatigue +1; an Extended March when a
// normal unit reaches 3 or 4, or an exhausted one 2, 3 or 4.
func TestGCACW_5_1_2_ExtendedMarchWhen(t *testing.T) {
	for _, tc := range []struct {
		exhausted bool
		from      int
		want      bool
	}{
		{false, 0, false}, {false, 1, false}, {false, 2, true}, {false, 3, true},
		{true, 0, false}, {true, 1, true}, {true, 2, true}, {true, 3, true},
	} {
		t.Run(fmt.Sprintf("exhausted %v fatigue %d", tc.exhausted, tc.from), func(t *testing.T) {
			state := fmt.Sprintf("fatigue=%d", tc.from)
			if tc.exhausted {
				state += " exhausted"
			}
			h := newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I `+state, "", "", "").bytes())
			h.start(5, 2)
			rolls := []string{"march MA A=2"}
			if tc.want {
				rolls = append(rolls, "extended march A=1")
			}
			rolls = append(rolls, "initiative USA=1", "initiative CSA=2")
			dec := h.do(USA, "MARCH Able 0504", rolls...)
			f := fact(t, dec, "unit.fatigue_raised")
			if f.Int("fatigue") != int64(tc.from+1) || f.Bool("extended") != tc.want {
				t.Errorf("%s, want fatigue %d extended %v", f, tc.from+1, tc.want)
			}
			if extendedMarch(tc.exhausted, tc.from+1) != tc.want {
				t.Errorf("extendedMarch(%v, %d) != %v", tc.exhausted, tc.from+1, tc.want)
			}
		})
	}
}

// GCACW 5.1-EM.3, 5.1-EM.4: the roll, modified, read in the organized or
// disorganized column at the unit's Manpower; NE, D, or a loss of 1-3.
func TestGCACW_5_1_EM_3_EM_4_TableAndResults(t *testing.T) {
	for _, tc := range []struct {
		state      string
		str, die   int
		column     string
		result     string
		manpower   int
		disorgAfer bool
	}{
		{"", 5, 4, "O1-6", "NE", 5, false},
		{"", 5, 7, "O1-6", "D", 5, true},
		{"", 8, 7, "O7-21", "1", 7, false},
		{"", 8, 8, "O7-21", "2", 6, false},
		{"disorganized", 5, 5, "D1-6", "D", 5, true},
		{"disorganized", 5, 6, "D1-6", "1", 4, true},
		{"disorganized", 8, 8, "D7-21", "3", 5, true},
	} {
		t.Run(fmt.Sprintf("%s str %d die %d", tc.state, tc.str, tc.die), func(t *testing.T) {
			h := newHarness(t, marchScn(fmt.Sprintf(`USA A "Able" inf X str=%d at=0505 in=I fatigue=2 %s`, tc.str, tc.state), "", "", "").bytes())
			h.start(5, 2)
			dec := h.do(USA, "MARCH Able 0504", "march MA A=2", "extended march A="+itoa(tc.die), "initiative USA=1", "initiative CSA=2")
			f := fact(t, dec, "extended_march.resolved")
			if f.Str("column") != tc.column || f.Str("result") != tc.result {
				t.Errorf("%s, want column %s result %s", f, tc.column, tc.result)
			}
			if u := h.unit("A"); u.Manpower != tc.manpower || u.Disorganized != tc.disorgAfer || u.Hex.String() != "0504" {
				t.Errorf("Able: Manpower %d disorganized %v at %s", u.Manpower, u.Disorganized, u.Hex)
			}
		})
	}
}

// GCACW 5.1-EM.5: a unit the Extended March eliminates does not go on; a
// leader left alone goes to the referee (2.2j).
func TestGCACW_5_1_EM_5_Elimination(t *testing.T) {
	h := newHarness(t, marchScn(`USA A "Able" inf X str=1 at=0505 in=I fatigue=2 disorganized`, "", "", "").bytes())
	// Lyon stands with Able for this test.
	h.do(USA, "TRANSFER Lyon TO Able")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	dec := h.do(USA, "MARCH Able 0504", "march MA A=2", "extended march A=8")
	fact(t, dec, "unit.eliminated")
	if len(facts(dec, "unit.marched")) != 0 || h.unit("A").Hex.String() != "0505" {
		t.Errorf("an eliminated unit marched:\n%s", factList(dec.Facts))
	}
	if h.st.Pending == nil || h.st.Pending.Step != StepLeaderAlone {
		t.Fatalf("pending %+v", h.st.Pending)
	}
	ps := prompts(h.st)
	if len(ps) != 1 || !ps[0].Referee || !strings.Contains(ps[0].Examples[0], "RULE TRANSFER Lyon TO") {
		t.Errorf("prompts %+v", ps)
	}
	h.do(engine.RefereeSide, "RULE TRANSFER Lyon TO Knox", "initiative USA=3", "initiative CSA=2")
	if h.st.Pending != nil || h.st.leader("L").With != "K" || h.st.Cycle.N != 2 {
		t.Errorf("after the ruling: pending %+v, Lyon with %s, phase %d", h.st.Pending, h.st.leader("L").With, h.st.Cycle.N)
	}
}

// R2: with no Extended March Table, the die is rolled and the referee
// reads the table; GCACW 5.1-FM.4 (derived): a unit the result
// disorganizes cannot then Force March.
func TestGCACW_5_1_EM_3_FM_4_RefereeWithoutTable(t *testing.T) {
	h := newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I fatigue=2`, "", "", flatTEC).bytes())
	h.start(5, 2)
	dec := h.do(USA, "MARCH Able 0504 0503 FORCE", "march MA A=1", "extended march A=5")
	fact(t, dec, "extended_march.rolled")
	if p := h.st.Pending; p == nil || p.Step != StepExtended || p.Unit != "A" || p.Die != 5 {
		t.Fatalf("pending %+v", p)
	}
	h.reject(USA, "PASS")
	h.reject(engine.RefereeSide, "RULE EXTENDED MARCH Knox NE")
	h.reject(engine.RefereeSide, "RULE EXTENDED MARCH Able X")
	dec = h.do(engine.RefereeSide, "RULE EXTENDED MARCH Able D", "initiative USA=1", "initiative CSA=2")
	fact(t, dec, "unit.disorganized")
	mustContain(t, "skip", fact(t, dec, "force_march.skipped").Str("reason"), "5.1-FM.b")
	if m := fact(t, dec, "unit.marched"); strings.Join(m.Strs("path"), " ") != "0505 0504" {
		t.Errorf("%s", m)
	}
}

// GCACW 5.1-FM.b: only organized units, never artillery, may Force March.
func TestGCACW_5_1_FM_b_WhoMayForceMarch(t *testing.T) {
	h := newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I disorganized`, "", "", "").bytes())
	h.start(5, 2)
	mustContain(t, "artillery", problemsText(h.reject(USA, "MARCH Knox 0304 FORCE")), "artillery cannot force march (GCACW 5.1-FM.b)")
	mustContain(t, "disorganized", problemsText(h.reject(USA, "MARCH Able 0504 FORCE IF MA < 3")), "GCACW 5.1-FM.b")
	h.do(USA, "MARCH Able 0504", "march MA A=1", "initiative USA=1", "initiative CSA=2")
}

// GCACW 5.1-FM.2, 5.1-FM.3 against the derived table of 5.1-FM.4.
func TestGCACW_5_1_FM_2_ForceMarchTable(t *testing.T) {
	inf := map[int][2]int{1: {2, 0}, 2: {2, 1}, 3: {2, 1}, 4: {3, 1}, 5: {4, 1}}
	for roll, w := range inf {
		for _, mp := range []int{3, 6, 9} {
			if e, l := forceMarch(Infantry, roll, mp); e != w[0] || l != w[1] {
				t.Errorf("infantry roll %d: +%d -%d, want +%d -%d", roll, e, l, w[0], w[1])
			}
		}
	}
	if e, l := forceMarch(Infantry, 6, 6); e != 5 || l != 2 {
		t.Errorf("infantry 6, Manpower 6: +%d -%d", e, l)
	}
	if e, l := forceMarch(Infantry, 6, 5); e != 5 || l != 1 {
		t.Errorf("infantry 6, Manpower 5: +%d -%d", e, l)
	}
	cav := map[int][2]int{2: {4, 0}, 3: {4, 0}, 4: {4, 0}, 5: {4, 0}, 6: {5, 0}, 7: {6, 0}, 8: {7, 1}, 9: {8, 1}, 10: {9, 1}, 11: {10, 1}, 12: {11, 1}}
	for roll, w := range cav {
		if e, l := forceMarch(Cavalry, roll, 4); e != w[0] || l != w[1] {
			t.Errorf("cavalry roll %d: +%d -%d, want +%d -%d", roll, e, l, w[0], w[1])
		}
	}
}

// GCACW 5.1-FM.1, 5.1-FM.2, 5.1-FM.3, 5.1.3 in play: disorganized first,
// the extra MP added to the step 1 MA, the loss from the unmodified roll.
func TestGCACW_5_1_FM_1_FM_3_5_1_3_ForceMarchInPlay(t *testing.T) {
	h := newHarness(t, marchScn(`USA A "Able" inf X str=6 at=0505 in=I`, "", "", "").bytes())
	h.start(5, 2)
	dec := h.do(USA, "MARCH Able 0504 0503 0502 0501 0401 0301 0201 FORCE", "march MA A=2", "force march A=6", "initiative USA=1", "initiative CSA=2")
	var kinds []string
	for _, f := range dec.Facts {
		kinds = append(kinds, f.Kind)
	}
	mustContain(t, "order", strings.Join(kinds, " "), "unit.disorganized unit.force_marched strength.lost unit.marched")
	if f := fact(t, dec, "unit.force_marched"); f.Int("mp") != 5 || f.Int("ma") != 7 {
		t.Errorf("%s", f)
	}
	if f := fact(t, dec, "strength.lost"); f.Int("manpower") != 2 || f.Int("left") != 4 {
		t.Errorf("%s", f)
	}
	if u := h.unit("A"); u.Hex.String() != "0201" {
		t.Errorf("Able at %s, want 0201 (7 MP)", u.Hex)
	}
	// Cavalry: 2d6.
	h = newHarness(t, marchScn(ableA, "", "", "").bytes())
	h.start(5, 2)
	dec = h.do(USA, "MARCH Custer 0302 FORCE", "march MA C=1", "march MA C=1", "force march C=4", "force march C=4", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "unit.force_marched"); f.Int("mp") != 7 || f.Int("ma") != 9 {
		t.Errorf("%s", f)
	}
	fact(t, dec, "strength.lost")
}

// GCACW 5.1-FM.a: the Force March is declared in step 3, here by a
// condition on the MA rolled in step 1.
func TestGCACW_5_1_FM_a_ConditionAtStep3(t *testing.T) {
	for _, tc := range []struct {
		cond  string
		ma    int
		force bool
	}{
		{"FORCE IF MA < 4", 3, true},
		{"FORCE IF MA < 4", 4, false},
		{"FORCE IF MA <= 4", 4, true},
		{"FORCE IF MA > 2", 3, true},
		{"FORCE IF MA >= 5", 4, false},
		{"FORCE IF MA = 2", 2, true},
		{"FORCE IF SHORT", 2, true},  // the path costs 3
		{"FORCE IF SHORT", 3, false}, // enough
		{"FORCE", 6, true},
		{"", 1, false},
	} {
		t.Run(fmt.Sprintf("%s MA %d", tc.cond, tc.ma), func(t *testing.T) {
			h := newHarness(t, marchScn(ableA, "", "", "").bytes())
			h.start(5, 2)
			rolls := []string{"march MA A=" + itoa(tc.ma)}
			if tc.force {
				rolls = append(rolls, "force march A=1")
			}
			rolls = append(rolls, "initiative USA=1", "initiative CSA=2")
			dec := h.do(USA, "MARCH Able 0504 0503 0502 "+tc.cond, rolls...)
			if got := len(facts(dec, "unit.force_marched")) == 1; got != tc.force {
				t.Errorf("forced %v, want %v", got, tc.force)
			}
		})
	}
}

// GCACW 5.1.5: the march spends MP hex by hex and ends when the next hex
// costs more than is left, at STOP AT, in enemy ZOC if told, or at the end
// of the path.
func TestGCACW_5_1_5_Movement(t *testing.T) {
	mapL := `0503 woods
0502 rough
0504/0503 creek
road 0505 0605 0604`
	for _, tc := range []struct {
		order string
		ma    int
		path  string
		stop  string
	}{
		{"MARCH Able 0504 0503 0502", 6, "0505 0504 0503 0502", "end of path"}, // 1 + (2+1) + 2
		{"MARCH Able 0504 0503 0502", 3, "0505 0504", "out of MP"},
		{"MARCH Able 0504 0503 0502", 4, "0505 0504 0503", "out of MP"},
		{"MARCH Able 0504 0503 0502 STOP AT 0503", 6, "0505 0504 0503", "STOP AT 0503"},
		{"MARCH Able 0605 0604", 2, "0505 0605 0604", "all MP spent"}, // along the road
		{"MARCH Able 0505 0504", 1, "0505 0504", "end of path"},       // the unit's own hex may start the path
	} {
		t.Run(tc.order+" MA "+itoa(tc.ma), func(t *testing.T) {
			h := newHarness(t, marchScn(ableA, mapL, "", "").bytes())
			h.start(5, 2)
			dec := h.do(USA, tc.order, "march MA A="+itoa(tc.ma), "initiative USA=1", "initiative CSA=2")
			f := fact(t, dec, "unit.marched")
			if got := strings.Join(f.Strs("path"), " "); got != tc.path || !strings.Contains(f.Str("stopped"), tc.stop) {
				t.Errorf("%s, want path %s stopped %q", f, tc.path, tc.stop)
			}
		})
	}
}

// The ZOC condition: IF ZOC THEN STOP stops on entering enemy ZOC
// (normal or Restricted); without it the unit goes on (the effects of ZOC
// on movement are not in the rules, R23).
func TestGCACW_5_1_5_StopInZOC(t *testing.T) {
	s := marchScn(ableA, "0705 woods", "", "")
	s.units = strings.Replace(s.units, "at=1010", "at=0805", 1)
	for _, tc := range []struct{ cond, path string }{
		{"IF ZOC THEN STOP", "0505 0605 0705"},
		{"STOP IF ZOC", "0505 0605 0705"},
		{"", "0505 0605 0705 0706"},
	} {
		h := newHarness(t, s.bytes())
		h.start(5, 2)
		dec := h.do(USA, "MARCH Able 0605 0705 0706 "+tc.cond, "march MA A=6", "initiative USA=1", "initiative CSA=2")
		if f := fact(t, dec, "unit.marched"); strings.Join(f.Strs("path"), " ") != tc.path {
			t.Errorf("%q: %s, want %s", tc.cond, f, tc.path)
		}
	}
}

// Paths: what the rules and the charts forbid is refused before a die is
// rolled.
func TestGCACW_5_1_5_IllegalPaths(t *testing.T) {
	mapL := `0504/0503 river-minor
0605/0606 river-major ford
0405 water
0506 partial
0306 swamp`
	s := marchScn(ableA, mapL, "", "")
	s.units = strings.Replace(s.units, "at=1010", "at=0604", 1)
	for _, tc := range []struct{ order, want string }{
		{"MARCH Able 0504 0503", "the minor river at 0503/0504 cannot be crossed"},
		{"MARCH Able 0405", "0405 is water"},
		{"MARCH Able 0506", "0506 is off the map (GCACW 2.3e)"},
		{"MARCH Able 0604", "holds an enemy unit"},
		{"MARCH Knox 0306", "prohibited to artillery"},
		{"MARCH Able 0507", "0507 is not next to 0505"},
		{"MARCH Able 0504 0504", "0504 is not next to 0504"},
		{"MARCH Able 0504 STOP AT 0503", "STOP AT 0503: 0503 is not on the path"},
	} {
		h := newHarness(t, s.bytes())
		h.start(5, 2)
		mustContain(t, tc.order, problemsText(h.reject(USA, tc.order)), tc.want)
	}
	// A ford may be crossed.
	h := newHarness(t, s.bytes())
	h.start(5, 2)
	dec := h.do(USA, "MARCH Able 0605 0606", "march MA A=3", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "unit.marched"); f.Int("mp") != 3 {
		t.Errorf("%s, want 1 + (1 + ford 1)", f)
	}
	// A bridge carries only its route: where the route is prohibited (here
	// the railroad to artillery), the river cannot be crossed.
	rail := strings.Replace(flatTEC, "railroad 1 1 1", "railroad 1 1 P", 1) + emTable("")
	b := marchScn(ableA, "0404/0505 river-minor bridge\nrailroad 0505 0404", "", rail)
	b.units = strings.Replace(b.units, "at=0305", "at=0505", 1)
	h = newHarness(t, b.bytes())
	h.start(5, 2)
	mustContain(t, "artillery on a railroad bridge", problemsText(h.reject(USA, "MARCH Knox 0404")), "the minor river at 0404/0505 cannot be crossed")
	h.do(USA, "MARCH Able 0404", "march MA A=1", "initiative USA=1", "initiative CSA=2")
}

// GCACW 5.1-OPT: with the option, an organized unit at fatigue 4 may
// march; no Extended March, no Force March; it stays at 4 (A9) and ends
// disorganized.
func TestGCACW_5_1_OPT_Fatigue4March(t *testing.T) {
	h := newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I fatigue=4`, "", "fatigue4-march", "").bytes())
	h.start(5, 2)
	mustContain(t, "force", problemsText(h.reject(USA, "MARCH Able 0504 FORCE")), "5.1-OPT")
	dec := h.do(USA, "MARCH Able 0504", "march MA A=2", "initiative USA=5", "initiative CSA=2")
	if f := fact(t, dec, "unit.fatigue_raised"); f.Int("fatigue") != 4 || f.Bool("extended") {
		t.Errorf("%s", f)
	}
	if len(facts(dec, "extended_march.resolved")) != 0 {
		t.Errorf("a fatigue-4 march consulted the Extended March Table")
	}
	mustContain(t, "reason", fact(t, dec, "unit.disorganized").Str("reason"), "5.1-OPT")
	// Disorganized now, it cannot march again at fatigue 4.
	mustContain(t, "again", problemsText(h.reject(USA, "MARCH Able 0503")), "5.1-OPT")
	// Without the option, fatigue 4 cannot march at all.
	h = newHarness(t, marchScn(`USA A "Able" inf X str=5 at=0505 in=I fatigue=4`, "", "", "").bytes())
	h.start(5, 2)
	mustContain(t, "no option", problemsText(h.reject(USA, "MARCH Able 0504")), "5.1b")
}

// R1: with no Terrain Effects Chart the referee rules how far the unit
// gets.
func TestGCACW_5_1_5_RefereeWithoutTerrainChart(t *testing.T) {
	h := newHarness(t, marchScn(ableA, "", "", emTable("")).bytes())
	h.start(5, 2)
	h.do(USA, "MARCH Able 0504 0503 0502", "march MA A=2")
	if p := h.st.Pending; p == nil || p.Step != StepMove || strings.Join(p.Path, " ") != "0504 0503 0502" {
		t.Fatalf("pending %+v", p)
	}
	mustContain(t, "off path", problemsText(h.reject(engine.RefereeSide, "RULE MARCH Able 0606")), "not on A's path")
	dec := h.do(engine.RefereeSide, "RULE MARCH Able 0503", "initiative USA=1", "initiative CSA=2")
	if f := fact(t, dec, "unit.marched"); strings.Join(f.Strs("path"), " ") != "0505 0504 0503" {
		t.Errorf("%s", f)
	}
	if h.unit("A").Hex.String() != "0503" {
		t.Errorf("Able at %s", h.unit("A").Hex)
	}
}

// GCACW 2.2j: a leader whose unit is eliminated and who may stand with no
// other unit (none left in its command) leaves play at once; the referee
// is not asked for a TRANSFER none of which could be accepted, so the game
// never waits for a ruling no command can give.
func TestGCACW_2_2j_LeaderWithNoUnitLeftLeavesPlay(t *testing.T) {
	s := marchScn(`USA A "Able" inf X str=1 at=0505 in=II fatigue=2 disorganized`, "", "", "")
	s.leaders += "\n" + `USA M "Mead" division cmd=2 tac=2 commands=II with=A`
	h := newHarness(t, s.bytes())
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	dec := h.do(USA, "MARCH Able 0504", "march MA A=2", "extended march A=8", "initiative USA=3", "initiative CSA=2")
	fact(t, dec, "unit.eliminated")
	removed := facts(dec, "leader.removed")
	if len(removed) != 1 || aLeader.Of(removed[0]) != "M" {
		t.Fatalf("Mead did not leave play:\n%s", factList(dec.Facts))
	}
	if h.st.Pending != nil && h.st.Pending.Step == StepLeaderAlone {
		t.Fatalf("the referee is asked for a transfer no unit can take: %+v", h.st.Pending)
	}
	if !h.st.leader("M").Removed {
		t.Error("Mead is still in play")
	}
}
