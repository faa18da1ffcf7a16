package hra

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/engine/table"
	"pbem/events"
)

// Facts implements engine.Teller.
func (rules) Facts() []engine.FactSchema { return factSet.Schemas() }

// Describe implements engine.Teller.
func (rules) Describe(_ *State, f events.Fact) string { return describe(f) }

// describe tells one fact in plain words for the players' mails, with the
// dice where the fact carries them. Every sentence is told from the
// fact's own arguments: HRA's facts carry the values they set, and the
// state before the decision (Describe's s) may already be out of date by
// the fact's turn, as facts before it in the same decision change it.
func describe(f events.Fact) string {
	unit, brig := aUnit.OfAny(f), aBrigade.OfAny(f)
	switch f.Kind {
	case kBattleBegun:
		return "The battle begins: each side rolls for its generals' status, and every unit for its supply (HRA 3c, 3e)."
	case kGeneralsRolled:
		return fmt.Sprintf("%s rolls for its generals: %s, so their status is %s (HRA 3c).", aSide.Of(f), dieList(aDice.Of(f)), joinInts(aStatuses.Of(f)))
	case kGeneralRolled: // logs of version 0.3 and before
		return fmt.Sprintf("%s's general rolls %d: status %d (HRA 3c).", brig, aDie.Of(f), aStatus.Of(f))
	case kGeneralAssigned:
		return fmt.Sprintf("%s's general has status %d (HRA 3c).", brig, aStatus.Of(f))
	case kGeneralKilled:
		return fmt.Sprintf("%s's general is killed (HRA 12a d).", brig)
	case kGeneralMoved:
		return fmt.Sprintf("%s's general is now with %s.", brig, unit)
	case kSupplyRolled:
		return fmt.Sprintf("%s rolls %d for supply: supply %d (HRA 3e).", unit, aDie.Of(f), aSupply.Of(f))
	case kRoundBegun:
		return fmt.Sprintf("Round %d begins.", aRound.Of(f))
	case kInitiativeRolled:
		u, c, side := aUnion.Of(f), aConfederate.Of(f), aSide.Of(f)
		switch {
		case side == "":
			return fmt.Sprintf("Initiative (HRA 4.0): Union rolls %d, Confederate rolls %d, a tie once more: the referee decides who has it.", u, c)
		case u == c:
			return fmt.Sprintf("Initiative (HRA 4.0): Union rolls %d, Confederate rolls %d, a tie: it goes to %s, who did not have it (HRA 4.0b).", u, c, side)
		}
		return fmt.Sprintf("Initiative (HRA 4.0): Union rolls %d, Confederate rolls %d: %s acts first.", u, c, side)
	case kTurnPassed:
		return fmt.Sprintf("%s gives orders to a brigade next (HRA 4.II.a).", aToStr.Of(f))
	case kPhaseFire:
		return "Phase III: each side declares its volleys, sealed until both have (HRA 4.III.a)."
	case kUnitMoved:
		at := fmt.Sprintf("(%s, %s) facing %s", cmStr(table.Length(aX.Of(f))), cmStr(table.Length(aY.Of(f))), facing(aFacing.Of(f)))
		if aColumn.Of(f) {
			at += ", in column"
		}
		if aForced.Of(f) {
			return fmt.Sprintf("%s is forced back to %s (HRA 5).", unit, at)
		}
		if c := table.Length(aCost.Of(f)); c > 0 {
			return fmt.Sprintf("%s moves to %s, using %s of its move.", unit, at, cmText(c))
		}
		return fmt.Sprintf("%s stands at %s.", unit, at)
	case kUnitOrdered:
		return fmt.Sprintf("%s's order this round: %s.", unit, aOrder.Of(f))
	case kUnitSet:
		return describeSet(unit, f)
	case kBrigadeOrdered:
		return fmt.Sprintf("%s has had its orders this round.", brig)
	case kMeleeBegun:
		return fmt.Sprintf("%s attacks %s in melee (HRA 11a, 11b).", aAttacker.Of(f), aDefender.Of(f))
	case kMeleeEnded:
		return fmt.Sprintf("The melee of %s and %s is over.", aAttacker.Of(f), aDefender.Of(f))
	case kVolleysDeclared:
		side, firers, targets := aSide.Of(f), aFirers.Of(f), aTargets.Of(f)
		switch {
		case aAuto.Of(f):
			return fmt.Sprintf("%s has no unit that can fire this round.", side)
		case len(firers) == 0:
			return fmt.Sprintf("%s fires no volley this round.", side)
		}
		var vs []string
		for i, fr := range firers {
			if i < len(targets) {
				vs = append(vs, fr+" will fire at "+targets[i])
			}
		}
		return fmt.Sprintf("%s declares its volleys: %s (HRA 4.III.a).", side, strings.Join(vs, "; "))
	case kPicksStated:
		side, units := aSide.Of(f), aUnits.Of(f)
		if aWhat.Of(f) == "retreat" {
			if len(units) == 0 {
				return fmt.Sprintf("%s has no retreat order: its forced moves go in roster order (HRA 4.I.b).", side)
			}
			return fmt.Sprintf("%s's forced moves go first for %s, then in roster order (HRA 4.I.b).", side, strings.Join(units, ", "))
		}
		return fmt.Sprintf("%s picks first the confrontations of %s (HRA 4.III.c).", side, strings.Join(units, ", "))
	case kVolleyFired:
		return describeVolley(f)
	case kMoraleTested:
		roll := fmt.Sprint(aDie.Of(f))
		if m := aMod.Of(f); m != 0 {
			roll += moraleModifiers(f) + fmt.Sprintf(" = %d", aTotal.Of(f))
		}
		return fmt.Sprintf("%s tests its morale and rolls %s: %s (HRA 12e).", unit, roll, aResult.Of(f))
	case kRefereeSet:
		return describeRefereeSet(f)
	case kBattleEnded:
		return fmt.Sprintf("The battle is over: %s.", strings.TrimSuffix(aReason.Of(f), "."))
	}
	// A kind this version does not decide: said as it was recorded.
	return "Recorded: " + strings.ReplaceAll(f.Kind, ".", " ") + "."
}

