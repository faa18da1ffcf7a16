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
		Seeds: []string{"ORDER U2 RESERVE\nDONE", "RELEASE U2", "1st Minnesota: MOVE 0809\n    0808 0708", "1st Minnesota: SHOCK 0604 ADVANCE",
			"CHANGE U Div ATTACK", "COORDINATE U Div, C Div", "SET C1a HEX 0110 FACING NNW", "SET TURN 2", ",", ":", "::", "a:b:c", ";;;", "MOVE", "FIRE AT",
			"\t\tDONE", "x: MOVE 9999 0000 -1"}})
}
