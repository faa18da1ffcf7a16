package play_test

import (
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// newTableFor is newTableOf with other players.
func newTableFor(t *testing.T, scenario string, players []events.Player, settings ...events.Setting) *table {
	t.Helper()
	tb, err := newRaceTable(t, scenario, players, raceReferee, settings...)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// Deadlines that pass in the same tick (every side bids at once) each
// get their default once, and nobody gets a fresh deadline for it: the
// deadline of one player passing is decided apart from the others'.
func TestDeadlinesPassingInOneTickEachApplyTheirDefaultOnce(t *testing.T) {
	three := append(append([]events.Player(nil), racePlayers...),
		events.Player{ID: "west", Name: "Wen", Side: "West", Addresses: []string{"wen@example.org"}})
	for _, tc := range []struct {
		name    string
		players []events.Player
	}{{"two players", racePlayers}, {"three players", three}} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTableFor(t, "target 40\nhand 3", tc.players, events.Setting{Key: play.SettingDeadline, Value: "1d"},
				events.Setting{Key: play.SettingAtDeadline, Value: "BID LOW"})
			accepted(t, tb.send(tc.players[0].ID, "DEAL"))
			for _, p := range tc.players {
				accepted(t, tb.send(p.ID, "ADD 1"))
			}
			// Every side must bid now, each with the same deadline.
			g := tb.game()
			if len(g.Deadlines) != len(tc.players) {
				t.Fatalf("deadlines to bid: %+v", g.Deadlines)
			}
			due := g.Deadlines[0].Due
			for _, d := range g.Deadlines {
				if d.Due != due {
					t.Fatalf("deadlines to bid differ: %+v", g.Deadlines)
				}
			}
			seq := tb.head()
			tb.tick(time.Unix(0, due).Add(time.Minute))
			es, err := tb.st.Events("g1", seq+1)
			if err != nil {
				t.Fatal(err)
			}
			passed := map[string]int{}
			undecided := map[string]bool{}
			for _, p := range tc.players {
				undecided[p.ID] = true
			}
			for _, e := range es {
				if e.Type != events.TypeDeadlinePassed {
					continue
				}
				p, _ := events.Decode(&e)
				dp := p.(*events.DeadlinePassed)
				passed[dp.Player]++
				delete(undecided, dp.Player)
				d := accepted(t, tb.decisionOf(e.Seq))
				// What the player is told of their own deadline: the
				// default, applied in their name.
				g := tb.game()
				who, _ := g.PlayerByID(dp.Player)
				told := g.Sight(viewerOf(who)).After(d, false).Decision(d)
				echo := strings.Join(told.Echo, "\n")
				if d.Player != dp.Player || !strings.Contains(echo, "BID LOW") {
					t.Errorf("%s's deadline: %s is told %q, want the default BID LOW applied", dp.Player, dp.Player, echo)
				}
				for _, p := range tc.players {
					if e := strings.Join(g.Sight(viewerOf(p)).After(d, false).Decision(d).Echo, "\n"); strings.Contains(e, "no longer applies") {
						t.Errorf("%s's deadline: %s is told %q", dp.Player, p.ID, e)
					}
				}
				for _, f := range deadlineFacts(d) {
					if undecided[f.Str("player")] {
						t.Errorf("%s's default changed the deadline of %s, whose own passed with it: %s", dp.Player, f.Str("player"), f)
					}
				}
			}
			for _, p := range tc.players {
				if passed[p.ID] != 1 {
					t.Errorf("%s's deadline passed %d times, want once (%v)", p.ID, passed[p.ID], passed)
				}
			}
			// Every side's default bid is in: the bids opened, and the
			// next round of moves has begun.
			g = tb.game()
			st := g.State.(*raceState)
			if st.Bidding || len(g.Revealed) != 1 {
				t.Fatalf("after the deadlines: bidding %v, revealed %v, deadlines %+v", st.Bidding, g.Revealed, g.Deadlines)
			}
			for _, p := range tc.players {
				if n := len(st.Hands[p.Side]); n != 2 {
					t.Errorf("%s holds %d cards after the default bid, want 2", p.Side, n)
				}
			}
			rep, err := play.Audit(tb.st, tb.reg, "g1", nil)
			if err != nil || !rep.OK() || len(rep.Differences) != 0 {
				t.Fatalf("audit: %v %+v", err, rep.Differences)
			}
		})
	}
}

func viewerOf(p events.Player) engine.Viewer { return engine.Viewer{Player: p.ID, Side: p.Side} }
