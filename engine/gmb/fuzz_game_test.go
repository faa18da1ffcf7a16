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
