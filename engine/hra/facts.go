package hra

import "pbem/engine"

// The facts HRA decides, each kind with its arguments: the rules build a
// fact with m.Emit(kind, field.Arg(v)...) and read it with field.Of(f), so
// a misspelt kind or argument does not compile; the schemas the runtime
// checks every decision's facts against, and the acceptance suite every
// fact of a played game, are made from the same declarations
// (factSet.Schemas). An argument only some emit sites give is optional.

// The kinds of fact, as the log names them.
const (
	kBattleBegun      = "battle.begun"
	kGeneralsRolled   = "generals.rolled"
	kGeneralAssigned  = "general.assigned"
	kGeneralKilled    = "general.killed"
	kGeneralMoved     = "general.moved"
	kSupplyRolled     = "supply.rolled"
	kRoundBegun       = "round.begun"
	kInitiativeRolled = "initiative.rolled"
	kTurnPassed       = "turn.passed"
	kPhaseFire        = "phase.fire"
	kUnitMoved        = "unit.moved"
	kUnitOrdered      = "unit.ordered"
	// field "state" has from, to and cause; "pending" has work alone;
	// "busy" has to and work; the others have to.
	kUnitSet         = "unit.set"
	kBrigadeOrdered  = "brigade.ordered"
	kMeleeBegun      = "melee.begun"
	kMeleeEnded      = "melee.ended"
	kVolleysDeclared = "volleys.declared"
	kPicksStated     = "picks.stated"
	kVolleyFired     = "volley.fired"
	kMoraleTested    = "morale.tested"
	// The referee's SET: a unit's field (from/to, x/y for pos, work
	// for busy), a brigade's general (to, or word for with) or the
	// game's round (from/to) or initiative (word).
	kRefereeSet  = "referee.set"
	kBattleEnded = "battle.ended"

	// Kinds of older versions, read from their logs and decided no more.
	kNote          = "note"
	kGeneralRolled = "general.rolled" // version 0.3 and before
	kGeneralSet    = "general.set"
	kInitiativeSet = "initiative.set"
)

// factSet holds every kind of fact HRA decides; the fields are the
// arguments the kinds carry, each with its type, built with Arg and read
// with Of.
var (
	factSet = engine.NewFactSet("hra")

	aAttacker    = factSet.Str("attacker")
	aAuto        = factSet.Bool("auto")
	aBrigade     = factSet.Str("brigade")
	aCause       = factSet.Str("cause")
	aColumn      = factSet.Bool("column")
	aConfederate = factSet.Int("confederate")
	aCost        = factSet.Int("cost")
	aDefender    = factSet.Str("defender")
	aDice        = factSet.Ints("dice")
	aDie         = factSet.Int("die")
	aFacing      = factSet.Int("facing")
	aField       = factSet.Str("field")
	aFirer       = factSet.Str("firer")
	aFirers      = factSet.Strs("firers")
	aFlank       = factSet.Bool("flank")
	aForced      = factSet.Bool("forced")
	aFrom        = factSet.Int("from")
	aGeneral     = factSet.Int("general")
	aHindered    = factSet.Bool("hindered")
	aKind        = factSet.Str("kind")
	aLoss        = factSet.Int("loss")
	aLosses      = factSet.Int("losses")
	aMod         = factSet.Int("mod")
	aOrder       = factSet.Str("order")
	aRange       = factSet.Str("range")
	aReason      = factSet.Str("reason")
	aResult      = factSet.Str("result")
	aRound       = factSet.Int("round")
	aSide        = factSet.Str("side")
	aState       = factSet.Int("state")
	aStateMod    = factSet.Int("state_mod")
	aStatus      = factSet.Int("status")
	aStatuses    = factSet.Ints("statuses")
	aSupply      = factSet.Int("supply")
	aTarget      = factSet.Str("target")
	aTargets     = factSet.Strs("targets")
	aTo          = factSet.Int("to")
	aToStr       = factSet.Str("to")
	aTotal       = factSet.Int("total")
	aUnion       = factSet.Int("union")
	aUnit        = factSet.Str("unit")
	aUnits       = factSet.Strs("units")
	aWeapon      = factSet.Str("weapon")
	aWhat        = factSet.Str("what")
	aWinner      = factSet.Str("winner")
	aWord        = factSet.Str("word")
	aWork        = factSet.Str("work")
	aX           = factSet.Int("x")
	aY           = factSet.Int("y")
)

// Each kind with its arguments, in the order its facts carry them;
// engine.Opt marks one that some facts of the kind leave out.
var _ = []string{
	factSet.Kind(kBattleBegun),
	factSet.Kind(kGeneralsRolled, aSide, aDice, aStatuses),
	factSet.Kind(kGeneralAssigned, aBrigade, aStatus),
	factSet.Kind(kGeneralKilled, aBrigade),
	factSet.Kind(kGeneralMoved, aBrigade, aUnit),
	factSet.Kind(kSupplyRolled, aUnit, aDie, aSupply),
	factSet.Kind(kRoundBegun, aRound),
	factSet.Kind(kInitiativeRolled, aUnion, aConfederate, aSide),
	factSet.Kind(kTurnPassed, aToStr),
	factSet.Kind(kPhaseFire),
	factSet.Kind(kUnitMoved, aUnit, aX, aY, aFacing, aColumn, aCost, engine.Opt(aForced)),
	factSet.Kind(kUnitOrdered, aUnit, aOrder),
	// field "state" has from, to and cause; "pending" has work alone;
	// "busy" has to and work; the others have to.
	factSet.Kind(kUnitSet, aUnit, aField, engine.Opt(aFrom), engine.Opt(aTo), engine.Opt(aCause), engine.Opt(aWork)),
	factSet.Kind(kBrigadeOrdered, aBrigade),
	factSet.Kind(kMeleeBegun, aAttacker, aDefender),
	factSet.Kind(kMeleeEnded, aAttacker, aDefender),
	factSet.Kind(kVolleysDeclared, aSide, aFirers, aTargets, engine.Opt(aAuto)),
	factSet.Kind(kPicksStated, aSide, aWhat, aUnits),
	factSet.Kind(kVolleyFired, aFirer, aTarget, aKind, aWeapon, aRange, aHindered, aState, aDie, aMod, aLoss, aFlank),
	// morale.tested names each HRA 12d modifier that applies (general,
	// state_mod, and losses over the general's status); a fact from
	// before 0.4.1 carries their sum alone.
	factSet.Kind(kMoraleTested, aUnit, aDie, aMod, aTotal, aResult, engine.Opt(aGeneral), engine.Opt(aStateMod), engine.Opt(aLosses), engine.Opt(aStatus)),
	// The referee's SET: a unit's field (from/to, x/y for pos, work
	// for busy), a brigade's general (to, or word for with) or the
	// game's round (from/to) or initiative (word).
	factSet.Kind(kRefereeSet, engine.Opt(aUnit), engine.Opt(aBrigade), aField, engine.Opt(aFrom), engine.Opt(aTo), engine.Opt(aWord), engine.Opt(aX), engine.Opt(aY), engine.Opt(aWork)),
	factSet.Kind(kBattleEnded, aWinner, aReason, aUnion, aConfederate),

	// Older versions' kinds, with the arguments the rules read of them.
	factSet.Legacy(kNote),
	factSet.Legacy(kGeneralRolled, aBrigade, aDie, aStatus),
	factSet.Legacy(kGeneralSet, aBrigade, aStatus),
	factSet.Legacy(kInitiativeSet, aSide),
}
