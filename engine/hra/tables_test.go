package hra

import (
	"fmt"
	"testing"

	"pbem/engine/table"
)

// The fire table as printed in the seed: the cell text for each row and
// column (HRA T2), checked against FireLoss for every roll.
func TestRule_T2_FireTable(t *testing.T) {
	type row struct {
		weapon string
		short  bool
		state  int
		cells  [4]string // inf/art N, inf/art H, cav N, cav H
	}
	rows := []row{
		{SmallArms, false, 3, [4]string{"1-2=0;3-6=1", "1-3=0;4-6=1", "1-2=0;3-6=1", "1-3=0;4-6=1"}},
		{SmallArms, false, 2, [4]string{"1-3=0;4-6=1", "1-5=0;6=1", "1-3=0;4-6=1", "1-5=0;6=1"}},
		{SmallArms, false, 1, [4]string{"1-4=0;5-6=1", "0", "1-4=0;5-6=1", "0"}},
		{SmallArms, true, 3, [4]string{"1=0;2-6=1", "1-2=0;3-6=1", "1=0;2-6=1", "1-2=0;3-6=1"}},
		{SmallArms, true, 2, [4]string{"1-2=0;3-6=1", "1-3=0;4-6=1", "1-2=0;3-6=1", "1-3=0;4-6=1"}},
		{SmallArms, true, 1, [4]string{"1-3=0;4-6=1", "1-4=0;5-6=1", "1-3=0;4-6=1", "1-4=0;5-6=1"}},
		{Guns, false, 3, [4]string{"1=0;2-6=1", "1-3=0;4-6=1", "1-3=0;4-6=1", "1-4=0;5-6=1"}},
		{Guns, false, 2, [4]string{"1-2=0;3-6=1", "1-4=0;5-6=1", "1-4=0;5-6=1", "1-5=0;6=1"}},
		{Guns, false, 1, [4]string{"1-4=0;5-6=1", "1-5=0;6=1", "1-5=0;6=1", "0"}},
		{Guns, true, 3, [4]string{"1=0;2-5=1;6=2", "1=0;2-6=1", "1=0;2-6=1", "1-2=0;3-6=1"}},
		{Guns, true, 2, [4]string{"1=0;2-6=1", "1-2=0;3-6=1", "1-2=0;3-6=1", "1-3=0;4-6=1"}},
		{Guns, true, 1, [4]string{"1-2=0;3-6=1", "1-3=0;4-6=1", "1-3=0;4-6=1", "1-4=0;5-6=1"}},
	}
	for _, r := range rows {
		for c, cell := range r.cells {
			want := expand(cell)
			for roll := 0; roll <= 6; roll++ {
				got := FireLoss(r.weapon, r.short, r.state, c >= 2, c%2 == 1, roll)
				w := 0
				if roll >= 1 {
					w = want[roll-1]
				}
				if got != w {
					t.Errorf("%s short=%v state=%d col=%d roll %d: %d losses, want %d (%s)", r.weapon, r.short, r.state, c, roll, got, w, cell)
				}
			}
		}
	}
}

// expand turns "1-2=0;3-6=1" into losses for rolls 1..6.
func expand(cell string) [6]int {
	var out [6]int
	if cell == "0" {
		return out
	}
	var lo, hi, v int
	for _, part := range splitSemi(cell) {
		if n, _ := fmt.Sscanf(part, "%d-%d=%d", &lo, &hi, &v); n == 3 {
		} else if n, _ := fmt.Sscanf(part, "%d=%d", &lo, &v); n == 2 {
			hi = lo
		}
		for r := lo; r <= hi; r++ {
			out[r-1] = v
		}
	}
	return out
}

func splitSemi(s string) []string {
	var out []string
	cur := ""
	for _, c := range s {
		if c == ';' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(c)
	}
	return append(out, cur)
}

// HRA 12e: the four results of the modified roll.
func TestRule_12e_MoraleResults(t *testing.T) {
	for _, c := range []struct {
		roll int
		want MoraleResult
	}{{9, MoraleSteady}, {6, MoraleSteady}, {5, MoraleSteady}, {4, MoraleWithdraw}, {3, MoraleWithdraw},
		{2, MoraleShaken}, {1, MoraleShaken}, {0, MoraleBroken}, {-3, MoraleBroken}} {
		if got := Morale(c.roll); got != c.want {
			t.Errorf("modified %d: %v, want %v", c.roll, got, c.want)
		}
	}
}

