package hra

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pbem/engine/table"
)

// Tests named after the rule IDs of shared/rules/hra.md that rules_test.go
// does not cover. They play mails through the harness with scripted dice
// (seq) and assert what a player sees: the state after the decision, the
// echo and the problems.

// long is small with room for a longer game (entrenching, crossings).
var long = strings.Replace(small, "rounds 3", "rounds 10", 1)

// begunWith is begun for another scenario text: round 1, Phase II, the
// Union to act with the initiative; every die of the opening rolls is 4, so
// Union generals have status 3 and Confederate ones 4, and supply is 4 for
// Union regiments, 6 for the battery and 3 for Confederates (HRA 3c, 3e).
func begunWith(t *testing.T, text string) *harness {
	t.Helper()
	sc, err := ParseScenario([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, st: newState(sc)}
	v := make([]int, len(sc.Brigades)+len(sc.Units))
	for i := range v {
		v[i] = 4
	}
	h.dice = &seq{v: append(v, 6, 1)}
	h.must(Union, "BEGIN")
	h.dice = &seq{}
	return h
}

// put places a unit by the referee's SET (x, y in cm, facing in degrees).
func (h *harness) put(name string, x, y float64, facing int) {
	h.t.Helper()
	h.set(fmt.Sprintf("SET %s POS %g %g", name, x, y))
	h.set(fmt.Sprintf("SET %s FACING %d", name, facing))
}

// dice scripts the next rolls.
func (h *harness) roll(v ...int) { h.dice = &seq{v: v} }

// holdOne orders HOLD to the first brigade of the side to act that needs
// orders.
func (h *harness) holdOne() {
	h.t.Helper()
	side := h.st.ToAct
	for i := range h.st.Brigades {
		if b := &h.st.Brigades[i]; b.Side == side && h.st.needsOrders(b) {
			h.must(side, b.Name+": HOLD")
			return
		}
	}
	h.t.Fatalf("%s to act has no brigade to order", side)
}

// holdAll holds every brigade still to be ordered this round, to Phase
// III (or, when no unit can fire, on into the next round's Phase II).
func (h *harness) holdAll() {
	h.t.Helper()
	r := h.st.Round
	for h.st.Phase == PhaseOrders && h.st.Round == r {
		h.holdOne()
	}
}

// holdUntil holds the other side's brigades until side is to act.
func (h *harness) holdUntil(side string) {
	h.t.Helper()
	for h.st.Phase == PhaseOrders && h.st.ToAct != side {
		h.holdOne()
	}
	if h.st.ToAct != side {
		h.t.Fatalf("%s never came to act", side)
	}
}

// fire declares volleys: pairs of side and text, in that order; a side not
// named (and not declared automatically) sends FIRE NONE. It returns the
// echo of the mail that resolved Phase III.
func (h *harness) fire(pairs ...string) string {
	h.t.Helper()
	if h.st.Phase != PhaseFire {
		h.t.Fatalf("fire in phase %s", h.st.Phase)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		if contains(h.st.Declared, pairs[i]) {
			h.t.Fatalf("%s has no legal volley (declared automatically); %q not sent", pairs[i], pairs[i+1])
		}
		h.must(pairs[i], pairs[i+1])
	}
	for _, side := range Sides {
		if h.st.Phase == PhaseFire && !contains(h.st.Declared, side) {
			h.must(side, "FIRE NONE")
		}
	}
	return h.echo()
}

// endRound holds every brigade, fires nothing and so plays the next
// round's Phase I; it returns the echo of that last mail.
func (h *harness) endRound() string {
	h.t.Helper()
	r := h.st.Round
	h.holdAll()
	if h.st.Phase == PhaseFire && h.st.Round == r {
		return h.fire()
	}
	return h.echo()
}

// before reports whether a occurs in s, and before b if b occurs.
func before(s, a, b string) bool {
	i, j := strings.Index(s, a), strings.Index(s, b)
	return i >= 0 && (j < 0 || i < j)
}

func wantIn(t *testing.T, echo string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(echo, p) {
			t.Errorf("echo lacks %q:\n%s", p, echo)
		}
	}
}

func wantNotIn(t *testing.T, echo string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(echo, p) {
			t.Errorf("echo has %q:\n%s", p, echo)
		}
	}
}

func wantProblem(t *testing.T, h *harness, side, text, msg string) {
	t.Helper()
	p := h.send(side, text)
	if len(p) == 0 {
		t.Fatalf("%s %q accepted, want a problem with %q", side, text, msg)
	}
	if !strings.Contains(p[0].Msg, msg) {
		t.Fatalf("%s %q: problem %q, want %q", side, text, p[0].Msg, msg)
	}
}

// HRA 3f: after every confrontation in which a unit fires its supply drops
// by 1; a unit only fired on keeps its supply. A defender that fires its
// extra volley (HRA 11c, a confrontation of its own) and then fights the
// melee (another) loses 2; melee counts as firing (H16).
func TestRule_3f_SupplyPerConfrontation(t *testing.T) {
	h := begun(t)
	h.put("G1", 20, 26, 180) // 6 cm from B1: long range both ways
	h.holdAll()
	h.roll(1) // B1 misses
	h.fire(Union, "FIRE B1 AT G1")
	if got := h.st.unit("B1").Supply; got != 3 {
		t.Errorf("B1 fired: supply %d, want 4-1 = 3 (HRA 3f)", got)
	}
	if got := h.st.unit("G1").Supply; got != 3 {
		t.Errorf("G1 only fired on: supply %d, want its 3", got)
	}
	if got := h.st.unit("B2").Supply; got != 4 {
		t.Errorf("B2 did not fire: supply %d, want 4", got)
	}

	h = begun(t)
	h.put("G1", 20, 27, 180)
	h.must(Union, "B1: ADVANCE 7\nB2, B3, BA: HOLD")
	if !h.st.inMelee("G1") {
		t.Fatalf("no melee: %s", h.echo())
	}
	h.roll(1, 1, 1) // defensive volley, then the melee both ways: all miss
	echo := h.endRound()
	wantIn(t, echo, "defensive volley: G1 at B1", "melee: G1 at B1", "melee: B1 at G1")
	if got := h.st.unit("G1").Supply; got != 1 {
		t.Errorf("G1 fired in two confrontations: supply %d, want 3-2 = 1 (HRA 3f, 11c, H16)", got)
	}
	if got := h.st.unit("B1").Supply; got != 3 {
		t.Errorf("B1 fought the melee: supply %d, want 3 (H16)", got)
	}
}

// HRA 3g: at supply 0 a unit's fire is read from the table as if it were
// at low state; supply does not go below 0 (HRA 3f).
func TestRule_3g_NoSupplyFiresAsLow(t *testing.T) {
	for _, c := range []struct {
		supply, state, loss int
		echo                string
	}{
		// Small arms, long range, full state: 3+ hits; low state: 5+.
		{supply: 1, state: 3, loss: 1, echo: "state 3: d6=4 → 1 loss"},
		{supply: 0, state: 3, loss: 0, echo: "state 1: d6=4 → 0 loss"},
	} {
		h := begun(t)
		h.put("G1", 20, 26, 180)
		h.set(fmt.Sprintf("SET B1 SUPPLY %d", c.supply))
		h.holdAll()
		h.roll(4, 6) // B1's volley; the general's roll if G1 is hit
		echo := h.fire(Union, "FIRE B1 AT G1")
		wantIn(t, echo, "volley: B1 at G1, small arms, long range, normal fire, "+c.echo)
		if got := 3 - h.st.unit("G1").State; got != c.loss {
			t.Errorf("supply %d: G1 lost %d, want %d (HRA 3g)", c.supply, got, c.loss)
		}
		if got := h.st.unit("B1").Supply; got != max(c.supply-1, 0) {
			t.Errorf("supply %d after firing: %d", c.supply, got)
		}
	}
}

// HRA 4.I.a: units in retreat that have made their forced moves test
// morale in Phase I, simultaneously (HRA 14): each test reads the
// battlefield as it was before any result. B1's result (state -1) would
// raise the brigade's losses and lower B2's modifier if applied first. A
// unit only now beginning its retreat (HRA 12e) has made no forced move
// and does not test.
func TestRule_4_I_a_RetreatersTestMoraleSimultaneously(t *testing.T) {
	h := begunWith(t, long)
	h.set("SET Blue GENERAL 1")
	h.set("SET B1 STATE 2")
	h.set("SET B2 STATE 2") // Blue's losses 2, over status 1: -1 (HRA 12d)
	h.set("SET B1 RETREATING ON")
	h.set("SET B2 RETREATING ON")
	h.st.unit("B3").RetreatNext = true // broken last round (HRA 12e)
	// Initiative 5-2 to the Union; B1 (general +1, losses -1) rolls 1: 1,
	// state -1; B2 (losses -1) rolls 4: 3, must withdraw. Had B1's loss
	// come first, B2 would have -2 and lose a state point too.
	h.roll(5, 2, 1, 4)
	echo := h.endRound()
	wantIn(t, echo, "morale B1 (in retreat (HRA 12a e, 5c)): d6=1 +0 = 1", "morale B2 (in retreat (HRA 12a e, 5c)): d6=4 -1 = 3")
	wantNotIn(t, echo, "morale B3")
	if got := h.st.unit("B1").State; got != 1 {
		t.Errorf("B1 state %d, want 1", got)
	}
	if got := h.st.unit("B2").State; got != 2 {
		t.Errorf("B2 state %d, want 2: the tests are simultaneous (HRA 4.I.a, 14)", got)
	}
	if !before(echo, "morale B2", "B3 retreats") || !strings.Contains(echo, "B3 retreats") {
		t.Errorf("the tests come before the forced moves (HRA 4.I.b):\n%s", echo)
	}
}

