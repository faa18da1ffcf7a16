package gbacw_test

import (
	"testing"

	"pbem/engine/enginetest"
	"pbem/engine/gbacw"
)

// FuzzOrdersThroughAGame: any mail, from either side or the referee, at
// every kind of step of a game of Tanner's Mill, is read and decided
// into orders, facts or problems, never an error or a panic.
func FuzzOrdersThroughAGame(f *testing.F) {
	scn, err := gbacw.Scenario("tanners-mill")
	if err != nil {
		f.Fatal(err)
	}
	enginetest.FuzzOrders(f, gbacw.New(), scn, players, ",", ":", "x: MOVE 9999 0000 -1")
}
