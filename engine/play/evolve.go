package play

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// The three hooks below (BatchEvolver, OwnedEvolver, InertFacter) serve
// the runtime's replay speed, not the rules: a rule system gives them as
// engine.Extras and never sees these interfaces; the adapted Ruleset
// (engine.Adapt) has their methods, and the runtime asks for them here.
// enginetest checks each against Evolve.

// BatchEvolver is an optional Ruleset method. EvolveAll applies a
// decision's facts in order and returns the state after the last one; it
// must give exactly the state Evolve gives applied fact by fact, and like
// Evolve it never changes its input and keeps nothing of the facts but
// strings (enginetest checks all three). A ruleset
// implements it when copying its state once per decision rather than once
// per fact makes replay faster.
type BatchEvolver interface {
	EvolveAll(s engine.State, facts []events.Fact) (engine.State, error)
}

// EvolveAll applies facts to st, through the ruleset's EvolveAll when it
// has one.
func EvolveAll(rs engine.Ruleset, st engine.State, facts []events.Fact) (engine.State, error) {
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

// OwnedEvolver is an optional Ruleset method for a fold of a log.
// EvolveOwned applies a decision's facts as EvolveAll does and gives the
// same state, but it may change s itself and return it: the caller
// promises that s is its own, a state an earlier EvolveAll or
// EvolveOwned returned to it that no one else has seen and that it will
// not use again. A replay keeps only the last state of its fold, so with
// it the state is copied part by part as the fold first changes each
// part, rather than once per decision. What s shares with earlier states
// (the parts no fact of the fold has changed yet) must stay as it is, as
// EvolveAll leaves its input (enginetest checks), and the ruleset's
// EvolveAll must return a new state each time, never its input. On an
// error s may be half changed: the caller drops it.
type OwnedEvolver interface {
	EvolveOwned(s engine.State, facts []events.Fact) (engine.State, error)
}

// EvolveOwned applies facts to st, which the caller owns (see
// OwnedEvolver), through the ruleset's EvolveOwned when it has one and
// EvolveAll otherwise.
func EvolveOwned(rs engine.Ruleset, st engine.State, facts []events.Fact) (engine.State, error) {
	if len(facts) == 0 {
		return st, nil
	}
	if o, ok := rs.(OwnedEvolver); ok {
		return o.EvolveOwned(st, facts)
	}
	return EvolveAll(rs, st, facts)
}

// InertFacter is an optional Ruleset method. InertFacts are the kinds of
// fact that Evolve applies by leaving the state as it is: records of what
// happened, kept for the log, the audit and the players' mails (a fire's
// roll and result, when the facts that follow carry what it changed). A
// fold then checks their bytes but does not decode or evolve them.
// enginetest checks that Evolve leaves the state as it is for every one
// of them in its logs. The runtime's own facts (engine.GameFactPrefix) are never
// inert.
type InertFacter interface {
	InertFacts() []string
}

// InertFacts are rs's inert kinds of fact (none if it does not say).
func InertFacts(rs engine.Ruleset) []string {
	in, ok := rs.(InertFacter)
	if !ok {
		return nil
	}
	var out []string
	for _, k := range in.InertFacts() {
		if !strings.HasPrefix(k, engine.GameFactPrefix) {
			out = append(out, k)
		}
	}
	return out
}