// HRA 4.I.b, 4.0c: after the tests the sides alternate forced moves, the
// initiative side first (doc.go: each side's units in roster order).
func TestRule_4_I_b_ForcedMovesAlternate(t *testing.T) {
	for _, c := range []struct {
		dice  []int
		order []string
	}{
		{[]int{5, 2}, []string{"B1 retreats", "G1 retreats", "B2 retreats"}}, // Union initiative
		{[]int{2, 5}, []string{"G1 retreats", "B1 retreats", "B2 retreats"}}, // Confederate
	} {
		h := begunWith(t, long)
		for _, n := range []string{"B1", "B2", "G1"} {
			h.st.unit(n).RetreatNext = true
		}
		h.roll(c.dice...)
		echo := h.endRound()
		for i := 0; i+1 < len(c.order); i++ {
			if !before(echo, c.order[i], c.order[i+1]) || !strings.Contains(echo, c.order[i+1]) {
				t.Errorf("initiative %s: want %q before %q:\n%s", h.st.Initiative, c.order[i], c.order[i+1], echo)
			}
		}
	}
}

// HRA 4.I.b (doc.go): a side's RETREAT ORDER, stated in any mail, sets
// which of its units makes its forced move first when its turn to pick
// comes; units it leaves out follow in roster order; names that are not
// the side's units are refused with a hint.
func TestRule_4_I_b_RetreatOrderList(t *testing.T) {
	h := begunWith(t, long)
	for _, n := range []string{"B1", "B2", "G1"} {
		h.st.unit(n).RetreatNext = true
	}
	h.must(Union, "RETREAT ORDER B2")
	if got := h.st.RetreatPicks[Union]; len(got) != 1 || got[0] != "B2" {
		t.Fatalf("Union's retreat order %v, want [B2]", got)
	}
	h.roll(5, 2) // Union initiative
	echo := h.endRound()
	want := []string{"B2 retreats", "G1 retreats", "B1 retreats"}
	for i := 0; i+1 < len(want); i++ {
		if !before(echo, want[i], want[i+1]) || !strings.Contains(echo, want[i+1]) {
			t.Errorf("want %q before %q:\n%s", want[i], want[i+1], echo)
		}
	}
	wantIn(t, echo, "Union picks the forced move of B2 (its list, HRA 4.I.b)",
		"Confederate picks the forced move of G1 (roster order, HRA 4.I.b)",
		"Union picks the forced move of B1 (roster order, HRA 4.I.b)")

	h = begunWith(t, long)
	for _, c := range []struct{ text, msg, hint string }{
		{"RETREAT ORDER B2, G1", "G1 is not yours", `did you mean "B1"?`},
		{"RETREAT ORDER B2, Bq9", `no unit is called "Bq9"`, `did you mean "B1"?`},
		{"RETREAT ORDER B2, B2", "named twice", ""},
		{"RETREAT ORDER B2, Horse", "Horse is a brigade, and only units may be named here", "name its units: H1, H2, H3"},
	} {
		p := h.send(Union, c.text)
		if len(p) == 0 || !strings.Contains(p[0].Msg, c.msg) || !strings.Contains(p[0].Hint, c.hint) || p[0].Line != 1 || p[0].Col != 19 || p[0].Text != c.text {
			t.Errorf("%q: problems %+v, want %q with hint %q at line 1 col 19", c.text, p, c.msg, c.hint)
		}
	}
	if h.st.RetreatPicks != nil {
		t.Errorf("a refused list was stored: %v", h.st.RetreatPicks)
	}
}

// HRA 4.I.c: a unit that made its forced move in Phase I takes no action
// for the rest of the round: no order, no volley.
func TestRule_4_I_c_NoActionAfterForcedMove(t *testing.T) {
	h := begunWith(t, long)
	h.st.unit("B1").RetreatNext = true
	h.put("G3", 40, 26, 180) // B3 will have a volley to fire
	h.roll(5, 2)
	echo := h.endRound()
	wantIn(t, echo, "B1 retreats 8cm")
	h.holdUntil(Union)
	wantProblem(t, h, Union, "B1: ADVANCE 2\nB2, B3, BA: HOLD", "HRA 4.I.c")
	at := h.st.unit("B1").Front
	h.must(Union, "Blue: ADVANCE 1")
	if h.st.unit("B1").Front != at || h.st.unit("B2").Moved != table.CM(1) {
		t.Errorf("a brigade order moved the retreating B1, or not its other units")
	}
	h.holdAll()
	wantProblem(t, h, Union, "FIRE B1 AT G1", "HRA 4.I.c")
}

// HRA 4.I.d, 5a, 5b, 10a, H19: forced moves follow the movement rules
// (woods slow them), except that a retreat passes through friendly units
// while a withdrawal stops at one.
func TestRule_4_I_d_ForcedMovesFollowMovementRules(t *testing.T) {
	// Open ground: a full infantry move, 8 cm (HRA 5b).
	h := begunWith(t, long)
	h.must(Union, "B1: RETREAT")
	if u := h.st.unit("B1"); u.Facing != 180*table.Degree || u.Front != table.Pt(table.CM(20), table.CM(9)) {
		t.Errorf("retreat in the open: facing %v front %v, want 180° (20,9)", u.Facing, u.Front)
	}
	// Woods: each cm costs 8/4 cm (T1, H14), so 4 cm.
	h = begunWith(t, long)
	h.put("B3", 72, 38, 180) // about-faces to 0 and flees into the wood
	h.put("R1", 95, 35, 180)
	h.must(Union, "B3: RETREAT")
	if got := h.st.unit("B3").Front.Y; got != table.CM(45) {
		t.Errorf("retreat into woods: front y %v, want 45cm (41 + 4):\n%s", got, h.echo())
	}
	// A friendly unit in the way: a retreat goes through it (HRA 10a).
	h = begunWith(t, long)
	h.put("B2", 20, 15, 0) // 12-15, just behind B1 (17-20)
	h.must(Union, "B1: RETREAT")
	if got := h.st.unit("B1").Front.Y; got != table.CM(9) {
		t.Errorf("retreat through a friend: front y %v, want 9cm:\n%s", got, h.echo())
	}
	// A withdrawal stops at it (HRA 4.I.d, 10a: only retreats ignore
	// friends; 5a: it stops in contact).
	h = begunWith(t, long)
	h.put("B2", 20, 15, 0)
	h.st.unit("B1").WithdrawNext = true
	h.roll(5, 2)
	echo := h.endRound()
	wantIn(t, echo, "B1 withdraws 2cm (HRA 5a)", "B1 stops at an obstacle it cannot cross (HRA 5a)")
	if got := h.st.unit("B1").Front.Y; got != table.CM(18) {
		t.Errorf("withdrawal into a friend: front y %v, want 18cm", got)
	}
}

// HRA 4.I.e, 16c, 17d: a dismount or unlimber ordered in one round is
// completed in Phase I of the next; until then the unit is as it was.
func TestRule_4_I_e_DismountAndUnlimberCompleteInPhaseI(t *testing.T) {
	h := begunWith(t, long)
	h.put("G3", 50, 30, 180) // 12 cm ahead of the battery
	h.must(Union, "BA: UNLIMBER")
	h.must(Confederate, "Grey: HOLD")
	h.must(Union, "H2: DISMOUNT")
	if !h.st.unit("BA").Limbered || h.st.unit("H2").Dismounted {
		t.Fatal("the change happened in the round it was ordered")
	}
	if _, err := h.st.canFire(h.st.unit("BA"), h.st.unit("G3"), false, false); err == nil || !strings.Contains(err.Error(), "17b") {
		t.Errorf("the battery fired while still unlimbering: %v", err)
	}
	echo := h.endRound()
	wantIn(t, echo, "— round 2 —", "BA has unlimbered (HRA 17d)", "H2 has dismounted (HRA 16c)")
	if !before(echo, "— round 2 —", "BA has unlimbered") || h.st.Round != 2 || h.st.Phase != PhaseOrders {
		t.Errorf("not in Phase I:\n%s", echo)
	}
	ba, h2 := h.st.unit("BA"), h.st.unit("H2")
	if ba.Limbered || ba.Pending != "" || !h2.Dismounted || h2.Pending != "" {
		t.Errorf("after Phase I: BA limbered %v pending %q; H2 dismounted %v pending %q", ba.Limbered, ba.Pending, h2.Dismounted, h2.Pending)
	}
	if sh, err := h.st.canFire(ba, h.st.unit("G3"), false, false); err != nil || sh.Weapon != Guns {
		t.Errorf("the unlimbered battery cannot fire its guns: %+v %v", sh, err)
	}
}

// HRA 4.II.g: a morale test that arises in Phase II is made at once, and
// its effects too: B1's retreat order flees past B2 (HRA 12a b), whose
// test (d6=1, losses 4 over status 3: 0) sends it back at once.
func TestRule_4_II_g_MoraleInPhaseIIAtOnce(t *testing.T) {
	h := begunWith(t, long)
	h.put("B2", 28, 15, 0) // 1.5 cm beside B1's path
	h.set("SET B2 STATE 2")
	h.set("SET B3 STATE 1")
	h.set("SET BA STATE 2") // losses 4, status 3: -1
	h.roll(1)
	h.must(Union, "B1: RETREAT")
	echo := h.echo()
	wantIn(t, echo, "morale B2 (B1 fled past or through it (HRA 12a b)): d6=1 -1 = 0", "B2 withdraws 4cm (HRA 5a)")
	u := h.st.unit("B2")
	if h.st.Phase != PhaseOrders || u.State != 1 || u.Front.Y != table.CM(11) || !u.RetreatNext {
		t.Errorf("phase %s; B2 state %d front %v retreat next %v: want Phase II, 1, y 11, true", h.st.Phase, u.State, u.Front, u.RetreatNext)
	}
}

