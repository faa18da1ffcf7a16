package gcacw

import "pbem/engine"

// The facts GCACW decides, each kind with its arguments: the rules build
// a fact with m.Emit(kind, field.Arg(v)...) and read it with field.Of(f),
// so a misspelt kind or argument does not compile; the schemas the
// runtime checks every decision's facts against, and the acceptance suite
// every fact of a played game, are made from the same declarations
// (factSet.Schemas). An argument only some emit sites give is optional. A
// roll of one die is "die", of two "dice" (diceArg).

// The kinds of fact, as the log names them.
const (
	// The turn sequence (GCACW 3, 4).
	kTurnBegun            = "turn.begun"
	kRandomEventRolled    = "random_event.rolled"
	kLeaderTransferred    = "leader.transferred"
	kLeaderRemoved        = "leader.removed"
	kTransferDone         = "transfer.done"
	kCycleBegun           = "cycle.begun"
	kActionPhaseBegun     = "action_phase.begun"
	kInitiativeAutomatic  = "initiative.automatic"
	kInitiativeRolled     = "initiative.rolled"
	kInitiativeTied       = "initiative.tied"
	kInitiativeTieRuled   = "initiative.tie_ruled"
	kInitiativeRecorded   = "initiative.recorded"
	kInitiativeTaken      = "initiative.taken"
	kInitiativePassed     = "initiative.passed"
	kActionEnded          = "action.ended"
	kCycleEnded           = "cycle.ended"
	kReorganizationRolled = "reorganization.rolled"
	kReorganizationEnded  = "reorganization.ended"
	kTurnEnded            = "turn.ended"
	kVictoryCounted       = "victory.counted"
	kVictoryWeighed       = "victory.weighed" // the conditions the referee weighed (R24)
	kGameEnded            = "game.ended"
	// The queue (docs/ORDERS.md).
	kQueueAdded     = "queue.added"
	kQueueCancelled = "queue.cancelled"
	kQueueUsed      = "queue.used"
	kQueueDropped   = "queue.dropped"
	// A march (GCACW 5.1): by its own roll, or with an activating
	// leader's MA (leader, no dice).
	kMarchBegun          = "march.begun"
	kUnitFatigueRaised   = "unit.fatigue_raised"
	kExtendedMarchRolled = "extended_march.rolled"
	// By the table: drm, roll, column (and drms, if any); by the
	// referee: die and result alone.
	kExtendedMarchResolved = "extended_march.resolved"
	kUnitDisorganized      = "unit.disorganized"
	kUnitOrganized         = "unit.organized"
	kUnitExhausted         = "unit.exhausted"
	kUnitRested            = "unit.rested"
	kUnitFatigueSet        = "unit.fatigue_set"
	kStrengthLost          = "strength.lost"
	kStrengthSet           = "strength.set"
	kUnitEliminated        = "unit.eliminated"
	kForceMarchSkipped     = "force_march.skipped"
	kUnitForceMarched      = "unit.force_marched"
	kUnitMarched           = "unit.marched"
	kUnitPlaced            = "unit.placed"
	// The Cavalry Retreat (GCACW 5.1.2) and standing orders.
	kStandingSet            = "standing.set"
	kCavalryRetreatAsked    = "cavalry_retreat.asked"
	kCavalryRetreatProposed = "cavalry_retreat.proposed"
	kCavalryRetreatDone     = "cavalry_retreat.done"
	kCavalryRetreated       = "cavalry.retreated"
	kCavalryStayed          = "cavalry.stayed"
	kAttacksRuled           = "attacks.ruled"
	// A Leader Activation (GCACW 5.2).
	kLeaderActivated   = "leader.activated"
	kLeaderMaRolled    = "leader.ma_rolled"
	kActivationSkipped = "activation.skipped"
	kActivationEnded   = "activation.ended"
	// UNDO (undo.go).
	kUndoPoint   = "undo.point"
	kUndoCleared = "undo.cleared"
	kOrderUndone = "order.undone"
	// The referee: a correction (set.go), a step handed over, a ruling.
	kSet            = "set"
	kRefereePending = "referee.pending"
	kRefereeRuled   = "referee.ruled"
)

