package autoplay

import (
	"fmt"
	"pbem/engine"
	"pbem/events"
	"slices"
)

// Script is a scripted game: a rule system's sample scenario, its
// players and the orders they send (by player id), used by 'pbem demo'
// and 'pbem bench'.
type Script struct {
	Ruleset      string
	ScenarioName string
	Scenario     []byte
	Players      []events.Player
	Referees     []events.Player
	Orders       map[string][]string
	Answers      map[string][]string // engine.Demo's Answers
	Rest         string              // engine.Demo's Rest
	Settings     []events.Setting    // the game's settings (Play's only)
}

// Player is the scripted player of the game s: its orders, answers and
// rest.
func (s Script) Player() *Player {
	ap := NewPlayer(s.Orders).Answering(s.Answers)
	ap.rest = s.Rest
	return ap
}

// DemoScriptAlone is DemoScript without a referee, on the system's
// scenario for that (GCACW: Harrow Creek as shipped, whose house rules
// play what the seed leaves out).
func DemoScriptAlone(s engine.System, domain string) (Script, error) {
	ruleset := s.New().Name()
	if s.Demo.Alone == "" {
		return Script{}, fmt.Errorf("rule system %q has no demo game without a referee", ruleset)
	}
	g, err := DemoScript(s, domain)
	if err != nil {
		return Script{}, err
	}
	if g.Scenario, err = s.Scenario(s.Demo.Alone); err != nil {
		return Script{}, err
	}
	g.ScenarioName, g.Referees = s.Demo.Alone, nil
	return g, nil
}

// DemoScript is the rule system s's demo game, every participant at an
// address of domain.
func DemoScript(s engine.System, domain string) (Script, error) {
	ruleset := s.New().Name()
	if s.Demo.ScenarioName == "" {
		return Script{}, fmt.Errorf("rule system %q has no demo game", ruleset)
	}
	scn, err := s.Scenario(s.Demo.ScenarioName)
	if err != nil {
		return Script{}, err
	}
	orders := map[string][]string{}
	for id, os := range s.Demo.Orders {
		orders[id] = slices.Clone(os)
	}
	answers := map[string][]string{}
	for id, os := range s.Demo.Answers {
		answers[id] = slices.Clone(os)
	}
	g := Script{Ruleset: ruleset, ScenarioName: s.Demo.ScenarioName, Scenario: scn,
		Players: slices.Clone(s.Demo.Players), Referees: slices.Clone(s.Demo.Referees), Orders: orders, Answers: answers, Rest: s.Demo.Rest}
	// Each at domain, as the demo's built-in mail host has it.
	for _, ps := range [][]events.Player{g.Players, g.Referees} {
		for i := range ps {
			ps[i].Addresses = []string{ps[i].ID + "@" + domain}
		}
	}
	return g, nil
}
