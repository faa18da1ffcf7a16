package gmb

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// The facts GMB decides, each kind with its arguments: the rules build a
// fact with m.Emit(kind, field.Arg(v)...) and read it with field.Of(f), so
// a misspelt kind or argument does not compile; the schemas the runtime
// checks every decision's facts against (engine.Teller's Facts) are made
// from the same declarations (factSet.Schemas). An argument only some
// emit sites give is optional.

// The kinds of fact, as the log names them.
const (
	kTableProposed       = "table.proposed"
	kTableSet            = "table.set"
	kYearProposed        = "year.proposed"
	kYearSet             = "year.set"
	kStepBegun           = "step.begun"
	kTurnPassed          = "turn.passed"
	kGeneralsDrawn       = "generals.drawn"
	kArmyDrawn           = "army.drawn"
	kGeneralRedrawn      = "general.redrawn"
	kGeneralSwapped      = "general.swapped"
	kGeneralDiscarded    = "general.discarded"
	kGeneralAssigned     = "general.assigned"
	kGeneralsDone        = "generals.done"
	kCardsDrawn          = "cards.drawn"
	kCardsDealt          = "cards.dealt"
	kCardsKept           = "cards.kept"
	kHandKept            = "hand.kept"
	kBattlefieldDeclared = "battlefield.declared"
	kMoraleSet           = "morale.set"
	kInitiativeRolled    = "initiative.rolled"
	kInitiativeTied      = "initiative.tied"
	kInitiativeWon       = "initiative.won"
	kListChosen          = "list.chosen"
	kPointsPlaced        = "points.placed"
	kTerrainPlaced       = "terrain.placed"
	kTerrainPassed       = "terrain.passed"
	kBridgePlaced        = "bridge.placed"
	kSpecialDone         = "special.done"
	kTerrainMoved        = "terrain.moved"
	kTerrainSwapped      = "terrain.swapped"
	kFortsGranted        = "forts.granted"
	kFortsDone           = "forts.done"
	kBasePlaced          = "base.placed"
	kTacticChosen        = "tactic.chosen"
	kTacticMade          = "tactic.made"
	kCavalryChosen       = "cavalry.chosen"
	kMarkerPlaced        = "marker.placed"
	kUnitPlaced          = "unit.placed"
	kPatrolDone          = "patrol.done"
	kTurnBegun           = "turn.begun"
	kCorpsSkipped        = "corps.skipped"
	kCorpsActivated      = "corps.activated"
	kCombatResolved      = "combat.resolved"
	kUnitMoved           = "unit.moved"
	kActivationEnded     = "activation.ended"
	kCommandTested       = "command.tested"
	kPassageMade         = "passage.made"
	kCohesionLost        = "cohesion.lost"
	kPassagesDone        = "passages.done"
	kPassagesDeclared    = "passages.declared"
	kUnitForced          = "unit.forced"
	kCardPlayed          = "card.played"
	kRefereeSet          = "referee.set"
	kGeneralReplaced     = "general.replaced"
	kObjectivesSet       = "objectives.set"
	kTacticRevealed      = "tactic.revealed"
	kRewardScored        = "reward.scored"
	kBattleEnded         = "battle.ended"

	// Kinds of older versions, read from their logs and decided no more.
	kObjectivesNoted = "objectives.noted"
	kTurnNoted       = "turn.noted"
)

