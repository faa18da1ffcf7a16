package play_test

import (
	"strings"
	"testing"
	"time"

	"pbem/engine/play"
	"pbem/events"
)

// An ABSENCE says what it changes: a deadline that has passed (or is in
// its grace) keeps its default, one running now moves on, and a start in
// the past is moved to now, never backdated.
func TestAbsenceSaysWhichDeadlinesMoveAndWhichKeepTheirDefault(t *testing.T) {
	layout := "2006-01-02 15:04"
	tests := []struct {
		name     string
		dflt     string
		at       time.Duration // after north's deadline, when the ABSENCE comes
		tick     bool          // the clock has said the deadline passed
		has, not []string
		moved    bool
	}{
		{name: "inside the grace, with a default order", dflt: "ADD 1", at: 10 * time.Minute,
			has: []string{"ABSENCE: north is away from Tue 3 Nov 2026 09:10 UTC to Thu 5 Nov 2026 09:00 UTC",
				"the absence starts now, Tue 3 Nov 2026 09:10 UTC, not Tue 3 Nov 2026 07:00 UTC: an absence is never backdated",
				"north's deadline of Tue 3 Nov 2026 09:00 UTC has passed and is in its grace until Tue 3 Nov 2026 09:30 UTC: the absence does not move it, and its default still applies: ADD 1",
				"deadlines north is given before Thu 5 Nov 2026 09:00 UTC stand still until then"},
			not: []string{"meanwhile"}},
		{name: "passed, the referee decides", dflt: "referee", at: 2 * time.Hour, tick: true,
			has: []string{"north's deadline of Tue 3 Nov 2026 09:00 UTC has passed: the absence does not move it, and the referee decides as before"},
			not: []string{"meanwhile", "default still applies"}},
		{name: "running, it moves", dflt: "ADD 1", at: -3 * time.Hour,
			has: []string{"north's deadline of Tue 3 Nov 2026 09:00 UTC moves on by the time away in it:",
				"north: orders due Thu 5 Nov 2026 11:00 UTC; if none come: ADD 1"},
			not: []string{"has passed", "backdated"}, moved: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTable(t, events.Setting{Key: play.SettingDeadline, Value: "1d"}, events.Setting{Key: play.SettingGrace, Value: "30m"},
				events.Setting{Key: play.SettingAtDeadline, Value: tc.dflt}, events.Setting{Key: play.SettingAbsenceMax, Value: "7d"})
			g := tb.game()
			due := time.Unix(0, g.Deadlines[0].Due).UTC()
			if tc.tick {
				tb.tick(due.Add(time.Hour))
			}
			tb.at = due.Add(tc.at - time.Hour) // the next input comes an hour later
			d := accepted(t, tb.send("north", "ABSENCE "+due.Add(-2*time.Hour).Format(layout)+" "+due.Add(48*time.Hour).Format(layout)))
			echo := strings.Join(d.Echo, "\n")
			for _, w := range tc.has {
				if !strings.Contains(echo, w) {
					t.Errorf("the answer lacks %q:\n%s", w, echo)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(echo, w) {
					t.Errorf("the answer says %q:\n%s", w, echo)
				}
			}
			for _, l := range d.Echo {
				if len(l) > 200 {
					t.Errorf("echo line too long: %q", l)
				}
			}
			g = tb.game()
			if got, _ := g.Deadline("north"); (got.Due != due.UnixNano()) != tc.moved {
				t.Errorf("deadline now %v (was %v), moved: want %v", time.Unix(0, got.Due).UTC(), due, tc.moved)
			}
		})
	}
}
