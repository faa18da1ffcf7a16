package gcacw

import (
	"bytes"
	"image/png"
	"os"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/hex"
	"pbem/events"
	"pbem/internal/golden"
)

// The drawn board of the same game as the ASCII board's golden
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

// The drawn map shows what the reader needs: hex numbers and
// the marks on counters in type that reads at 100% zoom, the leaders (a
// star on their unit's counter), the objectives of the victory
// conditions (R24: a ring, their VP beside a gold square), and a key
// entry for every mark the map uses, none for a mark it does not.
func TestDrawnMapShowsLeadersObjectivesAndItsKey(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	rs := New()
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	h.do(USA, "MARCH Orne 1407 1307 1207 FORCE", "march MA ORNE=2", "force march ORNE=4", "initiative USA=2", "initiative CSA=6")
	svg := string(rs.(engine.Drawer).Draw(rs.View(h.st, engine.Viewer{Side: USA})).SVG())
	for _, want := range []string{
		`font-size="8" text-anchor="middle" fill="#3c3c32">1007</text>`, // a hex number, 8 units high (was 5.6)
		`>1D</text>`, // Orne's marks: fatigue 1, disorganized
		`font-size="8" text-anchor="middle" font-weight="bold" fill="#1e1e1e">1D</text>`,
		`ring: objective; n: its VP`,    // the key: objectives
		`star: leader(s) with the unit`, // leaders
		`badge 1-4: fatigue`, `badge D: disorg., E: exhausted`,
		`S: railroad station`, `L: landing`, `R: redoubt`, `square: village`,
		`bridge: two bars`, `ford: a pale disc`, `ferry: a white disc`, `dam: a bar across`,
		`enemy ZOC`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("the drawn map lacks %s", want)
		}
	}
	// Each of the four objectives is ringed in gold (and the key's entry).
	if n := strings.Count(svg, `Z" fill="none" stroke="#d79600"`); n != 4 {
		t.Errorf("%d objective rings, want 4 (Ashford, Harrow, Millbrook, Caddon)", n)
	}
	// Orne stands with Brand and Hale: its counter carries the star and
	// their number.
	orne := svg[strings.Index(svg, `<g id="unit-ORNE"`):]
	orne = orne[:strings.Index(orne, "</g>")]
	if !strings.Contains(orne, `fill="#fad228"`) || !strings.Contains(orne, ">2</text>") {
		t.Errorf("Orne's counter shows no star for its two leaders:\n%s", orne)
	}
	// Refereed, the title says in one line that the referee weighs the
	// ringed objectives (the mail's text gives their state in full), so
	// the map's PNG keeps within the frequent mails' picture budget.
	hr := newHarness(t, refereedHarrow(t))
	title := strings.Join(hr.st.drawTitle(), "\n")
	mustContain(t, "refereed title", title, " victory: the referee decides after turn 3, weighing the objectives (ringed)\n the game waits for")
	if strings.Contains(title, "Manpower lost") {
		t.Errorf("the drawn title repeats the conditions' state in full:\n%s", title)
	}
	// A map without mountains or a dam has no key entry for them.
	if strings.Contains(svg, ">mountain<") != slices.ContainsFunc(h.st.Scn.Map.Hexes, func(d HexData) bool { return d.Terrain == Mountain && !d.Partial }) {
		t.Error("the key's mountain entry does not follow the map")
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
// board of the same view (rendering a board takes a bounded
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

// The frequent mails' picture budget holds the whole map only drawn too
// small to read, so the drawn board carries a detail (draw.Scene.Detail)
// that the outbox sends instead: the hexes of the ASCII board's window
// and a margin around them (then, its own detail, the window alone), at
// the whole map's scale, with the reader's units on them, a title saying
// which hexes they are, and a key of the marks they use.
func TestDrawnDetailHoldsTheBoardWindowAtFullScale(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	rs := New()
	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	h.do(USA, "MARCH Orne 1407 1307 1207 FORCE", "march MA ORNE=2", "force march ORNE=4", "initiative USA=2", "initiative CSA=6")
	view := rs.View(h.st, engine.Viewer{Side: USA})
	whole := rs.(engine.Drawer).Draw(view)
	d := whole.Detail
	if d == nil {
		t.Fatal("USA's drawn board has no detail")
	}
	golden.Check(t, "played-usa-detail.svg", d.SVG())
	if d.TypeSize != whole.TypeSize || d.TypeSize < 8 {
		t.Errorf("the detail's type is %v units, the whole map's %v: want the same, at least 8", d.TypeSize, whole.TypeSize)
	}
	if d.W >= whole.W || d.H >= whole.H {
		t.Errorf("the detail is %vx%v, no smaller than the whole map's %vx%v", d.W, d.H, whole.W, whole.H)
	}
	// The ASCII window's hexes are all in it (their numbers drawn), and
	// the hexes just outside the margin are not.
	win := rs.Render(view).Window
	first, last, ok := strings.Cut(win[strings.Index(win, " window ")+len(" window "):], " to ")
	if !ok {
		t.Fatalf("no window line in the ASCII board:\n%s", win)
	}
	lo, err := hex.Parse(first)
	if err != nil {
		t.Fatal(err)
	}
	hi, err := hex.Parse(last[:4])
	if err != nil {
		t.Fatal(err)
	}
	svg := string(d.SVG())
	for c := lo.Col; c <= hi.Col; c++ {
		for r := lo.Row; r <= hi.Row; r++ {
			if !strings.Contains(svg, `id="hex-`+hex.At(c, r).String()+`"`) {
				t.Errorf("the detail lacks hex %s of the ASCII window %s to %s", hex.At(c, r), lo, hi)
			}
		}
	}
	for _, out := range []hex.Hex{hex.At(lo.Col-detailMargins[0][0]-1, lo.Row), hex.At(hi.Col+detailMargins[0][0]+1, hi.Row)} {
		if strings.Contains(svg, `id="hex-`+out.String()+`"`) {
			t.Errorf("the detail draws hex %s, beyond its margin", out)
		}
	}
	for _, want := range []string{`>0606 to 1613 of 0101 to 2016</text>`, `id="unit-ORNE"`, `>star: leader(s)</text>`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the detail lacks %s", want)
		}
	}
	// Then, smaller, exactly the ASCII window's hexes.
	if d.Detail == nil || !strings.Contains(string(d.Detail.SVG()), ">"+lo.String()+" to "+hi.String()+" of 0101 to 2016</text>") || d.Detail.W >= d.W {
		t.Errorf("the detail's detail is not the ASCII window %s to %s", lo, hi)
	}
	pic, err := d.PNG(1)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("PBEM_WRITE_PNG") != "" {
		os.WriteFile(strings.TrimSuffix(os.Getenv("PBEM_WRITE_PNG"), ".png")+"-detail.png", pic, 0o644)
		if d.Detail != nil {
			if pic, err := d.Detail.PNG(1); err == nil {
				os.WriteFile(strings.TrimSuffix(os.Getenv("PBEM_WRITE_PNG"), ".png")+"-window.png", pic, 0o644)
			}
		}
	}
}