// factSet holds every kind of fact GMB decides; the fields are the
// arguments the kinds carry, each with its type, built with Arg and read
// with Of.
var (
	factSet = engine.NewFactSet("gmb")

	aA           = factSet.Str("a")
	aAlong       = factSet.Str("along")
	aAmount      = factSet.Int("amount")
	aAside       = factSet.Strs("aside")
	aAt          = factSet.Ints("at")
	aAuto        = factSet.Bool("auto")
	aB           = factSet.Str("b")
	aBattlefield = factSet.Str("battlefield")
	aBonus       = factSet.Int("bonus")
	aBy          = factSet.Str("by")
	aCard        = factSet.Str("card")
	aCards       = factSet.Strs("cards")
	aCorps       = factSet.Str("corps")
	aCorpsStrs   = factSet.Strs("corps")
	aDice        = factSet.Int("dice")
	aDist        = factSet.Int("dist")
	aDone        = factSet.Ints("done")
	aDx          = factSet.Int("dx")
	aDy          = factSet.Int("dy")
	aFacing      = factSet.Int("facing")
	aField       = factSet.Str("field")
	aFlags       = factSet.Strs("flags")
	aForced      = factSet.Bool("forced")
	aForcedInt   = factSet.Int("forced")
	aFormation   = factSet.Str("formation")
	aFormations  = factSet.Strs("formations")
	aGeneral     = factSet.Str("general")
	aGenerals    = factSet.Strs("generals")
	aGroup       = factSet.Str("group")
	aHalf        = factSet.Bool("half")
	aHow         = factSet.Str("how")
	aCause       = factSet.Str("cause")
	aId          = factSet.Str("id")
	aInto        = factSet.Str("into")
	aKept        = factSet.Strs("kept")
	aKind        = factSet.Str("kind")
	aLevel       = factSet.Str("level")
	aList        = factSet.Str("list")
	aN           = factSet.Int("n")
	aNeed        = factSet.Int("need")
	aObject      = factSet.Str("object")
	aObjectives  = factSet.Ints("objectives")
	aOk          = factSet.Bool("ok")
	aOld         = factSet.Str("old")
	aOver        = factSet.Str("over")
	aPaid        = factSet.Str("paid")
	aPath        = factSet.Ints("path")
	aPercent     = factSet.Int("percent")
	aPoly        = factSet.Ints("poly")
	aRange       = factSet.Int("range")
	aReason      = factSet.Str("reason")
	aReturned    = factSet.Strs("returned")
	aUnits       = factSet.Strs("units")
	aReturnedInt = factSet.Int("returned")
	aRoad        = factSet.Bool("road")
	aRoll        = factSet.Str("roll")
	aRule        = factSet.Str("rule")
	aSide        = factSet.Str("side")
	aSize        = factSet.Str("size")
	aStep        = factSet.Str("step")
	aSuccesses   = factSet.Int("successes")
	aTactic      = factSet.Str("tactic")
	aTurn        = factSet.Int("turn")
	aUnit        = factSet.Str("unit")
	aValue       = factSet.Str("value")
	aWhy         = factSet.Str("why")
	aWinner      = factSet.Str("winner")
	aX           = factSet.Int("x")
	aY           = factSet.Int("y")
	aYear        = factSet.Int("year")
)

