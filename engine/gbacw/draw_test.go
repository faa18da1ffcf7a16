package gbacw

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/draw"
	"pbem/engine/enginetest"
	"pbem/engine/hex"
	"pbem/internal/golden"
)

// playedPosition is TestBoardGolden's played position: a March column on
// the road, a disordered regiment on top of a battery, a leader alone, a
// routed unit, units facing every way.
func playedPosition(t *testing.T) *harness {
	h := newHarness(t, "board")
	h.facts0(eFact("turn.begun", eI("turn", 2)), eFact("phase.set", eS("phase", PhaseActivation)))
	h.set("Vance's Brigade ORDER march", "3rd Tennessee ORDER march", "3rd Tennessee FACING NE", "3rd Tennessee HEX 0405",
		"18th Mississippi ORDER march", "18th Mississippi FACING SE", "18th Mississippi HEX 0305",
		"14th Ohio DISORDERED on", "Battery K, 1st Ohio HEX 0905", "Battery K, 1st Ohio STACK 1",
		"Ezra Ross HEX 1106", "21st Indiana ROUTED on", "21st Indiana DISORDERED on", "14th Ohio FATIGUE 2",
		"12th Georgia FACING NNE", "5th Alabama FACING SSE", "2nd Virginia Cavalry FACING SSW")
	return h
}

func drawnSVG(t *testing.T, st *State, v engine.Viewer) []byte {
	t.Helper()
	rs := New()
	sc := rs.(engine.Drawer).Draw(rs.View(st, v))
	if sc == nil {
		t.Fatal("GBACW draws no board")
	}
	return sc.SVG()
}

// The drawn board, held by golden SVGs: the start as the
// referee sees it, and the played position as CSA sees it, with the
// hexes next to USA's units shaded (9.1).
func TestDrawGolden_GBACW_9_1_EnemyAdjacentShaded(t *testing.T) {
	h := newHarness(t, "board")
	ref := drawnSVG(t, h.st, engine.Viewer{Referee: true})
	golden.Check(t, "start-referee.svg", ref)
	if strings.Contains(string(ref), `id="zoc"`) {
		t.Error("the referee's board shades hexes next to the enemy: they are no side's")
	}
	h = playedPosition(t)
	csa := drawnSVG(t, h.st, engine.Viewer{Side: CSA})
	golden.Check(t, "played-csa.svg", csa)
	usa := drawnSVG(t, h.st, engine.Viewer{Side: USA})
	if !strings.Contains(string(csa), `id="zoc"`) || bytes.Equal(usa, csa) {
		t.Error("CSA's board does not shade the hexes next to USA's units, or shades USA's")
	}
	for _, want := range []string{`id="unit-14O"`, `class="unit usa"`, `class="unit csa"`, `id="leader-ROS"`, `class="leader usa"`,
		"wall (blocks LOS)", "crest (blocks LOS)", "level 2 (clear)", "Tanner"} {
		if !strings.Contains(string(csa), want) {
			t.Errorf("CSA's drawn board has no %s", want)
		}
	}
	// What is written reads back and rasterises: a PNG of the map that
	// fits a mail.
	enginetest.DrawnPNG(t, csa, 500, 400, 150<<10)
}

