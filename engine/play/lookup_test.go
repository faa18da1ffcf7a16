package play_test

import (
	"fmt"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/gcacw"
	"pbem/engine/play"
	"pbem/events"
)

// 'pbem order' and 'pbem referee' wait for the decision on their input:
// DecisionOf finds each order's, and none for an input not yet decided
// (the last event has nothing after it).
func TestDecisionOfFindsTheDecisionOnEachInput(t *testing.T) {
	p := playGCACW(t)
	found := 0
	for i := range p.Log {
		e := &p.Log[i]
		if !events.IsAccepted(e.Type) && e.Type != events.TypeOrderRejected {
			continue
		}
		want, err := events.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		got, at, err := play.DecisionOf(p.Store, auditGame, play.InputOf(want))
		if err != nil || at != e.Seq || got == nil || got.EventType() != want.EventType() {
			t.Fatalf("decision on input %d: %v at %d (%v), want %s at %d", play.InputOf(want), got, at, err, want.EventType(), e.Seq)
		}
		found++
	}
	if found == 0 {
		t.Fatal("the game has no decisions")
	}
	last := p.Log[len(p.Log)-1].Seq
	if got, at, err := play.DecisionOf(p.Store, auditGame, last); got != nil || at != 0 || err != nil {
		t.Fatalf("decision after the last event: %v at %d (%v)", got, at, err)
	}
}

// 'pbem replay --turn N' starts at the event where turn N began; a turn
// the game has not reached is named, with the turn it is in.
func TestTurnStartFindsWhereATurnBegan(t *testing.T) {
	p := playGCACW(t)
	reg := engine.NewRegistry(gcacw.New)
	if at, err := play.TurnStart(p.Store, reg, auditGame, 1); err != nil || at != 1 {
		t.Fatalf("turn 1 starts at %d (%v), want 1", at, err)
	}
	now := p.Game.Rules.(engine.Turner).Turn(p.Game.State) // the dice decide how far the game got
	if now > 1 {
		at, err := play.TurnStart(p.Store, reg, auditGame, now)
		if err != nil || at <= 1 {
			t.Fatalf("turn %d starts at %d (%v)", now, at, err)
		}
	}
	_, err := play.TurnStart(p.Store, reg, auditGame, 9)
	if want := fmt.Sprintf("has not reached turn 9 (it is in turn %d)", now); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("turn 9 of a game in turn %d: %v", now, err)
	}
}
