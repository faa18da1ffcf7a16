package play_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/events"
)

// longRace is a game of hundreds of decisions: a fold decodes them all
// into one buffer, each over the one before.
func longRace(decisions int) enginetest.Script {
	var orders []string
	for range decisions / 2 {
		orders = append(orders, "north", "ROLL", "south", "ADD 2")
	}
	return enginetest.Script{Name: "long race", Ruleset: "race", ScenarioName: "far", Scenario: []byte("target 100000"),
		Players: racePlayers, Orders: enginetest.Orders(orders...)}
}

// The acceptance suite replays the long game to every seq and compares it
// with the incremental fold (Apply, one event at a time, each decision
// decoded into memory of its own): they give the same game everywhere.
func TestLongFoldEqualsOneEventAtATime(t *testing.T) {
	t.Parallel()
	// Check alone: the leak test, which Run adds, has nothing to find in
	// a game without secrets, and would replay this long one four times.
	p := enginetest.Play(t, raceRegistry(), longRace(300))
	enginetest.Check(t, raceRegistry(), p)
	if len(p.Log) < 600 {
		t.Fatalf("the long game has %d events; the test needs hundreds", len(p.Log))
	}
	if got := p.Game.State.(*raceState).Score["USA"]; got < 150 {
		t.Fatalf("USA scored %d in 150 rolls", got)
	}
}

// A decision that does not fold, deep in a long log and followed by more
// events, stops the fold with the error naming its seq; the events after
// it are not folded, and nothing waits forever.
func TestLongFoldStopsAtAnEventThatDoesNotFold(t *testing.T) {
	t.Parallel()
	reg := raceRegistry()
	p := enginetest.Play(t, reg, longRace(200))
	game := p.Log[0].Game
	at := time.Unix(0, 0)
	bad := uint64(len(p.Log)) + 1
	if _, err := p.Store.Append(game, bad-1, events.New(game, at, "", &events.OrderRejected{Input: 99999})); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		key := fmt.Sprintf("<after-%d@example.org>", i)
		if _, err := p.Store.Append(game, bad+uint64(i), events.New(game, at, key, &events.OrderReceived{Player: "north", Text: "ROLL", MessageID: key})); err != nil {
			t.Fatal(err)
		}
	}
	for _, upTo := range []uint64{0, bad, bad + 200} {
		_, err := play.Replay(p.Store, reg, game, upTo)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("seq %d (order.rejected", bad)) || !strings.Contains(err.Error(), "oldest undecided input") {
			t.Fatalf("replay to %d: want the fold error at seq %d, got %v", upTo, bad, err)
		}
	}
	g, err := play.Replay(p.Store, reg, game, bad-1)
	if err != nil || g.Seq != bad-1 {
		t.Fatalf("replay to the event before the bad one: seq %d, %v", g.Seq, err)
	}
}
