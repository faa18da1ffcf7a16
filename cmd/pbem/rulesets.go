package main

import (
	"fmt"

	"pbem/engine"
	"pbem/engine/gcacw"
	"pbem/engine/hra"
	"pbem/events"
)

// rulesets lists the rule systems this binary offers, explicitly.
func rulesets() []func() engine.Ruleset { return []func() engine.Ruleset{gcacw.New, hra.New} }

// scenarioSource lists and loads a rule system's built-in scenarios.
type scenarioSource struct {
	list func() []string
	get  func(name string) ([]byte, error)
}

func scenarioSources() map[string]scenarioSource {
	return map[string]scenarioSource{
		"gcacw": {list: gcacw.Scenarios, get: gcacw.Scenario},
		"hra":   {list: hra.Scenarios, get: hra.Scenario},
	}
}

// demoGame is a scripted game: a rule system's sample scenario and the
// orders its scripted players send, used by 'pbem bench'.
type demoGame struct {
	ruleset      string
	scenarioName string
	scenario     []byte
	players      []events.Player
	referees     []events.Player
}

func demoScript(ruleset string) (demoGame, error) {
	if ruleset == "hra" {
		scn, err := hra.Scenario("kettle-run")
		if err != nil {
			return demoGame{}, err
		}
		return demoGame{ruleset: "hra", scenarioName: "kettle-run", scenario: scn,
			players: []events.Player{
				{ID: "anna", Name: "Anna", Side: hra.Union, Addresses: []string{"anna@pbem.localhost"}},
				{ID: "taro", Name: "Taro", Side: hra.Confederate, Addresses: []string{"taro@pbem.localhost"}},
			},
			referees: []events.Player{{ID: "ref", Name: "Referee", Addresses: []string{"ref@pbem.localhost"}}},
		}, nil
	}
	if ruleset != "gcacw" {
		return demoGame{}, fmt.Errorf("rule system %q has no demo game", ruleset)
	}
	scn, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		return demoGame{}, err
	}
	return demoGame{ruleset: "gcacw", scenarioName: "harrow-creek", scenario: scn,
		players: []events.Player{
			{ID: "anna", Name: "Anna", Side: "USA", Addresses: []string{"anna@pbem.localhost"}},
			{ID: "taro", Name: "Taro", Side: "CSA", Addresses: []string{"taro@pbem.localhost"}},
		},
		referees: []events.Player{{ID: "ref", Name: "Referee", Addresses: []string{"ref@pbem.localhost"}}},
	}, nil
}
