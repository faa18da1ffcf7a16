package hra

import (
	"bytes"
	"image/png"
	"os"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/events"
	"pbem/internal/golden"
)

// The drawn board (issue 15), held by golden SVGs: the table at the start
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
	sc, err := draw.ParseSVG(union)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := sc.PNG(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(pic)); err != nil || len(pic) > 150<<10 {
		t.Fatalf("PNG of %d bytes: %v", len(pic), err)
	}
	if f := os.Getenv("PBEM_WRITE_PNG"); f != "" {
		os.WriteFile(f, pic, 0o644)
	}
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
// ASCII board of the same view: drawn as a scene, written as SVG, and
// rasterised to the PNG a mail carries (from the SVG, as the outbox does).
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
	v := rs.View(st, engine.Viewer{Side: Union})
	dr := rs.(engine.Drawer)
	svg := dr.Draw(v).SVG()
	b.Run("ascii-render(baseline)", func(b *testing.B) {
		for b.Loop() {
			rs.Render(v)
		}
	})
	b.Run("draw-svg", func(b *testing.B) {
		for b.Loop() {
			dr.Draw(v).SVG()
		}
	})
	b.Run("svg-to-png", func(b *testing.B) {
		n := 0
		for b.Loop() {
			sc, err := draw.ParseSVG(svg)
			if err != nil {
				b.Fatal(err)
			}
			p, err := sc.PNG(1)
			if err != nil {
				b.Fatal(err)
			}
			n = len(p)
		}
		b.ReportMetric(float64(n), "png-bytes")
	})
}
