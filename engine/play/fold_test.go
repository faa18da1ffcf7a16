package play_test

import (
	"bytes"
	"errors"
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

// The parts of reports held for a digest (mail.held) are kept alike by a
// long fold and one event at a time: each reader's parts in order, their
// texts, and a digest telling one reader's parts leaving the other's.
func TestHeldPartsFoldAsOneEventAtATime(t *testing.T) {
	t.Parallel()
	reg := raceRegistry()
	p := enginetest.Play(t, reg, longRace(20))
	game := p.Log[0].Game
	at := time.Unix(0, 0)
	next := uint64(len(p.Log))
	hold := func(h *events.MailHeld) {
		t.Helper()
		if _, err := p.Store.Append(game, next, events.New(game, at, "", h)); err != nil {
			t.Fatal(err)
		}
		next++
	}
	for i := range 40 {
		reader := racePlayers[i%2].ID
		hold(&events.MailHeld{Reader: reader, Kind: "action", Text: fmt.Sprintf("Part %d for %s: the die rolled %d.\n", i, reader, i%6+1), Board: i%3 == 0})
		if i == 25 {
			hold(&events.MailHeld{Reader: racePlayers[0].ID, Told: "<digest-25@example.org>"})
		}
	}
	g, err := play.Replay(p.Store, reg, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	inc := &play.Game{ID: game}
	if err := p.Store.Read(game, 1, func(e *events.Envelope) error { return inc.Apply(reg, e) }); err != nil {
		t.Fatal(err)
	}
	for _, pl := range racePlayers[:2] {
		folded, one := heldLines(t, g, pl.ID), heldLines(t, inc, pl.ID)
		if strings.Join(folded, "") != strings.Join(one, "") {
			t.Fatalf("%s: the fold holds\n%s\none event at a time\n%s", pl.ID, strings.Join(folded, ""), strings.Join(one, ""))
		}
		// north's first 13 parts were told at 25; south's 20 wait.
		want := map[string]int{racePlayers[0].ID: 7, racePlayers[1].ID: 20}[pl.ID]
		if len(folded) != want {
			t.Fatalf("%s: %d parts held, want %d:\n%s", pl.ID, len(folded), want, strings.Join(folded, ""))
		}
	}
	a, err := g.MarshalSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := inc.MarshalSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("the fold's snapshot differs from the one of a game folded one event at a time")
	}
}

// heldLines are the parts g holds for reader, a line each: seq, reader,
// kind, whether the board changed, and the text.
func heldLines(t *testing.T, g *play.Game, reader string) []string {
	t.Helper()
	var out []string
	for _, h := range g.HeldFor(reader) {
		s, err := h.Text()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d %s %s %v %s", h.Seq, h.Reader, h.Kind, h.Board, s))
	}
	return out
}

// A held part whose reader is not UTF-8 is damage: the fold stops there
// and names the event, as one event at a time does.
func TestADamagedHeldPartStopsTheFold(t *testing.T) {
	t.Parallel()
	reg := raceRegistry()
	p := enginetest.Play(t, reg, longRace(4))
	game := p.Log[0].Game
	bad := uint64(len(p.Log)) + 1
	if _, err := p.Store.Append(game, bad-1, events.New(game, time.Unix(0, 0), "", &events.MailHeld{Reader: "north\xff", Kind: "action", Text: "x"})); err != nil {
		t.Fatal(err)
	}
	_, err := play.Replay(p.Store, reg, game, 0)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("seq %d (mail.held", bad)) || !errors.Is(err, events.ErrCorrupt) {
		t.Fatalf("replay: want the damage at seq %d, got %v", bad, err)
	}
	inc := &play.Game{ID: game}
	err = p.Store.Read(game, 1, func(e *events.Envelope) error { return inc.Apply(reg, e) })
	if err == nil || !errors.Is(err, events.ErrCorrupt) {
		t.Fatalf("one event at a time: want the damage, got %v", err)
	}
}
