package gcacw

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/internal/golden"
)

func checkWidth(t *testing.T, name, s string, max int) {
	t.Helper()
	for i, l := range strings.Split(s, "\n") {
		if n := utf8.RuneCountInString(l); n > max {
			t.Errorf("%s line %d is %d columns wide (max %d): %q", name, i+1, n, max, l)
		}
		if strings.TrimRight(l, " ") != l {
			t.Errorf("%s line %d has trailing spaces", name, i+1)
		}
	}
}

// zocMarks matches a hex number and the ZOC mark after it.
var zocMarks = regexp.MustCompile(`(\d{4})[Zz]`)

// The board (docs/DESIGN.md, Boards in the mail), held by golden files: the
// start of Harrow Creek as the referee sees it (window and whole map),
// and a game under way as USA sees it, with CSA's ZOC marked. Strength
// markers and everything else are open information (GCACW 2.2o): the
// sides' boards differ only in whose enemy ZOC is marked.
func TestBoardGolden_GCACW_2_2o_OpenInformation(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	rs := New()
	start := rs.Render(rs.View(h.st, engine.Viewer{Referee: true}))
	golden.CheckString(t, "start-window.txt", start.Window)
	golden.CheckString(t, "start-full.txt", start.Full)
	checkWidth(t, "start window", start.Window, 78)
	// The whole map (an attachment) is one drawing, as wide as the map
	// needs (20 hex columns, 8 characters each): its top row of hexes
	// runs across it on one line, rather than in strips of 78 columns.
	grid := h.st.Scn.Map.Grid()
	checkWidth(t, "start full", start.Full, hex.Window{Col: grid.FirstCol, Row: grid.FirstRow, Cols: grid.Cols, Rows: grid.Rows}.LargeWidth())
	mustContain(t, "start full", start.Full, "/0101 \\         /0301 \\")
	if !regexp.MustCompile(`/0101 \\.*/1901 \\`).MatchString(start.Full) {
		t.Error("the whole map is not one drawing: 0101 and 1901 are not on one line")
	}
	if strings.Contains(start.Full, " columns 01 to 09") {
		t.Error("the whole map still comes in column strips")
	}

	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	h.do(USA, "MARCH Orne 1407 1307 1207 FORCE", "march MA ORNE=2", "force march ORNE=4", "initiative USA=2", "initiative CSA=6")
	h.do(CSA, "ACTIVATE Marlow: Rusk 0506; Toller 0408 0508", "leader MA MARL=4", "initiative USA=3", "initiative CSA=1")
	h.do(USA, "ACTIVATE Brand: Pask 1509; Orne 1107", "leader MA BRND=2", "extended march PASK=6", "initiative USA=4", "initiative CSA=4")
	usa := rs.Render(rs.View(h.st, engine.Viewer{Side: USA}))
	golden.CheckString(t, "played-window-usa.txt", usa.Window)
	checkWidth(t, "played window", usa.Window, 78)
	mustContain(t, "roster", usa.Window, "ORNE Orne")
	mustContain(t, "roster", usa.Window, "disorg")
	csa := rs.Render(rs.View(h.st, engine.Viewer{Side: CSA}))
	ref := rs.Render(rs.View(h.st, engine.Viewer{Referee: true}))
	if csa.Window == usa.Window {
		t.Errorf("USA and CSA see the same ZOC marks")
	}
	for name, w := range map[string]string{"USA": usa.Full, "CSA": csa.Full} {
		if got := zocMarks.ReplaceAllString(w, "$1 "); got != ref.Full {
			t.Errorf("%s's board differs from the referee's by more than its ZOC marks", name)
		}
	}
	// Each window holds its reader's units (issue: the board shows what
	// the reader needs): USA's Orne, which just moved, the Confederate
	// unit nearest it, and the Union units nearest it.
	for _, want := range []string{"ORNE", "beck", "VANE", "1OH"} {
		mustContain(t, "USA's window", windowOnly(usa.Window), want)
	}
	// CSA's six units all fit in one window: every one is in it.
	for _, want := range []string{"12cc", "rusk", "toll", "beck", "star", "wash"} {
		mustContain(t, "CSA's window", windowOnly(csa.Window), want)
	}
}

// windowOnly is the drawn window of a board, without its roster.
func windowOnly(w string) string {
	w, _, _ = strings.Cut(w, "\n terrain ")
	return w
}

