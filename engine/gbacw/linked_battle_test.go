package gbacw

import (
	"testing"

	"pbem/engine"
)

// A battle fought out here for a campaign tells it each side's losses
// in strength points, as this game counts them.
func TestLinkedBattleLossesAreTheStrengthPointsLost(t *testing.T) {
	lc, ok := New().(engine.LossCounter)
	if !ok {
		t.Fatal("the GBACW ruleset counts no losses")
	}
	got := lc.Losses(&State{Lost: []int{3, 7}})
	if got[USA] != 3 || got[CSA] != 7 || len(got) != 2 {
		t.Errorf("losses %v, want USA 3 and CSA 7", got)
	}
}
