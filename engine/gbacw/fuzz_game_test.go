package gbacw_test

import (
	"testing"

	"pbem/engine/enginetest"
	"pbem/engine/gbacw"
)

// FuzzOrdersThroughAGame: any mail, from either side or the referee, at
// every kind of step of a game of Tanner's Mill (fire and its reactions
// included), is read and decided into orders, facts or problems, never
// an error or a panic.
func FuzzOrdersThroughAGame(f *testing.F) {
	scn, err := gbacw.Scenario("tanners-mill")
	if err != nil {
		f.Fatal(err)
	}
	fighting := enginetest.Orders(append([]string{
		"north", "BEGIN",
		"north", "ORDER Hale's Brigade ATTACK\nORDER Ross's Brigade ATTACK",
		"south", "ORDER Vance's Brigade ATTACK",
	}, activationRounds(3)...)...)
	enginetest.FuzzOrders(f, gbacw.New(), enginetest.FuzzedGame{Scenario: scn, Players: players, Paths: [][]enginetest.Order{fighting},
		Seeds: []string{",", ":", "x: MOVE 9999 0000 -1"}})
}
