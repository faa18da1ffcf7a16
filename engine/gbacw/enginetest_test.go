package gbacw_test

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/gbacw"
	"pbem/events"
	"pbem/mail/compose/composetest"
)

var players = []events.Player{
	{ID: "north", Name: "Anna", Side: gbacw.USA, Addresses: []string{"anna@example.org"}},
	{ID: "south", Name: "Taro", Side: gbacw.CSA, Addresses: []string{"taro@example.jp"}},
}

var referees = []events.Player{{ID: "ref", Name: "Ref", Addresses: []string{"ref@example.org"}}}

// activationRounds are mails that carry the Activation Segment on
// whatever the draws: each side's orders for its divisions (refused when
// it is not that side's AM), then DONE from both.
func activationRounds(n int) []string {
	var out []string
	for range n {
		out = append(out,
			"north", "14th Ohio: FIRE AT 0605",
			"south", "12th Georgia: FIRE AT 0905",
			"north", "4th Pennsylvania Cavalry: MOVE 1009",
			"south", "RETURN FIRE",
			"north", "RETURN FIRE",
			"north", "DONE",
			"south", "DONE",
		)
	}
	return out
}

// The acceptance suite over GBACW, with its secrets: the
// Command Segment's sealed orders, and standing reactions only their
// side reads.
func TestEngineAcceptance(t *testing.T) {
	t.Parallel()
	reg := engine.NewRegistry(gbacw.New)
	scn, err := gbacw.Scenario("tanners-mill")
	if err != nil {
		t.Fatal(err)
	}
	opening := append([]string{
		"south", "STANDING PRE-SHOCK RETREAT ALL IF DISORDERED", // 0: a standing order no shock of the script calls on
		"north", "Hale's Brigade: MOVE 0805", // rejected: not begun
		"north", "BEGIN",
		"north", "ORDER Hale's Brigade ATTACK",
		"south", "ORDER Tate's Brigade ADVANCE", // 4: sealed
		"north", "STANDING", // the list, for the side alone
	}, activationRounds(3)...)
	s := enginetest.Script{Name: "opening", Ruleset: "gbacw", ScenarioName: "tanners-mill", Scenario: scn, Players: players, Referees: referees,
		Orders: enginetest.Orders(append(opening,
			"ref", "SET 21st Indiana SP 4",
			"ref", "ROLLBACK 2 ACTIONS",
			"north", "DONE",
			"south", "DONE")...),
		Secrets: []enginetest.Secret{
			{Name: "another standing order", Side: gbacw.CSA, Orders: map[int]string{0: "STANDING PRE-SHOCK RETREAT ALL NEVER"}},
			{Name: "other command orders", Side: gbacw.CSA, Orders: map[int]string{4: "DONE"}},
		}}
	p := enginetest.Run(t, reg, composetest.New(t), s)[0]
	var sealed, standing, set bool
	for i := range p.Log {
		e := &p.Log[i]
		if !events.IsAccepted(e.Type) {
			continue
		}
		d, _ := events.Decode(e)
		for _, f := range d.(*events.OrderAccepted).Facts {
			sealed = sealed || f.Kind == "pbem.revealed"
			standing = standing || (f.Kind == "standing.set" && !f.Vis.Public())
			set = set || f.Kind == "referee.set"
		}
	}
	if !sealed || !standing || !set {
		t.Errorf("the script did not exercise sealed orders (%v), hidden standing orders (%v) or SET (%v)", sealed, standing, set)
	}
}

// A whole game by prompts' first examples, through the real runner.
func TestEngineAcceptanceWholeGame(t *testing.T) {
	t.Parallel()
	reg := engine.NewRegistry(gbacw.New)
	scn, err := gbacw.Scenario("tanners-mill")
	if err != nil {
		t.Fatal(err)
	}
	var orders []string
	orders = append(orders, "north", "BEGIN")
	for range 3 {
		orders = append(orders,
			"north", "ORDER Hale's Brigade ATTACK\nORDER Ross's Brigade ATTACK",
			"south", "ORDER Vance's Brigade ATTACK")
		orders = append(orders, activationRounds(6)...)
		orders = append(orders, "north", "DONE", "south", "DONE")
	}
	s := enginetest.Script{Name: "whole-game", Ruleset: "gbacw", ScenarioName: "tanners-mill", Scenario: scn, Players: players, Referees: referees,
		Orders: enginetest.Orders(orders...)}
	p := enginetest.Run(t, reg, composetest.New(t), s)[0]
	if testing.Verbose() {
		g := p.Game
		t.Logf("%s", g.Rules.Render(g.Rules.View(g.State, engine.Viewer{Referee: true})).Window)
	}
	if out := p.Game.Rules.Outcome(p.Game.State); !out.Over && !strings.Contains(p.Game.Rules.Render(p.Game.Rules.View(p.Game.State, engine.Viewer{})).Window, "turn 3") {
		t.Errorf("the game did not get to turn 3")
	}
}
