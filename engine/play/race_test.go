package play_test

import (
	"pbem/engine"
	"pbem/engine/enginetest"
)

// The runtime is tested on the reference rule system of the acceptance
// suite (enginetest.Race).

type raceState = enginetest.RaceState

func raceRegistry() *engine.Registry { return enginetest.RaceRegistry() }

var racePlayers = enginetest.RacePlayers