// legal fails the test when firer cannot fire at target now (a setup
// check, not the rule under test).
func legal(t *testing.T, h *harness, firer, target string) shot {
	t.Helper()
	sh, err := h.st.canFire(h.st.unit(firer), h.st.unit(target), false, false)
	if err != nil {
		t.Fatalf("setup: %s cannot fire at %s: %v", firer, target, err)
	}
	return sh
}

// HRA 4.III.b, H24: a confrontation is a group of units each firing at
// another of the group or fired on by one: the connected components of
// the firer-target graph, melee pairs included.
func TestRule_4_III_b_Confrontations(t *testing.T) {
	v := func(f, t string) Volley { return Volley{Firer: f, Target: t} }
	for _, c := range []struct {
		name string
		in   []Volley
		want [][]string // firers of each confrontation
	}{
		{"two regiments, one firing at the other, and a battery at one of them: one",
			[]Volley{v("B1", "G1"), v("BA", "G1")}, [][]string{{"B1", "BA"}}},
		{"two regiments in melee and three more firing at one: one",
			[]Volley{v("B1", "G1"), v("G1", "B1"), v("G2", "B1"), v("G3", "B1"), v("R1", "B1")}, [][]string{{"B1", "G1", "G2", "G3", "R1"}}},
		{"two separate pairs: two",
			[]Volley{v("B1", "G1"), v("H1", "R1")}, [][]string{{"B1"}, {"H1"}}},
		{"a volley joining two groups merges them",
			[]Volley{v("B1", "G1"), v("H1", "R1"), v("G1", "H1")}, [][]string{{"B1", "G1", "H1"}}},
	} {
		got := confrontations(c.in)
		var firers [][]string
		for _, g := range got {
			var fs []string
			for _, x := range g {
				fs = append(fs, x.Firer)
			}
			slices.Sort(fs)
			firers = append(firers, fs)
		}
		if fmt.Sprint(firers) != fmt.Sprint(c.want) {
			t.Errorf("%s: %v, want %v", c.name, firers, c.want)
		}
	}
	// On the table: B1 and the battery fire at G1 (one confrontation), H1
	// at R1 (another).
	h := begun(t)
	h.put("B2", 60, 5, 0)
	h.set("SET BA LIMBERED OFF")
	h.put("BA", 30, 18, 0)
	h.put("G1", 20, 26, 180)
	h.put("R1", 80, 16, 180)
	legal(t, h, "BA", "G1")
	h.holdAll()
	echo := h.fire(Union, "FIRE B1 AT G1\nFIRE BA AT G1\nFIRE H1 AT R1")
	if n := strings.Count(echo, "(HRA 4.III.b)"); n != 2 {
		t.Errorf("%d confrontations, want 2:\n%s", n, echo)
	}
	if !before(echo, "volley: BA at G1", "confrontation 2") || !before(echo, "confrontation 2", "volley: H1 at R1") {
		t.Errorf("grouping:\n%s", echo)
	}
}

// HRA 4.III.c, 4.0c: the sides pick confrontations alternately, the
// initiative side first; each takes the first unresolved one with a firer
// of its own (doc.go), and a side with none left lets the other go on.
func TestRule_4_III_c_AlternatePicks(t *testing.T) {
	for _, c := range []struct {
		init  string
		order []string
	}{
		{Union, []string{"volley: H1 at R1", "volley: G1 at B1", "volley: B3 at G3"}},
		{Confederate, []string{"volley: G1 at B1", "volley: H1 at R1", "volley: B3 at G3"}},
	} {
		h := begun(t)
		h.set("SET INITIATIVE " + c.init)
		h.put("G1", 20, 26, 180)
		h.put("G3", 40, 26, 180)
		h.put("R1", 80, 16, 180)
		h.holdAll()
		// The Confederate volley is declared first, so its confrontation
		// is the first found; the Union has two of its own.
		h.roll(1, 1, 1)
		echo := h.fire(Confederate, "FIRE G1 AT B1", Union, "FIRE H1 AT R1\nFIRE B3 AT G3")
		if n := strings.Count(echo, "(HRA 4.III.b)"); n != 3 {
			t.Fatalf("%d confrontations, want 3:\n%s", n, echo)
		}
		for i := 0; i+1 < len(c.order); i++ {
			if !before(echo, c.order[i], c.order[i+1]) || !strings.Contains(echo, c.order[i+1]) {
				t.Errorf("initiative %s: want %q before %q:\n%s", c.init, c.order[i], c.order[i+1], echo)
			}
		}
		wantIn(t, echo, "picks the confrontation of G1 (roster order, HRA 4.III.c)")
		wantNotIn(t, echo, "(its list")
	}
}

// HRA 4.III.c (doc.go): a side's PICK line, sent with its volleys, names
// by one of its units the confrontations it picks first, second, …; the
// sides still alternate, the initiative side first, and confrontations
// the list leaves out come in roster order. Units not in the side's
// confrontations are refused with a hint.
func TestRule_4_III_c_PickList(t *testing.T) {
	setup := func(init string) *harness {
		h := begun(t)
		h.set("SET INITIATIVE " + init)
		h.put("G1", 20, 26, 180)
		h.put("G3", 40, 26, 180)
		h.put("R1", 80, 16, 180)
		h.holdAll()
		h.roll(1, 1, 1)
		return h
	}
	for _, c := range []struct {
		init, union string
		order       []string
		says        []string
	}{
		// The default (TestRule_4_III_c_AlternatePicks) is H1, G1, B3.
		{Union, "FIRE H1 AT R1\nFIRE B3 AT G3\nPICK B3",
			[]string{"volley: B3 at G3", "volley: G1 at B1", "volley: H1 at R1"},
			[]string{"Union picks the confrontation of B3 (its list, HRA 4.III.c)", "Confederate picks the confrontation of G1 (roster order, HRA 4.III.c)",
				"Union picks the confrontation of H1 (roster order, HRA 4.III.c)"}},
		// The default is G1, H1, B3; the list may come first, in any case.
		{Confederate, "pick b3, H1\nFIRE H1 AT R1\nFIRE B3 AT G3",
			[]string{"volley: G1 at B1", "volley: B3 at G3", "volley: H1 at R1"},
			nil},
	} {
		h := setup(c.init)
		echo := h.fire(Confederate, "FIRE G1 AT B1", Union, c.union)
		for i := 0; i+1 < len(c.order); i++ {
			if !before(echo, c.order[i], c.order[i+1]) || !strings.Contains(echo, c.order[i+1]) {
				t.Errorf("%q: want %q before %q:\n%s", c.union, c.order[i], c.order[i+1], echo)
			}
		}
		wantIn(t, echo, c.says...)
	}
	h := setup(Union)
	h.must(Confederate, "FIRE G1 AT B1")
	for _, c := range []struct{ text, msg, hint string }{
		{"FIRE H1 AT R1\nFIRE B3 AT G3\nPICK B1", "B1 fires no volley in this mail", `did you mean "B3"?`},
		{"FIRE H1 AT R1\nFIRE B3 AT G3\nPICK G1", "G1 is not yours", `did you mean "H1"?`},
		{"FIRE H1 AT R1\nFIRE B3 AT G3\nPICK H9x", `no unit is called "H9x"`, `did you mean "H1"?`},
	} {
		p := h.send(Union, c.text)
		if len(p) == 0 || !strings.Contains(p[0].Msg, c.msg) || !strings.Contains(p[0].Hint, c.hint) || p[0].Line != 3 || p[0].Col != 6 || p[0].Text == "" {
			t.Errorf("%q: problems %+v, want %q with hint %q at line 3 col 6", c.text, p, c.msg, c.hint)
		}
	}
	wantProblem(t, begun(t), Union, "PICK B1", "PICK comes with your volleys in Phase III")
	// The prompt offers a PICK example, and it is accepted.
	h = setup(Union)
	var ex string
	for _, p := range prompts(h.st) {
		for _, e := range p.Examples {
			if p.Side == Union && strings.Contains(e, "\nPICK ") {
				ex = e
			}
		}
	}
	if ex == "" {
		t.Fatalf("no PICK example in the Phase III prompt: %+v", prompts(h.st))
	}
	h.must(Union, ex)
	if len(h.st.FirePicks[Union]) != 1 {
		t.Errorf("PICK example %q stored %v", ex, h.st.FirePicks)
	}
}

// HRA 4.III.d: each unit that fires rolls one d6 and the target's losses
// are read from T2 (small arms, long range, full state: 3+ hits).
func TestRule_4_III_d_OneDiePerFirer(t *testing.T) {
	h := begun(t)
	h.put("G1", 25, 26, 180) // in front of both B1 and B2
	h.set("SET Grey GENERAL WITH G2")
	h.holdAll()
	h.roll(3, 2, 6)
	echo := h.fire(Union, "FIRE B1 AT G1\nFIRE B2 AT G1")
	wantIn(t, echo, "volley: B1 at G1, small arms, long range, normal fire, state 3: d6=3 → 1 loss (T2)",
		"volley: B2 at G1, small arms, long range, normal fire, state 3: d6=2 → 0 loss (T2)")
	if got := h.st.unit("G1").State; got != 2 {
		t.Errorf("G1 state %d, want 2", got)
	}
}

