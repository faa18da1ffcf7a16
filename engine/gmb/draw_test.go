package gmb

import (
	"bytes"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

func drawn(t *testing.T, st *State, v engine.Viewer) []byte {
	t.Helper()
	rs := New()
	sc := rs.(engine.Drawer).Draw(rs.View(st, v))
	if sc == nil {
		t.Fatalf("no drawn board for %+v at step %s", v, st.Step)
	}
	return sc.SVG()
}

// The drawn board, held by golden SVGs: the table after the
// whole setup as the Confederate player sees it (terrain, bridges,
// strategic points, patrol markers, deployment zones), and the Union's
// move in turn 1 (7.1b) as the Union player sees it: bases with their
// front edge and facing, generals, a scale bar in inches, and the range
// rings of I Corps' units (7.1f, 7.2e), which no one else's board shows.
func TestDrawGolden_GMB_7_1f_RangeRings(t *testing.T) {
	setup := played(t, scenario(t), setupOrders)
	conf := drawn(t, setup.st, engine.Viewer{Side: "Confederate"})
	golden(t, "setup-confederate.svg", string(conf))
	for _, want := range []string{`id="scale"`, "12 inches", `id="marks"`, "deployment zone", "woods", "river", "SP1"} {
		if !strings.Contains(string(conf), want) {
			t.Errorf("the setup's drawn board has no %s", want)
		}
	}
	// Patrol markers stand for the corps not yet on the table (13.14).
	markers := 0
	for _, m := range setup.st.Markers {
		if !setup.st.hasUnits(m.Side, m.Corps) {
			markers++
		}
	}
	if got := strings.Count(string(conf), "patrol marker: "); got != markers {
		t.Errorf("%d patrol markers drawn, %d corps not on the table", got, markers)
	}
	// Each bridge a square of the bridges' colour (and one in the key).
	if got := strings.Count(string(conf), `fill="#8c643c"`); len(setup.st.Bridges) == 0 || got != len(setup.st.Bridges)+1 {
		t.Errorf("%d bridges, %d squares of their colour drawn", len(setup.st.Bridges), got)
	}

	turn := played(t, battleScenario(t), append(append([]string(nil), battleSetup...), turnOrders(1)[:4]...))
	if turn.st.Step != StepMove || turn.st.ToAct != "Union" {
		t.Fatalf("the game is at %s for %s, want Union's move", turn.st.Step, turn.st.ToAct)
	}
	union := drawn(t, turn.st, engine.Viewer{Side: "Union"})
	golden(t, "turn1-union.svg", string(union))
	for _, want := range []string{`id="rings"`, `class="unit union"`, `class="unit confederate"`, `id="generals"`, `class="general union"`, "march 12"} {
		if !strings.Contains(string(union), want) {
			t.Errorf("Union's drawn board has no %s", want)
		}
	}
	// A ring for each I Corps unit that may move, and none for others.
	rings := turn.st.rings(engine.Viewer{Side: "Union"})
	movers := 0
	for i := range turn.st.Units {
		u := &turn.st.Units[i]
		if u.Side == "Union" && u.Corps == turn.st.Active && turn.st.cantMove(u) == "" {
			movers++
			eff, _ := turn.st.ranges(u, false)
			if !strings.Contains(string(union), string(u.Letter)+" "+strings.ReplaceAll(inch(eff), `"`, "&#34;")) {
				t.Errorf("no ring labelled %c %s", u.Letter, inch(eff))
			}
		}
	}
	if movers == 0 || len(rings) != 2*movers {
		t.Errorf("%d rings for %d units that may move", len(rings), movers)
	}
	for _, v := range []engine.Viewer{{Side: "Confederate"}, {Referee: true}, {}} {
		if strings.Contains(string(drawn(t, turn.st, v)), `id="rings"`) {
			t.Errorf("%+v sees the moving side's range rings", v)
		}
	}

	// 48" at 14 pixels an inch, and the margins.
	enginetest.DrawnPNG(t, union, 48*drawnPerInch, 48*drawnPerInch, 150<<10)
}

// Hidden things are not drawn (13.6, 13.12b): each side's drawn board is
// the same whatever the other side's hand, deck, drawn cards and army
// tactic, and its own does not show its cards either.
func TestDrawShowsNoSecrets_GMB_13_12b(t *testing.T) {
	g := played(t, battleScenario(t), append(append([]string(nil), battleSetup...), turnOrders(1)[:4]...))
	for _, viewer := range []string{"Union", "Confederate"} {
		v := engine.Viewer{Side: viewer}
		before := drawn(t, g.st, v)
		other := g.st.clone()
		sd := other.side(other.other(viewer))
		if len(sd.Hand) == 0 || sd.Tactic == "" {
			t.Fatalf("%s holds no hand or tactic: the test shows nothing", sd.Name)
		}
		for _, c := range append(append([]string(nil), g.st.side(viewer).Hand...), sd.Hand...) {
			if strings.Contains(string(before), c) {
				t.Errorf("%s's drawn board names the card %q", viewer, c)
			}
		}
		sd.Hand, sd.Deck, sd.Drawn5 = []string{"Another Card"}, sd.Hand, []string{"x", "y"}
		sd.Tactic = Cautious
		if after := drawn(t, other, v); !bytes.Equal(before, after) {
			t.Errorf("%s's drawn board changes with the other side's hidden cards and tactic", viewer)
		}
	}
}

// Before the table's size is chosen there is no table: nothing is drawn
// (the mail carries the ASCII board alone).
func TestDrawNothingBeforeTheTable(t *testing.T) {
	g := newGame(t)
	rs := New()
	if sc := rs.(engine.Drawer).Draw(rs.View(g.st, engine.Viewer{Side: "Union"})); sc != nil {
		t.Error("a table drawn before its size is chosen")
	}
}

// Count is each side's cohesion over its units not removed: a unit's
// cohesion lost, or the unit removed, lowers its side's count alone.
func TestCount_GMB_Cohesion(t *testing.T) {
	g := played(t, battleScenario(t), battleSetup)
	rs := New()
	c := rs.(engine.Counter)
	before := c.Count(rs.View(g.st, engine.Viewer{}))
	n := map[string]int{}
	for _, u := range g.st.Units {
		n[u.Side] += 3
	}
	if len(before) != 2 || before[0].Side != "Union" || before[0].Value != n["Union"] || before[1].Value != n["Confederate"] {
		t.Fatalf("Count = %+v, want Union %d Confederate %d", before, n["Union"], n["Confederate"])
	}
	st := g.st.clone()
	st.Units[0].Cohesion--
	st.Units[1].Removed = true
	after := c.Count(rs.View(st, engine.Viewer{}))
	if after[0].Value != n["Union"]-1-3 || after[1].Value != n["Confederate"] {
		t.Errorf("after a cohesion lost and a unit removed: %+v (units %s, %s)", after, st.Units[0].Side, st.Units[1].Side)
	}
}

// BenchmarkBoard measures drawing the table beside its baseline, the
// ASCII board of the same view (turn 1, the Union moving, rings drawn).
func BenchmarkBoard(b *testing.B) {
	g := played(b, battleScenario(b), append(append([]string(nil), battleSetup...), turnOrders(1)[:4]...))
	rs := New()
	enginetest.BenchBoard(b, rs, rs.View(g.st, engine.Viewer{Side: "Union"}))
}
