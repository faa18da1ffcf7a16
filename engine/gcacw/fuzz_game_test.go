package gcacw_test

import (
	"testing"

	"pbem/engine/enginetest"
	"pbem/engine/gcacw"
)

// FuzzOrdersThroughAGame: any mail, from either side or the referee, at
// every kind of step of a game of Harrow Creek with its house rules
// (assaults resolved by the SAMPLE combat table included), is read and
// decided into orders, facts or problems, never an error or a panic.
func FuzzOrdersThroughAGame(f *testing.F) {
	scn, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		f.Fatal(err)
	}
	enginetest.FuzzOrders(f, gcacw.New(), enginetest.FuzzedGame{Scenario: scn, Players: players, Paths: [][]enginetest.Order{assaultOrders()},
		Seeds: []string{"MARCH Orne 1407 1307 FORCE IF MA < 4", "ACTIVATE Brand:\n  Orne 1407\n  Pask 1509", ",", ":"}})
}

// FuzzOrdersThroughARefereedGame is FuzzOrdersThroughAGame where the
// referee rules what the rules leave out (each assault among them).
func FuzzOrdersThroughARefereedGame(f *testing.F) {
	scn, err := gcacw.Scenario("harrow-creek")
	if err != nil {
		f.Fatal(err)
	}
	enginetest.FuzzOrders(f, gcacw.New(), enginetest.FuzzedGame{Scenario: gcacw.Refereed(scn), Players: players, Paths: [][]enginetest.Order{assaultOrders()},
		Seeds: []string{"RULE EXTENDED MARCH Orne D", "QUEUE MARCH Orne 1407", "CANCEL 1", "TRANSFER Brand TO Pask", "MARCH Orne 1407 STOP AT",
			"FORCE IF MA <", "\"", "MARCH \"Orne", ";;;", "TAKE TAKE", "SET Orne HEX 1307\nSET Orne FATIGUE 2", "SET Vane STRENGTH 0",
			"SET Vane ELIMINATED\nSET Vane STRENGTH 2", "SET Brand HEX 1508", "SET Brand WITH Pask", "SET TURN 2", "SET PHASE action-cycle\nSET STAGE act",
			"SET Orne MARCHED NO", "SET HOLDER none", ",", ":"}})
}
