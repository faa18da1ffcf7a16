package gmb

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/table"
)

// lines is a game at Union's passages of lines (7.6), Iron and Irish
// Brigades side by side 1" apart, each division with its general; Union
// has the initiative and each side orders its own passages (option
// passage-order own: 7.6i's other reading, so that Union's mail carries
// its passages out at once).
func lines(t *testing.T, die int, extra ...string) *game {
	t.Helper()
	g := battle(t, append([]string{"option passage-order own"}, extra...)...)
	g.st.Step, g.st.Active = StepPassage, ""
	g.put("Iron Brigade", 24, 10, 0)  // 1st Division
	g.put("Irish Brigade", 31, 10, 0) // 2nd Division, 1" to the east
	g.st.Generals = []General{
		{Name: "Doubleday", Side: "Union", Group: GroupDivision, Formation: "1st Division"},
		{Name: "Humphreys", Side: "Union", Group: GroupDivision, Formation: "2nd Division"},
	}
	g.dice = engine.DiceFunc(func(string, int) int { return die })
	return g
}

func TestGMB_7_6a_7_6c_NeitherEngagedSwapsWithoutATest(t *testing.T) {
	g := lines(t, 1)
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	if a, b := g.st.unit("Iron Brigade"), g.st.unit("Irish Brigade"); a.Front != table.Pt(in(31), in(10)) || b.Front != table.Pt(in(24), in(10)) {
		t.Errorf("after the passage Iron at %v, Irish at %v; want them swapped", a.Front, b.Front)
	}
	if len(g.facts("command.tested")) != 0 {
		t.Error("a passage of two units not engaged was tested (7.6c: it succeeds automatically)")
	}
	// 7.6i: the side with the initiative went first; now the other.
	if g.st.Step != StepPassage || g.st.ToAct != "Confederate" {
		t.Errorf("step %s, %s to act; want Confederate's passages", g.st.Step, g.st.ToAct)
	}
}

func TestGMB_7_6d_7_6h_OneEngagedTestsTheEngagedUnitsGeneral(t *testing.T) {
	g := lines(t, 6)
	g.st.unit("Irish Brigade").Engaged = true
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	ts := g.facts("command.tested")
	if len(ts) != 1 || ts[0].Str("general") != "Humphreys" || ts[0].Int("need") != 1 {
		t.Fatalf("tests %v; want Humphreys (the engaged unit's general, 7.6h) needing 1 success (7.6d)", ts)
	}
	if g.st.unit("Iron Brigade").Front.X != in(31) {
		t.Error("a passed test did not swap the units")
	}
	// A failed test: both stay and each loses a cohesion point.
	g = lines(t, 1)
	g.st.unit("Irish Brigade").Engaged = true
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	a, b := g.st.unit("Iron Brigade"), g.st.unit("Irish Brigade")
	if a.Front.X != in(24) || a.Cohesion != 2 || b.Cohesion != 2 {
		t.Errorf("a failed passage: Iron at %v cohesion %d, Irish cohesion %d; want both staying, 2 each", a.Front, a.Cohesion, b.Cohesion)
	}
}

func TestGMB_7_6b_7_6e_7_6f_WhoMayNotPass(t *testing.T) {
	g := lines(t, 6)
	g.st.unit("Iron Brigade").Engaged = true
	g.st.unit("Irish Brigade").Engaged = true
	g.refuse("Union", "PASSAGE Iron Brigade AND Irish Brigade", "not while both units are engaged in combat (7.6e)")
	g = lines(t, 6)
	g.st.unit("Irish Brigade").Pinned = true
	g.refuse("Union", "PASSAGE Iron Brigade AND Irish Brigade", "pinned by artillery fire cannot take part (7.6f)")
	g = lines(t, 6)
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	g.st.ToAct = "Union"
	g.refuse("Union", "PASSAGE Iron Brigade AND Irish Brigade", "one passage of lines a turn (7.6b)")
	g = lines(t, 6)
	g.put("Irish Brigade", 34, 10, 0) // 4" apart: not supporting
	g.refuse("Union", "PASSAGE Iron Brigade AND Irish Brigade", "do not support each other (7.6a")
}

func TestGMB_7_6g_7_6j_TheInactiveCorpsNeedsOneMoreSuccess(t *testing.T) {
	g := lines(t, 6)
	g.st.Inactive = []string{"I Corps"}
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	ts := g.facts("command.tested")
	if len(ts) != 1 || ts[0].Int("need") != 1 {
		t.Fatalf("tests %v; want a test needing 1 success for two unengaged units of the inactive corps (7.6j)", ts)
	}
	g = lines(t, 6)
	g.st.Inactive = []string{"I Corps"}
	g.st.unit("Iron Brigade").Engaged = true
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	if ts := g.facts("command.tested"); len(ts) != 1 || ts[0].Int("need") != 2 || ts[0].Str("general") != "Doubleday" {
		t.Fatalf("tests %v; want Doubleday needing 2", ts)
	}
}

