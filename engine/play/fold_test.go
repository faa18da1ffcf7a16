package play_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
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
	add := appender(t, p)
	bad := add(&events.OrderRejected{Input: 99999}, "")
	for i := range 300 {
		key := fmt.Sprintf("<after-%d@example.org>", i)
		add(&events.OrderReceived{Player: "north", Text: "ROLL", MessageID: key}, key)
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
	add := appender(t, p)
	hold := func(h *events.MailHeld) { t.Helper(); add(h, "") }
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

// appender returns a function appending an event to the end of p's game,
// with its idempotency key, that returns the event's seq.
func appender(t *testing.T, p *enginetest.Played) func(pl events.Payload, key string) uint64 {
	game := p.Log[0].Game
	next := uint64(len(p.Log))
	return func(pl events.Payload, key string) uint64 {
		t.Helper()
		if _, err := p.Store.Append(game, next, events.New(game, time.Unix(0, 0), key, pl)); err != nil {
			t.Fatal(err)
		}
		next++
		return next
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
	bad := appender(t, p)(&events.MailHeld{Reader: "north\xff", Kind: "action", Text: "x"}, "")
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

// A fold leaves out the texts of held parts and the payloads of inputs,
// and reads back those still kept when it ends: a game replayed whole,
// or loaded from a snapshot and the log past it, keeps the same parts and
// the same undecided inputs, to the byte, as one folded one event at a
// time, however far apart in the log they lie.
func TestWhatAFoldKeepsIsReadBackFromTheLog(t *testing.T) {
	t.Parallel()
	reg := raceRegistry()
	p := enginetest.Play(t, reg, longRace(10))
	game := p.Log[0].Game
	add := appender(t, p)
	north, south := racePlayers[0].ID, racePlayers[1].ID
	var snapAt uint64
	for i := range 12 {
		// Gaps of 1 to 60 events between what the game keeps: read
		// back in runs, and sought afresh past a long gap.
		for j := range i * i % 61 {
			add(&events.MailHeld{Reader: north, Kind: "action", Text: fmt.Sprintf("told %d.%d", i, j)}, "")
			add(&events.MailHeld{Reader: north, Told: fmt.Sprintf("<digest-%d-%d@example.org>", i, j)}, "")
		}
		add(&events.MailHeld{Reader: south, Kind: "action", Text: fmt.Sprintf("Part %d for south.\n", i), Board: i%2 == 0}, "")
		key := fmt.Sprintf("<late-%d@example.org>", i)
		seq := add(&events.OrderReceived{Player: north, Text: fmt.Sprintf("ROLL\n# order %d", i), MessageID: key, Source: "mail"}, key)
		if i == 5 {
			snapAt = seq
		}
	}
	inc := &play.Game{ID: game}
	var want []byte
	err := p.Store.Read(game, 1, func(e *events.Envelope) error {
		if err := inc.Apply(reg, e); err != nil {
			return err
		}
		if e.Seq == snapAt {
			b, err := inc.MarshalSnapshot()
			if err != nil {
				return err
			}
			return p.Store.PutSnapshot(game, snapAt, b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want, err = inc.MarshalSnapshot(); err != nil {
		t.Fatal(err)
	}
	if len(inc.Pending) != 12 || len(heldLines(t, inc, south)) != 12 {
		t.Fatalf("one event at a time keeps %d inputs and %d parts, want 12 of each", len(inc.Pending), len(heldLines(t, inc, south)))
	}
	replayed, err := play.Replay(p.Store, reg, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := play.Load(p.Store, reg, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*play.Game{"replayed whole": replayed, "loaded from the snapshot": loaded} {
		got, err := g.MarshalSnapshot()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the game differs from one folded one event at a time", name)
		}
		for i, in := range g.Pending {
			if !strings.Contains(string(in.Payload), fmt.Sprintf("# order %d", i)) {
				t.Errorf("%s: undecided input %d (seq %d) lost its order text: %q", name, i, in.Seq, in.Payload)
			}
		}
		if a, b := strings.Join(heldLines(t, g, south), ""), strings.Join(heldLines(t, inc, south), ""); a != b {
			t.Errorf("%s: south's parts are\n%s\nwant\n%s", name, a, b)
		}
	}
}

// readBackPanics is a game's log that panics when a fold reads back what
// it kept (any read not from the first event): a bug there.
type readBackPanics struct{ *store.Store }

func (l readBackPanics) Read(game string, from uint64, fn func(*events.Envelope) error) error {
	if from > 1 {
		panic("reading back went wrong")
	}
	return l.Store.Read(game, from, fn)
}

// A panic while a fold reads back what it kept fails that load with an
// error naming the panic, as a panic of the rule system does: the process
// goes on, and the game loads again from a log that reads.
func TestAPanicReadingBackFailsTheLoadAlone(t *testing.T) {
	t.Parallel()
	reg := raceRegistry()
	p := enginetest.Play(t, reg, longRace(4))
	game := p.Log[0].Game
	appender(t, p)(&events.MailHeld{Reader: racePlayers[0].ID, Kind: "action", Text: "Held for a digest."}, "")
	_, err := play.Replay(readBackPanics{p.Store}, reg, game, 0)
	if pe, ok := engine.Panicked(err); !ok || !strings.Contains(fmt.Sprint(pe.Value), "reading back went wrong") {
		t.Fatalf("replay: want the panic as an error, got %v", err)
	}
	g, err := play.Replay(p.Store, reg, game, 0)
	if err != nil || len(heldLines(t, g, racePlayers[0].ID)) != 1 {
		t.Fatalf("replay from the store: %v", err)
	}
}
