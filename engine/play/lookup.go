package play

import (
	"errors"
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// Lookups in a game's log that the commands ask for ('pbem replay --turn',
// and 'pbem order' and 'pbem referee' waiting for their answer).

// TurnStart is the seq at which turn n began: the last event after which
// the ruleset says turn n when it said an earlier turn before (after a
// rollback, the start that counts is the one the game went on from).
func TurnStart(log Source, reg *engine.Registry, game string, n int) (uint64, error) {
	g := &Game{ID: game}
	var start uint64
	prev := 0
	err := log.Read(game, 1, func(e *events.Envelope) error {
		if err := g.Apply(reg, e); err != nil {
			return err
		}
		t, ok := g.Rules.(engine.Turner)
		if !ok {
			return fmt.Errorf("the %s rules do not number turns; use --at", g.Rules.Name())
		}
		cur := t.Turn(g.State)
		if cur == n && (prev < n || e.Seq == 1) {
			start = e.Seq
		}
		prev = cur
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("replay %s: %w", game, err)
	}
	if start == 0 {
		return 0, fmt.Errorf("game %s has not reached turn %d (it is in turn %d)", game, n, prev)
	}
	return start, nil
}

// DecisionOf returns the decision on the input at seq and its own seq, or
// nil if there is none yet.
func DecisionOf(log Source, game string, seq uint64) (events.Payload, uint64, error) {
	var found events.Payload
	var at uint64
	err := log.Read(game, seq+1, func(e *events.Envelope) error {
		if !events.IsAccepted(e.Type) && e.Type != events.TypeOrderRejected {
			return nil
		}
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		if InputOf(p) == seq {
			found, at = p, e.Seq
			return errDecisionFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDecisionFound) {
		return nil, 0, err
	}
	return found, at, nil
}

// errDecisionFound stops DecisionOf's read at the decision.
var errDecisionFound = errors.New("found")
