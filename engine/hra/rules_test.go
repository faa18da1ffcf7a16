package hra

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// seq is dice that answer from a list, then 3.
type seq struct{ v []int }

func (s *seq) Roll(string, int) int {
	if len(s.v) == 0 {
		return 3
	}
	x := s.v[0]
	s.v = s.v[1:]
	return x
}

const small = `scenario Test
table 100 60
rounds 3
leaderless-status 1
removed-vp 2
woods "Wood" 70 40, 90 40, 90 55, 70 55
river "River" 0 56, 100 56, 100 60, 0 60
fence "Fence" 10 5, 30 5
objective "Hill" 50 30 1
side Union
brigade "Blue" general "B1"
infantry "B1" 20 20 0
infantry "B2" 30 20 0
infantry "B3" 40 20 0
artillery "BA" 50 18 0
brigade "Horse" general "H1"
cavalry "H1" 80 10 0
cavalry "H2" 86 10 0
cavalry "H3" 92 10 0
side Confederate
brigade "Grey" general "G1"
infantry "G1" 20 40 180
infantry "G2" 30 40 180
infantry "G3" 40 40 180
brigade "Rebs" general "R1"
cavalry "R1" 80 35 180
cavalry "R2" 86 35 180
cavalry "R3" 92 35 180
`