// HRA 4.III.e, 12e: a morale test in Phase III can send a unit back at
// once: G2, fired on from the flank (HRA 12a c) with its brigade's losses
// over its general's status, scores 0 and withdraws in Phase III, before
// the next round begins.
func TestRule_4_III_e_ImmediateForcedMoveInPhaseIII(t *testing.T) {
	h := begun(t)
	h.set("SET Grey GENERAL 1")
	h.set("SET G2 STATE 2")
	h.set("SET G3 STATE 2") // losses 2 over status 1: -1
	h.put("G3", 5, 50, 180)
	h.put("B3", 36, 41.5, 270) // on G2's right flank, 2.75 cm away
	legal(t, h, "B3", "G2")
	h.holdAll()
	h.roll(1, 1) // B3 misses; G2's morale d6=1 -1 = 0
	echo := h.fire(Union, "FIRE B3 AT G2")
	wantIn(t, echo, "morale G2 (fired on from the flank or rear (HRA 12a c)): d6=1 -1 = 0", "G2 withdraws 4cm (HRA 5a)")
	if !before(echo, "G2 withdraws", "— round 2 —") {
		t.Errorf("the withdrawal waited for the next round:\n%s", echo)
	}
	if u := h.st.unit("G2"); u.State != 1 || !u.Retreating {
		t.Errorf("G2 state %d retreating %v: want 1 and in retreat after round 2's Phase I (HRA 12e)", u.State, u.Retreating)
	}
}

// HRA 4.III.f, 14: the morale tests a confrontation causes are made once
// it is resolved and before the next one, all at once: G1's general is
// killed (HRA 12a d), every unit of Grey tests (HRA 12c), and G1's result
// (state -1, more losses) does not change G2's modifier.
func TestRule_4_III_f_MoraleAfterItsConfrontation(t *testing.T) {
	h := begun(t)
	h.set("SET G3 STATE 1")
	h.put("G1", 20, 26, 180)
	h.put("R1", 80, 16, 180)
	h.holdAll()
	// B1 hits G1 (3); the general dies (1). Grey is led at 1 (R9) with
	// losses 3: -2. G1 (medium) d6=1: -1, state -1, withdraws at once.
	// G2 (full, +2) d6=3: 3, must withdraw; after G1's loss it would
	// have been 2 and cost a state point. G3 (low) d6=6: 3.
	h.roll(3, 1, 1, 3, 6, 1)
	echo := h.fire(Union, "FIRE B1 AT G1\nFIRE H1 AT R1")
	wantIn(t, echo, "morale G1 (general killed (HRA 12a d, 12c)): d6=1 -2 = -1",
		"morale G2 (general killed (HRA 12a d, 12c)): d6=3 +0 = 3",
		"morale G3 (general killed (HRA 12a d, 12c)): d6=6 -3 = 3")
	if !before(echo, "volley: B1 at G1", "morale G1") || !before(echo, "morale G3", "G1 withdraws") || !before(echo, "G1 withdraws", "volley: H1 at R1") {
		t.Errorf("order of tests, their effects and the next confrontation:\n%s", echo)
	}
	if got := h.st.unit("G2").State; got != 3 {
		t.Errorf("G2 state %d, want 3: its test did not see G1's result (HRA 14)", got)
	}
}

// HRA 4.III.g, 11c: the defenders' extra volleys come first, before any
// other confrontation, and all at once: B1, attacked in the flank by G2,
// fires its extra volley as it stood before G1's extra volley hit it
// (hindered, outside its front arc, HRA 11d: full state needs 3+ at short
// range; medium would need 4+).
func TestRule_4_III_g_DefensiveVolleysFirst(t *testing.T) {
	h := begun(t)
	h.put("B2", 60, 5, 0)
	h.put("B3", 70, 5, 0)
	h.put("G1", 20, 27, 180)
	h.put("G2", 30, 23.5, 270)
	h.put("R1", 80, 16, 180)
	h.must(Union, "B1: ADVANCE 7")
	h.must(Confederate, "G2: ADVANCE 6.75")
	if !h.st.inMelee("G2") {
		t.Fatalf("G2 did not attack B1: %s", h.echo())
	}
	h.holdAll()
	// G1's extra volley at B1: 6, hits; B1's at G2: 3, hits at full
	// state; the Blue general's roll: 6.
	h.roll(6, 3, 6)
	echo := h.fire(Union, "FIRE H1 AT R1")
	wantIn(t, echo, "defensive volley: G1 at B1, small arms, short range, normal fire, state 3: d6=6 → 1 loss",
		"defensive volley: B1 at G2, small arms, short range, hindered: outside the front arc (HRA 13c) fire, state 3: d6=3 → 1 loss")
	if !before(echo, "defensive volley: B1 at G2", "confrontation 1") || !before(echo, "defensive volley: B1 at G2", "volley: H1 at R1") {
		t.Errorf("the extra volleys did not come first:\n%s", echo)
	}
}

// HRA 14: fire within a confrontation reads the battlefield as it was when
// it began: G1, hit by B1 first, still fires at full state (3+ at long
// range, medium would need 4+).
func TestRule_14_SimultaneousFire(t *testing.T) {
	h := begun(t)
	h.put("G1", 20, 26, 180)
	h.set("SET Blue GENERAL WITH B2")
	h.set("SET Grey GENERAL WITH G2")
	h.holdAll()
	h.roll(6, 3)
	echo := h.fire(Union, "FIRE B1 AT G1", Confederate, "FIRE G1 AT B1")
	wantIn(t, echo, "volley: G1 at B1, small arms, long range, normal fire, state 3: d6=3 → 1 loss")
	if b, g := h.st.unit("B1").State, h.st.unit("G1").State; b != 2 || g != 2 {
		t.Errorf("B1 state %d, G1 state %d: want 2 and 2 (HRA 14b)", b, g)
	}
}

// HRA 5c, H5, 12e: a unit in retreat tests morale in Phase I of every
// round. At 0 or less it keeps fleeing: one full move on the way it faces,
// state -1, and no action this round. At 1 or more it stops fleeing and
// the result still applies: "must withdraw" is carried out next round.
func TestRule_5c_RetreatTestsEveryRound(t *testing.T) {
	start := func(t *testing.T) *harness {
		h := begunWith(t, long)
		h.must(Union, "B1: RETREAT")
		if u := h.st.unit("B1"); !u.Retreating || u.Front.Y != table.CM(9) {
			t.Fatalf("no retreat: %s", h.echo())
		}
		h.set("SET Blue GENERAL 1")
		h.set("SET Blue GENERAL WITH B3")
		h.set("SET B1 STATE 2")
		h.set("SET B2 STATE 2") // B1: medium, losses 2 over 1: -1
		return h
	}
	t.Run("keeps fleeing", func(t *testing.T) {
		h := start(t)
		h.roll(5, 2, 1)
		echo := h.endRound()
		wantIn(t, echo, "morale B1 (in retreat (HRA 12a e, 5c)): d6=1 -1 = 0", "B1 retreats 8cm (HRA 5b)")
		u := h.st.unit("B1")
		if !u.Retreating || u.State != 1 || u.Facing != 180*table.Degree || u.Front.Y != table.CM(1) {
			t.Errorf("retreating %v state %d facing %v front %v: want true, 1, 180°, y 1 (one more full move, no about-face)", u.Retreating, u.State, u.Facing, u.Front)
		}
		wantProblem(t, h, Union, "B1: ADVANCE 1", "HRA 4.I.c")
	})
	t.Run("stops", func(t *testing.T) {
		h := start(t)
		h.roll(5, 2, 6)
		echo := h.endRound()
		wantIn(t, echo, "morale B1 (in retreat (HRA 12a e, 5c)): d6=6 -1 = 5: no effect", "B1 stops retreating (H5)")
		if u := h.st.unit("B1"); u.Retreating || u.Front.Y != table.CM(9) {
			t.Errorf("retreating %v front %v: want stopped at y 9", u.Retreating, u.Front)
		}
		h.set("SET Blue GENERAL 3")
		h.must(Union, "B1: TURN LEFT 180\nB2, B3, BA: HOLD") // it acts again
	})
	t.Run("must withdraw next round", func(t *testing.T) {
		h := start(t)
		h.roll(5, 2, 4)
		echo := h.endRound()
		wantIn(t, echo, "d6=4 -1 = 3: must withdraw next round", "B1 stops retreating (H5)")
		wantNotIn(t, echo, "B1 withdraws")
		if u := h.st.unit("B1"); u.Front.Y != table.CM(9) || !u.WithdrawNext {
			t.Errorf("front %v withdraw next %v: want y 9, true (HRA 12e: next round)", u.Front, u.WithdrawNext)
		}
		h.roll(5, 2)
		echo = h.endRound()
		wantIn(t, echo, "— round 3 —", "B1 withdraws 4cm (HRA 5a)")
		if u := h.st.unit("B1"); u.Front.Y != table.CM(13) || u.WithdrawNext {
			t.Errorf("round 3: front %v withdraw next %v: want y 13 (4 cm back), false", u.Front, u.WithdrawNext)
		}
	})
}