// 7.1, 10.2: every unit's counter points at the vertex it faces (a wedge
// whose tip is that corner of its hex), a March column at the hexside it
// faces; 8.3: a stack is drawn bottom first, so the top unit is drawn on
// top; the leaders with a unit are a star on the top counter.
func TestDraw_GBACW_7_1_FacingStacksLeaders(t *testing.T) {
	h := playedPosition(t)
	v := engine.Viewer{Side: CSA}
	p := picture(h.st, v)
	sc := p.Scene()
	groups := map[string]*draw.Group{}
	var order []string
	for _, it := range sc.Items {
		if g, ok := it.(*draw.Group); ok && g.ID == "units" {
			for _, c := range g.Items {
				cg := c.(*draw.Group)
				groups[cg.ID] = cg
				order = append(order, cg.ID)
			}
		}
	}
	columns := 0
	for _, u := range h.st.Units {
		if !u.onMap() {
			continue
		}
		g := groups["unit-"+h.st.def(u).Code]
		if g == nil {
			t.Fatalf("%s is not drawn", u.Name)
		}
		if u.onSide() {
			columns++
			if _, ok := g.Items[0].(*draw.Rect); !ok {
				t.Errorf("%s, a March column, is drawn with a vertex wedge", u.Name)
			}
			continue
		}
		w, ok := g.Items[0].(*draw.Path)
		if !ok {
			t.Fatalf("%s has no facing wedge", u.Name)
		}
		tip, c := w.Points[1], p.Centre(u.Hex)
		// The corner of vertex v is at -60° + 60°·v on the screen (NNE
		// up and right; y grows down).
		a := (-60 + 60*float64(u.Facing)) * math.Pi / 180
		want := draw.Pt(c.X+drawnSize*math.Cos(a), c.Y+drawnSize*math.Sin(a))
		if d := math.Hypot(tip.X-want.X, tip.Y-want.Y); d > 2 {
			t.Errorf("%s faces %s: its wedge points at %v, the corner is %v", u.Name, hex.Vertex(u.Facing), tip, want)
		}
	}
	if columns < 2 {
		t.Errorf("the position has %d March columns, want 2", columns)
	}
	idx := func(id string) int {
		for i, o := range order {
			if o == id {
				return i
			}
		}
		t.Fatalf("no %s", id)
		return -1
	}
	// 0905: 14th Ohio on top of Battery K.
	if idx("unit-BKO") > idx("unit-14O") {
		t.Error("the battery under 14th Ohio is drawn over it")
	}
	top := groups["unit-14O"]
	if !strings.Contains(top.Title, "Amos Hale") || !strings.Contains(top.Title, "disordered") {
		t.Errorf("14th Ohio's tooltip is %q", top.Title)
	}
	stars, marks := 0, ""
	for _, it := range top.Items {
		switch x := it.(type) {
		case *draw.Path:
			if len(x.Points) == 10 {
				stars++
			}
		case *draw.Text:
			if strings.ContainsAny(x.S, "!x") {
				marks = x.S
			}
		case *draw.Rect:
			if x.Style.Fill == usaFill {
				t.Error("disordered 14th Ohio is drawn in the front side's colour")
			}
		}
	}
	if stars != 1 || marks != "!2" {
		t.Errorf("14th Ohio: %d leader stars (want 1: Hale), marks %q (want !2: disordered, fatigue 2)", stars, marks)
	}
}

// The only secret of a GBACW state, a side's standing orders, is not
// drawn: USA's drawn board is the same whatever CSA's standing orders,
// and CSA's own does not show them either (the roster, in the text, does).
func TestDrawShowsNoStandingOrders(t *testing.T) {
	h := newHarness(t, "board")
	before := drawnSVG(t, h.st, engine.Viewer{Side: USA})
	h.must(CSA, "STANDING RETURN FIRE ALL ALWAYS\nSTANDING PRE-SHOCK RETREAT ALL IF DISORDERED")
	if after := drawnSVG(t, h.st, engine.Viewer{Side: USA}); !bytes.Equal(before, after) {
		t.Error("USA's drawn board changes with CSA's standing orders")
	}
	if strings.Contains(string(drawnSVG(t, h.st, engine.Viewer{Side: CSA})), "RETURN FIRE") {
		t.Error("the drawn board writes standing orders")
	}
}

// Count is each side's SP in units not removed: a unit removed takes its
// SP off its side's count and no other's.
func TestCount_GBACW_SP(t *testing.T) {
	h := newHarness(t, "board")
	rs := New()
	c := rs.(engine.Counter)
	before := c.Count(rs.View(h.st, engine.Viewer{}))
	want := [2]int{}
	for _, d := range h.st.Scn.Units {
		want[h.st.sideIndex(h.st.Scn.sideOfBrigade(d.Brigade))] += d.StartSP
	}
	if len(before) != 2 || before[0].Side != USA || before[1].Side != CSA || before[0].Value != want[0] || before[1].Value != want[1] {
		t.Fatalf("Count = %+v, want USA %d CSA %d", before, want[0], want[1])
	}
	h.set("14th Ohio REMOVED on")
	after := c.Count(rs.View(h.st, engine.Viewer{}))
	if after[0].Value != want[0]-h.u("14th Ohio").SP || after[1].Value != want[1] {
		t.Errorf("after 14th Ohio is removed: %+v", after)
	}
}

// BenchmarkBoard measures drawing the board beside its baseline, the
// ASCII board of the same view.
func BenchmarkBoard(b *testing.B) {
	sc, err := ParseScenario(mustScenario(b, "tanners-mill"))
	if err != nil {
		b.Fatal(err)
	}
	rs := New()
	enginetest.BenchBoard(b, rs, rs.View(newState(sc), engine.Viewer{Side: USA}))
}
