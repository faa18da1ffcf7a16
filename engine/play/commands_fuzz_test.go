package play_test

import (
	"errors"
	"testing"
	"time"
	"unicode/utf8"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// FuzzGameCommands: any mail from a player or the referee, the words
// every game understands included (PAUSE, DRAW, CONCEDE, ABSENCE, TZ,
// REFEREE, PRESS, MAIL; the referee's ROLLBACK, DEADLINE, EXTEND,
// REPLACE, OBSERVER, END, SETTING, ORDER, MESSAGE ...), is decided by the
// runtime into an acceptance or a rejection, never an error or a panic.
// The game has a referee, deadlines and a few decisions behind it, so
// that a rollback or a seat has something to act on.
func FuzzGameCommands(f *testing.F) {
	for _, s := range []string{
		"PAUSE away for a week", "RESUME", "DRAW", "CONCEDE", "ABSENCE 2026-11-05 2026-11-09", "ABSENCE CANCEL", "TZ Europe/Warsaw", "TZ +99",
		"REFEREE please look at turn 2", "REFEREE ADD carol@example.org", "REFEREE REPLACE ref dave@example.org", "PRESS to all: hello", "MAIL EVERY", "MAIL MOVE",
		"ROLLBACK 2 ACTIONS", "ROLLBACK TO 3", "PAUSE", "DEADLINE north 2026-11-10 12:00", "EXTEND north 2d", "REPLACE north erin@example.org Erin",
		"OBSERVER ADD olga@example.org", "END draw", "SETTING deadline 3d", "ORDER north ADD 1", "MESSAGE north hello", "ANNOUNCE all well",
		"ADD 1", "STATUS", "LOG 5", "HELP", ":", ",", "\t", "ROLLBACK 999999999999999999999 ACTIONS", "ABSENCE 2026-13-45 0000-00-00",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	g, reg := fuzzedGame(f)
	at := start.Add(24 * time.Hour) // after every decision of the setup
	f.Fuzz(func(t *testing.T, text string, referee bool) {
		if !utf8.ValidString(text) {
			return // the intake reads every mail into UTF-8 (mail/parse), and the log holds nothing else
		}
		var p events.Payload = &events.OrderReceived{Player: "north", Text: text, MessageID: "<fuzz@test>", Source: "test"}
		if referee {
			p = &events.RefereeCommand{Referee: "ref", Text: text, Reason: "test", MessageID: "<fuzz@test>", Source: "test"}
		}
		in := events.New("g1", at, "<fuzz@test>", p)
		in.Chain(g.Seq+1, g.Hash)
		gc := *g // the input decided on a copy: the next sees the same game
		gc.Pending = []events.Envelope{in}
		stream := play.NewStream([]byte("fuzz"), "g1", gc.Rolls)
		dec, _, _, err := gc.DecideNext(reg, stream, func() []events.Die { return stream.Rolled })
		var pe *engine.PanicError
		if errors.As(err, &pe) {
			t.Fatalf("%q (referee %v) panicked: %v\n%s", text, referee, pe, pe.Stack)
		}
		if err != nil || dec == nil {
			t.Fatalf("%q (referee %v): no decision: %v", text, referee, err)
		}
	})
}

// fuzzedGame is a race game with a referee and deadlines, a few
// decisions in, played through a real runner on a bbolt file.
func fuzzedGame(f *testing.F) (*play.Game, *engine.Registry) {
	tb, err := newRaceTable(f, "target 40", racePlayers, raceReferee, events.Setting{Key: play.SettingDeadline, Value: "2d"})
	if err != nil {
		f.Fatal(err)
	}
	for _, o := range []struct{ who, text string }{{"north", "ADD 3"}, {"south", "ADD 2"}, {"north", "ADD 4"}, {"ref", "PAUSE"}, {"ref", "RESUME"}, {"south", "ADD 1"}} {
		tb.send(o.who, o.text)
	}
	g, err := play.Replay(tb.st, tb.reg, "g1", 0)
	if err != nil {
		f.Fatal(err)
	}
	return g, tb.reg
}
