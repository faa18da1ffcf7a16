package hra

import (
	"strings"
	"testing"

	"pbem/engine/table"
)

// The cases an outside rules referee found, each failing on the
// engine before the fix.

// HRA 9c, 9d: each rotation costs by its own size; a left and a right
// wheel do not cancel.
func TestRule_9c_RotationsCostTheirOwnSize(t *testing.T) {
	h := begun(t)
	h.must(Union, "B1: WHEEL RIGHT 90, WHEEL LEFT 90, ADVANCE 3\nB2, B3, BA: HOLD")
	wantIn(t, h.echo(), "used 7cm of 8cm")
	if got := h.st.unit("B1").Moved; got != table.CM(7) {
		t.Errorf("B1 used %v, want 7cm (2 + 2 + 3)", got)
	}
	h = begun(t)
	p := h.send(Union, "B1: WHEEL RIGHT 90, WHEEL LEFT 90, WHEEL RIGHT 90, WHEEL LEFT 90, ADVANCE 1\nB2, B3, BA: HOLD")
	if len(p) == 0 || !strings.Contains(p[0].Msg, "HRA 9d") {
		t.Fatalf("four 90° wheels and 1 cm (9 cm of 8) accepted: %+v\n%s", p, h.echo())
	}
}

// HRA 9c: a single about-face (180° about the unit's own axis) costs 1 cm,
// however it is written.
func TestRule_9c_AboutFaceCostsOneCentimetre(t *testing.T) {
	for _, o := range []string{"ABOUT, ADVANCE 7", "TURN LEFT 180, ADVANCE 7", "TURN RIGHT 180, ADVANCE 7", "TURN LEFT 90, TURN LEFT 90, ADVANCE 7"} {
		h := begun(t)
		h.must(Union, "B1: "+o+"\nB2, B3, BA: HOLD")
		if u := h.st.unit("B1"); u.Facing != 180*table.Degree || u.Moved != table.CM(8) {
			t.Errorf("%s: facing %v used %v, want 180° and 8cm", o, u.Facing, u.Moved)
		}
	}
}

// HRA H4: turns one way with no move between them are one rotation, so a
// 60° turn split in two still costs 2 cm; a turn back the other way is a
// rotation of its own.
func TestRule_H4_TurnsOneWayAreOneRotation(t *testing.T) {
	h := begun(t)
	wantProblem(t, h, Union, "B1: WHEEL LEFT 30, WHEEL LEFT 30, ADVANCE 7\nB2, B3, BA: HOLD", "HRA 9d")
	h.must(Union, "B1: WHEEL LEFT 30, WHEEL RIGHT 30, ADVANCE 8\nB2, B3, BA: HOLD")
	wantIn(t, h.echo(), "used 8cm of 8cm")
}

// T1: infantry crosses a river only at a ford or a bridge, turning
// included; a march that ends with a turn is checked where it ends.
func TestRule_T1_RotationsDoNotCrossRivers(t *testing.T) {
	h := begunWith(t, crossing)
	wantProblem(t, h, Union, "B3: WHEEL RIGHT 90", "river")
	wantProblem(t, h, Union, "B3: ADVANCE 1, WHEEL RIGHT 90", "river")
	h.must(Union, "B3: TURN LEFT 90") // about its centre, clear of the river
}

// HRA 10c, 17e: a battery cannot cross a fence, turning included.
func TestRule_10c_17e_BatteryDoesNotWheelAcrossAFence(t *testing.T) {
	h := begun(t)
	h.put("BA", 20, 7, 180) // 2 cm north of the fence, facing it
	wantProblem(t, h, Union, "BA: WHEEL LEFT 90\nB1, B2, B3: HOLD", "HRA 10c")
	h.must(Union, "BA: TURN LEFT 90\nB1, B2, B3: HOLD") // about its centre, clear of it
}