// moraleModifiers tells each HRA 12d modifier of a morale test with its
// source (", +1 its general with it (HRA 12d)"); a fact from before they
// were recorded one by one tells their sum.
func moraleModifiers(f events.Fact) string {
	gen, st, losses := aGeneral.Of(f), aStateMod.Of(f), aLosses.Of(f)
	status := aStatus.Of(f)
	mod := gen + st
	if losses > status {
		mod -= losses - status
	}
	if mod != aMod.Of(f) {
		return fmt.Sprintf(", %s morale modifiers (HRA 12d)", signed(aMod.Of(f)))
	}
	var b strings.Builder
	if gen != 0 {
		fmt.Fprintf(&b, ", %s its general with it (HRA 12d)", signed(gen))
	}
	switch {
	case st > 0:
		fmt.Fprintf(&b, ", %s full state (HRA 12d)", signed(st))
	case st < 0:
		fmt.Fprintf(&b, ", %s low state (HRA 12d)", signed(st))
	}
	if losses > status {
		fmt.Fprintf(&b, ", %s brigade losses %d over its general's status %d (HRA 12d)", signed(status-losses), losses, status)
	}
	return b.String()
}

// describeVolley tells one volley: "6th Wisconsin fires at 2nd Virginia
// (small arms, short range, state 3): 5, a hit."
func describeVolley(f events.Fact) string {
	who := aFirer.Of(f) + " fires at " + aTarget.Of(f)
	switch aKind.Of(f) {
	case "defensive volley":
		who = "Defensive volley (HRA 11c): " + who
	case "melee":
		who = "In melee, " + aFirer.Of(f) + " fires at " + aTarget.Of(f)
	}
	how := []string{aWeapon.Of(f), aRange.Of(f) + " range"}
	if aHindered.Of(f) {
		how = append(how, "hindered")
	}
	how = append(how, fmt.Sprintf("state %d", aState.Of(f)))
	if aFlank.Of(f) {
		how = append(how, "from the flank or rear")
	}
	roll := fmt.Sprint(aDie.Of(f))
	if m := aMod.Of(f); m != 0 {
		// Cavalry is the only modifier of a volley's die (HRA 16a).
		roll = fmt.Sprintf("%d, %s cavalry (HRA 16a) = %d", aDie.Of(f), signed(m), aDie.Of(f)+m)
	}
	var res string
	switch n := aLoss.Of(f); n {
	case 0:
		res = "no hit"
	case 1:
		res = "a hit"
	default:
		res = fmt.Sprintf("%d hits", n)
	}
	return fmt.Sprintf("%s (%s) and rolls %s: %s on the fire table (HRA T2).", who, strings.Join(how, ", "), roll, res)
}

