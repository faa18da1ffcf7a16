package hra

import (
	"testing"

	"pbem/engine"
)

// A battle fought out here for a campaign tells it each side's losses
// as HRA counts casualties: state points lost (HRA 3a, 4.III.d), a unit
// removed at state 0 counting all 3 of its points (H7).
func TestLinkedBattleLossesAreTheStatePointsLost(t *testing.T) {
	lc, ok := New().(engine.LossCounter)
	if !ok {
		t.Fatal("the HRA ruleset counts no losses")
	}
	h := newHarness(t, "linked-battle-losses")
	if got := lc.Losses(h.st); got[Union] != 0 || got[Confederate] != 0 || len(got) != 2 {
		t.Fatalf("losses before any fire %v, want 0 each side", got)
	}
	// The referee's setup before BEGIN (a battle its campaign left to the
	// referee) is no loss: the 3rd Indiana stays out, the 6th Wisconsin
	// comes weakened.
	h.must(engine.RefereeSide, "SET 3rd Indiana STATE 0")
	h.must(engine.RefereeSide, "SET 6th Wisconsin STATE 2")
	if got := lc.Losses(h.st); got[Union] != 0 || got[Confederate] != 0 {
		t.Fatalf("losses after the referee's setup %v, want 0 each side", got)
	}
	h.must(Union, "BEGIN")
	// The referee carries out what the fire table gave: the 2nd Wisconsin
	// down to medium, the 8th Illinois to low, the 4th Virginia broken.
	for _, set := range []string{"SET 2nd Wisconsin STATE 2", "SET 8th Illinois STATE 1", "SET 4th Virginia STATE 0"} {
		h.must(engine.RefereeSide, set)
	}
	got := lc.Losses(h.st)
	if got[Union] != 3 || got[Confederate] != 3 || len(got) != 2 {
		t.Errorf("losses %v, want Union 3 (1 + 2) and Confederate 3 (a unit removed)", got)
	}
	h.must(engine.RefereeSide, "SET Battery B STATE 1")
	if got := lc.Losses(h.st); got[Union] != 5 || got[Confederate] != 3 {
		t.Errorf("losses after Battery B falls to low %v, want Union 5 and Confederate 3", got)
	}
}