// begun is a state in round 1, Phase II, with the Union to act and the
// initiative. Every opening die is 4: Union generals have status 3 and
// Confederate ones 4; supply is 4 for Union regiments, 6 for the battery
// and 3 for Confederate units (HRA 3c, 3e).
func begun(t *testing.T) *harness {
	t.Helper()
	sc, err := ParseScenario([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, st: newState(sc), dice: &seq{}}
	h.dice = &seq{v: []int{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 1}}
	h.must(Union, "BEGIN")
	h.dice = &seq{}
	return h
}

func (h *harness) set(text string) { h.t.Helper(); h.must(engine.RefereeSide, text) }

func TestRule_3c_3e_OpeningRolls(t *testing.T) {
	sc, _ := ParseScenario([]byte(small))
	h := &harness{t: t, st: newState(sc), dice: &seq{v: []int{1, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6}}}
	h.must(Union, "BEGIN")
	h.must(Confederate, "GENERALS Rebs, Grey")    // the best (6) to Rebs (HRA 3c)
	if b := h.st.brigade("Blue"); b.Status != 1 { // d6 1 - 1 = 0, minimum 1
		t.Errorf("Union general status %d, want 1 (HRA 3c)", b.Status)
	}
	if b := h.st.brigade("Rebs"); b.Status != 6 {
		t.Errorf("Confederate general status %d, want 6", b.Status)
	}
	if u := h.st.unit("BA"); u.Supply != 3 { // 1 + 2 artillery
		t.Errorf("artillery supply %d, want 3 (HRA 3e)", u.Supply)
	}
	if u := h.st.unit("G1"); u.Supply != 1 { // 1 - 1 Confederate, minimum 1
		t.Errorf("Confederate supply %d, want 1", u.Supply)
	}
	for _, u := range h.st.Units {
		if u.State != 3 {
			t.Errorf("%s starts at %d (HRA 3b)", u.Name, u.State)
		}
	}
}

func TestRule_3a_3d_StateAndBrigadeState(t *testing.T) {
	h := begun(t)
	h.set("SET B2 STATE 0")
	if !strings.Contains(h.echo(), "SET B2 state 3 → 0") {
		t.Errorf("echo: %s", h.echo())
	}
	if !h.st.unit("B2").Removed() {
		t.Error("state 0 removes the unit (HRA 3a)")
	}
	b := h.st.brigade("Blue")
	if got := h.st.BrigadeState(b); got != b.Status+9 {
		t.Errorf("brigade state %d, want status + 9 (HRA 3d)", got)
	}
	if h.st.BrigadeLosses("Blue") != 3 {
		t.Errorf("losses %d (H7)", h.st.BrigadeLosses("Blue"))
	}
}

func TestRule_4_0_InitiativeTies(t *testing.T) {
	sc, _ := ParseScenario([]byte(small))
	h := &harness{t: t, st: newState(sc)}
	v := make([]int, 17)
	for i := range v {
		v[i] = 4
	}
	h.dice = &seq{v: append(v, 2, 2, 5, 1)} // tie in round 1: rolled again (H12)
	h.must(Union, "BEGIN")
	if h.st.Initiative != Union || !strings.Contains(h.echo(), "rolled again") {
		t.Fatalf("initiative %s: %s", h.st.Initiative, h.echo())
	}
	st := simulate(t, h.st, &seq{v: []int{3, 3}}, func(m *sim) { m.beginRound(2) })
	if st.Initiative != Confederate { // HRA 4.0b: to the one who did not have it
		t.Errorf("tie went to %s", st.Initiative)
	}
}

func TestRule_4_II_d_OrderLimit(t *testing.T) {
	h := begun(t)
	h.set("SET Blue GENERAL 1")
	if p := h.send(Union, "B1: ADVANCE 2\nB2: ADVANCE 2"); len(p) == 0 || !strings.Contains(p[0].Msg, "HRA 4.II.d") {
		t.Fatalf("two orders with status 1: %+v", p)
	}
	h.must(Union, "Blue: ADVANCE 2")
	if h.st.unit("BA").Moved != table.CM(2) {
		t.Error("whole-brigade order moved every unit")
	}
}

func TestRule_4_II_a_Alternate(t *testing.T) {
	h := begun(t)
	if p := h.send(Confederate, "Grey: HOLD"); len(p) == 0 {
		t.Fatal("out of turn accepted")
	}
	h.must(Union, "Blue: HOLD")
	if h.st.ToAct != Confederate {
		t.Fatalf("to act: %s", h.st.ToAct)
	}
	if p := h.send(Confederate, "Grey: HOLD\nRebs: HOLD"); len(p) == 0 {
		t.Fatal("two brigades in one turn accepted")
	}
}

// HRA 4.II.e: a unit within an enemy's short range holds automatically: a
// brigade order leaves it holding, and its hold does not count against
// the general's status. It may still be given an order of its own, which
// counts (TestRule_4_II_e_UnitInShortRangeMayRetreat).
func TestRule_4_II_e_AutomaticHold(t *testing.T) {
	h := begun(t)
	h.set("SET G1 POS 20 24") // 4 cm from B1's front
	h.must(Union, "Blue: ADVANCE 1")
	if h.st.unit("B1").Moved != 0 || h.st.unit("B2").Moved == 0 {
		t.Error("the held unit moved or the others did not")
	}
	h = begun(t)
	h.set("SET G1 POS 20 24")
	h.set("SET Blue GENERAL 1")
	h.must(Union, "B2, B3, BA: ADVANCE 1") // B1 left out: its hold is free
	if h.st.unit("B1").Moved != 0 || h.st.unit("B2").Moved == 0 {
		t.Error("the held unit moved or the others did not")
	}
}

func TestRule_4_II_f_MoveGeneral(t *testing.T) {
	h := begun(t)
	h.must(Union, "Blue: GENERAL TO B3\nBlue: HOLD")
	if h.st.brigade("Blue").With != "B3" {
		t.Error("general not moved")
	}
}

func TestRule_9c_9d_RotationAndLimit(t *testing.T) {
	h := begun(t)
	if p := h.send(Union, "B1: WHEEL LEFT 60, ADVANCE 7\nB2, B3, BA: HOLD"); len(p) == 0 || !strings.Contains(p[0].Msg, "HRA 9d") {
		t.Fatalf("9 cm of movement accepted: %+v", p)
	}
	h.must(Union, "B1: WHEEL LEFT 30, WHEEL RIGHT 30, ADVANCE 8\nB2, B3, BA: HOLD")
	if !strings.Contains(h.echo(), "used 8cm of 8cm, 0cm left") {
		t.Errorf("echo: %s", h.echo())
	}
}

func TestRule_9c_AboutFace(t *testing.T) {
	h := begun(t)
	h.must(Union, "B1: ABOUT, ADVANCE 7\nB2, B3, BA: HOLD")
	if u := h.st.unit("B1"); u.Facing != 180*table.Degree || u.Moved != table.CM(8) {
		t.Errorf("about-face: facing %v moved %v", u.Facing, u.Moved)
	}
}

func TestRule_9e_Cohesion(t *testing.T) {
	h := begun(t)
	if p := h.send(Union, "B1, B3: HOLD\nB2, BA: TURN LEFT 10"); len(p) > 0 {
		t.Fatalf("%+v", p)
	}
	h2 := begun(t)
	h2.set("SET B2 FACING 90")
	if p := h2.send(Union, "Blue: ADVANCE 1"); len(p) == 0 || !strings.Contains(p[0].Msg, "HRA 9e") {
		t.Fatalf("units facing apart in one march: %+v", p)
	}
}

func TestRule_10a_10b_PassThrough(t *testing.T) {
	h := begun(t)
	h.set("SET B1 POS 30 16")
	if p := h.send(Union, "B1: ADVANCE 4\nB2, B3, BA: HOLD"); len(p) == 0 {
		t.Fatal("stopping inside a friend accepted")
	}
	h.must(Union, "B1: ADVANCE 7.5\nB2, B3, BA: HOLD")
	if !h.st.unit("B2").PassedBy || h.st.allowance(h.st.unit("B2")) != table.CM(5) {
		t.Error("HRA 10b: the unit passed through may move only 5 cm")
	}
}

func TestRule_10c_17e_ArtilleryAndFences(t *testing.T) {
	h := begun(t)
	h.set("SET BA POS 20 3")
	if p := h.send(Union, "BA: ADVANCE 3\nB1, B2, B3: HOLD"); len(p) == 0 || !strings.Contains(p[0].Msg, "10c") {
		t.Fatalf("artillery crossed a fence: %+v", p)
	}
	h.set("SET B1 POS 15 3")
	h.must(Union, "B1: ADVANCE 4\nB2, B3, BA: HOLD") // infantry crosses (HRA 10c)
}

func TestRule_T1_WoodsCost(t *testing.T) {
	h := begun(t)
	h.set("SET H1 POS 75 40")
	h.set("SET R1 POS 60 50")
	h.must(Union, "Blue: HOLD")
	h.must(Confederate, "Grey: HOLD")
	h.must(Union, "H1: ADVANCE 2\nH2, H3: HOLD")
	// 2 cm in woods cost 2 × 12/2.5 = 9.6 cm (H14).
	if got := h.st.unit("H1").Moved; got != table.MM(96) {
		t.Errorf("cost %v", got)
	}
}

func TestRule_11_Melee(t *testing.T) {
	h := begun(t)
	h.set("SET G1 POS 20 27")
	h.must(Union, "B1: ADVANCE 8\nB2, B3, BA: HOLD")
	if !h.st.inMelee("B1") || h.st.Melees[0].Attacker != "B1" {
		t.Fatalf("no melee on contact (HRA 11a, 11b): %s", h.echo())
	}
	h.must(Confederate, "Grey: HOLD")
	h.must(Union, "Horse: HOLD")
	h.must(Confederate, "Rebs: HOLD")
	// Phase III: the defender's extra volley first (HRA 11c), then the melee.
	h.dice = &seq{v: []int{6, 6}}
	h.fireNone()
	if !strings.Contains(h.echo(), "defensive volley: G1 at B1") || !strings.Contains(h.echo(), "melee: B1 at G1") {
		t.Errorf("no defensive volley and melee (HRA 11c, 11d): %s", h.echo())
	}
}

// fireNone declares no volley for every side asked to declare.
func (h *harness) fireNone() {
	h.t.Helper()
	for h.st.Phase == PhaseFire {
		h.must(prompts(h.st)[0].Side, "FIRE NONE")
	}
}

func TestRule_11g_ArtilleryOverrun(t *testing.T) {
	h := begun(t)
	h.set("SET G3 POS 50 26")
	h.set("SET G3 FACING 180")
	h.must(Union, "Blue: HOLD")
	h.dice = &seq{v: []int{1}}
	h.must(Confederate, "G3: ADVANCE 8\nG1, G2: HOLD")
	if !h.st.inMelee("BA") {
		t.Fatalf("no melee: %s", h.echo())
	}
	h.must(Union, "Horse: HOLD")
	h.must(Confederate, "Rebs: HOLD")
	h.dice = &seq{v: []int{1, 6, 6, 6}} // the battery's small-arms shot misses
	h.fireNone()
	if !h.st.unit("BA").Removed() {
		t.Errorf("the battery survived the attacker (HRA 11g): %s", h.echo())
	}
}

func TestRule_13_RangeArcAndFire(t *testing.T) {
	h := begun(t)
	st := h.st
	b1, g1 := st.unit("B1"), st.unit("G1")
	g1.Front = table.Pt(table.CM(20), table.CM(26)) // 6 cm ahead, its rear 9 cm
	sh, err := st.canFire(b1, g1, false, false)
	if err != nil || sh.Short || sh.Hindered {
		t.Fatalf("7 cm: %+v %v", sh, err)
	}
	g1.Front = table.Pt(table.CM(20), table.CM(23))
	if sh, _ := st.canFire(b1, g1, false, false); !sh.Short {
		t.Error("4 cm is short range (HRA 13a)")
	}
	g1.Front = table.Pt(table.CM(20), table.CM(28))
	if _, err := st.canFire(b1, g1, false, false); err == nil {
		t.Error("9 cm is out of range (HRA 13a, 13b)")
	}
	// Fire to the side is hindered for a regiment (HRA 13c).
	g1.Front, g1.Facing = table.Pt(table.CM(12), table.CM(18)), 90*table.Degree
	if sh, err := st.canFire(b1, g1, false, false); err != nil || !sh.Hindered {
		t.Errorf("flank fire: %+v %v", sh, err)
	}
}

func TestRule_15_Column(t *testing.T) {
	h := begun(t)
	h.must(Union, "B1: COLUMN LEFT, ADVANCE 6\nB2, B3, BA: HOLD")
	u := h.st.unit("B1")
	if !u.Column || u.Facing != 270*table.Degree || u.Moved != table.CM(7) {
		t.Fatalf("column: %+v", u)
	}
	if _, err := h.st.canFire(u, h.st.unit("G1"), false, false); err == nil {
		t.Error("a column fired on its own initiative (HRA 15b)")
	}
}

func TestRule_16_CavalryChargeAndDismount(t *testing.T) {
	h := begun(t)
	h.must(Union, "Blue: HOLD")
	h.must(Confederate, "Grey: HOLD")
	h.must(Union, "H1: CHARGE 16\nH2, H3: DISMOUNT")
	if h.st.unit("H1").Charges != 1 || h.st.unit("H2").Pending != "dismount" {
		t.Fatalf("%+v", h.st.unit("H1"))
	}
}

func TestRule_17_Artillery(t *testing.T) {
	h := begun(t)
	if _, err := h.st.canFire(h.st.unit("BA"), h.st.unit("G3"), false, false); err == nil {
		t.Error("limbered artillery fired (HRA 17b)")
	}
	h.must(Union, "BA: UNLIMBER")
	if h.st.unit("BA").Pending != "unlimber" {
		t.Error("no unlimbering")
	}
}

// HRA 5a, 5b, 5e: a withdrawal goes 4 cm straight back without turning; a
// retreat about-faces and goes a full move. HRA 5d (running into an enemy)
// is TestRule_5d_ForcedMoveIntoEnemyDestroys.
func TestRule_5a_5b_ForcedMoves(t *testing.T) {
	h := begun(t)
	st := simulate(t, h.st, &seq{}, func(m *sim) { m.forced("B1", false, false) })
	if u := st.unit("B1"); u.Front != table.Pt(table.CM(20), table.CM(16)) || u.Facing != 0 || u.Retreating {
		t.Errorf("withdrawal: front %v facing %v retreating %v", u.Front, u.Facing, u.Retreating)
	}
	st = simulate(t, st, &seq{}, func(m *sim) { m.forced("B2", true, true) })
	if u := st.unit("B2"); !u.Retreating || u.Facing != 180*table.Degree || u.Front != table.Pt(table.CM(30), table.CM(9)) {
		t.Errorf("retreat: retreating %v facing %v front %v", u.Retreating, u.Facing, u.Front)
	}
}

func TestRule_Referee_SetEverything(t *testing.T) {
	h := begun(t)
	for _, c := range []struct{ cmd, echo string }{
		{"SET B1 STATE 2", "SET B1 state 3 → 2"},
		{"SET B1 SUPPLY 0", "SET B1 supply 4 → 0"},
		{"SET Blue GENERAL 5", "SET Blue general 3 → 5"},
		{"SET Blue GENERAL WITH B2", "SET Blue general with B1 → B2"},
		{"SET B1 FACING 45", "SET B1 facing 0° → 45°"},
		{"SET B1 POS 10 10", "SET B1 pos 20cm 20cm → 10cm 10cm"},
		{"SET Blue SUPPLY 2", "SET B2 supply 4 → 2"},
		{"SET ROUND 2", "SET round 1 → 2"},
	} {
		h.set(c.cmd)
		if !strings.Contains(h.echo(), c.echo) {
			t.Errorf("%s: %s", c.cmd, h.echo())
		}
	}
	if p := h.send(Union, "SET B1 STATE 1"); len(p) == 0 {
		t.Error("a player SET")
	}
}

func (s *seq) As(events.Vis) engine.Dice { return s }