// factSet holds every kind of fact GCACW decides; the fields are the
// arguments the kinds carry, each with its type, built with Arg and read
// with Of.
var (
	factSet = engine.NewFactSet("gcacw")

	aAllowed   = factSet.Bool("allowed")
	aBy        = factSet.Str("by")
	aClass     = factSet.Str("class")
	aColumn    = factSet.Str("column")
	aCsa       = factSet.Int("csa")
	aDetail    = factSet.Strs("detail")
	aDice      = factSet.Ints("dice")
	aDie       = factSet.Int("die")
	aDrm       = factSet.Int("drm")
	aDrms      = factSet.Strs("drms")
	aEvent     = factSet.Str("event")
	aExtended  = factSet.Bool("extended")
	aFatigue   = factSet.Int("fatigue")
	aField     = factSet.Str("field")
	aFrom      = factSet.Str("from")
	aFromInt   = factSet.Int("from")
	aHex       = factSet.Str("hex")
	aLeader    = factSet.Str("leader")
	aLeft      = factSet.Int("left")
	aLimit     = factSet.Str("limit")
	aMa        = factSet.Int("ma")
	aManpower  = factSet.Int("manpower")
	aMp        = factSet.Int("mp")
	aN         = factSet.Int("n")
	aNew       = factSet.Str("new")
	aNote      = factSet.Str("note")
	aOld       = factSet.Str("old")
	aOn        = factSet.Str("on")
	aOpt       = factSet.Bool("opt")
	aOrder     = factSet.Str("order")
	aOrganized = factSet.Bool("organized")
	aOther     = factSet.Int("other")
	aPath      = factSet.Strs("path")
	aPlan      = factSet.Str("plan")
	aPlans     = factSet.Strs("plans")
	aReason    = factSet.Str("reason")
	aResult    = factSet.Str("result")
	aRetreats  = factSet.Int("retreats")
	aRoll      = factSet.Int("roll")
	aRule      = factSet.Str("rule")
	aSide      = factSet.Str("side")
	aStep      = factSet.Str("step")
	aStopped   = factSet.Str("stopped")
	aTarget    = factSet.Str("target")
	aTie       = factSet.Bool("tie")
	aTo        = factSet.Str("to")
	aTurn      = factSet.Int("turn")
	aUnit      = factSet.Str("unit")
	aUnits     = factSet.Strs("units")
	aUsa       = factSet.Int("usa")
	aWhen      = factSet.Str("when")
	aWinner    = factSet.Str("winner")
	aWish      = factSet.Strs("wish")
)

