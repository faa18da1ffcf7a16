package play_test

import (
	"strings"
	"testing"
	"time"

	"pbem/engine/play"
	"pbem/events"
)

// ruling sends a referee's command written in answer to the game's mail
// at seq seen (0: from the command line, nothing seen).
func (tb *table) ruling(referee, text string, seen uint64) events.Payload {
	tb.t.Helper()
	return tb.input(&events.RefereeCommand{Referee: referee, Text: text, Reason: "test", Source: "mail", Seen: seen})
}

// Two referees who both send ROLLBACK 1 ACTIONS for the same slip, each
// answering the same mail: the first undoes the slip, the second is
// refused with what changed since, and the innocent order stands.
func TestTwoRefereesRollingBackOneSlipUndoOneAction(t *testing.T) {
	tb := newTable(t)
	accepted(t, tb.operator("REFEREE ADD dana@example.org NAME Dana"))
	accepted(t, tb.send("north", "ADD 3"))
	accepted(t, tb.send("south", "ADD 2")) // the slip both referees saw
	seen := tb.head()                      // the report of it both answer
	d := accepted(t, tb.ruling("ref", "ROLLBACK 1 ACTIONS", seen))
	if !strings.Contains(echoOf(d), "ROLLBACK") {
		t.Fatalf("first rollback: %q", d.Echo)
	}
	p := rejected(t, tb.ruling("dana", "ROLLBACK 1 ACTIONS", seen), "the game changed after the mail you answered")
	for _, want := range []string{"a rollback was made at seq", "would not undo what you saw"} {
		if !strings.Contains(p.Msg, want) {
			t.Errorf("the refusal does not say %q: %q", want, p.Msg)
		}
	}
	if !strings.Contains(p.Hint, "ROLLBACK TO <seq>") {
		t.Errorf("the refusal does not say what to send instead: %q", p.Hint)
	}
	if s := score(tb.game()); s["USA"] != 3 || s["CSA"] != 0 {
		t.Fatalf("after both rollbacks the score is %v, want USA 3 (north's order kept), CSA 0 (the slip undone)", s)
	}
	// An order a player sent after the mail the referee read also stops
	// a count, which would now undo that order rather than the slip.
	accepted(t, tb.send("south", "ADD 1"))
	seen = tb.head()
	accepted(t, tb.send("north", "ADD 2"))
	rejected(t, tb.ruling("ref", "ROLLBACK 1 ACTIONS", seen), "an action was accepted at seq")
	// Answering the refusal (a mail newer than every change) rolls back.
	accepted(t, tb.ruling("ref", "ROLLBACK 1 ACTIONS", tb.head()))
	// From the command line nothing is seen, and the count is from now.
	accepted(t, tb.ruling(play.OperatorID, "ROLLBACK 1 ACTIONS", 0))
	if s := score(tb.game()); s["USA"] != 3 || s["CSA"] != 0 {
		t.Fatalf("score %v, want USA 3, CSA 0", s)
	}
}

// Two referees who set the same player's deadline from the same mail:
// the later ruling applies and says, to every referee, that it replaced
// a deadline set after the mail it answered.
func TestARulingThatReplacesAnotherRefereesDeadlineSaysSo(t *testing.T) {
	tb := newTable(t)
	accepted(t, tb.operator("REFEREE ADD dana@example.org NAME Dana"))
	seen := tb.head()
	accepted(t, tb.ruling("ref", "DEADLINE north 2d", seen))
	first, _ := tb.game().Deadline("north")
	d := accepted(t, tb.ruling("dana", "DEADLINE north 1d", seen))
	echo := echoOf(d)
	for _, want := range []string{
		"Anna's deadline was changed after the mail you answered (due none then, " + time.Unix(0, first.Due).UTC().Format("Mon 2 Jan 2006 15:04 MST") + " before this ruling): this ruling replaces that change",
	} {
		if !strings.Contains(echo, want) {
			t.Errorf("the echo does not say %q:\n%s", want, echo)
		}
	}
	// A ruling on a game nobody changed since says nothing of the kind.
	d = accepted(t, tb.ruling("ref", "DEADLINE north 3d", tb.head()))
	if strings.Contains(echoOf(d), "after the mail") {
		t.Errorf("a ruling on the game as it stands speaks of a change: %q", d.Echo)
	}
}

// The same for a setting two referees change from the same mail.
func TestARulingThatReplacesAnotherRefereesSettingSaysSo(t *testing.T) {
	tb := newTable(t)
	accepted(t, tb.operator("REFEREE ADD dana@example.org NAME Dana"))
	seen := tb.head()
	accepted(t, tb.ruling("ref", "SETTING grace 2h", seen))
	d := accepted(t, tb.ruling("dana", "SETTING grace 30m", seen))
	if want := "setting grace was changed after the mail you answered (not set then, 2h before this ruling): this ruling replaces that change"; !strings.Contains(echoOf(d), want) {
		t.Errorf("the echo does not say %q:\n%s", want, echoOf(d))
	}
}
