package hra

import (
	"strings"
	"testing"
	"unicode/utf8"

	"pbem/engine"
	"pbem/internal/golden"
)

func checkWidth(t *testing.T, name, s string, max int) {
	t.Helper()
	for i, l := range strings.Split(s, "\n") {
		if n := utf8.RuneCountInString(l); n > max {
			t.Errorf("%s line %d is %d columns wide (max %d): %q", name, i+1, n, max, l)
		}
	}
}

// mapPart is the drawing of a board without its scale line, legend and
// roster: the lines from the top ruler to the first blank line.
func mapPart(board string) string {
	drawing, _, _ := strings.Cut(board, "\n\n")
	lines := strings.Split(drawing, "\n")
	if len(lines) > 2 {
		lines = lines[2:]
	}
	return strings.Join(lines, "\n")
}

// checkBoard holds the board's readability rules for a
// viewer: a player's own units are all in the window, and at least one
// enemy unit; objective labels are written in full or short with a
// legend entry, never cut; road and bridge have their own glyphs; no
// roster line is cut.
func checkBoard(t *testing.T, name string, st *State, v engine.Viewer, b engine.Board) {
	t.Helper()
	checkWidth(t, name, b.Window, 78)
	m := mapPart(b.Window)
	if v.Side != "" {
		enemy := false
		for _, u := range st.Units {
			if u.Removed() {
				continue
			}
			in := strings.ContainsRune(m, rune(u.Letter))
			if u.Side == v.Side && !in {
				t.Errorf("%s: %s's unit %s (%c) is not in the window:\n%s", name, v.Side, u.Name, u.Letter, b.Window)
			}
			enemy = enemy || (u.Side != v.Side && in)
		}
		if !enemy {
			t.Errorf("%s: no enemy unit in the window:\n%s", name, b.Window)
		}
	}
	_, legend, _ := strings.Cut(b.Window, "\n\n")
	for _, p := range st.Scn.Points {
		if p.VP == 0 {
			continue
		}
		label := "@" + p.Name
		if strings.Contains(m, label) {
			continue
		}
		for _, l := range strings.Split(m, "\n") {
			if strings.Contains(l, label[:3]) && !strings.Contains(l, label) {
				if short := initialsOf(label); !strings.Contains(l, short) || !strings.Contains(legend, short+" "+p.Name) {
					t.Errorf("%s: label %s cut: %q", name, label, l)
				}
			}
		}
	}
	if strings.Contains(legend, "= road") && strings.Contains(legend, "= bridge") {
		t.Errorf("%s: road and bridge share a glyph:\n%s", name, legend)
	}
	for _, u := range st.Units {
		if strings.Contains(b.Window, u.Name+" ") && u.Order != "" && !strings.Contains(strings.Join(strings.Fields(b.Window), " "), "order: "+u.Order) {
			t.Errorf("%s: %s's order %q is cut in the roster", name, u.Name, u.Order)
		}
	}
}

func initialsOf(s string) string {
	out := s[:1]
	for _, w := range strings.Fields(s[1:]) {
		out += w[:1]
	}
	return out
}

// The board at the start and after some rounds, as the referee and each
// player sees it, held with golden files (refresh with -update, and read
// them: they must read well in 78 columns of plain text).
func TestBoardGolden(t *testing.T) {
	h := newHarness(t, "golden")
	rs := New()
	ref := engine.Viewer{Referee: true}
	union, conf := engine.Viewer{Player: "north", Side: Union}, engine.Viewer{Player: "south", Side: Confederate}
	start := rs.Render(rs.View(h.st, ref))
	golden.CheckString(t, "start-window.txt", start.Window)
	golden.CheckString(t, "start-full.txt", start.Full)
	checkBoard(t, "start, referee", h.st, ref, start)
	players := func(when string) {
		for _, v := range []engine.Viewer{union, conf} {
			file := when + "-window-" + strings.ToLower(v.Side) + ".txt"
			b := rs.Render(rs.View(h.st, v))
			golden.CheckString(t, file, b.Window)
			checkBoard(t, file, h.st, v, b)
		}
	}
	players("start")
	h.playToEnd(18)
	players("played")
}

// A first mail once showed Anna no Union unit: the window was chosen
// from all units. Every window of a whole game shows its reader's units.
func TestBoardWindowShowsTheReadersUnits(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "window")
	rs := New()
	for n := 0; n < 120 && h.st.Phase != PhaseOver; n++ {
		for _, v := range []engine.Viewer{{Player: "north", Side: Union}, {Player: "south", Side: Confederate}} {
			checkBoard(t, "mail "+string(rune('0'+n%10)), h.st, v, rs.Render(rs.View(h.st, v)))
		}
		if t.Failed() {
			t.Fatalf("after %d mails", n)
		}
		ps := prompts(h.st)
		h.must(ps[0].Side, ps[0].Examples[0])
	}
}