// Each kind with its arguments, in the order its facts carry them;
// engine.Opt marks one that some facts of the kind leave out.
var _ = []string{
	factSet.Kind(kTableProposed, aSide, aSize),
	factSet.Kind(kTableSet, aSize, aHow),
	factSet.Kind(kYearProposed, aSide, aYear),
	factSet.Kind(kYearSet, aYear, aHow),
	factSet.Kind(kStepBegun, aStep, engine.Opt(aSide), engine.Opt(aN)),
	factSet.Kind(kTurnPassed, aStep, aSide),
	factSet.Kind(kGeneralsDrawn, aSide, aGroup, aFormations, aGenerals, aAside, engine.Opt(aAuto)),
	factSet.Kind(kArmyDrawn, aSide, aBy),
	factSet.Kind(kGeneralRedrawn, aSide, aGroup, aGeneral),
	factSet.Kind(kGeneralSwapped, aSide, aGeneral, aOld),
	factSet.Kind(kGeneralDiscarded, aSide, aGeneral),
	factSet.Kind(kGeneralAssigned, aSide, aGeneral, aFormation),
	factSet.Kind(kGeneralsDone, aSide),
	factSet.Kind(kCardsDrawn, aSide, aCards, aInto),
	factSet.Kind(kCardsDealt, aSide, aN, aInto, aRule),
	factSet.Kind(kCardsKept, aSide, aKept, aReturned),
	factSet.Kind(kHandKept, aSide, aN, aReturnedInt),
	factSet.Kind(kBattlefieldDeclared, aSide, aField, aForced),
	factSet.Kind(kMoraleSet, aSide, aLevel, aWhy),
	factSet.Kind(kInitiativeRolled, aSide, aDice, aSuccesses, aBonus, aForcedInt),
	factSet.Kind(kInitiativeTied, aRoll),
	factSet.Kind(kInitiativeWon, aSide, engine.Opt(aBattlefield)),
	factSet.Kind(kListChosen, aSide, aList),
	factSet.Kind(kPointsPlaced, aAt),
	factSet.Kind(kTerrainPlaced, aId, aKind, aBy, engine.Opt(aPoly), engine.Opt(aPath), engine.Opt(aFlags), engine.Opt(aAlong), engine.Opt(aHalf)),
	factSet.Kind(kTerrainPassed, aSide),
	factSet.Kind(kBridgePlaced, aId, aX, aY, aOver, engine.Opt(aBy)),
	factSet.Kind(kSpecialDone, aSide),
	factSet.Kind(kTerrainMoved, aId, aDx, aDy, aBy),
	factSet.Kind(kTerrainSwapped, aA, aB, aBy),
	factSet.Kind(kFortsGranted, aSide, aN),
	factSet.Kind(kFortsDone, aSide),
	factSet.Kind(kBasePlaced, aSide, aPoly),
	factSet.Kind(kTacticChosen, aSide, aTactic),
	factSet.Kind(kTacticMade, aSide),
	factSet.Kind(kCavalryChosen, aSide, aTactic),
	factSet.Kind(kMarkerPlaced, aSide, aCorps, aX, aY),
	factSet.Kind(kUnitPlaced, aUnit, aX, aY, aFacing),
	factSet.Kind(kPatrolDone, aSide),
	factSet.Kind(kTurnBegun, aTurn),
	factSet.Kind(kCorpsSkipped, aSide, aCorpsStrs),
	factSet.Kind(kCorpsActivated, aSide, aCorps),
	factSet.Kind(kCombatResolved, aCorps),
	factSet.Kind(kUnitMoved, aUnit, aX, aY, aFacing, aDist, aRange, engine.Opt(aPaid), engine.Opt(aRoad)),
	factSet.Kind(kActivationEnded, aSide, aCorps),
	factSet.Kind(kCommandTested, aGeneral, aDice, aNeed, aSuccesses),
	factSet.Kind(kPassageMade, aA, aB, aOk),
	factSet.Kind(kCohesionLost, aUnit, aN),
	factSet.Kind(kPassagesDone, aSide),
	factSet.Kind(kPassagesDeclared, aSide, aUnits),
	factSet.Kind(kUnitForced, aUnit, aX, aY, aDist, aHow, engine.Opt(aCause)),
	factSet.Kind(kCardPlayed, aSide, aCard),
	factSet.Kind(kRefereeSet, aObject, aField, aValue, aOld),
	factSet.Kind(kGeneralReplaced, aSide, aGeneral, aOld),
	factSet.Kind(kObjectivesSet, aSide, aDone),
	factSet.Kind(kTacticRevealed, aSide, aTactic),
	factSet.Kind(kRewardScored, aSide, aObjectives, aPercent, aAmount),
	factSet.Kind(kBattleEnded, aWinner, aReason),

	// Older versions' kinds; the rules read nothing of them.
	factSet.Legacy(kObjectivesNoted),
	factSet.Legacy(kTurnNoted),
}

// tableWords tells a table size as players say it: 48x48 is 48" x 48".
func tableWords(size string) string {
	w, d, ok := strings.Cut(size, "x")
	if !ok {
		return size + `"`
	}
	return w + `" x ` + d + `"`
}

func lenIn(v int64) string { return inch(table.Length(v)) }

func ptOf(f events.Fact) string {
	return fmtPt(table.Pt(table.Length(aX.Of(f)), table.Length(aY.Of(f))))
}

