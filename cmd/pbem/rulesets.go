package main

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// rulesets lists the rule systems this binary offers, explicitly.
func rulesets() []func() engine.Ruleset { return nil }

// scenarioSource lists and loads a rule system's built-in scenarios.
type scenarioSource struct {
	list func() []string
	get  func(name string) ([]byte, error)
}

func scenarioSources() map[string]scenarioSource { return map[string]scenarioSource{} }

// demoGame is a scripted game: a rule system's sample scenario and the
// orders its scripted players send, used by 'pbem demo' and 'pbem bench'.
type demoGame struct {
	ruleset      string
	scenarioName string
	scenario     []byte
	players      []events.Player
	orders       []demoOrder
}

type demoOrder struct{ player, text string }

func demoScript(ruleset string) (demoGame, error) {
	return demoGame{}, fmt.Errorf("rule system %q has no demo game", ruleset)
}
