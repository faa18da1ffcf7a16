package gcacw

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

// The drawn board (issue 15) of the same game as the ASCII board's golden
// test, held by golden SVGs: the start as the referee sees it, and the
// game under way as USA sees it, CSA's ZOC shaded (GCACW 2.4) and the
// marched units' fatigue marked.
func TestDrawGolden_GCACW_2_4_ZOCShaded(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	rs := New()
	dr := rs.(engine.Drawer)
	start := dr.Draw(rs.View(h.st, engine.Viewer{Referee: true}))
	golden.Check(t, "start-referee.svg", start.SVG())
	if strings.Contains(string(start.SVG()), `id="zoc"`) {
		t.Error("the referee's board shades a ZOC: it is no side's")
	}

	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	h.do(USA, "MARCH Orne 1407 1307 1207 FORCE", "march MA ORNE=2", "force march ORNE=4", "initiative USA=2", "initiative CSA=6")
	usa := dr.Draw(rs.View(h.st, engine.Viewer{Side: USA})).SVG()
	golden.Check(t, "played-usa.svg", usa)
	csa := dr.Draw(rs.View(h.st, engine.Viewer{Side: CSA})).SVG()
	if bytes.Equal(usa, csa) {
		t.Error("USA and CSA see the same ZOC shading")
	}
	for _, want := range []string{`id="zoc"`, `id="unit-ORNE"`, `class="unit usa"`, `class="unit csa"`} {
		if !strings.Contains(string(usa), want) {
			t.Errorf("USA's drawn board has no %s", want)
		}
	}
	// What is written reads back and rasterises: a PNG of the map that
	// fits a mail.
	sc, err := draw.ParseSVG(usa)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := sc.PNG(1)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(pic))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() < 300 || len(pic) > 150<<10 {
		t.Errorf("the PNG is %v, %d bytes", img.Bounds(), len(pic))
	}
	if os.Getenv("PBEM_WRITE_PNG") != "" {
		os.WriteFile(os.Getenv("PBEM_WRITE_PNG"), pic, 0o644)
	}
}

// Count is each side's manpower: a march changes nothing of it.
func TestCount(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	rs := New()
	got := rs.(engine.Counter).Count(rs.View(h.st, engine.Viewer{}))
	if len(got) != 2 || got[0].Side != USA || got[1].Side != CSA || got[0].Value <= 0 || got[1].Value <= 0 {
		t.Fatalf("Count = %+v", got)
	}
}

// BenchmarkBoard measures drawing a board beside its baseline, the ASCII
// board of the same view (issue 15: rendering a board takes a bounded
// time): the view rendered as ASCII, drawn as a scene, written as SVG,
// and rasterised to the PNG a mail carries (from the SVG, as the outbox
// does).
func BenchmarkBoard(b *testing.B) {
	sb, _ := Scenario(benchScenario)
	rs := New()
	st, err := rs.Setup(sb, []events.Player{{ID: "n", Side: USA}, {ID: "s", Side: CSA}})
	if err != nil {
		b.Fatal(err)
	}
	v := rs.View(st, engine.Viewer{Side: USA})
	dr := rs.(engine.Drawer)
	svg := dr.Draw(v).SVG()
	b.Run("ascii-render(baseline)", func(b *testing.B) {
		for b.Loop() {
			rs.Render(v)
		}
	})
	b.Run("draw-scene", func(b *testing.B) {
		for b.Loop() {
			dr.Draw(v)
		}
	})
	b.Run("draw-svg", func(b *testing.B) {
		for b.Loop() {
			dr.Draw(v).SVG()
		}
	})
	b.Run("scene-to-png", func(b *testing.B) {
		sc := dr.Draw(v)
		var n int
		for b.Loop() {
			p, err := sc.PNG(1)
			if err != nil {
				b.Fatal(err)
			}
			n = len(p)
		}
		b.ReportMetric(float64(n), "png-bytes")
	})
	b.Run("svg-to-png", func(b *testing.B) {
		var n int
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
		b.ReportMetric(float64(len(svg)), "svg-bytes")
	})
}

// benchScenario is the map BenchmarkBoard draws: the larger of the two.
var benchScenario = "tallow-valley"