// What the board shows in and around a hex: ZOC and Restricted ZOC of the
// viewer's enemy (GCACW 2.4a, 2.4e), every in-hex feature and route
// (GCACW 2.3g), each route drawn on the hexsides it crosses, rivers with
// their crossings (GCACW 2.3f), leaders by name, and & when a hex holds
// more than fits.
func TestBoardShowsZOCRoutesFeaturesAndLeaders(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	usa := h.st.largeCell(engine.Viewer{Side: USA})
	at := func(s string) hex.LargeCell { return usa(hex.MustParse(s)) }
	// Rusk (CSA) in 0507: 0607 is in its ZOC; 0506 is a woods hex that
	// Rusk and Becket reach across woods hexsides with no road into it:
	// Restricted only (2.4e).
	if c := at("0607"); c.Mark != 'Z' {
		t.Errorf("0607 (next to Rusk) mark %q, want Z", c.Mark)
	}
	if c := at("0506"); c.Mark != 'z' {
		t.Errorf("0506 (woods next to Rusk and Becket) mark %q, want z", c.Mark)
	}
	if c := at("1010"); c.Mark != 0 {
		t.Errorf("1010, far from CSA, mark %q", c.Mark)
	}
	if c := h.st.largeCell(engine.Viewer{Referee: true})(hex.MustParse("0607")); c.Mark != 0 {
		t.Errorf("the referee's board marks ZOC: %q", c.Mark)
	}
	// Harrow (0408): the village, the pike and the road all show.
	if c := at("0408"); c.Fill != ". o=- ." {
		t.Errorf("Harrow's fill %q, want the village, pike and road", c.Fill)
	}
	// Orne with Brand and Hale by name.
	if c := at("1408"); c.Lines != [3]string{"ORNE", "*Brand", "*Hale"} {
		t.Errorf("1408: %q", c.Lines)
	}
	// The pike crosses 0808/0908 (a slanted side); the Calder Bridge
	// carries it across the river at 1008/1108.
	if m, _ := h.st.sideMark(side("0808", "0908")); m.Route != '=' {
		t.Errorf("0808/0908: %+v, want the pike", m)
	}
	if m, _ := h.st.sideMark(side("1008", "1108")); m != (hex.SideMark{Base: '~', Cross: 'H', Route: '='}) {
		t.Errorf("1008/1108: %+v, want a minor river, a bridge and the pike", m)
	}
	if m, _ := h.st.sideMark(side("1003", "1104")); m != (hex.SideMark{Base: '~', Cross: '+', Route: '-'}) {
		t.Errorf("Carver's Ford: %+v, want a minor river, a ford and the Ford Road", m)
	}
	// More than fits: the last line ends with &.
	st := h.st
	for _, id := range []string{"PASK", "LYLE", "RART", "VANE"} {
		st, _ = st.withUnit(id, func(u *Unit) { u.Hex = hex.MustParse("1408") })
	}
	if c := st.largeCell(engine.Viewer{Side: USA})(hex.MustParse("1408")); !strings.HasSuffix(c.Lines[2], "&") {
		t.Errorf("six units and three leaders in 1408: %q, want & at the end", c.Lines)
	}
}

// No glyph has two meanings: every glyph the board draws for terrain,
// in-hex features, routes, hexside features, crossings and marks is
// different, and the legend explains each, in at most 78 columns.
func TestBoardGlyphsHaveOneMeaning(t *testing.T) {
	seen := map[string]string{}
	add := func(g, what string) {
		if prev, dup := seen[g]; dup {
			t.Errorf("glyph %q means %s and %s", g, prev, what)
		}
		seen[g] = what
	}
	for n, g := range terrainGlyph {
		add(g, n)
	}
	for _, g := range featureGlyphs {
		add(string(g.glyph), g.name)
	}
	for _, g := range routeGlyphs {
		add(string(g.glyph), g.name)
	}
	for _, g := range baseGlyphs {
		add(string(g.glyph), g.name)
	}
	for _, g := range crossGlyphs {
		add(string(g.glyph), g.name)
	}
	for _, g := range []rune{zocGlyph, restrictedGlyph, overflowGlyph, fatigueGlyph, leaderGlyph} {
		add(string(g), "a mark")
	}
	for _, g := range []string{"_", "/", "\\\\"} {
		add(g, "the hex outline")
	}
	text := strings.Join(legend, "\n")
	checkWidth(t, "legend", text, 78)
	for g := range seen {
		if g != "_" && g != "/" && g != "\\\\" && !strings.Contains(text, " "+g+" ") && !strings.Contains(text, " "+g) {
			t.Errorf("the legend does not explain %q", g)
		}
	}
}

func side(a, b string) hex.Hexside {
	s, err := hex.Between(hex.MustParse(a), hex.MustParse(b))
	if err != nil {
		panic(err)
	}
	return s
}

// A question's window holds what it is about: asked whether the 1st
// Ohio Squadron retreats before Starling's march (GCACW 5.1.2), Anna's
// window shows both.
func TestWindowHoldsTheCavalryAQuestionIsAbout(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	h.start(2, 5)
	h.do(CSA, "MARCH Starling 0810", "march MA STAR=3", "march MA STAR=4")
	if h.st.Ask == nil || h.st.Ask.Side != USA {
		t.Fatalf("no Cavalry Retreat asked of USA: %+v", h.st.Ask)
	}
	rs := New()
	w := windowOnly(rs.Render(rs.View(h.st, engine.Viewer{Side: USA})).Window)
	for _, want := range []string{"1OH", "star", "0711", "0710"} {
		mustContain(t, "Anna's window", w, want)
	}
}