// stepSentence tells what a step asks, for step.begun: every step has
// its sentence (TestEveryFactIsToldInWords), none is told by its name.
func stepSentence(st *State, step, side string, n int) string {
	switch step {
	case StepTable:
		return "Each side says the table size it wants (13.1)."
	case StepYear:
		if st.Scn.Year == -1 {
			return "The referee chooses the year of the battle (13.4a)."
		}
		return "Each side says the year of its army; the battle is fought in the later (13.4)."
	case StepDraw:
		return "Each side draws the other's generals, openly (13.5a)."
	case StepGenerals:
		return "Each side may redraw, assigns its generals and confirms them (13.5g-h)."
	case StepCards:
		if side != "" {
			return fmt.Sprintf("%s keeps 3 of its 4 battle cards (13.7f, option neutral-card keep-3).", side)
		}
		return "Each side keeps 3 of its 5 battle cards; the other 2 go back into its deck (13.6a)."
	case StepDeclare:
		return "Each side declares its battlefield, and a forced march if it made one, sealed: they open together (13.7b, 13.8d)."
	case StepList:
		return fmt.Sprintf("%s chooses whose terrain list is used (13.8a, 13.10c).", side)
	case StepLinear:
		return fmt.Sprintf("Linear terrain first, one piece at a time, %s first; %d left in the pool (13.10g-j).", side, n)
	case StepBridges:
		return fmt.Sprintf("%s places %s on the river (13.10q).", side, plural(n, "bridge", "bridges"))
	case StepNormal:
		return fmt.Sprintf("Normal terrain, one piece at a time, %s first (13.10k).", side)
	case StepFences:
		return fmt.Sprintf("Fences and walls along roads, railways and fields, %s first; %d in the pool (13.10p).", side, n)
	case StepSpecial:
		return fmt.Sprintf("Special terrain from traits and cards, %s first (13.10l).", side)
	case StepSwap:
		return fmt.Sprintf("%s, on the Offensive battlefield, may swap two terrain pieces (13.7f).", side)
	case StepFortify:
		return fmt.Sprintf("Field fortifications, %s first (13.10m).", side)
	case StepTactic:
		return "Each side chooses its army tactic, in secret until the battle ends (13.12)."
	case StepCavalry:
		return "Each side with cavalry chooses its cavalry tactic, sealed: they open together (13.13)."
	case StepPatrol:
		return "Each side places a patrol marker for each corps, sealed: they open together (13.14)."
	case StepInitiative:
		return "The initiative roll is tied again and again: the referee says who wins it."
	case StepActivate:
		return fmt.Sprintf("%s activates a corps.", side)
	case StepCombat:
		return "The referee rules the corps' attacks and both rounds of combat (7.1b; chapters 8-9)."
	case StepMove:
		return fmt.Sprintf("%s moves the corps' units (7.1b).", side)
	case StepPassage:
		return fmt.Sprintf("Reorganization, step 1: %s's passages of lines (7.6).", side)
	case StepEnd:
		return "The last turn is over: the referee scores the objectives and ends the battle (13.12c)."
	case StepOver:
		return "The battle is over."
	}
	return ""
}

// forcedWords tell 7.5d's kinds of forced move.
var forcedWords = map[string]string{"push-back": "push-back", "disengagement": "disengagement", "failed-order": "move of a general's failed order",
	"card": "move of a played battle card", "pursuit": "pursuit of a disengaged enemy"}