// HRA 5d: a unit that runs into an enemy unit in a forced move is
// destroyed; a unit already in contact (in melee) that retreats away from
// it is not.
func TestRule_5d_ForcedMoveIntoEnemyDestroys(t *testing.T) {
	// A retreat (HRA 5b) into an enemy 5.5 cm behind.
	h := begunWith(t, long)
	h.put("G2", 30, 11.5, 0)
	h.must(Union, "B2: RETREAT")
	wantIn(t, h.echo(), "B2: state 3 → 0: it breaks and leaves the battlefield (HRA 3a) — ran into G2 in a forced move (HRA 5d)")
	if !h.st.unit("B2").Removed() {
		t.Error("B2 ran into G2 and survived")
	}
	// A withdrawal (HRA 5a) into an enemy 2 cm behind.
	h = begunWith(t, long)
	h.put("G2", 30, 15, 0)
	h.st.unit("B2").WithdrawNext = true
	h.roll(5, 2)
	echo := h.endRound()
	wantIn(t, echo, "ran into G2 in a forced move (HRA 5d)")
	if !h.st.unit("B2").Removed() {
		t.Error("B2 withdrew into G2 and survived")
	}
	// Retreating out of a melee: the enemy it touched is not run into.
	h = begunWith(t, long)
	h.put("G1", 20, 27, 180)
	h.must(Union, "B1: ADVANCE 7")
	h.roll(1, 1, 1)
	h.endRound()
	if !h.st.inMelee("B1") {
		t.Fatal("no melee")
	}
	h.holdUntil(Union)
	h.must(Union, "B1: RETREAT")
	if u := h.st.unit("B1"); u.Removed() || h.st.inMelee("B1") || u.Front.Y != table.CM(16) {
		t.Errorf("retreat from melee: removed %v in melee %v front %v, want false false y 16:\n%s", u.Removed(), h.st.inMelee("B1"), u.Front, h.echo())
	}
}

// HRA 11e: in later rounds units in melee hold automatically (retreat is
// their only other order) and keep fighting in Phase III, without another
// defensive volley.
func TestRule_11e_ContinuingMelee(t *testing.T) {
	h := begunWith(t, long)
	h.put("G1", 20, 27, 180)
	h.must(Union, "B1: ADVANCE 7")
	h.roll(1, 1, 1) // every shot misses
	echo := h.endRound()
	wantIn(t, echo, "defensive volley: G1 at B1", "— round 2 —")
	if !h.st.inMelee("B1") {
		t.Fatal("the melee ended")
	}
	h.holdUntil(Union)
	wantProblem(t, h, Union, "B1: ADVANCE 1\nB2, B3, BA: HOLD", "in melee")
	wantProblem(t, h, Union, "B1: WHEEL LEFT 10\nB2, B3, BA: HOLD", "HRA 11e")
	h.must(Union, "Blue: ADVANCE 1")
	if h.st.unit("B1").Moved != 0 || h.st.unit("B2").Moved != table.CM(1) {
		t.Error("the unit in melee moved with its brigade, or the others did not")
	}
	h.roll(1, 1)
	echo = h.endRound()
	wantIn(t, echo, "melee: B1 at G1", "melee: G1 at B1", "— round 3 —")
	wantNotIn(t, echo, "defensive volley")
	h.holdUntil(Union)
	h.must(Union, "B1: RETREAT") // the only other order (HRA 11e)
	if h.st.inMelee("B1") {
		t.Error("still in melee after retreating")
	}
}

// twoAttackers is begun with G1 attacked in melee by B1 and B2.
func twoAttackers(t *testing.T) *harness {
	t.Helper()
	h := begun(t)
	h.put("G1", 25, 27, 180)
	h.must(Union, "B1, B2: ADVANCE 7\nB3, BA: HOLD")
	if len(h.st.Melees) != 2 {
		t.Fatalf("melees %+v: %s", h.st.Melees, h.echo())
	}
	return h
}

// HRA 11f: a unit attacked by several enemies fires its extra volley at
// only one of them, but defends in melee against all of them.
func TestRule_11f_SeveralAttackers(t *testing.T) {
	h := twoAttackers(t)
	h.roll(1, 1, 1, 1) // everything misses
	h.holdAll()
	echo := h.fire(Confederate, "FIRE G1 AT B1") // the defender's choice (HRA 11f)
	if n := strings.Count(echo, "defensive volley: G1 at"); n != 1 {
		t.Errorf("%d extra volleys from G1, want 1 (HRA 11f):\n%s", n, echo)
	}
	wantIn(t, echo, "melee: B1 at G1", "melee: B2 at G1")
	if !h.st.inMelee("B1") || !h.st.inMelee("B2") {
		t.Errorf("G1 no longer fights both attackers: %+v", h.st.Melees)
	}
}

// HRA 11g: attacked, a battery fires with small arms as at low state
// (4-6 = 1 loss) whatever its state.
func TestRule_11g_BatteryDefendsAsLowState(t *testing.T) {
	for _, c := range []struct{ die, loss int }{{3, 0}, {4, 1}} {
		h := begun(t)
		h.put("G3", 50, 26, 180)
		h.must(Union, "Blue: HOLD")
		h.must(Confederate, "G3: ADVANCE 8\nG1, G2: HOLD")
		if !h.st.inMelee("BA") {
			t.Fatalf("no melee: %s", h.echo())
		}
		h.roll(c.die, 6)
		echo := h.endRound()
		wantIn(t, echo, fmt.Sprintf("defensive volley: BA at G3, small arms, short range, normal fire, state 1: d6=%d → %d loss", c.die, c.loss))
	}
}

// moraleLines returns the echo's morale lines for a unit.
func moraleLines(echo, unit string) []string {
	var out []string
	for _, l := range strings.Split(echo, "\n") {
		if strings.HasPrefix(l, "morale "+unit+" (") {
			out = append(out, l)
		}
	}
	return out
}

// HRA 12a a: a unit whose state falls to low because of fire tests
// morale; one that falls only to medium does not.
func TestRule_12a_a_FellToLowState(t *testing.T) {
	h := begun(t)
	h.set("SET G1 STATE 2")
	h.set("SET Grey GENERAL WITH G3")
	h.put("G1", 20, 26, 180)
	h.put("G2", 30, 26, 180)
	h.holdAll()
	h.roll(3, 6, 3) // B1 hits G1 (2 → 1), G1 tests; B2 hits G2 (3 → 2)
	echo := h.fire(Union, "FIRE B1 AT G1\nFIRE B2 AT G2")
	wantIn(t, echo, "morale G1 (fell to low state (HRA 12a a))", "G2: state 3 → 2")
	if l := moraleLines(echo, "G2"); len(l) != 0 {
		t.Errorf("G2 fell only to medium and tested: %v", l)
	}
}

// HRA 12a b: friendly units a retreating unit flees through or past
// (within 2 cm) test morale; one farther off does not.
func TestRule_12a_b_FledPastOrThrough(t *testing.T) {
	h := begunWith(t, long)
	h.put("B3", 20, 15, 0) // in B1's path: fled through
	h.put("B2", 28, 15, 0) // 1.5 cm beside it: fled past
	h.put("BA", 11, 15, 0) // 4.25 cm off: not
	h.roll(6, 6)
	h.must(Union, "B1: RETREAT")
	echo := h.echo()
	wantIn(t, echo, "morale B2 (B1 fled past or through it (HRA 12a b))", "morale B3 (B1 fled past or through it (HRA 12a b))")
	wantNotIn(t, echo, "morale BA")
}

// HRA 12a c: a unit fired on from its flank or rear tests morale, even
// unhurt, but not when the fire is long-range artillery.
func TestRule_12a_c_FiredOnFromFlankOrRear(t *testing.T) {
	for _, c := range []struct {
		name, firer string
		x           float64
		test        bool
	}{
		{"small arms from the flank", "B3", 36, true},
		{"artillery at short range from the flank", "BA", 40, true},
		{"artillery at long range from the flank", "BA", 45, false},
	} {
		h := begun(t)
		h.set("SET BA LIMBERED OFF")
		h.put("G3", 5, 50, 180)
		h.put(c.firer, c.x, 41.5, 270)
		legal(t, h, c.firer, "G2")
		h.holdAll()
		h.roll(1, 6) // the volley misses; G2's test, if any, passes
		echo := h.fire(Union, "FIRE "+c.firer+" AT G2")
		got := len(moraleLines(echo, "G2")) == 1 && strings.Contains(echo, "morale G2 (fired on from the flank or rear (HRA 12a c))")
		if got != c.test {
			t.Errorf("%s: tested %v, want %v:\n%s", c.name, got, c.test, echo)
		}
	}
	// Fire from the front: no test.
	h := begun(t)
	h.put("G1", 20, 26, 180)
	h.holdAll()
	h.roll(1)
	if l := moraleLines(h.fire(Union, "FIRE B1 AT G1"), "G1"); len(l) != 0 {
		t.Errorf("frontal fire caused a test: %v", l)
	}
}