// HRA 12d: every modifier, alone and together (12f ranges).
func TestRule_12d_MoraleModifiers(t *testing.T) {
	for _, c := range []struct {
		gen                   bool
		state, losses, status int
		want                  int
	}{
		{false, 2, 0, 3, 0},
		{true, 2, 0, 3, 1},   // +1 general with the unit
		{false, 3, 0, 3, 2},  // +2 full
		{false, 1, 0, 3, -1}, // -1 low
		{false, 2, 5, 3, -2}, // the seed's example: losses 5, status 3
		{false, 2, 3, 3, 0},  // losses not above status
		{true, 3, 0, 1, 3},   // maximum +3
		{false, 1, 7, 1, -7},
	} {
		if got := MoraleModifier(c.gen, c.state, c.losses, c.status); got != c.want {
			t.Errorf("%+v: %d, want %d", c, got, c.want)
		}
	}
}

// HRA T1: movement in open and woods/rough terrain, road and charge
// modifiers, rotation and about-face costs, fords.
func TestRule_T1_MovementTable(t *testing.T) {
	cm, mm := table.CM, table.MM
	st, quarters := &State{Scn: &ScenarioDef{}}, &State{Scn: &ScenarioDef{TurnPerQuarter: true}}
	for _, c := range []struct {
		name      string
		got, want table.Length
	}{
		{"infantry open", openMove(Infantry), cm(8)},
		{"cavalry open", openMove(Cavalry), cm(12)},
		{"artillery open", openMove(Artillery), cm(6)},
		{"infantry woods", woodsMove(Infantry, 0), cm(4)},
		{"cavalry woods", woodsMove(Cavalry, 0), mm(25)},
		{"artillery woods 1", woodsMove(Artillery, 1), cm(1)},
		{"artillery woods 2", woodsMove(Artillery, 2), cm(1)},
		{"artillery woods 3", woodsMove(Artillery, 3), cm(2)},
		{"artillery woods 4", woodsMove(Artillery, 4), cm(2)},
		{"artillery woods 5", woodsMove(Artillery, 5), cm(3)},
		{"artillery woods 6", woodsMove(Artillery, 6), cm(3)},
		{"infantry road", roadBonus(Infantry), mm(25)},
		{"cavalry road", roadBonus(Cavalry), cm(5)},
		{"artillery road", roadBonus(Artillery), mm(25)},
		{"charge", chargeBonus, cm(8)},
		{"rotation 45", st.rotationCost(45*table.Degree, false), 0},
		{"rotation 46", st.rotationCost(46*table.Degree, false), cm(2)},
		{"rotation 90", st.rotationCost(90*table.Degree, false), cm(2)},
		{"about-face", st.rotationCost(180*table.Degree, true), cm(1)},
		{"wheel 180 (H4)", st.rotationCost(180*table.Degree, false), cm(2)},
		{"turn 270 (H4)", st.rotationCost(270*table.Degree, true), cm(2)},
		{"wheel 180, per quarter", quarters.rotationCost(180*table.Degree, false), cm(4)},
		{"turn 91, per quarter", quarters.rotationCost(91*table.Degree, true), cm(4)},
		{"about-face, per quarter", quarters.rotationCost(180*table.Degree, true), cm(1)},
		{"withdrawal infantry (5e)", openMove(Infantry) / 2, cm(4)},
		{"withdrawal cavalry (5e)", openMove(Cavalry) / 2, cm(6)},
		{"withdrawal artillery (5e)", openMove(Artillery) / 2, cm(3)},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if fordRounds(Infantry) != 1 || fordRounds(Cavalry) != 1 || fordRounds(Artillery) != 3 {
		t.Error("ford rounds (T1)")
	}
}

// HRA T4 and 2e: the brigade compositions.
func TestRule_T4_BrigadeTable(t *testing.T) {
	for _, c := range []struct {
		inf, cav, art int
		ok            bool
	}{
		{3, 0, 0, true}, {3, 0, 1, true}, {4, 0, 0, true}, {4, 0, 1, true}, {5, 0, 0, true},
		{0, 3, 0, true}, {0, 4, 0, true}, {0, 5, 0, true},
		{1, 0, 2, true}, {0, 0, 3, true}, {1, 0, 3, true}, {0, 0, 4, true}, {1, 0, 4, true}, {0, 0, 5, true},
		{2, 0, 0, false}, {5, 0, 1, false}, {2, 1, 0, false}, {0, 6, 0, false}, {0, 0, 2, false},
	} {
		if AllowedBrigade(c.inf, c.cav, c.art) != c.ok {
			t.Errorf("%+v", c)
		}
	}
}