// HRA 11d, 13c, T3: the units in a melee fire at each other under the
// normal rules: from behind the defender its fire is hindered (outside its
// front arc), and the attack from the rear makes it test morale (HRA 12a c).
func TestRule_11d_MeleeFromTheRear(t *testing.T) {
	h := begun(t)
	h.put("G1", 20, 29, 0) // facing away from B1, its rear 6 cm ahead of it
	h.must(Union, "B1: ADVANCE 6\nB2, B3, BA: HOLD")
	if !h.st.inMelee("B1") {
		t.Fatalf("no melee: %s", h.echo())
	}
	h.roll(1, 1, 1, 6) // every shot misses; G1's morale holds
	echo := h.endRound()
	wantIn(t, echo,
		"defensive volley: G1 at B1, small arms, short range, hindered: outside the front arc (HRA 13c) fire",
		"melee: G1 at B1, small arms, short range, hindered: outside the front arc (HRA 13c) fire",
		"morale G1 (fired on from the flank or rear (HRA 12a c))")
	wantIn(t, echo, "melee: B1 at G1, small arms, short range, normal fire")
}

// T3 in melee: a target directly behind a fence is hindered.
func TestRule_11d_MeleeAcrossAFence(t *testing.T) {
	h := begunWith(t, strings.Replace(small, "side Union\n", "fence \"Rail\" 60 10, 60 30\nside Union\n", 1))
	h.put("G1", 60, 25, 270) // its front on the fence, facing west
	h.put("B1", 54, 25, 90)
	h.must(Union, "B1: ADVANCE 6\nB2, B3, BA: HOLD")
	if !h.st.inMelee("B1") {
		t.Fatalf("no melee: %s", h.echo())
	}
	h.roll(1, 1, 1)
	echo := h.endRound()
	wantIn(t, echo, "melee: B1 at G1, small arms, short range, hindered: target behind Rail (T3) fire",
		"melee: G1 at B1, small arms, short range, hindered: target behind Rail (T3) fire")
}

// HRA 4.I.d: forced moves follow the normal movement rules, so a retreat
// crosses a bridge, and a ford (taking the round, T1); a river elsewhere
// stops it (HRA 5a).
func TestRule_4_I_d_ForcedMovesCrossBridgesAndFords(t *testing.T) {
	h := begunWith(t, crossing)
	h.put("B2", 30, 50, 0) // north of the bridge, its back to it
	h.must(Union, "B2: RETREAT")
	if got := h.st.unit("B2").Front.Y; got != table.CM(39) {
		t.Errorf("retreat over the bridge: front y %v, want 39cm (8 cm):\n%s", got, h.echo())
	}
	h = begunWith(t, crossing)
	h.put("B1", 10, 50, 0) // north of the ford
	h.must(Union, "B1: RETREAT")
	if got := h.st.unit("B1").Front.Y; got != table.CM(39) {
		t.Errorf("retreat through the ford: front y %v, want 39cm:\n%s", got, h.echo())
	}
	wantIn(t, h.echo(), "fording")
	h = begunWith(t, crossing)
	h.put("B3", 50, 50, 0) // no ford nor bridge behind it
	h.must(Union, "B3: RETREAT")
	if got := h.st.unit("B3").Front.Y; got != table.CM(44) {
		t.Errorf("retreat to the river: front y %v, want 44cm (stops at the bank)", got)
	}
}

// HRA 17a: an unlimbered battery cannot move, so it cannot be ordered to
// retreat.
func TestRule_17a_UnlimberedBatteryDoesNotRetreat(t *testing.T) {
	h := begun(t)
	h.set("SET BA LIMBERED OFF")
	wantProblem(t, h, Union, "BA: RETREAT\nB1, B2, B3: HOLD", "HRA 17a")
}

// HRA 17b, T1: limbering takes the whole round; a battery ordered to
// limber does not fire that round.
func TestRule_17b_LimberingBatteryDoesNotFire(t *testing.T) {
	h := begun(t)
	h.set("SET BA LIMBERED OFF")
	h.put("G3", 50, 30, 180)
	legal(t, h, "BA", "G3")
	h.must(Union, "BA: LIMBER")
	if _, err := h.st.canFire(h.st.unit("BA"), h.st.unit("G3"), false, false); err == nil || !strings.Contains(err.Error(), "HRA 17b") {
		t.Errorf("a limbering battery may fire: %v", err)
	}
	h.holdAll()
	wantIn(t, h.echo(), "Union has no unit that can fire")
}

