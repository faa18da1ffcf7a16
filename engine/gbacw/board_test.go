package gbacw

import (
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

// The board: facing, stacks, orders, disorder, leaders,
// elevation and LOS-blocking hexsides, 78 columns at most, the whole map
// attached. The golden files are the boards as players read them.
func TestBoardGolden(t *testing.T) {
	h := newHarness(t, "board")
	usa := render(h.st, engine.Viewer{Side: USA})
	golden.CheckString(t, "start-window-usa.txt", usa.Window)
	golden.CheckString(t, "start-full.txt", usa.Full)
	checkWidth(t, "start window", usa.Window, 78)
	checkWidth(t, "start full", usa.Full, 78)

	// A played position: a March column on the road, a disordered
	// regiment, a battery under infantry, a leader alone, a routed unit.
	h.facts0(eFact("turn.begun", eI("turn", 2)), eFact("phase.set", eS("phase", PhaseActivation)))
	h.set("Vance's Brigade ORDER march", "3rd Tennessee ORDER march", "3rd Tennessee FACING NE", "3rd Tennessee HEX 0405",
		"18th Mississippi ORDER march", "18th Mississippi FACING SE", "18th Mississippi HEX 0305",
		"14th Ohio DISORDERED on", "Battery K, 1st Ohio HEX 0905", "Battery K, 1st Ohio STACK 1",
		"Ezra Ross HEX 1106", "21st Indiana ROUTED on", "21st Indiana DISORDERED on",
		"12th Georgia FACING NNE", "5th Alabama FACING SSE", "2nd Virginia Cavalry FACING SSW")
	h.must(CSA, "STANDING RETURN FIRE ALL ALWAYS\nSTANDING PRE-SHOCK RETREAT ALL IF DISORDERED")
	csa := render(h.st, engine.Viewer{Side: CSA})
	golden.CheckString(t, "played-window-csa.txt", csa.Window)
	checkWidth(t, "played window", csa.Window, 78)
	for _, tc := range []struct{ hex, label, fill string }{
		{"0905", "14OV!", "BKO.*"}, // disordered on top, the battery under it, a leader (Hale)
		{"0906", "21IVx", ". 1  "[:0] + ".    "},
		{"1106", "ROS*", ".    "},
		{"0405", "3tnM", ".   -"},
	} {
		c := h.st.cell(hexOf(tc.hex))
		if strings.TrimRight(c.Label, " ") != strings.TrimRight(tc.label, " ") {
			t.Errorf("%s label %q, want %q", tc.hex, c.Label, tc.label)
		}
	}
	// The marks: '@' next to the faced vertex, '#' on a column's side.
	win := hex.Window{Col: 3, Row: 4, Cols: 4, Rows: 3}
	drawn := strings.Join(h.st.draw(win), "\n")
	if strings.Count(drawn, "#") < 2 || !strings.Contains(drawn, "@") {
		t.Errorf("marks missing:\n%s", drawn)
	}
	// The standing orders show to their own side only.
	if !strings.Contains(strings.Join(strings.Fields(csa.Window), " "), "RETURN FIRE ALL ALWAYS") {
		t.Error("CSA's board lacks its standing orders")
	}
	if strings.Contains(render(h.st, engine.Viewer{Side: USA}).Window, "RETURN FIRE ALL") {
		t.Error("USA's board shows CSA's standing orders")
	}
}

func eFact(kind string, args ...eventsArg) eventsFact { return newFact(kind, args...) }
