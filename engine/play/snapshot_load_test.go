package play_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"pbem/engine/play"
	"pbem/internal/waitfor"
	"pbem/store"
)

// A game loaded from a log that runs past its last snapshot by the
// interval or more is snapshotted at once: the interval counts from the
// snapshot the load started from, not from the seq it loaded. Counted
// from the seq loaded, a game loaded again and again (a decision that
// lands behind the intake's mails loads it anew) never got a snapshot,
// and every load replayed the whole game.
func TestALoadedGameIsSnapshottedCountingFromItsLastSnapshot(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := raceRegistry()
	r := play.NewRunner(st, reg, play.RunnerOptions{SnapshotEvery: 1 << 30, Notifier: reminders{}})
	created, err := play.Create(st, reg, play.NewGame{ID: "g1", Ruleset: "race", Scenario: []byte("target 40"),
		Players: racePlayers, Referees: raceReferee, At: start})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, st: st, reg: reg, r: r, at: start}
	r.Deliver(&created)
	tb.idle()
	for _, p := range []string{"north", "south", "north", "south"} {
		accepted(t, tb.send(p, "ADD 1"))
	}
	r.Close()
	head, err := st.Head("g1")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := st.Snapshot("g1", 0); ok || err != nil {
		t.Fatalf("a snapshot with an interval of 2^30 events (%v)", err)
	}
	if head.Seq < 8 {
		t.Fatalf("the game has %d events: too few for the test", head.Seq)
	}

	r = play.NewRunner(st, reg, play.RunnerOptions{SnapshotEvery: 4, Notifier: reminders{}})
	defer r.Close()
	if err := r.Query(context.Background(), "g1", func(*play.Game) {}); err != nil {
		t.Fatal(err)
	}
	if !waitfor.True(5*time.Second, func() bool {
		seq, _, ok, _ := st.Snapshot("g1", 0)
		return ok && seq == head.Seq
	}) {
		seq, _, ok, err := st.Snapshot("g1", 0)
		t.Errorf("after loading %d events with no snapshot, interval 4: snapshot %d %v %v, want one at %d", head.Seq, seq, ok, err, head.Seq)
	}
}