// HRA 13b: exactly a third of the target must be in range. 6.6 cm away, a
// target 3 cm deep has 30% within 7.5 cm: no fire. 4.1 cm away, 30% is
// within 5 cm: long range. A 2.5 mm sample took both for a third.
func TestRule_13b_OneThirdIsExact(t *testing.T) {
	h := begun(t)
	b1, g1 := h.st.unit("B1"), h.st.unit("G1")
	g1.Front = table.Pt(table.CM(20), table.MM(266))
	if _, err := h.st.canFire(b1, g1, false, false); err == nil || !strings.Contains(err.Error(), "HRA 13b") {
		t.Errorf("6.6 cm: %v, want out of range (HRA 13b)", err)
	}
	g1.Front = table.Pt(table.CM(20), table.MM(265))
	if _, err := h.st.canFire(b1, g1, false, false); err != nil {
		t.Errorf("6.5 cm (exactly a third): %v", err)
	}
	g1.Front = table.Pt(table.CM(20), table.MM(241))
	if sh, err := h.st.canFire(b1, g1, false, false); err != nil || sh.Short {
		t.Errorf("4.1 cm: short %v (%v), want long range", sh.Short, err)
	}
	g1.Front = table.Pt(table.CM(20), table.CM(24))
	if sh, err := h.st.canFire(b1, g1, false, false); err != nil || !sh.Short {
		t.Errorf("4 cm (a third within 5 cm): short %v (%v), want short range", sh.Short, err)
	}
}

// HRA 4.II.e, 11e: a unit within an enemy's short range holds
// automatically, but the seed does not forbid ordering it to retreat.
func TestRule_4_II_e_UnitInShortRangeMayRetreat(t *testing.T) {
	h := begun(t)
	h.put("G1", 20, 24, 180) // 4 cm from B1
	h.must(Union, "B1: RETREAT\nB2, B3, BA: HOLD")
	if u := h.st.unit("B1"); !u.Retreating {
		t.Errorf("B1 did not retreat: %s", h.echo())
	}
}

// HRA 11a: melee occurs when bases touch during a march; a wheel into an
// enemy stops on contact and begins a melee.
func TestRule_11a_WheelIntoAnEnemyIsMelee(t *testing.T) {
	h := begun(t)
	h.put("G1", 19, 25.5, 180) // 5.5 cm ahead: a right wheel's far corner reaches it at about 58°
	h.must(Union, "B1: WHEEL RIGHT 80\nB2, B3, BA: HOLD")
	if !h.st.inMelee("B1") || h.st.Melees[0].Attacker != "B1" {
		t.Errorf("no melee after wheeling into G1: %s", h.echo())
	}
}

// H12: round 1's ties are rolled again; no side is handed the initiative
// because the dice keep tying. Dice that tie 100 times are constant (fair
// ones do so once in 6^100): the referee is asked, and the round waits.
func TestRule_H12_FirstRoundTiesAreRolledAgain(t *testing.T) {
	sc, _ := ParseScenario([]byte(small))
	h := &harness{t: t, st: newState(sc)}
	opening := make([]int, 17)
	for i := range opening {
		opening[i] = 4
	}
	ties := func(n int) []int {
		v := append([]int(nil), opening...)
		for range n {
			v = append(v, 3, 3)
		}
		return v
	}
	h.dice = &seq{v: append(ties(99), 2, 5)}
	h.must(Union, "BEGIN")
	if h.st.Initiative != Confederate {
		t.Errorf("initiative %s after 99 ties and Union 2, Confederate 5", h.st.Initiative)
	}
	h = &harness{t: t, st: newState(sc), dice: &seq{v: ties(100)}}
	h.must(Union, "BEGIN")
	if h.st.Initiative != "" || h.st.ToAct != "" {
		t.Fatalf("after 100 ties the engine gave the initiative to %q (to act %q)", h.st.Initiative, h.st.ToAct)
	}
	if ps := prompts(h.st); len(ps) != 1 || !ps[0].Referee {
		t.Fatalf("the referee is not asked: %+v", ps)
	}
	h.set("SET INITIATIVE Confederate")
	if h.st.Initiative != Confederate || h.st.ToAct != Confederate {
		t.Errorf("after the referee's ruling: initiative %q, to act %q", h.st.Initiative, h.st.ToAct)
	}
}