// HRA 12a d: when the unit the general is with suffers losses, a d6 is
// rolled and a 1 kills him (then his brigade tests, HRA 12c); no loss, no
// roll.
func TestRule_12a_d_GeneralKilled(t *testing.T) {
	for _, c := range []struct {
		name   string
		dice   []int
		echo   string
		killed bool
	}{
		{"hit, 1: killed", []int{3, 1, 6, 6, 6}, "Grey's general is with G1, which suffered losses: d6=1 — killed (HRA 12a d)", true},
		{"hit, 2: unhurt", []int{3, 2}, "Grey's general is with G1, which suffered losses: d6=2 (HRA 12a d)", false},
		{"missed: no roll", []int{1}, "", false},
	} {
		h := begun(t)
		h.put("G1", 20, 26, 180)
		h.holdAll()
		h.roll(c.dice...)
		echo := h.fire(Union, "FIRE B1 AT G1")
		if c.echo != "" {
			wantIn(t, echo, c.echo)
		} else {
			wantNotIn(t, echo, "general is with")
		}
		b := h.st.brigade("Grey")
		if b.Killed != c.killed || (b.With == "") != c.killed {
			t.Errorf("%s: killed %v with %q", c.name, b.Killed, b.With)
		}
		if got := len(moraleLines(echo, "G1")) == 1; got != c.killed {
			t.Errorf("%s: G1 tested %v:\n%s", c.name, got, echo)
		}
	}
}

// HRA 12a e: a unit in retreat tests morale in Phase I (see also 5c).
func TestRule_12a_e_InRetreat(t *testing.T) {
	h := begunWith(t, long)
	h.must(Union, "B1: RETREAT")
	h.roll(5, 2, 6)
	echo := h.endRound()
	if l := moraleLines(echo, "B1"); len(l) != 1 || !strings.Contains(l[0], "in retreat (HRA 12a e, 5c)") {
		t.Errorf("tests of B1 in retreat: %v\n%s", l, echo)
	}
	if l := moraleLines(echo, "B2"); len(l) != 0 {
		t.Errorf("B2, not in retreat, tested: %v", l)
	}
}

// HRA 12b: several causes at once make one test: G1, at medium state with
// its general, is hit from the flank, falls to low and loses the general.
func TestRule_12b_OneTestForSeveralCauses(t *testing.T) {
	h := begun(t)
	h.set("SET G1 STATE 2")
	h.put("G2", 5, 50, 180)
	h.put("B3", 26, 41.5, 270) // G1's right flank
	legal(t, h, "B3", "G1")
	h.holdAll()
	h.roll(6, 1, 6, 6, 6)
	echo := h.fire(Union, "FIRE B3 AT G1")
	l := moraleLines(echo, "G1")
	if len(l) != 1 {
		t.Fatalf("%d tests of G1, want 1 (HRA 12b):\n%s", len(l), echo)
	}
	for _, cause := range []string{"HRA 12a a", "HRA 12a c", "HRA 12a d"} {
		if !strings.Contains(l[0], cause) {
			t.Errorf("the one test does not give %s: %s", cause, l[0])
		}
	}
}

// HRA 12c: when a general is killed every unit of his brigade tests,
// wherever it is; the other brigades do not.
func TestRule_12c_WholeBrigadeTests(t *testing.T) {
	h := begun(t)
	h.put("G1", 20, 26, 180)
	h.put("G3", 5, 50, 180)
	h.holdAll()
	h.roll(3, 1, 6, 6, 6)
	echo := h.fire(Union, "FIRE B1 AT G1")
	for _, u := range []string{"G1", "G2", "G3"} {
		if l := moraleLines(echo, u); len(l) != 1 || !strings.Contains(l[0], "general killed (HRA 12a d, 12c)") {
			t.Errorf("%s: %v", u, l)
		}
	}
	for _, u := range []string{"R1", "R2", "R3", "B1"} {
		if l := moraleLines(echo, u); len(l) != 0 {
			t.Errorf("%s is not of Grey and tested: %v", u, l)
		}
	}
}

// HRA 16a: cavalry takes -1 on its fire roll, but not in melee.
func TestRule_16a_CavalryFireModifier(t *testing.T) {
	h := begun(t)
	h.put("R1", 80, 16, 180)
	h.set("SET Rebs GENERAL WITH R2")
	h.holdAll()
	h.roll(3) // small arms, long, full: 3+; 3-1 misses
	echo := h.fire(Union, "FIRE H1 AT R1")
	wantIn(t, echo, "volley: H1 at R1, small arms, long range, normal fire, state 3: d6=3-1 (cavalry, HRA 16a) → 0 loss")
	if h.st.unit("R1").State != 3 {
		t.Error("R1 was hit")
	}
	// In melee: short range, full: 2+; 2 hits with no modifier.
	h = begun(t)
	h.put("R1", 80, 17, 180)
	h.set("SET Rebs GENERAL WITH R2")
	h.must(Union, "Blue: HOLD")
	h.must(Confederate, "Grey: HOLD")
	h.must(Union, "H1: ADVANCE 7\nH2, H3: HOLD")
	h.roll(1, 2, 1)
	echo = h.endRound()
	wantIn(t, echo, "melee: H1 at R1, small arms, short range, normal fire, state 3: d6=2 → 1 loss")
}

// HRA 16d: dismounted cavalry counts as infantry when it is the target
// (artillery, long range, full: 2+ against infantry, 4+ against cavalry).
func TestRule_16d_DismountedIsAnInfantryTarget(t *testing.T) {
	for _, dismounted := range []bool{false, true} {
		h := begun(t)
		h.set("SET BA LIMBERED OFF")
		h.put("BA", 80, 15, 0)
		h.put("R1", 80, 35, 180)
		h.set("SET Rebs GENERAL WITH R2")
		if dismounted {
			h.set("SET R1 DISMOUNTED ON")
		}
		legal(t, h, "BA", "R1")
		h.holdAll()
		h.roll(3)
		h.fire(Union, "FIRE BA AT R1")
		want := 3
		if dismounted {
			want = 2
		}
		if got := h.st.unit("R1").State; got != want {
			t.Errorf("dismounted %v: R1 state %d, want %d (HRA 16d, T2)", dismounted, got, want)
		}
	}
}

// HRA 17a: an unlimbered battery turns to any angle at no cost but cannot
// move.
func TestRule_17a_UnlimberedTurnsButDoesNotMove(t *testing.T) {
	h := begun(t)
	h.set("SET BA LIMBERED OFF")
	wantProblem(t, h, Union, "BA: ADVANCE 2\nB1, B2, B3: HOLD", "HRA 17a")
	wantProblem(t, h, Union, "BA: ROAD 2\nB1, B2, B3: HOLD", "HRA 17a")
	at := h.st.footprint(h.st.unit("BA")).Centre()
	h.must(Union, "BA: TURN LEFT 135\nB1, B2, B3: HOLD")
	u := h.st.unit("BA")
	if u.Facing != 225*table.Degree || h.st.footprint(u).Centre() != at || u.Moved != 0 {
		t.Errorf("facing %v centre %v (was %v) moved %v: want 225°, the same centre, nothing used", u.Facing, h.st.footprint(u).Centre(), at, u.Moved)
	}
}

// HRA 17c: the limber teams move with the battery under the same rules:
// every base of a limbered battery moves together, at the artillery rate
// (T1: 6 cm).
func TestRule_17c_LimbersMoveWithTheBattery(t *testing.T) {
	h := begun(t)
	wantProblem(t, h, Union, "BA: ADVANCE 6.5\nB1, B2, B3: HOLD", "HRA 9d")
	was := h.st.bases(h.st.unit("BA"))
	h.must(Union, "BA: ADVANCE 4\nB1, B2, B3: HOLD")
	now := h.st.bases(h.st.unit("BA"))
	if len(now) != 7 || len(was) != 7 {
		t.Fatalf("%d bases, want 7 (HRA 2c)", len(now))
	}
	for i := range now {
		if d := now[i].Front.Sub(was[i].Front); d != (table.Vector{Y: table.CM(4)}) {
			t.Errorf("base %d moved %v, want <0,4cm>", i, d)
		}
	}
}

