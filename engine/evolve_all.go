package engine

import (
	"fmt"

	"pbem/events"
)

// BatchEvolver is an optional Ruleset method. EvolveAll applies a
// decision's facts in order and returns the state after the last one; it
// must give exactly the state Evolve gives applied fact by fact, and like
// Evolve it never changes its input and keeps nothing of the facts but
// strings (enginetest checks all three). A ruleset
// implements it when copying its state once per decision rather than once
// per fact makes replay faster.
type BatchEvolver interface {
	EvolveAll(s State, facts []events.Fact) (State, error)
}

// EvolveAll applies facts to st, through the ruleset's EvolveAll when it
// has one.
func EvolveAll(rs Ruleset, st State, facts []events.Fact) (State, error) {
	if len(facts) == 0 {
		return st, nil
	}
	if b, ok := rs.(BatchEvolver); ok {
		return b.EvolveAll(st, facts)
	}
	for _, f := range facts {
		next, err := rs.Evolve(st, f)
		if err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
		st = next
	}
	return st, nil
}