// T1: a ford takes the round, but the seed does not make the crossing the
// unit's only move: a march may end with it. The scenario line "crossing
// alone" asks for the stricter reading.
func TestRule_T1_FordAtTheEndOfAMarch(t *testing.T) {
	h := begunWith(t, crossing)
	h.must(Union, "B1: ADVANCE 1, ADVANCE 7\nB2, B3, BA: HOLD")
	wantIn(t, h.echo(), "fording takes 1 round(s) (T1)", "used 8cm of 8cm")
	if u := h.st.unit("B1"); u.Front.Y != table.CM(45) {
		t.Errorf("B1 front %v, want y 45cm", u.Front)
	}
	h = begunWith(t, "crossing alone\n"+crossing)
	wantProblem(t, h, Union, "B1: ADVANCE 1, ADVANCE 7\nB2, B3, BA: HOLD", "crossing alone")
	h.must(Union, "B1: ADVANCE 8\nB2, B3, BA: HOLD")
}

// T1 road modifier: the seed does not ask a road march to start on the
// road; a unit off it marches to the nearest road (turning and moving as
// any march) and on along it, the whole with the modifier.
func TestRule_T1_RoadMarchFromOffTheRoad(t *testing.T) {
	h := begunWith(t, roads)
	h.holdOne()
	h.put("G1", 20, 33, 180) // 3 cm north of the road, facing it
	h.must(Confederate, "G1: ROAD 2\nG2, G3: HOLD")
	wantIn(t, h.echo(), "used 7cm of 10.5cm")
	if u := h.st.unit("G1"); u.Front != table.Pt(table.CM(22), table.CM(30)) || u.Facing != 90*table.Degree {
		t.Errorf("G1 front %v facing %v, want (22,30) facing 90°:\n%s", u.Front, u.Facing, h.echo())
	}
	h = begunWith(t, roads)
	h.holdOne()
	wantProblem(t, h, Confederate, "G1: ROAD 2", "after 10cm to reach it")
}

// HRA 11f: a unit attacked by several enemies fires its extra volley at
// one of them, the defender's choice: its side names it in its Phase III
// mail (FIRE <defender> AT <attacker>); pbem does not choose for it.
func TestRule_11f_DefenderPicksItsVolleyTarget(t *testing.T) {
	h := twoAttackers(t)
	h.holdAll()
	if ex := prompts(h.st); !strings.Contains(strings.Join(ex[len(ex)-1].Examples, "\n"), "FIRE G1 AT B") {
		t.Errorf("the Confederate prompt offers no choice of target: %+v", ex)
	}
	wantProblem(t, h, Confederate, "FIRE NONE", "HRA 11f")
	wantProblem(t, h, Confederate, "FIRE G1 AT B3", "its extra volley goes at one of them")
	h.roll(1, 1, 1, 1)
	echo := h.fire(Confederate, "FIRE G1 AT B2")
	wantIn(t, echo, "defensive volley: G1 at B2")
	wantNotIn(t, echo, "defensive volley: G1 at B1")
}

// HRA 3f: supply drops after a confrontation in which the unit fires; a
// declared volley that proves impossible when its confrontation comes is
// not fired and costs nothing. Here B1 attacks G1; G1's extra volley hits
// and kills the Blue general, and B1 breaks (HRA 12c, 12e) and withdraws
// at once out of G2's range before G2's volley at it comes.
func TestRule_3f_NoSupplyForAVolleyNotFired(t *testing.T) {
	h := begun(t)
	h.set("SET B3 STATE 1") // brigade losses 2, with B1's 3: −2 once the general is dead
	h.put("G1", 15, 28, 180)
	h.put("G2", 27, 30, 180) // ahead and to the right of B1 once it has advanced
	h.must(Union, "B1: ADVANCE 8\nB2, B3, BA: HOLD")
	if !h.st.inMelee("B1") {
		t.Fatalf("no melee: %s", h.echo())
	}
	legal(t, h, "G2", "B1")
	h.holdAll()
	// G1's extra volley 6 (a loss), the general's roll 1 (killed), B1's
	// morale 1 (1 − 2 = −1: back at once), the others' 6.
	h.roll(6, 1, 1, 6, 6, 6)
	before := h.st.unit("G2").Supply
	echo := h.fire(Confederate, "FIRE G2 AT B1")
	wantIn(t, echo, "B1 withdraws 4cm", "G2 cannot fire at B1")
	if got := h.st.unit("G2").Supply; got != before {
		t.Errorf("G2's supply %d → %d for a volley it did not fire:\n%s", before, got, echo)
	}
}

