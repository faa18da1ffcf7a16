package hra_test

import (
	"testing"

	"pbem/engine/enginetest"
	"pbem/engine/hra"
)

// FuzzOrdersThroughAGame: any mail, from either side or the referee, at
// every kind of step of a game of Kettle Run, is read and decided into
// orders, facts or problems, never an error or a panic.
func FuzzOrdersThroughAGame(f *testing.F) {
	scn, err := hra.Scenario("kettle-run")
	if err != nil {
		f.Fatal(err)
	}
	enginetest.FuzzOrders(f, hra.New(), enginetest.FuzzedGame{Scenario: scn, Players: players, Seeds: []string{"I:MOV 70 0", ",", ":"}})
}
