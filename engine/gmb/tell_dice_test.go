package gmb

import (
	"testing"

	"pbem/events"
	"pbem/internal/dicecheck"
)

// The initiative roll tells its pool of dice as the dice the rules give,
// each kind of extra dice with its source, and the dice rolled, so that
// the count adds up (dicecheck).
func TestInitiativePoolAddsUp(t *testing.T) {
	S, I := events.S, events.I
	for _, c := range []struct {
		f    events.Fact
		want string
	}{
		{events.NewFact(kInitiativeRolled, S("side", "USA"), I("dice", 3), I("bonus", 0), I("forced", 0), I("successes", 1)),
			"USA rolls 3 dice: 1 success."},
		{events.NewFact(kInitiativeRolled, S("side", "USA"), I("dice", 5), I("bonus", 2), I("forced", 0), I("successes", 2)),
			"USA rolls 3 dice, +2 commander and battlefield (13.8b) = 5 dice: 2 successes."},
		{events.NewFact(kInitiativeRolled, S("side", "CSA"), I("dice", 9), I("bonus", 2), I("forced", 4), I("successes", 0)),
			"CSA rolls 3 dice, +2 commander and battlefield (13.8b), +4 forced march (13.8d) = 9 dice: 0 successes."},
	} {
		if got := describe(nil, c.f); got != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.f, got, c.want)
		}
		if ps := dicecheck.Check(c.want); len(ps) > 0 {
			t.Errorf("%s: %v", c.f, ps)
		}
	}
}