// HRA 3c: after the status roll the players assign the generals to their
// brigades: by name, the best first, or each with its status. Both sides
// are asked at once (a sealed step), and round 1 begins when both have.
func TestRule_3c_PlayersAssignTheirGenerals(t *testing.T) {
	sc, _ := ParseScenario([]byte(small))
	h := &harness{t: t, st: newState(sc)}
	// Union generals 5, 3 → status 4, 2; Confederate 2, 6; supply all 4;
	// initiative Union 6, Confederate 1.
	v := []int{5, 3, 2, 6}
	for range sc.Units {
		v = append(v, 4)
	}
	h.dice = &seq{v: append(v, 6, 1)}
	h.must(Union, "BEGIN")
	wantIn(t, h.echo(), "Union's generals: d6 5, 3 → status 4, 2 (HRA 3c)", "Confederate's generals: d6 2, 6 → status 2, 6 (HRA 3c)")
	if h.st.Phase != PhaseGenerals || h.st.brigade("Blue").Status != 0 {
		t.Fatalf("phase %s, Blue's general %d: the engine assigned the generals", h.st.Phase, h.st.brigade("Blue").Status)
	}
	ps := prompts(h.st)
	if len(ps) != 2 || ps[0].Sealed == "" || ps[0].Sealed != ps[1].Sealed {
		t.Errorf("both sides are not asked at once: %+v", ps)
	}
	wantProblem(t, h, Union, "Blue: HOLD", "assign your generals")
	wantProblem(t, h, Union, "GENERALS Horse 4", "Blue is missing")
	wantProblem(t, h, Union, "GENERALS Horse 4, Blue 4", "the statuses rolled for your generals are 4, 2")
	wantProblem(t, h, Union, "GENERALS Horse, Grey", "Grey is not yours")
	h.must(Union, "GENERALS Horse, Blue")
	if h.st.brigade("Horse").Status != 4 || h.st.brigade("Blue").Status != 2 || h.st.Phase != PhaseGenerals {
		t.Fatalf("Horse %d Blue %d phase %s", h.st.brigade("Horse").Status, h.st.brigade("Blue").Status, h.st.Phase)
	}
	h.must(Confederate, "GENERALS Grey 6, Rebs 2")
	if h.st.brigade("Grey").Status != 6 || h.st.brigade("Rebs").Status != 2 || h.st.Phase != PhaseOrders || h.st.Round != 1 {
		t.Errorf("Grey %d Rebs %d phase %s round %d", h.st.brigade("Grey").Status, h.st.brigade("Rebs").Status, h.st.Phase, h.st.Round)
	}
}

