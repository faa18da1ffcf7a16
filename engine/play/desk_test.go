package play_test

import (
	"strings"
	"testing"
	"time"

	"pbem/events"
)

// While the game is paused no deadline runs: the desk shows each as
// stopped with the time it has left, never OVERDUE, however long the
// pause; after RESUME it runs again with that time.
func TestThePausedDeskShowsDeadlinesStoppedWithTheTimeLeft(t *testing.T) {
	tb := newTable(t, events.Setting{Key: "deadline", Value: "5h"})
	accepted(t, tb.send("north", "PAUSE"))
	accepted(t, tb.send("south", "PAUSE snow")) // paused at start+2h; north's deadline is due at start+5h
	g := tb.game()
	if g.Paused == nil {
		t.Fatal("not paused")
	}
	d := g.Desk(start.Add(30 * time.Hour).UnixNano())
	want := "north (USA): stopped while the game is paused, 3h left; then: the referee decides"
	if d.Overdue || len(d.Lines) == 0 || !contains(d.Lines, want) {
		t.Fatalf("paused desk: overdue %v, lines:\n%s\nwant the line %q", d.Overdue, strings.Join(d.Lines, "\n"), want)
	}
	for _, l := range d.Lines {
		if strings.Contains(l, "OVERDUE") {
			t.Errorf("a paused game's desk says %q", l)
		}
	}
	accepted(t, tb.send("north", "RESUME"))
	accepted(t, tb.send("south", "RESUME")) // resumed at start+4h: due at start+7h
	d = tb.game().Desk(start.Add(5 * time.Hour).UnixNano())
	if want := "north (USA): due Mon 2 Nov 2026 16:00 UTC, in 2h; then: the referee decides"; !contains(d.Lines, want) {
		t.Fatalf("resumed desk:\n%s\nwant the line %q", strings.Join(d.Lines, "\n"), want)
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}
