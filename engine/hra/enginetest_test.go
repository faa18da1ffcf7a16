package hra_test

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/hra"
	"pbem/events"
)

var players = []events.Player{
	{ID: "north", Name: "Anna", Side: hra.Union, Addresses: []string{"anna@example.org"}},
	{ID: "south", Name: "Taro", Side: hra.Confederate, Addresses: []string{"taro@example.jp"}},
}

var referees = []events.Player{{ID: "ref", Name: "Ref", Addresses: []string{"ref@example.org"}}}

// playByPrompts builds a script that answers each prompt with its first
// example until the game is over, by deciding locally with the same seed
// is not possible; so it plays the script through enginetest.Play itself.
func TestEngineAcceptance(t *testing.T) {
	reg := engine.NewRegistry(hra.New)
	scn, err := hra.Scenario("kettle-run")
	if err != nil {
		t.Fatal(err)
	}
	opening := enginetest.Script{
		Name: "opening", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scn, Players: players,
		Orders: enginetest.Orders(
			"south", "Stonewall Brigade: ADVANCE 4", // rejected: not begun
			"north", "BEGIN",
			"north", "HELP",
			"north", "GENERALS Iron Brigade, Buford's Horse",
			"south", "GENERALS Stonewall Brigade, Stuart's Horse",
			"north", "Iron Brigad: ADVANCE 40", // rejected: too far
			"south", "Nobody: HOLD", // rejected: unknown name
		),
	}
	// The referee's part: a correction, then a rollback of two actions,
	// then play on; the suite checks fold, snapshots and re-decisions
	// across both.
	refereed := enginetest.Script{
		Name: "refereed", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scn, Players: players, Referees: referees,
		Orders: enginetest.Orders(
			"north", "BEGIN",
			"north", "GENERALS Iron Brigade, Buford's Horse", // HRA 3c: the players assign them
			"south", "GENERALS Stuart's Horse, Stonewall Brigade",
			"north", "RETREAT ORDER 6th Wisconsin, 2nd Wisconsin", // kept in the state (4.I.b)
			"north", "Iron Brigade: ADVANCE 4",
			"south", "Stonewall Brigade: ADVANCE 4",
			"ref", "SET Iron Brigade SUPPLY 2",
			"north", "Buford's Horse: HOLD",
			"ref", "ROLLBACK 2 ACTIONS",
			"north", "Buford's Horse: HOLD",
			"south", "Stuart's Horse: HOLD",
		),
	}
	rp := enginetest.Run(t, reg, refereed)[0]
	var rolledBack, set, retreatOrder bool
	for _, d := range rp.Decisions() {
		if a, ok := d.(*events.OrderAccepted); ok && len(a.Echo) > 0 {
			retreatOrder = retreatOrder || strings.Contains(a.Echo[0], "forced moves in this order")
			rolledBack = rolledBack || strings.HasPrefix(a.Echo[0], "ROLLBACK to seq")
			set = set || (strings.HasPrefix(a.Echo[0], "SET ") && strings.Contains(a.Echo[0], " supply "))
		}
	}
	if !retreatOrder {
		t.Error("the RETREAT ORDER was not taken: the suite does not see a list the state keeps")
	}
	if !rolledBack || !set || len(rp.Game.Branches) != 1 {
		t.Errorf("the referee's SET (%v) or rollback (%v) was not taken: branches %+v", set, rolledBack, rp.Game.Branches)
	}
	played := enginetest.Run(t, reg, opening)
	p := played[0]
	var rejected int
	for _, d := range p.Decisions() {
		if _, ok := d.(*events.OrderRejected); ok {
			rejected++
		}
	}
	if rejected < 2 {
		t.Errorf("opening: %d orders rejected, want at least 2", rejected)
	}
	// A whole game by robust mails: each block offers every brigade an
	// order and both sides a fire declaration; what is out of turn is
	// rejected, the rest moves the game on, whatever the dice.
	orders := []string{"north", "BEGIN", "north", "GENERALS Iron Brigade, Buford's Horse", "south", "GENERALS Stonewall Brigade, Stuart's Horse"}
	for blk := 0; blk < 12; blk++ {
		inf := "HOLD"
		if blk < 3 {
			inf = "ADVANCE 4"
		}
		orders = append(orders,
			"north", "Iron Brigade: "+inf,
			"south", "Stonewall Brigade: "+inf,
			"north", "Buford's Horse: HOLD",
			"south", "Stuart's Horse: HOLD",
			"north", "Iron Brigade: HOLD",
			"south", "Stonewall Brigade: HOLD",
			"north", "FIRE NONE",
			"south", "FIRE NONE")
	}
	whole := enginetest.Script{Name: "whole-game", Ruleset: "hra", ScenarioName: "kettle-run", Scenario: scn, Players: players,
		Orders: enginetest.Orders(orders...)}
	wp := enginetest.Run(t, reg, whole)[0]
	g := wp.Game
	if testing.Verbose() {
		for _, d := range wp.Decisions() {
			if r, ok := d.(*events.OrderRejected); ok {
				t.Logf("rejected: %s", r.Problems[0].Msg)
			}
		}
		t.Logf("%s", g.Rules.Render(g.Rules.View(g.State, engine.Viewer{Referee: true})).Window)
	}
	if out := g.Rules.Outcome(g.State); !out.Over || !strings.Contains(out.Reason, "victory points") {
		t.Errorf("the whole game did not end: %+v", out)
	}
}
