package gmb

import (
	"testing"

	"pbem/engine/enginetest"
)

// FuzzOrdersThroughAGame: any mail, from either side or the referee, at
// every kind of step of a game of Hazel Run, setup included, is read and
// decided into orders, facts or problems, never an error or a panic.
func FuzzOrdersThroughAGame(f *testing.F) {
	scn, err := Scenario("hazel-run")
	if err != nil {
		f.Fatal(err)
	}
	enginetest.FuzzOrders(f, New(), enginetest.FuzzedGame{Scenario: scn, Players: testPlayers, Seeds: []string{",", ":"}})
}

// FuzzOrdersThroughABattle is FuzzOrdersThroughAGame on the acceptance
// suite's short battle, whose scripted orders (setup, activations,
// moves, fire, combat and the referee's SETs) are a path to its later
// turns, which the prompts' examples alone do not reach.
func FuzzOrdersThroughABattle(f *testing.F) {
	enginetest.FuzzOrders(f, New(), enginetest.FuzzedGame{Scenario: battleScenario(f), Players: testPlayers,
		Paths: [][]enginetest.Order{enginetest.Orders(battleOrders()...)}, Seeds: []string{",", ":"}})
}
