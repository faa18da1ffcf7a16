package hra

import (
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/engine/table"
	"pbem/events"
)

// Tests for rule IDs of shared/rules/hra.md that the other files do not
// name, so that doc.go can point every enforced ID at its test.

// sides records the number of sides of every die rolled.
type sides struct {
	engine.Dice
	got map[int]int
}

func (s *sides) Roll(purpose string, n int) int { s.got[n]++; return s.Dice.Roll(purpose, n) }
func (s *sides) As(events.Vis) engine.Dice      { return s }

// HRA 1c: only six-sided dice are used, in a whole game.
func TestRule_1c_OnlySixSidedDice(t *testing.T) {
	h := newHarness(t, "dice")
	d := &sides{Dice: play.NewStream([]byte("dice"), "test", 0), got: map[int]int{}}
	h.dice = d
	h.playToEnd(400)
	if len(d.got) != 1 || d.got[6] == 0 {
		t.Errorf("dice rolled by sides: %v, want only d6", d.got)
	}
}

// HRA 2a-2c, H2: a regiment's three bases ranked one behind another (6.5
// × 3 cm infantry, 3.5 × 3 cm cavalry); a battery 3 cm wide, guns, crew
// and limbers one row behind another.
func TestRule_2a_2b_2c_BaseSizes(t *testing.T) {
	h := begun(t)
	for _, c := range []struct {
		unit         string
		width, depth table.Length
		bases        int
	}{
		{"B1", table.MM(65), table.CM(3), 3},
		{"H1", table.MM(35), table.CM(3), 3},
		{"BA", table.CM(3), table.MM(35), 7},
	} {
		u := h.st.unit(c.unit)
		r := h.st.footprint(u)
		if r.Width != c.width || r.Depth != c.depth || len(h.st.bases(u)) != c.bases {
			t.Errorf("%s: %v × %v in %d bases, want %v × %v in %d", c.unit, r.Width, r.Depth, len(h.st.bases(u)), c.width, c.depth, c.bases)
		}
	}
}

// HRA 4.III.a: each unit fires at most one volley a round.
func TestRule_4_III_a_OneVolleyPerUnit(t *testing.T) {
	h := begun(t)
	h.put("G1", 20, 26, 180)
	h.put("G2", 28, 26, 180)
	h.holdAll()
	wantProblem(t, h, Union, "FIRE B1 AT G1\nFIRE B1 AT G2", "at most one volley a round (HRA 4.III.a)")
}

// HRA 15a, 15c: forming column costs 1 cm, and forming line again 1 cm.
func TestRule_15c_LineAgainCostsOneCentimetre(t *testing.T) {
	h := begun(t)
	h.must(Union, "B1: COLUMN LEFT, ADVANCE 2, LINE RIGHT\nB2, B3, BA: HOLD")
	if u := h.st.unit("B1"); u.Column || u.Moved != table.CM(4) || u.Facing != 0 {
		t.Errorf("column and back: column %v moved %v facing %v, want line, 4cm, 0°", u.Column, u.Moved, u.Facing)
	}
}

// HRA 16b: a charge adds 8 cm, goes straight (turns only before it), and
// only twice a day (the scenario's charges line).
func TestRule_16b_ChargeStraightTwiceADay(t *testing.T) {
	h := begunWith(t, long)
	h.must(Union, "Blue: HOLD")
	h.must(Confederate, "Grey: HOLD")
	wantProblem(t, h, Union, "H1: ADVANCE 1, CHARGE 10\nH2, H3: HOLD", "preceded only by turns")
	h.must(Union, "H1: WHEEL LEFT 20, CHARGE 20\nH2, H3: HOLD") // 12 + 8
	if u := h.st.unit("H1"); u.Charges != 1 || u.Moved != table.CM(20) {
		t.Fatalf("charge: %d charges, moved %v", u.Charges, u.Moved)
	}
	h.set("SET H1 CHARGES 2")
	h.endRound()
	h.holdUntil(Union)
	wantProblem(t, h, Union, "H1: CHARGE 14\nH2, H3: HOLD", "has made its 2 charges of the day")
}

// The prompt's examples are orders the engine accepts (HELP must not
// mislead): every example of a whole game, and one where a defender must
// choose its extra volley's target (HRA 11f).
func TestPromptExamplesAreAccepted(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "examples")
	for n := 0; n < 200 && h.st.Phase != PhaseOver; n++ {
		for _, p := range prompts(h.st) {
			if p.Referee {
				continue
			}
			for _, ex := range p.Examples {
				if !tryOrder(h.st, p.Side, ex) {
					t.Errorf("mail %d: %s's example %q is refused", n, p.Side, ex)
				}
			}
		}
		ps := prompts(h.st)
		h.must(ps[0].Side, ps[0].Examples[0])
	}
	h = twoAttackers(t)
	h.holdAll()
	for _, p := range prompts(h.st) {
		for _, ex := range p.Examples {
			if !tryOrder(h.st, p.Side, ex) {
				t.Errorf("%s's example %q is refused", p.Side, ex)
			}
		}
	}
}