// describeSet tells a unit.set fact a decision made.
func describeSet(unit string, f events.Fact) string {
	to, on := aTo.Of(f), aTo.Of(f) != 0
	switch aField.Of(f) {
	case "state":
		why := aCause.Of(f)
		if why != "" {
			why = " — " + why
		}
		if to <= 0 {
			return fmt.Sprintf("%s breaks and leaves the battlefield (state %d to 0, HRA 3a)%s.", unit, aFrom.Of(f), why)
		}
		return fmt.Sprintf("%s drops to state %d (was %d)%s.", unit, to, aFrom.Of(f), why)
	case "supply":
		return fmt.Sprintf("%s's supply is now %d (HRA 3f).", unit, to)
	case "busy":
		switch w := aWork.Of(f); {
		case to == 0:
			return fmt.Sprintf("%s has finished its work and may act again.", unit)
		case w == "entrench":
			return fmt.Sprintf("%s is entrenching: %s to go (HRA T1).", unit, rounds(to))
		case w == "crossing":
			return fmt.Sprintf("%s is crossing the water: %s to go (HRA T1).", unit, rounds(to))
		case w != "":
			return fmt.Sprintf("%s is busy (%s): %s to go.", unit, w, rounds(to))
		}
		return fmt.Sprintf("%s is busy for %s.", unit, rounds(to))
	case "pending":
		if w := aWork.Of(f); w != "" {
			return fmt.Sprintf("%s begins to %s: it is done in Phase I of the next round (HRA 16c, 17d).", unit, w)
		}
		return fmt.Sprintf("%s's change of formation is complete.", unit)
	case "charges":
		times := fmt.Sprintf("%d times", to)
		if to == 1 {
			times = "once"
		}
		return fmt.Sprintf("%s has charged %s today (HRA 16b).", unit, times)
	case "passed_by":
		return fmt.Sprintf("A friendly unit passed through %s: it may move only 5cm this round (HRA 10a, 10b).", unit)
	}
	if says, ok := flagSentences[aField.Of(f)]; ok {
		if on {
			return fmt.Sprintf(says[0], unit)
		}
		return fmt.Sprintf(says[1], unit)
	}
	return fmt.Sprintf("%s's %s is now %d.", unit, strings.ReplaceAll(aField.Of(f), "_", " "), to)
}

// flagSentences tell a unit's field that is on or off: what it means
// when it is set, and when it is cleared.
var flagSentences = map[string][2]string{
	"column":        {"%s is now in column (HRA 15).", "%s is now in line (HRA 15)."},
	"limbered":      {"%s has limbered (HRA 17d).", "%s has unlimbered (HRA 17d)."},
	"dismounted":    {"%s has dismounted (HRA 16c).", "%s has mounted (HRA 16c)."},
	"retreating":    {"%s is in retreat (HRA 5b).", "%s stops retreating."},
	"entrenched":    {"%s is entrenched (HRA T1).", "%s is no longer entrenched."},
	"acted":         {"%s has made its forced move and does nothing more this round (HRA 4.I.c).", "%s may act again."},
	"withdraw_next": {"%s must withdraw in Phase I of the next round (HRA 12e).", "%s no longer has a withdrawal due."},
	"retreat_next":  {"%s must retreat in Phase I of the next round (HRA 12e).", "%s no longer has a retreat due."},
}

// describeRefereeSet tells a referee's SET.
func describeRefereeSet(f events.Fact) string {
	field, unit, brig := aField.Of(f), aUnit.Of(f), aBrigade.Of(f)
	switch {
	case unit == "" && brig == "" && field == "initiative":
		return fmt.Sprintf("The referee gives the initiative to %s.", aWord.Of(f))
	case unit == "" && brig == "" && field == "round":
		return fmt.Sprintf("The referee sets the round to %d (was %d).", aTo.Of(f), aFrom.Of(f))
	case unit == "" && field == "general":
		return fmt.Sprintf("The referee sets %s's general to status %d (was %d).", brig, aTo.Of(f), aFrom.Of(f))
	case unit == "" && field == "with":
		return fmt.Sprintf("The referee puts %s's general with %s.", brig, aWord.Of(f))
	case field == "pos":
		return fmt.Sprintf("The referee places %s at (%s, %s).", unit, cmStr(table.Length(aX.Of(f))), cmStr(table.Length(aY.Of(f))))
	case field == "facing":
		return fmt.Sprintf("The referee turns %s, which faced %s, to face %s.", unit, facing(aFrom.Of(f)), facing(aTo.Of(f)))
	case field == "column" || field == "limbered" || field == "dismounted" || field == "retreating" || field == "entrenched":
		return fmt.Sprintf("The referee sets %s %s: %s (was %s).", unit, field, onOff(aTo.Of(f)), onOff(aFrom.Of(f)))
	case unit != "":
		return fmt.Sprintf("The referee sets %s's %s to %d (was %d).", unit, field, aTo.Of(f), aFrom.Of(f))
	}
	return fmt.Sprintf("The referee sets %s to %d.", field, aTo.Of(f))
}

// facing writes a bearing as the board's key reads it: "180° (S)", or
// "30°" between the eight points of the compass.
func facing(a int64) string {
	n := table.Angle(a).Norm()
	if n%(45*table.Degree) == 0 {
		return fmt.Sprintf("%v (%s)", n, [...]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}[n/(45*table.Degree)])
	}
	return n.String()
}

// dieList writes dice as "3 and 5", "3, 5 and 1".
func dieList(vs []int64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// rounds writes a number of rounds: "1 round", "3 rounds".
func rounds(n int64) string {
	if n == 1 {
		return "1 round"
	}
	return fmt.Sprintf("%d rounds", n)
}

// signed writes a modifier as the echo does: "+1", "-1", "+0".
func signed(n int64) string { return fmt.Sprintf("%+d", n) }
