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

// The board at the start and after some rounds: window (≤ 78 columns) and
// the whole table, held with golden files.
func TestBoardGolden(t *testing.T) {
	h := newHarness(t, "golden")
	rs := New()
	start := rs.Render(rs.View(h.st, engine.Viewer{Referee: true}))
	golden.CheckString(t, "start-window.txt", start.Window)
	golden.CheckString(t, "start-full.txt", start.Full)
	checkWidth(t, "start window", start.Window, 78)
	h.playToEnd(18)
	mid := rs.Render(rs.View(h.st, engine.Viewer{Side: Union}))
	golden.CheckString(t, "played-window-union.txt", mid.Window)
	checkWidth(t, "played window", mid.Window, 78)
}