// HRA 13d: a battery fires only inside its front arc (135° from the front
// edge, H3), up to 25 cm; a regiment at the same place still fires,
// hindered (HRA 13c).
func TestRule_13d_ArtilleryArc(t *testing.T) {
	for _, c := range []struct {
		name       string
		x, y       float64
		facing     int
		err        string // "" if the battery may fire
		infHinders bool
	}{
		{"straight ahead, 22 cm", 50, 40, 180, "", false},
		{"ahead and to the left, inside the 135° line", 38, 32, 180, "", false},
		{"straight ahead, 26 cm: out of range", 50, 44, 180, "out of range", false},
		{"beside", 60, 17, 270, "outside the battery's arc (HRA 13d)", true},
		{"behind", 50, 8, 0, "outside the battery's arc (HRA 13d)", true},
	} {
		h := begun(t)
		h.set("SET BA LIMBERED OFF")
		h.put("G3", c.x, c.y, c.facing)
		ba, g3 := h.st.unit("BA"), h.st.unit("G3")
		sh, err := h.st.canFire(ba, g3, false, false)
		switch {
		case c.err == "" && (err != nil || sh.Hindered || sh.Weapon != Guns):
			t.Errorf("%s: %+v %v, want normal artillery fire", c.name, sh, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %+v %v, want %q", c.name, sh, err, c.err)
		}
		if c.infHinders {
			// The same place for a regiment: it fires, hindered (HRA 13c).
			h.put("B2", 50, 18, 0)
			h.put("BA", 5, 50, 0)
			if sh, err := h.st.canFire(h.st.unit("B2"), g3, false, false); err == nil && !sh.Hindered {
				t.Errorf("%s: a regiment fires normally there", c.name)
			}
		}
	}
}

// obstacles is a table with a lane for each obstacle of T3; each case
// puts the firer at the bottom of a lane, facing north, and G1 beyond.
const obstacles = `scenario Obstacles
table 400 100
rounds 3
leaderless-status 1
woods "Thicket" 10 44, 30 44, 30 60, 10 60
woods "Copse" 40 42, 60 42, 60 43.5, 40 43.5
fence "Fence" 70 44.5, 90 44.5
wall "Wall" 100 44.5, 120 44.5
redoubt "Redoubt" 130 44.5, 150 44.5
building "Shed" 160 44.5, 168 44.5, 168 45.5, 160 45.5
building "Barn" 190 44.5, 200.5 44.5, 200.5 45.5, 190 45.5
building "Hall" 220 44.5, 240 44.5, 240 45.5, 220 45.5
hill "Ridge" 250 42, 270 42, 270 48, 250 48
hill "Mound" 280 42, 300 42, 300 44, 280 44
side Union
brigade "Blue" general "B1"
infantry "B1" 20 5 0
infantry "B2" 30 5 0
infantry "B3" 40 5 0
artillery "BA" 50 5 0
side Confederate
brigade "Grey" general "G1"
infantry "G1" 20 95 180
infantry "G2" 30 95 180
infantry "G3" 40 95 180
`

// HRA 13e, T3 (read as H13), R5: obstacles on the line of fire hinder or
// prevent it, by weapon and range.
func TestRule_13e_T3_Obstacles(t *testing.T) {
	const prevented = "prevented"
	for _, c := range []struct {
		name   string
		firer  string  // B1 (small arms) or BA (unlimbered guns)
		x, fy  float64 // lane; the firer's front y
		ty     float64 // the target's front y (it faces the firer)
		setup  string  // a SET line, or ""
		want   string  // prevented, "" (normal) or the hindrance's text
		wantSh bool    // short range expected (checked for guns)
	}{
		{"woods: target in it, small arms", "B1", 20, 40, 46, "", "target in woods (T3)", false},
		{"woods: target in it, guns", "BA", 20, 30, 46, "", "target in woods (T3)", false},
		{"woods: target behind it, small arms", "B1", 50, 40, 45, "", prevented, false},
		{"woods: target behind it, guns", "BA", 50, 30, 45, "", "target behind woods (T3)", false},
		{"fence: target directly behind, small arms", "B1", 80, 40, 45, "", "target behind Fence (T3)", false},
		{"fence: target 2.5 cm behind, small arms", "B1", 80, 42, 47, "", "", false},
		{"fence: guns", "BA", 80, 30, 45, "", "", false},
		{"wall: target directly behind, small arms", "B1", 110, 40, 45, "", "target behind Wall (T3)", false},
		{"redoubt: small arms", "B1", 140, 40, 45, "", "target behind a redoubt or entrenched (T3)", false},
		{"redoubt: guns at short range", "BA", 140, 38, 45, "", "target behind a redoubt or entrenched (T3)", true},
		{"redoubt: guns at long range", "BA", 140, 30, 45, "", "", false},
		{"entrenched counts as a redoubt (R5)", "B1", 350, 40, 46, "SET G1 ENTRENCHED ON", "target behind a redoubt or entrenched (T3)", false},
		{"building covers at most a third: small arms", "B1", 170, 40, 46, "", "up to a third of the target covered (T3)", false},
		{"building covers at most a third: guns", "BA", 170, 30, 46, "", "", false},
		{"building covers more than a third: small arms", "B1", 200, 40, 46, "", prevented, false},
		{"building covers more than a third: guns", "BA", 200, 30, 46, "", "more than a third of the target covered (T3)", false},
		{"building covers it all: small arms", "B1", 230, 40, 46, "", prevented, false},
		{"building covers it all: guns, long range", "BA", 230, 30, 46, "", "target wholly covered, long range (T3)", false},
		{"building covers it all: guns, short range", "BA", 230, 38.5, 46, "", prevented, true},
		{"hill between (H13: as a building)", "B1", 290, 40, 46, "", prevented, false},
		{"target on the hill: not masked by it", "B1", 260, 40, 43, "", "", false},
		{"a unit covers it all", "B1", 320, 40, 45, "SET B2 POS 320 41", prevented, false},
		{"a unit covers at most a third", "B1", 320, 40, 45, "SET B2 POS 325 41", "up to a third of the target covered (T3)", false},
	} {
		h := begunWith(t, obstacles)
		h.set("SET B2 FACING 180")
		if c.firer == "BA" {
			h.set("SET BA LIMBERED OFF")
		}
		if c.setup != "" {
			h.set(c.setup)
		}
		h.put(c.firer, c.x, c.fy, 0)
		h.put("G1", c.x, c.ty, 180)
		sh, err := h.st.canFire(h.st.unit(c.firer), h.st.unit("G1"), false, false)
		switch {
		case c.want == prevented:
			if err == nil {
				t.Errorf("%s: fires (%+v), want prevented", c.name, sh)
			} else if !strings.Contains(err.Error(), "T3") {
				t.Errorf("%s: %v, want prevented by T3", c.name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == "" && sh.Hindered:
			t.Errorf("%s: hindered (%s), want normal fire", c.name, sh.Why)
		case c.want != "" && (!sh.Hindered || sh.Why != c.want):
			t.Errorf("%s: hindered %v %q, want %q", c.name, sh.Hindered, sh.Why, c.want)
		}
		if c.firer == "BA" && err == nil && sh.Short != c.wantSh {
			t.Errorf("%s: short range %v, want %v", c.name, sh.Short, c.wantSh)
		}
	}
	// What the players see: the echo names the hindrance; a prevented
	// volley is refused with the reason.
	h := begunWith(t, obstacles)
	h.put("B1", 20, 40, 0)
	h.put("G1", 20, 46, 180)
	h.put("B3", 50, 40, 0)
	h.put("G3", 50, 45, 180)
	h.holdAll()
	wantProblem(t, h, Union, "FIRE B3 AT G3", "small-arms fire is prevented (T3)")
	h.roll(3)
	echo := h.fire(Union, "FIRE B1 AT G1")
	wantIn(t, echo, "volley: B1 at G1, small arms, long range, hindered: target in woods (T3) fire, state 3: d6=3 → 0 loss")
}

// roads is small with a road that bends north at x 60.
var roads = strings.Replace(long, "side Union\n", "road \"Pike\" 0 30, 60 30, 60 55\nside Union\n", 1)

// T1 road modifier: a unit on a road marches along it with +2.5 cm
// (infantry, artillery) or +5 cm (cavalry), turning with it at no cost.
func TestRule_T1_RoadModifier(t *testing.T) {
	for _, c := range []struct {
		unit string
		ok   string // the most it may march
		over string
	}{
		{"B1", "10.5", "10.6"},
		{"H1", "17", "17.1"},
		{"BA", "8.5", "8.6"},
	} {
		h := begunWith(t, roads)
		h.put(c.unit, 30, 30, 90)
		if h.st.unit(c.unit).Brigade == "Horse" {
			h.must(Union, "Blue: HOLD")
			h.must(Confederate, "Grey: HOLD")
		}
		wantProblem(t, h, Union, c.unit+": ROAD "+c.over, "T1: move + road modifier")
		h.must(Union, c.unit+": ROAD "+c.ok)
		wantIn(t, h.echo(), "used "+c.ok+"cm of "+c.ok+"cm")
	}
	// Along the bend: 10.5 cm from x 50 reaches the corner after 10 and
	// turns north with the road, free.
	h := begunWith(t, roads)
	h.put("B1", 50, 30, 90)
	h.must(Union, "B1: ROAD 10.5")
	if u := h.st.unit("B1"); u.Facing != 0 || u.Front != table.Pt(table.CM(60), table.MM(305)) || u.Moved != table.MM(105) {
		t.Errorf("bend: facing %v front %v moved %v", u.Facing, u.Front, u.Moved)
	}
	// A unit off the road first marches to it: TestRule_T1_RoadMarchFromOffTheRoad.
}

// HRA 9b-9d, MOVE TO: the unit turns to face the place (a single rotation,
// HRA 9c) and advances until its front's middle is there; the cost counts
// against its move.
func TestRule_9b_MoveTo(t *testing.T) {
	h := begunWith(t, roads)
	h.must(Union, "B1: MOVE TO 20 26")
	if u := h.st.unit("B1"); u.Front != table.Pt(table.CM(20), table.CM(26)) || u.Moved != table.CM(6) {
		t.Errorf("straight ahead: front %v moved %v, want (20,26) 6cm", u.Front, u.Moved)
	}
	h = begunWith(t, roads)
	wantProblem(t, h, Union, "B1: MOVE TO 12 18.5", "HRA 9d") // 2 + 6.5 cm
	h.must(Union, "B1: MOVE TO 26 18.5")                      // a 90° turn: 2 + 4.5 cm
	if u := h.st.unit("B1"); u.Facing != 90*table.Degree || u.Front != table.Pt(table.CM(26), table.MM(185)) || u.Moved != table.MM(65) {
		t.Errorf("with a turn: facing %v front %v moved %v, want 90° (26,18.5) 6.5cm", u.Facing, u.Front, u.Moved)
	}
	// A place straight behind: an about-face, then the advance.
	h = begunWith(t, roads)
	h.must(Union, "B1: MOVE TO 20 14")
	wantIn(t, h.echo(), "about-face")
	if u := h.st.unit("B1"); u.Facing != 180*table.Degree || table.Distance(u.Front, table.Pt(table.CM(20), table.CM(14))) > table.MM(1) {
		t.Errorf("behind: facing %v front %v, want 180° at (20,14)", u.Facing, u.Front)
	}
	h = begunWith(t, roads)
	h.put("B1", 50, 24, 0)
	h.must(Union, "B1: MOVE TO Hill") // the scenario's point at 50 30
	if u := h.st.unit("B1"); table.Distance(u.Front, table.Pt(table.CM(50), table.CM(30))) > table.MM(1) {
		t.Errorf("to a named point: front %v", u.Front)
	}
}

// T1 entrenching, R5: infantry only; it takes 3d6 rounds, in which the
// unit holds; once entrenched it counts as behind a redoubt (T3) until it
// moves.
func TestRule_T1_Entrench(t *testing.T) {
	h := begunWith(t, long)
	h.roll(1, 1, 1)
	h.must(Union, "B1: ENTRENCH")
	wantIn(t, h.echo(), "B1 entrenches: 3d6 = 1+1+1 = 3 rounds (T1)")
	h.must(Confederate, "Grey: HOLD")
	wantProblem(t, h, Union, "H1: ENTRENCH", "only infantry entrenches")
	for r := 2; r <= 3; r++ {
		h.endRound()
		if h.st.unit("B1").Entrenched {
			t.Fatalf("entrenched in round %d", r)
		}
		h.holdUntil(Union)
		wantProblem(t, h, Union, "B1: ADVANCE 1", "holds automatically: entrench")
	}
	echo := h.endRound()
	wantIn(t, echo, "— round 4 —", "B1 has entrenched (T1)")
	if !h.st.unit("B1").Entrenched {
		t.Fatal("not entrenched in round 4")
	}
	h.put("G1", 20, 26, 180)
	sh := legal(t, h, "G1", "B1")
	if !sh.Hindered || !strings.Contains(sh.Why, "entrenched") {
		t.Errorf("fire at the entrenched unit: %+v (R5, T3)", sh)
	}
	h.put("G1", 20, 40, 180)
	h.holdUntil(Union)
	h.must(Union, "B1: ADVANCE 1\nB2, B3, BA: HOLD")
	if h.st.unit("B1").Entrenched {
		t.Error("still entrenched after moving")
	}
}

// crossing has a river with a ford and a bridge, and a stream.
const crossing = `scenario Crossing
table 100 80
rounds 10
leaderless-status 1
river "River" 0 40, 100 40, 100 44, 0 44
ford "Ford" 5 39, 15 39, 15 45, 5 45
bridge "Bridge" 25 39, 35 39, 35 45, 25 45
stream "Brook" 60 20, 100 20
side Union
brigade "Blue" general "B1"
infantry "B1" 10 37 0
infantry "B2" 30 37 0
infantry "B3" 50 37 0
artillery "BA" 70 10 0
brigade "Horse" general "H1"
cavalry "H1" 85 37 0
cavalry "H2" 90 10 0
cavalry "H3" 95 10 0
side Confederate
brigade "Grey" general "G1"
infantry "G1" 20 78 180
infantry "G2" 30 78 180
infantry "G3" 40 78 180
`

// T1 (ford, river), HRA 10d, 5a: infantry crosses a river only at a ford
// (a whole round) or a bridge (freely); artillery fords in 3 rounds;
// cavalry may cross anywhere in d6 rounds; streams are no obstacle; a
// forced move stops at a river (doc.go).
func TestRule_T1_RiversFordsAndBridges(t *testing.T) {
	t.Run("infantry", func(t *testing.T) {
		h := begunWith(t, crossing)
		wantProblem(t, h, Union, "B3: ADVANCE 8", "infantry may cross the river only at a ford or a bridge (T1)")
		// A march may end with the crossing: TestRule_T1_FordAtTheEndOfAMarch.
		h.must(Union, "B1: ADVANCE 8\nB2: ADVANCE 8\nB3, BA: HOLD")
		wantIn(t, h.echo(), "fording takes 1 round(s) (T1)")
		b1, b2 := h.st.unit("B1"), h.st.unit("B2")
		if b1.Front.Y != table.CM(45) || b1.Moved != table.CM(8) || b2.Front.Y != table.CM(45) || b2.Busy != 0 || b2.Moved != table.CM(8) {
			t.Errorf("B1 front %v moved %v; B2 front %v busy %d moved %v", b1.Front, b1.Moved, b2.Front, b2.Busy, b2.Moved)
		}
		h.endRound()
		h.holdUntil(Union)
		h.must(Union, "B1: ADVANCE 1\nB2, B3, BA: HOLD") // free again in round 2
	})
	t.Run("artillery fords in 3 rounds", func(t *testing.T) {
		h := begunWith(t, crossing)
		h.put("B1", 60, 5, 0)
		h.put("BA", 10, 37, 0)
		h.must(Union, "BA: ADVANCE 6\nB1, B2, B3: HOLD")
		wantIn(t, h.echo(), "fording takes 3 round(s) (T1)")
		for r := 2; r <= 3; r++ {
			h.endRound()
			h.holdUntil(Union)
			wantProblem(t, h, Union, "BA: ADVANCE 1\nB1, B2, B3: HOLD", "crossing")
		}
		h.endRound()
		h.holdUntil(Union)
		h.must(Union, "BA: ADVANCE 1\nB1, B2, B3: HOLD") // round 4
	})
	t.Run("cavalry crosses anywhere in d6 rounds", func(t *testing.T) {
		h := begunWith(t, crossing)
		h.must(Union, "Blue: HOLD")
		h.must(Confederate, "Grey: HOLD")
		h.roll(2)
		h.must(Union, "H1: ADVANCE 10\nH2: ADVANCE 12\nH3: HOLD")
		// HRA 10d: H2 crosses the stream for the distance alone.
		wantIn(t, h.echo(), "crossing the river takes 2 round(s) (T1, d6=2)", "H2: ADVANCE 12 — used 12cm of 12cm, 0cm left; now at x=90cm y=22cm")
		if h2 := h.st.unit("H2"); h2.Busy != 0 {
			t.Errorf("the stream made H2 busy %d", h2.Busy)
		}
		if h.st.Round != 2 { // Horse was the last brigade to order
			t.Fatalf("round %d", h.st.Round)
		}
		h.holdUntil(Union)
		wantProblem(t, h, Union, "H1: ADVANCE 1\nH2, H3: HOLD", "crossing")
		h.endRound()
		h.holdUntil(Union)
		h.must(Union, "H1: ADVANCE 1\nH2, H3: HOLD") // round 3
	})
	t.Run("a forced move stops at the river", func(t *testing.T) {
		h := begunWith(t, crossing)
		h.put("B3", 50, 35, 180)
		h.st.unit("B3").WithdrawNext = true
		h.roll(5, 2)
		echo := h.endRound()
		wantIn(t, echo, "B3 withdraws 2cm (HRA 5a)", "B3 stops at an obstacle it cannot cross (HRA 5a)")
	})
}

// T1: a road march through a ford or across a river is a crossing like any
// other: it takes the unit's round (and the rounds the crossing takes).
func TestRule_T1_RoadThroughAFord(t *testing.T) {
	scn := strings.Replace(crossing, "side Union\n", "road \"Lane\" 10 20, 10 60\nroad \"Track\" 85 20, 85 60\nside Union\n", 1)
	h := begunWith(t, scn)
	h.must(Union, "B1: ROAD 10")
	wantIn(t, h.echo(), "fording takes 1 round(s) (T1)", "used 10.5cm of 10.5cm")
	if u := h.st.unit("B1"); u.Front.Y != table.CM(47) {
		t.Errorf("B1 front %v", u.Front)
	}
	h.must(Confederate, "Grey: HOLD")
	h.roll(3)
	h.must(Union, "H1: ROAD 10")
	wantIn(t, h.echo(), "crossing the river takes 3 round(s) (T1, d6=3)")
	for r := 2; r <= 3; r++ {
		h.holdUntil(Union)
		wantProblem(t, h, Union, "H1: ADVANCE 1\nH2, H3: HOLD", "crossing")
		h.endRound()
	}
	h.holdUntil(Union)
	h.must(Union, "H1: ADVANCE 1\nH2, H3: HOLD") // round 4
}

// HRA H15: dismounted cavalry keeps the cavalry −1 when it fires (16a
// says "cavalry"; 16d changes only how it is hit), unless the scenario
// says "dismounted-fire infantry".
func TestRule_H15_DismountedCavalryFireModifier(t *testing.T) {
	b := []byte(small)
	for _, tc := range []struct {
		name, line, want string
	}{
		{"the spec's reading", "", "d6=3-1 (cavalry, HRA 16a) → 0 loss"},
		{"cavalry, said explicitly", "dismounted-fire cavalry\n", "d6=3-1 (cavalry, HRA 16a) → 0 loss"},
		{"as infantry", "dismounted-fire infantry\n", "d6=3 → 1 loss"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := begunWith(t, tc.line+string(b))
			// As in 16a's test, with the firing cavalry dismounted.
			h.put("H1", 80, 16, 180)
			h.put("R1", 80, 10, 0)
			h.set("SET R1 DISMOUNTED ON")
			h.set("SET Rebs GENERAL WITH R2")
			h.holdAll()
			h.roll(3) // small arms, long range, full state: 3+
			wantIn(t, h.fire(Confederate, "FIRE R1 AT H1"), tc.want)
		})
	}
	if _, err := ParseScenario([]byte("dismounted-fire sometimes\n" + string(b))); err == nil || !strings.Contains(err.Error(), "HRA H15") {
		t.Fatalf("a bad dismounted-fire line: %v", err)
	}
}