func TestGMB_G18_PassageOfLinesIsSwitchable(t *testing.T) {
	for _, on := range []bool{true, false} {
		opt := "option passage-of-lines on"
		if !on {
			opt = "option passage-of-lines off"
		}
		g := battle(t, opt)
		g.put("Iron Brigade", 24, 10, 0)
		g.st.Activated = []string{"Union/I Corps", "Union/II Corps", "Union/Cavalry Corps", "Union/Artillery Reserve",
			"Confederate/First Corps", "Confederate/Second Corps", "Confederate/Cavalry Division"}
		g.send("Union", "DONE")
		want := StepPassage
		if !on {
			want = StepActivate // the next turn began
		}
		if g.st.Step != want {
			t.Errorf("%s: after the last activation the step is %s; want %s", opt, g.st.Step, want)
		}
	}
}

func TestGMB_7_6i_TheInitiativeOrdersThePassages(t *testing.T) {
	// Option passage-order own: Confederate has the initiative: after the last activation its
	// passages of lines come first, whoever activated last; Union's
	// passage waits for them.
	g := battle(t, "option passage-order own")
	g.st.Initiative = "Confederate"
	g.put("Iron Brigade", 24, 10, 0)
	g.put("Irish Brigade", 31, 10, 0)
	g.st.Activated = []string{"Union/I Corps", "Union/II Corps", "Union/Cavalry Corps", "Union/Artillery Reserve",
		"Confederate/First Corps", "Confederate/Second Corps", "Confederate/Cavalry Division"}
	g.send("Union", "DONE")
	if g.st.Step != StepPassage || g.st.ToAct != "Confederate" {
		t.Fatalf("after the last activation: step %s, %s to act; want Confederate's passages first (7.6i)", g.st.Step, g.st.ToAct)
	}
	g.refuse("Union", "PASSAGE Iron Brigade AND Irish Brigade", "not your turn")
	g.send("Confederate", "NONE")
	if g.st.Step != StepPassage || g.st.ToAct != "Union" {
		t.Fatalf("after Confederate's passages: step %s, %s to act; want Union's", g.st.Step, g.st.ToAct)
	}
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	if g.st.Step != StepActivate || g.st.Turn != 2 {
		t.Errorf("after both sides' passages: step %s, turn %d; want turn 2's activations", g.st.Step, g.st.Turn)
	}
}

// TestGMB_7_6i_TheInitiativeOrdersEveryPassageReading: «o kolejności
// wykonywania przejścia przez linie decyduje gracz z inicjatywą»: the
// opponent declares his passages, then the initiative player's mail
// orders them all, the opponent's too.
func TestGMB_7_6i_TheInitiativeOrdersEveryPassageReading(t *testing.T) {
	g := battle(t)
	g.st.Initiative = "Confederate"
	g.put("Iron Brigade", 24, 10, 0)
	g.put("Irish Brigade", 31, 10, 0)
	g.put("Texas Brigade", 24, 40, 180)
	g.put("Alabama Brigade", 31, 40, 180)
	g.st.Activated = []string{"Union/I Corps", "Union/II Corps", "Union/Cavalry Corps", "Union/Artillery Reserve",
		"Confederate/First Corps", "Confederate/Second Corps", "Confederate/Cavalry Division"}
	g.send("Union", "DONE")
	if g.st.Step != StepPassage || g.st.ToAct != "Union" {
		t.Fatalf("after the last activation: step %s, %s to act; want Union, the opponent, to declare (7.6i)", g.st.Step, g.st.ToAct)
	}
	g.send("Union", "PASSAGE Iron Brigade AND Irish Brigade")
	if u := g.st.unit("Iron Brigade"); u.Front != table.Pt(in(24), in(10)) || g.st.ToAct != "Confederate" {
		t.Fatalf("Union's declared passage was carried out (%v) or Confederate does not order them (%s to act)", u.Front, g.st.ToAct)
	}
	if w := prompts(g.st)[0].What; !strings.Contains(w, "those Union declared (PASSAGE Iron Brigade AND Irish Brigade)") {
		t.Errorf("the initiative's prompt: %q", w)
	}
	g.refuse("Confederate", "PASSAGE Iron Brigade AND Michigan Brigade", "the initiative orders only the passages the opponent declared (7.6i)")
	g.send("Confederate", "PASSAGE Iron Brigade AND Irish Brigade\nPASSAGE Texas Brigade AND Alabama Brigade")
	var order []string
	for _, f := range g.facts(kPassageMade) {
		order = append(order, f.Str("a"))
	}
	if len(order) != 2 || order[0] != "Iron Brigade" || order[1] != "Texas Brigade" {
		t.Errorf("passages carried out %v; want Union's first, as the initiative ordered (7.6i)", order)
	}
	if g.st.Step != StepActivate || g.st.Turn != 2 {
		t.Errorf("after the passages: step %s, turn %d", g.st.Step, g.st.Turn)
	}
}
