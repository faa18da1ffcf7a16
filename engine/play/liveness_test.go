package play_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/events"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/store"
)

// One game that cannot be loaded — its log damaged, or its
// rule system missing from this binary — answers queries at once with
// its error and is retried with backoff, while every other game is
// decided as ever.
func TestAGameThatCannotLoadHoldsUpNoOther(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := raceRegistry()
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	for _, id := range []string{"good", "damaged"} {
		if _, err := play.Create(st, reg, play.NewGame{ID: id, Ruleset: "race", Scenario: []byte("target 50"), Players: racePlayers, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	// A decision for an input the game never had: the log no longer folds.
	if _, err := st.Append("damaged", 1, events.New("damaged", at, "", &events.OrderAccepted{Input: 99, Player: "north"})); err != nil {
		t.Fatal(err)
	}
	// A game of a rule system this binary does not have.
	other := engine.NewRegistry(func() engine.Ruleset { return ghost{enginetest.Race()} })
	if _, err := play.Create(st, other, play.NewGame{ID: "ghostly", Ruleset: "ghost", Scenario: []byte("target 5"), Players: racePlayers, At: at}); err != nil {
		t.Fatal(err)
	}

	var logs syncbuf.Buffer
	r := play.NewRunner(st, reg, play.RunnerOptions{RetryMax: 200 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	defer r.Close()
	for _, id := range []string{"damaged", "ghostly", "good"} {
		r.Kick(id)
	}
	for _, id := range []string{"damaged", "ghostly"} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		called := false
		err := r.Query(ctx, id, func(*play.Game) { called = true })
		cancel()
		if err == nil || called || !strings.Contains(err.Error(), "cannot be loaded") {
			t.Fatalf("query of %s: %v (fn called: %v)", id, err, called)
		}
	}
	// The good game takes orders and decides them meanwhile.
	for i, text := range []string{"ADD 2", "ADD 3", "ADD 1"} {
		player := []string{"north", "south"}[i%2]
		e := events.New("good", at.Add(time.Duration(i+1)*time.Hour), "", &events.OrderReceived{Player: player, Text: text})
		for {
			// The runner appends its decisions meanwhile: take the head again.
			h, _ := st.Head("good")
			res, err := st.Append("good", h.Seq, e)
			var conflict *store.ConflictError
			if errors.As(err, &conflict) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			r.Deliver(&res.Events[0])
			break
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	var score map[string]int
	var pending int
	if !waitfor.True(10*time.Second, func() bool {
		if err := r.Query(context.Background(), "good", func(g *play.Game) { score, pending = g.State.(*raceState).Score, len(g.Pending) }); err != nil {
			t.Fatal(err)
		}
		return pending == 0 && score["USA"] == 3 && score["CSA"] == 3
	}) {
		t.Fatalf("the good game was not decided: score %v, %d pending", score, pending)
	}
	// The failed games are retried, with backoff, not given up on: waited
	// for within what is left of the same 10s.
	waitfor.True(time.Until(deadline), func() bool { return strings.Count(logs.String(), "game=damaged") >= 3 })
	if n := strings.Count(logs.String(), `msg="cannot load game`); n < 4 {
		t.Fatalf("%d load attempts logged:\n%s", n, logs.String())
	}
}

// An idle game with nothing to do is let go, and loaded again when mail
// comes for it; one with a deadline running stays.
func TestIdleGamesAreLetGoAndComeBack(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := raceRegistry()
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	if _, err := play.Create(st, reg, play.NewGame{ID: "quiet", Ruleset: "race", Scenario: []byte("target 50"), Players: racePlayers, At: at}); err != nil {
		t.Fatal(err)
	}
	if _, err := play.Create(st, reg, play.NewGame{ID: "timed", Ruleset: "race", Scenario: []byte("target 50"), Players: racePlayers, At: at,
		Settings: []events.Setting{{Key: play.SettingDeadline, Value: "3d"}}}); err != nil {
		t.Fatal(err)
	}
	r := play.NewRunner(st, reg, play.RunnerOptions{IdleAfter: 30 * time.Millisecond})
	defer r.Close()
	r.Kick("quiet")
	r.Kick("timed")
	deadline := time.Now().Add(10 * time.Second)
	if !waitfor.True(10*time.Second, func() bool { return strings.Join(r.Active(), ",") == "timed" }) {
		t.Fatalf("active after idling: %v", r.Active())
	}
	res, err := st.Append("quiet", 1, events.New("quiet", at.Add(time.Hour), "", &events.OrderReceived{Player: "north", Text: "ADD 2"}))
	if err != nil {
		t.Fatal(err)
	}
	r.Deliver(&res.Events[0])
	// Within what is left of the same 10s.
	if !waitfor.True(time.Until(deadline), func() bool {
		var score int
		if err := r.Query(context.Background(), "quiet", func(g *play.Game) { score = g.State.(*raceState).Score["USA"] }); err != nil {
			t.Fatal(err)
		}
		return score == 2
	}) {
		t.Fatal("the game let go did not decide the order that came for it")
	}
}

// ghost is a rule system only the creating binary had: race by another name.
type ghost struct{ engine.Ruleset }

func (ghost) Name() string { return "ghost" }
