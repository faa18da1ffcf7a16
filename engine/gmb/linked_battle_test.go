package gmb

import (
	"testing"

	"pbem/engine"
)

// A battle fought out here for a campaign tells it each side's losses
// as GMB counts them: units lost (13.12c), whatever their cohesion.
func TestLinkedBattleLossesAreTheUnitsLost(t *testing.T) {
	lc, ok := New().(engine.LossCounter)
	if !ok {
		t.Fatal("the GMB ruleset counts no losses")
	}
	g := newGame(t)
	if got := lc.Losses(g.st); got["Union"] != 0 || got["Confederate"] != 0 || len(got) != 2 {
		t.Fatalf("losses before any combat %v, want 0 each side", got)
	}
	// The referee's setup before the first turn (a battle its campaign
	// left to the referee) is no loss: the Reserve Brigade stays out.
	g.send(engine.RefereeSide, "SET Reserve Brigade REMOVED on")
	if got := lc.Losses(g.st); got["Union"] != 0 {
		t.Fatalf("losses after the referee's setup %v, want none", got)
	}
	g.send(engine.RefereeSide, "SET game TURN 1")
	for _, set := range []string{
		"SET Iron Brigade REMOVED on",
		"SET Michigan Brigade REMOVED on",
		"SET Texas Brigade REMOVED on",
		"SET Stonewall Brigade COHESION 1", // battered, not lost
	} {
		g.send(engine.RefereeSide, set)
	}
	got := lc.Losses(g.st)
	if got["Union"] != 2 || got["Confederate"] != 1 || len(got) != 2 {
		t.Errorf("losses %v, want Union 2 and Confederate 1", got)
	}
}