// The rules referee's findings in the mail: a rejected march says what it costs, item by item
// ("2 cm turn + 6 cm rough ×2 = 14 cm > 8 cm"), the caret goes under the
// step that goes over, and the hint speaks of turning only if the march
// turned.
func TestRejectedMarchExplainsItsCosts(t *testing.T) {
	for _, c := range []struct {
		name, setup, order, msg, hint, noHint string
		col                                   int
	}{
		{"a turn and the open", "", "B1: WHEEL LEFT 60, ADVANCE 7\nB2, B3, BA: HOLD",
			"the march costs 2cm turn (wheel left 60°) + 7cm open = 9cm > 8cm", "turn less", "", 20},
		{"infantry into woods", "SET B3 POS 74 36", "B3: ADVANCE 7\nB1, B2, BA: HOLD",
			"the march costs 4cm open + 3cm woods ×2 = 10cm > 8cm", "go round the woods", "turn", 5},
		{"a turn, then woods", "SET B3 POS 74 36", "B3: ADVANCE 6, WHEEL RIGHT 50\nB1, B2, BA: HOLD",
			"4cm open + 2cm woods ×2 + 2cm turn (wheel right 50°) = 10cm > 8cm", "turn less", "", 16},
	} {
		h := begun(t)
		if c.setup != "" {
			h.set(c.setup)
		}
		p := h.send(Union, c.order)
		if len(p) == 0 {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(p[0].Msg, c.msg) || !strings.Contains(p[0].Hint, c.hint) || (c.noHint != "" && strings.Contains(p[0].Hint, c.noHint)) {
			t.Errorf("%s: %q (hint %q), want %q (hint with %q, without %q)", c.name, p[0].Msg, p[0].Hint, c.msg, c.hint, c.noHint)
		}
		if p[0].Col != c.col {
			t.Errorf("%s: caret at column %d, want %d (under %q)", c.name, p[0].Col, c.col, p[0].Text[min(c.col-1, len(p[0].Text)):])
		}
	}
	// Cavalry in woods: each cm costs 12/2.5 = 4.8 cm (T1, H14).
	h := begun(t)
	h.set("SET H1 POS 75 40")
	h.must(Union, "Blue: HOLD")
	h.must(Confederate, "Grey: HOLD")
	wantProblem(t, h, Union, "H1: ADVANCE 3\nH2, H3: HOLD", "3cm woods ×4.8 = 14.4cm > 12cm")
	// Accepted, the echo explains the cost too.
	h.must(Union, "H1: ADVANCE 2\nH2, H3: HOLD")
	wantIn(t, h.echo(), "used 9.6cm of 12cm (2cm woods ×4.8 = 9.6cm), 2.4cm left")
}

// The rules referee's findings in the mail: the caret goes under the word at fault, not at the
// start of the line.
func TestCaretUnderTheOffendingWord(t *testing.T) {
	h := begun(t)
	h.set("SET BA LIMBERED OFF")
	for _, c := range []struct {
		order string
		word  string
	}{
		{"BA: RETREAT\nB1, B2, B3: HOLD", "RETREAT"},
		{"B2, B1, B3: WHEEL LEFT 90, ADVANCE 7\nBA: HOLD", "ADVANCE"},
		{"BA, B1: ADVANCE 1\nB2, B3: HOLD", "ADVANCE"},
	} {
		p := h.send(Union, c.order)
		if len(p) == 0 {
			t.Fatalf("%q accepted", c.order)
		}
		if want := strings.Index(p[0].Text, c.word) + 1; p[0].Col != want {
			t.Errorf("%q: %s: caret at column %d, want %d (under %q)", c.order, p[0].Msg, p[0].Col, want, c.word)
		}
	}
}

// The rules referee's findings in the mail: a syntax hint's example names one of the writer's own
// brigades, not the enemy's.
func TestSyntaxHintNamesTheWritersBrigade(t *testing.T) {
	h := begun(t)
	h.must(Union, "Blue: HOLD")
	p := h.send(Confederate, "Grey HOLD")
	if len(p) == 0 || !strings.Contains(p[0].Hint, "Grey: HOLD") || strings.Contains(p[0].Hint, "Blue") {
		t.Errorf("hint %+v, want an example with Grey", p)
	}
}

// HRA 9c, 9d: wheels of up to 45° cost nothing, so by the seed's letter
// small wheels about alternate front corners carry a unit forward at no
// cost; the scenario line "wheel-travel counted" charges the ground each
// wheel carries the unit's centre over, and the zig-zag no longer pays.
func TestRule_9c_WheelWalk(t *testing.T) {
	walk := "B1: WHEEL LEFT 45, WHEEL RIGHT 45, WHEEL LEFT 45, WHEEL RIGHT 45\nB2, B3, BA: HOLD"
	h := begun(t)
	h.must(Union, walk)
	if u := h.st.unit("B1"); u.Moved != 0 || u.Front.Y < table.CM(29) {
		t.Errorf("the seed's letter: used %v, front %v; want 0cm and about 9 cm forward", u.Moved, u.Front)
	}
	h = begunWith(t, "wheel-travel counted\n"+small)
	wantProblem(t, h, Union, walk, "carried by the wheel")
	h.must(Union, "B1: WHEEL LEFT 45, ADVANCE 5\nB2, B3, BA: HOLD")
	wantIn(t, h.echo(), "used 7.7cm of 8cm (2.7cm carried by the wheel + 5cm open = 7.7cm)")
}
