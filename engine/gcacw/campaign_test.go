package gcacw

import (
	"strings"
	"testing"
)

// A second original scenario, of campaign size (a map of at
// least 30 x 24 hexes, at least 12 units a side under a full hierarchy of
// army, corps and division leaders, several turns), marked as original
// and not from a published game, that two players can finish without a
// referee.
func TestCampaignScenarioTallowValley(t *testing.T) {
	t.Parallel()
	raw, err := files.ReadFile("scenarios/tallow-valley.txt")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the file", string(raw), "ORIGINAL SCENARIO - written for pbem, not from any published game")
	b, err := Scenario("tallow-valley")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, b)
	sc := h.st.Scn
	if g := sc.Map.Grid(); g.Cols < 30 || g.Rows < 24 {
		t.Errorf("map %dx%d, want at least 30x24", g.Cols, g.Rows)
	}
	if sc.Turns < 4 {
		t.Errorf("%d turns", sc.Turns)
	}
	for _, side := range Sides {
		n := 0
		for _, u := range h.st.Units {
			if u.Side == side {
				n++
			}
		}
		if n < 12 {
			t.Errorf("%s has %d units, want at least 12", side, n)
		}
		kinds := map[string]int{}
		for _, l := range h.st.Leaders {
			if l.Side != side {
				continue
			}
			k := l.Kind
			if l.Cavalry {
				k = "cavalry " + k
			}
			kinds[k]++
			// Every leader commands units of its formation (GCACW 2.2m).
			cmd := 0
			for _, u := range h.st.Units {
				if h.st.commands(l, u) {
					cmd++
				}
			}
			if cmd == 0 {
				t.Errorf("%s commands no unit", l.Name)
			}
		}
		if kinds[ArmyLeader] != 1 || kinds[CorpsLeader] < 2 || kinds[DivisionLeader] < 2 || kinds["cavalry "+CorpsLeader] < 1 || kinds["cavalry "+DivisionLeader] < 1 {
			t.Errorf("%s's leaders %v: want an army leader, corps and division leaders, cavalry corps and division leaders", side, kinds)
		}
	}
	if steps := refereeSteps(h.st); len(steps) != 0 {
		t.Errorf("the campaign leaves steps to a referee:\n%s", strings.Join(steps, "\n"))
	}
	// Random games finish by the scenario's victory conditions.
	for seed := range uint64(2) {
		_, fs := playRandomScenario(t, "tallow-valley", seed, 4000)
		if last := fs[len(fs)-1]; last.Kind != "game.ended" || !strings.Contains(last.Str("reason"), "victory points") {
			t.Errorf("seed %d: the game did not end by victory points: %s", seed, last)
		}
	}
}
