package main

import (
	"fmt"
	"slices"

	"pbem/engine"
	"pbem/engine/gbacw"
	"pbem/engine/gcacw"
	"pbem/engine/gmb"
	"pbem/engine/hra"
	"pbem/events"
)

// systems lists the rule systems this binary offers, explicitly; each
// says itself what it brings (its ruleset, scenarios and demo game).
func systems() []engine.System {
	return []engine.System{gcacw.System(), hra.System(), gbacw.System(), gmb.System()}
}

// rulesets are the systems' ruleset constructors, for the registry.
func rulesets() []func() engine.Ruleset {
	var out []func() engine.Ruleset
	for _, s := range systems() {
		out = append(out, s.New)
	}
	return out
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

// demoGame is a scripted game: a rule system's sample scenario, its
// players and the orders they send (by player id), used by 'pbem demo'
// and 'pbem bench'.
type demoGame struct {
	ruleset      string
	scenarioName string
	scenario     []byte
	players      []events.Player
	referees     []events.Player
	orders       map[string][]string
}

// demoScriptAlone is demoScript without a referee, on the system's
// scenario for that (GCACW: Harrow Creek as shipped, whose house rules
// play what the seed leaves out).
func demoScriptAlone(ruleset string) (demoGame, error) {
	s, ok := system(ruleset)
	if !ok || s.Demo.Alone == "" {
		return demoGame{}, fmt.Errorf("rule system %q has no demo game without a referee", ruleset)
	}
	g, err := demoScript(ruleset)
	if err != nil {
		return demoGame{}, err
	}
	if g.scenario, err = s.Scenario(s.Demo.Alone); err != nil {
		return demoGame{}, err
	}
	g.scenarioName, g.referees = s.Demo.Alone, nil
	return g, nil
}

func demoScript(ruleset string) (demoGame, error) {
	s, ok := system(ruleset)
	if !ok || s.Demo.ScenarioName == "" {
		return demoGame{}, fmt.Errorf("rule system %q has no demo game", ruleset)
	}
	scn, err := s.Scenario(s.Demo.ScenarioName)
	if err != nil {
		return demoGame{}, err
	}
	orders := map[string][]string{}
	for id, os := range s.Demo.Orders {
		orders[id] = slices.Clone(os)
	}
	g := demoGame{ruleset: ruleset, scenarioName: s.Demo.ScenarioName, scenario: scn,
		players: slices.Clone(s.Demo.Players), referees: slices.Clone(s.Demo.Referees), orders: orders}
	// Each at the default domain, as the demo's built-in mail host has it.
	for _, ps := range [][]events.Player{g.players, g.referees} {
		for i := range ps {
			ps[i].Addresses = []string{ps[i].ID + "@" + defaultConfig().Mail.Domain}
		}
	}
	return g, nil
}
