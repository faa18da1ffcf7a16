package engine

import (
	"errors"
	"fmt"

	"pbem/events"
)

// System is a rule system as a binary offers it, registered by the rule
// system itself (gcacw.System, hra.System): how to make its ruleset, its
// built-in scenarios, and its demo game. The binary lists its systems
// explicitly; nothing registers itself behind its back.
type System struct {
	New func() Ruleset
	// Scenarios names the built-in scenarios, sorted; Scenario reads one.
	Scenarios func() []string
	Scenario  func(name string) ([]byte, error)
	// Demo is the system's scripted game, played by pbem demo and
	// measured by pbem bench.
	Demo Demo
}

// Demo is a rule system's scripted game: a built-in scenario, its
// players and referees (ids, names and sides; the binary gives them
// addresses), and each participant's scripted orders, by participant id
// (sides may share names across systems; ids are the demo's own). A
// scripted participant sends its next scripted order when what it is asked
// takes it (its first word is among the prompt's examples), else the
// prompt's first example, so the demo plays a real game whatever the dice.
type Demo struct {
	ScenarioName string
	Players      []events.Player
	Referees     []events.Player
	Orders       map[string][]string
	// Answers are orders a participant sends whenever a mail asks for one
	// of their kind (the same first word), out of the turn of its Orders:
	// a question's answer ("CAVALRY RETREAT 1OH NONE"), used once each.
	Answers map[string][]string
	// Rest is what a participant sends when a mail offers it (its first
	// word among the mail's examples) and the next of their Orders does
	// not fit: what a player who has made the moves he planned answers
	// (GCACW's "PASS" and "QUEUE PASS", so that he is not asked again
	// this turn). "" sends the mail's first example, as before.
	Rest string
	// Alone is the built-in scenario the same players play with no
	// referee ('pbem demo --no-referee'); "" when the system has none.
	Alone string
}

// NewRegistryOf builds a registry from rule systems (NewRegistry with
// each system's constructor) that also knows their built-in scenarios:
// the runtime checks against them that a battle a decision would open
// can open (a campaign's assault fought out in a tactical system).
func NewRegistryOf(systems ...System) *Registry {
	var fs []func() Ruleset
	for _, s := range systems {
		fs = append(fs, s.New)
	}
	r := NewRegistry(fs...)
	r.scenarios = map[string]scenarioShelf{}
	for _, s := range systems {
		if n := s.New().Name(); r.scenarios[n].read == nil && s.Scenario != nil {
			r.scenarios[n] = scenarioShelf{names: s.Scenarios, read: s.Scenario}
		}
	}
	return r
}

// ErrNoScenarios is Scenario's error for a registry that knows no rule
// system's scenarios (built by NewRegistry, not NewRegistryOf).
var ErrNoScenarios = errors.New("this registry knows no built-in scenarios")

// HasScenarios reports whether the registry knows its rule systems'
// built-in scenarios (NewRegistryOf).
func (r *Registry) HasScenarios() bool { return r != nil && r.scenarios != nil }

// Scenario reads a rule system's built-in scenario.
func (r *Registry) Scenario(system, name string) ([]byte, error) {
	if !r.HasScenarios() {
		return nil, ErrNoScenarios
	}
	s, ok := r.scenarios[system]
	if !ok {
		return nil, fmt.Errorf("unknown rule system %q (known: %v)", system, r.Names())
	}
	return s.read(name)
}

// ScenarioNames names a rule system's built-in scenarios, sorted (none
// when the registry does not know them).
func (r *Registry) ScenarioNames(system string) []string {
	if !r.HasScenarios() || r.scenarios[system].names == nil {
		return nil
	}
	return r.scenarios[system].names()
}
