package gcacw

import (
	"pbem/internal/golden"
	"strings"
	"testing"
	"unicode/utf8"

	"pbem/engine"
	"pbem/engine/hex"
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

func TestBoardGolden_GCACW_2_2o_OpenInformation(t *testing.T) {
	b, _ := Scenario("harrow-creek")
	h := newHarness(t, b)
	rs := New()
	start := rs.Render(rs.View(h.st, engine.Viewer{Referee: true}))
	golden.CheckString(t, "start-window.txt", start.Window)
	golden.CheckString(t, "start-full.txt", start.Full)
	checkWidth(t, "start window", start.Window, 78)
	checkWidth(t, "start full", start.Full, 78)

	h.do(USA, "PASS")
	h.do(CSA, "PASS", "initiative USA=5", "initiative CSA=2")
	h.do(USA, "MARCH Orne 1407 1307 1207 FORCE", "march MA ORNE=2", "force march ORNE=4", "initiative USA=2", "initiative CSA=6")
	h.do(CSA, "ACTIVATE Marlow: Rusk 0506; Toller 0408 0508", "leader MA MARL=4", "initiative USA=3", "initiative CSA=1")
	h.do(USA, "ACTIVATE Brand: Pask 1509; Orne 1107", "leader MA BRND=2", "extended march PASK=6", "initiative USA=4", "initiative CSA=4")
	usa := rs.Render(rs.View(h.st, engine.Viewer{Side: USA}))
	golden.CheckString(t, "played-window-usa.txt", usa.Window)
	checkWidth(t, "played window", usa.Window, 78)
	// Two units in one hex: both codes are drawn, the second on the fill
	// line after one terrain glyph; CSA codes are lower case.
	if c := h.st.cell(hex.MustParse("0508")); c.Label != "toll" || c.Fill != ". wash" {
		t.Errorf("stack in 0508: %+v, want label toll and fill \". wash\"", c)
	}
	if c := h.st.cell(hex.MustParse("1107")); c.Label != "ORNE*" || c.Fill != ". - ." {
		t.Errorf("1107: %+v, want ORNE* with its leaders, on a road", c)
	}
	mustContain(t, "roster", usa.Window, "ORNE Orne")
	mustContain(t, "roster", usa.Window, "disorg")
	csa := rs.Render(rs.View(h.st, engine.Viewer{Side: CSA}))
	if csa.Window != usa.Window {
		// no hidden information (2.2o): the same board for everyone
		t.Errorf("the sides see different boards")
	}
}