// Each kind with its arguments, in the order its facts carry them;
// engine.Opt marks one that some facts of the kind leave out.
var _ = []string{
	// The turn sequence (GCACW 3, 4).
	factSet.Kind(kTurnBegun, aTurn),
	factSet.Kind(kRandomEventRolled, aTurn, aRoll, aDice, engine.Opt(aEvent)),
	factSet.Kind(kLeaderTransferred, aLeader, aFrom, aTo, engine.Opt(aBy)),
	factSet.Kind(kLeaderRemoved, aLeader, aReason),
	factSet.Kind(kTransferDone, aSide),
	factSet.Kind(kCycleBegun, aTurn),
	factSet.Kind(kActionPhaseBegun, aN),
	factSet.Kind(kInitiativeAutomatic, aSide, aReason),
	factSet.Kind(kInitiativeRolled, aSide, aDie, aOther, engine.Opt(aTie), engine.Opt(aRule)),
	factSet.Kind(kInitiativeTied, aDie),
	factSet.Kind(kInitiativeTieRuled, aSide),
	factSet.Kind(kInitiativeRecorded, aSide, aDie),
	factSet.Kind(kInitiativeTaken, aSide),
	factSet.Kind(kInitiativePassed, aSide, engine.Opt(aReason)),
	factSet.Kind(kActionEnded, aSide),
	factSet.Kind(kCycleEnded, aReason),
	factSet.Kind(kReorganizationRolled, aUnit, aDie, aOn, aOrganized),
	factSet.Kind(kReorganizationEnded, aTurn),
	factSet.Kind(kTurnEnded, aTurn),
	factSet.Kind(kVictoryCounted, aUsa, aCsa, aDetail),
	factSet.Kind(kVictoryWeighed, aUsa, aCsa, aDetail),
	factSet.Kind(kGameEnded, aWinner, aReason),
	// The queue (docs/ORDERS.md).
	factSet.Kind(kQueueAdded, aSide, aN, aOrder),
	factSet.Kind(kQueueCancelled, aSide, aN),
	factSet.Kind(kQueueUsed, aSide, aN, aOrder),
	factSet.Kind(kQueueDropped, aSide, aN, aReason),
	// A march (GCACW 5.1): by its own roll, or with an activating
	// leader's MA (leader, no dice).
	factSet.Kind(kMarchBegun, aUnit, aSide, aMa, aPlan, aOpt, engine.Opt(aLeader), engine.Opt(aDie), engine.Opt(aDice)),
	factSet.Kind(kUnitFatigueRaised, aUnit, aFromInt, aFatigue, aExtended),
	factSet.Kind(kExtendedMarchRolled, aUnit, aDie),
	// By the table: drm, roll, column (and drms, if any); by the
	// referee: die and result alone.
	factSet.Kind(kExtendedMarchResolved, aUnit, aDie, aResult, aBy, engine.Opt(aDrm), engine.Opt(aRoll), engine.Opt(aColumn), engine.Opt(aDrms)),
	factSet.Kind(kUnitDisorganized, aUnit, aReason),
	factSet.Kind(kUnitOrganized, aUnit, aReason),
	factSet.Kind(kUnitExhausted, aUnit, aBy),
	factSet.Kind(kUnitRested, aUnit, aBy),
	factSet.Kind(kUnitFatigueSet, aUnit, aFatigue, aBy),
	factSet.Kind(kStrengthLost, aUnit, aManpower, aLeft, aReason),
	factSet.Kind(kStrengthSet, aUnit, aLeft, aBy),
	factSet.Kind(kUnitEliminated, aUnit, aReason),
	factSet.Kind(kForceMarchSkipped, aUnit, aReason),
	factSet.Kind(kUnitForceMarched, aUnit, aRoll, aMp, aMa, engine.Opt(aDie), engine.Opt(aDice)),
	factSet.Kind(kUnitMarched, aUnit, aPath, aMp, aMa, aFatigue, aStopped),
	factSet.Kind(kUnitPlaced, aUnit, aHex, aBy),
	// The Cavalry Retreat (GCACW 5.1.2) and standing orders.
	factSet.Kind(kStandingSet, aSide, aUnit, aWhen),
	factSet.Kind(kCavalryRetreatAsked, aSide, aUnit, aUnits, engine.Opt(aWish)),
	factSet.Kind(kCavalryRetreatProposed, aUnit, aPath),
	factSet.Kind(kCavalryRetreatDone, aUnit),
	factSet.Kind(kCavalryRetreated, aUnit, aPath, aBy),
	factSet.Kind(kCavalryStayed, aUnit, aReason),
	factSet.Kind(kAttacksRuled, aAllowed),
	// A Leader Activation (GCACW 5.2).
	factSet.Kind(kLeaderActivated, aLeader, aSide, aUnits, aPlans, aLimit),
	factSet.Kind(kLeaderMaRolled, aLeader, aMa, aClass, engine.Opt(aDie), engine.Opt(aDice)),
	factSet.Kind(kActivationSkipped, aUnit, aReason),
	factSet.Kind(kActivationEnded, aLeader),
	// UNDO (undo.go).
	factSet.Kind(kUndoPoint, aSide),
	factSet.Kind(kUndoCleared),
	factSet.Kind(kOrderUndone, aSide),
	// The referee: a correction (set.go), a step handed over, a ruling.
	factSet.Kind(kSet, aTarget, aField, aOld, aNew),
	factSet.Kind(kRefereePending, aStep, aNote, engine.Opt(aUnit), engine.Opt(aLeader), engine.Opt(aUnits), engine.Opt(aDie), engine.Opt(aPath)),
	factSet.Kind(kRefereeRuled, aStep, engine.Opt(aUnit), engine.Opt(aResult), engine.Opt(aHex), engine.Opt(aRetreats)),
}
