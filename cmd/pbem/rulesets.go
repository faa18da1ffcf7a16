package main

import (
	"fmt"
	"slices"

	"pbem/autoplay"
	"pbem/engine"
	"pbem/engine/gbacw"
	"pbem/engine/gcacw"
	"pbem/engine/gmb"
	"pbem/engine/hra"
)

// systems lists the rule systems this binary offers, explicitly; each
// says itself what it brings (its ruleset, scenarios and demo game).
func systems() []engine.System {
	return []engine.System{gcacw.System(), hra.System(), gbacw.System(), gmb.System()}
}

// rulesetSides lists a rule system's sides, as its demo game seats them
// (a player each): a game needs a player for every one.
func rulesetSides(name string) []string {
	s, ok := system(name)
	if !ok {
		return nil
	}
	var sides []string
	for _, p := range s.Demo.Players {
		if p.Side != "" && !slices.Contains(sides, p.Side) {
			sides = append(sides, p.Side)
		}
	}
	return sides
}

// system returns the rule system of a name.
func system(name string) (engine.System, bool) {
	for _, s := range systems() {
		if s.New().Name() == name {
			return s, true
		}
	}
	return engine.System{}, false
}

// demoScript is a rule system's demo game, its players at the default
// mail domain (as the demo's built-in mail host has it).
func demoScript(ruleset string) (autoplay.Script, error) {
	s, ok := system(ruleset)
	if !ok {
		return autoplay.Script{}, fmt.Errorf("rule system %q has no demo game", ruleset)
	}
	return autoplay.DemoScript(s, defaultConfig().Mail.Domain)
}

// demoScriptAlone is demoScript without a referee (see
// autoplay.DemoScriptAlone).
func demoScriptAlone(ruleset string) (autoplay.Script, error) {
	s, ok := system(ruleset)
	if !ok {
		return autoplay.Script{}, fmt.Errorf("rule system %q has no demo game without a referee", ruleset)
	}
	return autoplay.DemoScriptAlone(s, defaultConfig().Mail.Domain)
}

// builtinScenario reads a rule system's built-in scenario: where a
// campaign's battle is fought out (play.Links).
func builtinScenario(name, scenario string) ([]byte, error) {
	s, ok := system(name)
	if !ok {
		return nil, fmt.Errorf("no rule system %q", name)
	}
	return s.Scenario(scenario)
}
