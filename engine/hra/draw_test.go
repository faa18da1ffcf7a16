package hra

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/events"
	"pbem/internal/golden"
)

// The drawn board, held by golden SVGs: the table at the start
// as the referee sees it, and as the Union sees it, its own guns' range
// rings drawn (HRA 13a), which the Confederate's board does not show.
func TestDrawGolden_HRA_13a_RangeRings(t *testing.T) {
	h := newHarness(t, "golden")
	rs := New()
	dr := rs.(engine.Drawer)
	ref := dr.Draw(rs.View(h.st, engine.Viewer{Referee: true})).SVG()
	golden.Check(t, "start-referee.svg", ref)
	union := dr.Draw(rs.View(h.st, engine.Viewer{Player: "north", Side: Union})).SVG()
	golden.Check(t, "start-union.svg", union)
	for _, want := range []string{`class="unit union"`, `class="unit confederate"`, `id="scale"`, "10 cm"} {
		if !strings.Contains(string(ref), want) {
			t.Errorf("the referee's drawn board has no %s", want)
		}
	}
	hasGuns := false
	for _, u := range h.st.Units {
		hasGuns = hasGuns || u.Side == Union && u.Arm == Artillery && !u.Limbered
	}
	if hasGuns != strings.Contains(string(union), `id="rings"`) {
		t.Errorf("the Union has unlimbered guns: %v; its board draws range rings: %v", hasGuns, !hasGuns)
	}
	if strings.Contains(string(ref), `id="rings"`) {
		t.Error("the referee's board draws a side's range rings")
	}
	enginetest.DrawnPNG(t, union, 200, 200, 150<<10)
}

// Count is the sum of unit states: a unit that drops a state drops it.
func TestCountSumsStates_HRA_3a(t *testing.T) {
	h := newHarness(t, "golden")
	rs := New()
	c := rs.(engine.Counter)
	before := c.Count(rs.View(h.st, engine.Viewer{}))
	if len(before) != 2 || before[0].Side != Union || before[0].Value == 0 {
		t.Fatalf("Count = %+v", before)
	}
	h.playToEnd(18)
	after := c.Count(rs.View(h.st, engine.Viewer{}))
	if after[0].Value+after[1].Value >= before[0].Value+before[1].Value {
		t.Errorf("a whole game lost no strength: %+v then %+v", before, after)
	}
}

// BenchmarkBoard measures drawing the table beside its baseline, the
// ASCII board of the same view (enginetest.BenchBoard).
func BenchmarkBoard(b *testing.B) {
	rs := New()
	sb, err := Scenario("kettle-run")
	if err != nil {
		b.Fatal(err)
	}
	st, err := rs.Setup(sb, []events.Player{{ID: "north", Side: Union}, {ID: "south", Side: Confederate}})
	if err != nil {
		b.Fatal(err)
	}
	enginetest.BenchBoard(b, rs, rs.View(st, engine.Viewer{Side: Union}))
}