func describe(st *State, f events.Fact) string {
	side := aSide.OfAny(f)
	switch f.Kind {
	case kTableProposed:
		return fmt.Sprintf("%s asks for a %s table.", side, tableWords(aSize.Of(f)))
	case kTableSet:
		switch aHow.Of(f) {
		case "agreed":
			return fmt.Sprintf("Both sides agree on a %s table (13.1).", tableWords(aSize.Of(f)))
		case "recommended":
			return fmt.Sprintf("The sides disagree; the battle is on the %s table 13.1 recommends for the armies' size.", tableWords(aSize.Of(f)))
		}
		return fmt.Sprintf("The table is %s (13.1).", tableWords(aSize.Of(f)))
	case kYearProposed:
		return fmt.Sprintf("%s's army is of %d.", side, aYear.Of(f))
	case kYearSet:
		switch aHow.Of(f) {
		case "later":
			return fmt.Sprintf("The armies are of different years: the battle is fought in the later, %d (13.4c).", aYear.Of(f))
		case "referee":
			return fmt.Sprintf("The referee sets the year of the battle: %d (13.4a).", aYear.Of(f))
		}
		return fmt.Sprintf("The battle is fought in %d (13.4).", aYear.Of(f))
	case kStepBegun:
		return stepSentence(st, aStep.Of(f), side, int(aN.Of(f)))
	case kTurnPassed:
		return fmt.Sprintf("%s to place next.", side)
	case kGeneralsDrawn:
		var ps []string
		for i, g := range aGenerals.Of(f) {
			fm := aFormations.Of(f)[i]
			if fm == ArmyFormation {
				fm = "the army"
			}
			ps = append(ps, g+" ("+fm+")")
		}
		if aAuto.Of(f) {
			return fmt.Sprintf("%s's %s: %s, the only one, is assigned without a draw (13.5d).", side, aGroup.Of(f), listWords(ps))
		}
		return fmt.Sprintf("%s's %s drawn: %s (13.5d).", side, aGroup.Of(f), listWords(ps))
	case kArmyDrawn:
		return fmt.Sprintf("%s has drawn %s's generals.", aBy.Of(f), side)
	case kGeneralRedrawn:
		return fmt.Sprintf("%s redraws among its %s: %s (13.5g).", side, aGroup.Of(f), aGeneral.Of(f))
	case kGeneralSwapped:
		return fmt.Sprintf("%s takes %s's place; %s is set aside (13.5g).", aGeneral.Of(f), aOld.Of(f), aOld.Of(f))
	case kGeneralDiscarded:
		return fmt.Sprintf("%s discards %s (13.5g).", side, aGeneral.Of(f))
	case kGeneralAssigned:
		return fmt.Sprintf("%s assigns %s to %s (13.5h).", side, aGeneral.Of(f), aFormation.Of(f))
	case kGeneralsDone:
		return fmt.Sprintf("%s confirms its generals.", side)
	case kCardsDrawn:
		return fmt.Sprintf("%s draws %s.", side, strings.Join(aCards.Of(f), "; "))
	case kCardsDealt:
		n := int(aN.Of(f))
		if n == 0 {
			return fmt.Sprintf("%s's battle-card deck is empty: it draws nothing (%s).", side, aRule.Of(f))
		}
		return fmt.Sprintf("%s draws %s, face down (%s).", side, plural(n, "battle card", "battle cards"), aRule.Of(f))
	case kCardsKept:
		return fmt.Sprintf("%s keeps %s and shuffles %s back into its deck (13.6a).", side, strings.Join(aKept.Of(f), "; "), strings.Join(aReturned.Of(f), "; "))
	case kHandKept:
		return fmt.Sprintf("%s keeps %s and shuffles %d back into its deck.", side, plural(int(aN.Of(f)), "battle card", "battle cards"), aReturnedInt.Of(f))
	case kBattlefieldDeclared:
		m := ""
		if aForced.Of(f) {
			m = ", with a forced march (13.8d: 4 more dice, morale one level lower)"
		}
		return fmt.Sprintf("%s declares the %s battlefield%s.", side, aField.Of(f), m)
	case kMoraleSet:
		return fmt.Sprintf("%s's army morale is %s: %s.", side, aLevel.Of(f), aWhy.Of(f))
	case kInitiativeRolled:
		// A pool: its dice, each kind of extra dice with its source, and
		// the dice rolled, so that the count adds up.
		n, b, fm := aDice.Of(f), aBonus.Of(f), aForcedInt.Of(f)
		pool := fmt.Sprintf("%d dice", n)
		if b+fm > 0 {
			pool = fmt.Sprintf("%d dice", n-b-fm)
			if b > 0 {
				pool += fmt.Sprintf(", +%d commander and battlefield (13.8b)", b)
			}
			if fm > 0 {
				pool += fmt.Sprintf(", +%d forced march (13.8d)", fm)
			}
			pool += fmt.Sprintf(" = %d dice", n)
		}
		return fmt.Sprintf("%s rolls %s: %s.", side, pool, plural(int(aSuccesses.Of(f)), "success", "successes"))
	case kInitiativeTied:
		return "A tie: the dice are rolled again."
	case kInitiativeWon:
		if aBattlefield.In(f) {
			return fmt.Sprintf("%s wins the initiative and the battlefield: it is Player A, and the battle is on its %s battlefield (13.7c, 13.8a).", side, aBattlefield.Of(f))
		}
		return fmt.Sprintf("%s has the initiative.", side)
	case kListChosen:
		return fmt.Sprintf("%s chooses the %s terrain list (13.10c).", side, aList.Of(f))
	case kPointsPlaced:
		var ps []string
		for i, p := range intsPoly(aAt.Of(f)) {
			ps = append(ps, fmt.Sprintf("SP%d at %s", i+1, fmtPt(p)))
		}
		return "The strategic points: " + strings.Join(ps, ", ") + " (13.9b)."
	case kTerrainPlaced:
		what := aKind.Of(f)
		if aFlags.In(f) && len(aFlags.Of(f)) > 0 {
			what = strings.Join(aFlags.Of(f), " ") + " " + what
		}
		if aPath.In(f) {
			pts := intsPoly(aPath.Of(f))
			if aAlong.In(f) {
				return fmt.Sprintf("%s places %s along %s (13.10p).", aBy.Of(f), aId.Of(f), aAlong.Of(f))
			}
			return fmt.Sprintf("%s places %s (%s), %s long, through %s.", aBy.Of(f), aId.Of(f), what, inch(table.Polyline(pts).Len()), fmtPath(pts))
		}
		pg := table.Polygon(intsPoly(aPoly.Of(f)))
		half := ""
		if aHalf.Of(f) {
			half = ", half a piece (13.10f)"
		}
		return fmt.Sprintf("%s places %s centred at %s%s.", aBy.Of(f), aId.Of(f), fmtPt(pg.Centroid()), half)
	case kTerrainPassed:
		return fmt.Sprintf("%s passes (13.10j).", side)
	case kBridgePlaced:
		if aBy.Of(f) == "" {
			return fmt.Sprintf("%s at %s, where a road crosses %s (13.10q).", strings.ToUpper(aId.Of(f)[:1])+aId.Of(f)[1:], ptOf(f), aOver.Of(f))
		}
		return fmt.Sprintf("%s places %s on %s at %s (13.10q).", aBy.Of(f), aId.Of(f), aOver.Of(f), ptOf(f))
	case kSpecialDone:
		return fmt.Sprintf("%s is done with special terrain.", side)
	case kTerrainMoved:
		return fmt.Sprintf("%s moves %s by %s east and %s north (13.10l).", aBy.Of(f), aId.Of(f), lenIn(aDx.Of(f)), lenIn(aDy.Of(f)))
	case kTerrainSwapped:
		return fmt.Sprintf("%s swaps %s and %s by their centres (13.7f).", aBy.Of(f), aA.Of(f), aB.Of(f))
	case kFortsGranted:
		return fmt.Sprintf("%s gets %s of field fortifications for the Defensive battlefield (13.7f).", side, plural(int(aN.Of(f)), "free section", "free sections"))
	case kFortsDone:
		return fmt.Sprintf("%s places no more fortifications.", side)
	case kBasePlaced:
		return fmt.Sprintf("%s's operational base stands at the middle of its table edge (13.11).", side)
	case kTacticChosen:
		return fmt.Sprintf("%s chooses the %s army tactic, in secret (13.12).", side, aTactic.Of(f))
	case kTacticMade:
		return fmt.Sprintf("%s has chosen its army tactic; it stays secret until the battle ends (13.12b).", side)
	case kCavalryChosen:
		return fmt.Sprintf("%s's cavalry tactic: %s (13.13).", side, aTactic.Of(f))
	case kMarkerPlaced:
		return fmt.Sprintf("%s places the patrol marker of %s at %s (13.14).", side, aCorps.Of(f), ptOf(f))
	case kUnitPlaced:
		return fmt.Sprintf("%s deploys at %s, facing %s.", aUnit.Of(f), ptOf(f), table.Angle(aFacing.Of(f)))
	case kPatrolDone:
		return fmt.Sprintf("%s's patrol markers are placed.", side)
	case kTurnBegun:
		return fmt.Sprintf("Turn %d begins.", aTurn.Of(f))
	case kCorpsSkipped:
		if len(aCorpsStrs.Of(f)) == 0 {
			return fmt.Sprintf("%s activates no more this turn.", side)
		}
		return fmt.Sprintf("%s activates no more this turn: %s stay inactive.", side, listWords(aCorpsStrs.Of(f)))
	case kCorpsActivated:
		return fmt.Sprintf("%s activates %s.", side, aCorps.Of(f))
	case kCombatResolved:
		return fmt.Sprintf("The referee has ruled %s's combat.", aCorps.Of(f))
	case kUnitMoved:
		how := ""
		if aPaid.In(f) {
			how = fmt.Sprintf("; 3\" paid for %s (7.2c-d)", aPaid.Of(f))
		}
		if aRoad.Of(f) {
			how += "; along the road (7.2i)"
		}
		return fmt.Sprintf("%s moves %s of its %s to %s, facing %s%s.", aUnit.Of(f), lenIn(aDist.Of(f)), lenIn(aRange.Of(f)), ptOf(f), table.Angle(aFacing.Of(f)), how)
	case kActivationEnded:
		return fmt.Sprintf("%s's activation of %s ends.", side, aCorps.Of(f))
	case kCommandTested:
		return fmt.Sprintf("%s's command test: %s of %s needed.", aGeneral.Of(f), plural(int(aSuccesses.Of(f)), "success", "successes"), plural(int(aNeed.Of(f)), "success", "successes"))
	case kPassageMade:
		if aOk.Of(f) {
			return fmt.Sprintf("%s and %s pass through each other's lines and swap places (7.6).", aA.Of(f), aB.Of(f))
		}
		return fmt.Sprintf("The passage of %s and %s fails: both stay (7.6d).", aA.Of(f), aB.Of(f))
	case kCohesionLost:
		return fmt.Sprintf("%s loses %s.", aUnit.Of(f), plural(int(aN.Of(f)), "cohesion point", "cohesion points"))
	case kPassagesDeclared:
		us := aUnits.Of(f)
		if len(us) == 0 {
			return fmt.Sprintf("%s declares no passage of lines; the initiative orders the passages (7.6i).", side)
		}
		var ps []string
		for i := 0; i+1 < len(us); i += 2 {
			ps = append(ps, us[i]+" and "+us[i+1])
		}
		return fmt.Sprintf("%s declares passages of lines: %s; the initiative orders them (7.6i).", side, strings.Join(ps, "; "))
	case kPassagesDone:
		return fmt.Sprintf("%s's passages of lines are done.", side)
	case kUnitForced:
		if aCause.In(f) {
			return fmt.Sprintf("%s makes a forced move %s of %s, a %s, whatever the terrain (7.5, 7.5d).", aUnit.Of(f), aHow.Of(f), lenIn(aDist.Of(f)), forcedWords[aCause.Of(f)])
		}
		return fmt.Sprintf("%s makes a forced move %s of %s, whatever the terrain (7.5).", aUnit.Of(f), aHow.Of(f), lenIn(aDist.Of(f)))
	case kCardPlayed:
		return fmt.Sprintf("%s plays the battle card %s; the referee rules its effect.", side, aCard.Of(f))
	case kRefereeSet:
		return fmt.Sprintf("The referee sets %s's %s to %s (was %s).", aObject.Of(f), strings.ToLower(aField.Of(f)), aValue.Of(f), aOld.Of(f))
	case kGeneralReplaced:
		return fmt.Sprintf("%s takes over from %s (13.5i, 4.15).", aGeneral.Of(f), aOld.Of(f))
	case kObjectivesSet:
		var ns []string
		for _, n := range aDone.Of(f) {
			ns = append(ns, fmt.Sprint(n))
		}
		return fmt.Sprintf("The referee notes %s's objectives achieved: %s.", side, listWords(ns))
	case kTacticRevealed:
		return fmt.Sprintf("%s's army tactic was %s (13.12b).", side, aTactic.Of(f))
	case kRewardScored:
		return fmt.Sprintf("%s earns %d%% of its army's value: $%d (13.12c).", side, aPercent.Of(f), aAmount.Of(f))
	case kBattleEnded:
		if aWinner.Of(f) == "" {
			return "The battle ends in a draw: " + aReason.Of(f) + "."
		}
		return fmt.Sprintf("The battle ends: %s wins by %s.", aWinner.Of(f), aReason.Of(f))
	}
	return ""
}
