package compose_test

import (
	"pbem/engine"
	"pbem/engine/enginetest"
)

// The composer is tested on the reference rule system of the acceptance
// suite (enginetest.Race).

func raceRegistry() *engine.Registry { return enginetest.RaceRegistry() }

var (
	racePlayers  = enginetest.RacePlayers
	raceReferees = enginetest.RaceReferees
)
