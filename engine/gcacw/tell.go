package gcacw

import (
	"fmt"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// tell says one fact in plain words for the players' mails: units and
// leaders by the names the board gives them, hexes as printed, every die
// the fact carries. s is the state before the decision that made the
// fact; it is used for names alone (they never change), and everything
// else comes from the fact itself, since facts before it in the same
// decision may have changed the rest. (The decision's echo has lines of
// its own, echoLine: they are logged with it and stay as they were.)
func tell(s *State, f events.Fact) string {
	if s == nil {
		s = &State{}
	}
	unit := s.unitName(aUnit.OfAny(f))
	leader := s.leaderName(aLeader.OfAny(f))
	side := aSide.OfAny(f)
	switch f.Kind {
	case kTurnBegun:
		return fmt.Sprintf("Turn %d%s begins with the Leader Transfer Phase (GCACW 3).", aTurn.Of(f), s.ofTurns())
	case kRandomEventRolled:
		r := fmt.Sprintf("Random Events, turn %d: pbem rolls %s", aTurn.Of(f), rolled(f, aRoll))
		if e := aEvent.Of(f); e != "" {
			return r + ": " + strings.TrimSuffix(e, ".") + " (GCACW 3, phase 1)."
		}
		return r + "; the scenario has no Random Events Table, so the referee reads it (R4)."
	case kLeaderTransferred:
		r := fmt.Sprintf("%s moves from %s to %s", leader, s.unitName(aFrom.Of(f)), s.unitName(aTo.Of(f)))
		return r + byWhom(aBy.Of(f), " (GCACW 2.2j).")
	case kLeaderRemoved:
		return fmt.Sprintf("%s leaves play: %s.", leader, aReason.Of(f))
	case kTransferDone:
		return fmt.Sprintf("%s ends its Leader Transfer Phase.", side)
	case kCycleBegun:
		return fmt.Sprintf("The action cycle of turn %d begins (GCACW 3, phase 3).", aTurn.Of(f))
	case kActionPhaseBegun:
		return fmt.Sprintf("Action Phase %d begins.", aN.Of(f))
	case kInitiativeAutomatic:
		return fmt.Sprintf("%s wins the initiative without a roll: %s.", side, aReason.Of(f))
	case kInitiativeRolled:
		if aTie.Of(f) {
			return fmt.Sprintf("Both sides roll %d for the initiative, a tie: %s, so %s may take the initiative.", aDie.Of(f), aRule.Of(f), side)
		}
		return fmt.Sprintf("%s rolls %d for the initiative, %s %d: %s may take the initiative (GCACW 4.2).", side, aDie.Of(f), opponent(side), aOther.Of(f), side)
	case kInitiativeTied:
		return fmt.Sprintf("Both sides roll %d for the initiative, a tie the referee rules.", aDie.Of(f))
	case kInitiativeTieRuled:
		return fmt.Sprintf("The referee gives the tied initiative to %s.", side)
	case kInitiativeRecorded:
		return fmt.Sprintf("%s's winning die, %d, is recorded (GCACW 4.2c).", side, aDie.Of(f))
	case kInitiativeTaken:
		return fmt.Sprintf("%s takes the initiative.", side)
	case kInitiativePassed:
		if r := aReason.Of(f); r != "" {
			return fmt.Sprintf("%s passes the initiative: %s.", side, r)
		}
		return fmt.Sprintf("%s passes the initiative.", side)
	case kActionEnded:
		return fmt.Sprintf("%s's action is over.", side)
	case kCycleEnded:
		return fmt.Sprintf("The action cycle ends: %s.", aReason.Of(f))
	case kReorganizationRolled:
		result := "it stays disorganized"
		if aOrganized.Of(f) {
			result = "it is organized again"
		}
		return fmt.Sprintf("%s rolls %d to reorganize (it needs %s): %s.", unit, aDie.Of(f), aOn.Of(f), result)
	case kReorganizationEnded:
		return fmt.Sprintf("The Reorganization Phase of turn %d ends.", aTurn.Of(f))
	case kTurnEnded:
		return fmt.Sprintf("Turn %d%s ends.", aTurn.Of(f), s.ofTurns())
	case kVictoryCounted:
		return fmt.Sprintf("Victory points: USA %d, CSA %d (%s).", aUsa.Of(f), aCsa.Of(f), strings.Join(aDetail.Of(f), "; "))
	case kVictoryWeighed:
		return fmt.Sprintf("The scenario's victory conditions, which the referee weighed: USA %d VP, CSA %d VP by their count (%s).", aUsa.Of(f), aCsa.Of(f), strings.Join(aDetail.Of(f), "; "))
	case kGameEnded:
		if w := aWinner.Of(f); w != "" {
			return fmt.Sprintf("The game is over, won by %s: %s.", w, aReason.Of(f))
		}
		return fmt.Sprintf("The game is over, a draw: %s.", aReason.Of(f))

	case kQueueAdded:
		return fmt.Sprintf("%s queues order #%d: %s.", side, aN.Of(f), oneLine(aOrder.Of(f)))
	case kQueueCancelled:
		return fmt.Sprintf("%s cancels its queued order #%d.", side, aN.Of(f))
	case kQueueUsed:
		return fmt.Sprintf("%s plays its queued order #%d: %s.", side, aN.Of(f), oneLine(aOrder.Of(f)))
	case kQueueDropped:
		return fmt.Sprintf("%s's queued order #%d is dropped: %s.", side, aN.Of(f), strings.TrimSuffix(aReason.Of(f), "."))

	case kMarchBegun:
		r := unit + " begins a march in place"
		if p := aPlan.Of(f); p != "" {
			r = unit + " begins its march (" + p + ")"
		}
		if aOpt.Of(f) {
			r += " at fatigue 4 (GCACW 5.1-OPT)"
		}
		if l := aLeader.Of(f); l != "" {
			return fmt.Sprintf("%s with %s's MA of %d (GCACW 5.2.3).", r, s.leaderName(l), aMa.Of(f))
		}
		return fmt.Sprintf("%s and rolls %s for its Movement Allowance: MA %d (GCACW 5.1.1).", r, marchRoll(s, f), aMa.Of(f))
	case kUnitFatigueRaised:
		r := fmt.Sprintf("%s's fatigue rises from %d to %d", unit, aFromInt.Of(f), aFatigue.Of(f))
		if aFromInt.Of(f) == aFatigue.Of(f) {
			r = fmt.Sprintf("%s's fatigue stays at %d", unit, aFatigue.Of(f))
		}
		if aExtended.Of(f) {
			return r + ": an Extended March (GCACW 5.1-EM)."
		}
		return r + " (GCACW 5.1.2)."
	case kExtendedMarchRolled:
		return fmt.Sprintf("%s rolls %d for its Extended March; the scenario has no Extended March Table, so the referee reads it (R2).", unit, aDie.Of(f))
	case kExtendedMarchResolved:
		if !aColumn.In(f) {
			return fmt.Sprintf("The referee reads %s's Extended March roll of %d: %s (GCACW 5.1-EM.4).", unit, aDie.Of(f), emResult(aResult.Of(f)))
		}
		return fmt.Sprintf("%s rolls %s for its Extended March on the %s column of the Extended March Table: %s (GCACW 5.1-EM.4).", unit, emRoll(f), aColumn.Of(f), emResult(aResult.Of(f)))
	case kUnitDisorganized:
		return fmt.Sprintf("%s is disorganized%s", unit, because(aReason.Of(f)))
	case kUnitOrganized:
		return fmt.Sprintf("%s is organized again%s", unit, because(aReason.Of(f)))
	case kUnitExhausted:
		return fmt.Sprintf("%s is exhausted%s", unit, because(aBy.Of(f)))
	case kUnitRested:
		return fmt.Sprintf("%s is no longer exhausted%s", unit, because(aBy.Of(f)))
	case kUnitFatigueSet:
		if aBy.Of(f) == "referee" {
			return fmt.Sprintf("The referee sets %s's fatigue to %d.", unit, aFatigue.Of(f))
		}
		return fmt.Sprintf("%s's fatigue is now %d: %s.", unit, aFatigue.Of(f), aBy.Of(f))
	case kStrengthLost:
		return fmt.Sprintf("%s loses %d Manpower, %d left: %s.", unit, aManpower.Of(f), aLeft.Of(f), aReason.Of(f))
	case kStrengthSet:
		return fmt.Sprintf("The referee sets %s's Manpower to %d.", unit, aLeft.Of(f))
	case kUnitEliminated:
		return fmt.Sprintf("%s is eliminated%s", unit, because(aReason.Of(f)))
	case kForceMarchSkipped:
		return fmt.Sprintf("%s does not force march: %s.", unit, aReason.Of(f))
	case kUnitForceMarched:
		return fmt.Sprintf("%s force marches and rolls %s: %d more MP, MA %d (GCACW 5.1-FM.2).", unit, forceRoll(f), aMp.Of(f), aMa.Of(f))
	case kUnitMarched:
		return tellMarched(unit, f)
	case kUnitPlaced:
		return fmt.Sprintf("The referee places %s in %s.", unit, aHex.Of(f))

	case kStandingSet:
		who := "all its cavalry"
		if id := aUnit.Of(f); id != "" {
			who = s.unitName(id)
		}
		if w := aWhen.Of(f); w != "ask" {
			return fmt.Sprintf("%s's standing order: Cavalry Retreat %s for %s (GCACW 5.1.2).", side, describeWhen(w), who)
		}
		return fmt.Sprintf("%s withdraws its standing Cavalry Retreat order for %s (GCACW 5.1.2).", side, who)
	case kCavalryRetreatAsked:
		return fmt.Sprintf("%s's march waits: %s may retreat %s before it (GCACW 5.1.2).", unit, side, s.unitNames(aUnits.Of(f)))
	case kCavalryRetreatProposed:
		return fmt.Sprintf("%s's owner proposes to retreat it %s; the referee rules the retreat (R9).", unit, hexPath(aPath.Of(f)))
	case kCavalryRetreatDone:
		return fmt.Sprintf("The Cavalry Retreat before %s's march is over (GCACW 5.1.2).", unit)
	case kCavalryRetreated:
		if aBy.Of(f) == "referee" {
			return fmt.Sprintf("The referee retreats %s %s (GCACW 5.1.2).", unit, hexPath(aPath.Of(f)))
		}
		return fmt.Sprintf("%s retreats %s: %s.", unit, hexPath(aPath.Of(f)), aBy.Of(f))
	case kCavalryStayed:
		return fmt.Sprintf("%s does not retreat: %s.", unit, aReason.Of(f))
	case kAttacksRuled:
		if aAllowed.Of(f) {
			return "The referee allows marches that end attacking an enemy unit (GCACW 5.1.5)."
		}
		return "The referee refuses marches that end attacking an enemy unit (GCACW 5.1.5)."

	case kLeaderActivated:
		var parts []string
		plans := aPlans.Of(f)
		for i, id := range aUnits.Of(f) {
			p := s.unitName(id)
			if i < len(plans) && plans[i] != "" {
				p += " (" + plans[i] + ")"
			}
			parts = append(parts, p)
		}
		r := fmt.Sprintf("%s activates %s", leader, andList(parts))
		if l := aLimit.Of(f); l != "any" {
			r += fmt.Sprintf(", at most %s unit(s) (GCACW 5.2.2-OTR)", l)
		}
		return r + "."
	case kLeaderMaRolled:
		return fmt.Sprintf("%s (a%s %s leader) rolls %s for the activation: MA %d (GCACW 5.2.3).", leader, an(aClass.Of(f)), aClass.Of(f), leaderRoll(s, f), aMa.Of(f))
	case kActivationSkipped:
		return fmt.Sprintf("%s does not march: %s.", unit, aReason.Of(f))
	case kActivationEnded:
		return fmt.Sprintf("%s's activation is over.", leader)

	case kUndoPoint:
		return fmt.Sprintf("%s may take this order back with UNDO until someone acts.", side)
	case kUndoCleared:
		// Always a decision's first fact: s has the undo point it ends.
		if s.Undo != nil {
			return fmt.Sprintf("%s's last order can no longer be taken back.", s.Undo.Side)
		}
		return "The last order can no longer be taken back."
	case kOrderUndone:
		return fmt.Sprintf("%s takes back its last order (UNDO): the game is as it was before it.", side)

	case kSet:
		what := "the game's " + aField.Of(f)
		if t := aTarget.Of(f); t != gameTarget {
			what = s.targetName(t) + "'s " + aField.Of(f)
		}
		return fmt.Sprintf("The referee sets %s from %s to %s.", what, aOld.Of(f), aNew.Of(f))
	case kRefereePending:
		return "The referee must rule: " + strings.TrimSuffix(s.namesIn(aNote.Of(f)), ".") + "."
	case kRefereeRuled:
		return tellRuled(s, f)
	}
	if t, ok := tellAssault(s, f); ok {
		return t
	}
	return f.String()
}

// tellMarched tells a unit.marched fact: the path, the MP, and why the
// march stopped (walk's reasons).
func tellMarched(unit string, f events.Fact) string {
	path := aPath.Of(f)
	r := unit + " marches " + hexPath(path)
	if len(path) == 1 {
		r = unit + " marches in place in " + path[0]
	}
	mp := fmt.Sprintf("%d of %d MP", aMp.Of(f), aMa.Of(f))
	stop := aStopped.Of(f)
	if stop == "ruled by the referee" {
		mp = fmt.Sprintf("MA %d", aMa.Of(f))
	}
	r += fmt.Sprintf(" (%s, fatigue %d)", mp, aFatigue.Of(f))
	switch {
	case stop == "end of path":
		return r + " to the end of its path."
	case stop == "end of path, all MP spent":
		return r + " to the end of its path, every MP spent."
	case stop == "ruled by the referee":
		return r + " and stops where the referee ruled."
	case strings.HasPrefix(stop, "out of MP: "):
		return r + " until it is out of MP: " + strings.TrimPrefix(stop, "out of MP: ") + "."
	case strings.HasPrefix(stop, "attack "):
		return r + " and attacks the enemy in " + strings.TrimPrefix(stop, "attack ") + " (GCACW 5.1.5)."
	case strings.HasPrefix(stop, "STOP AT "):
		return r + " and stops at " + strings.TrimPrefix(stop, "STOP AT ") + ", as ordered."
	case strings.HasPrefix(stop, "entered enemy ZOC at "):
		return r + " and stops on entering enemy ZOC at " + strings.TrimPrefix(stop, "entered enemy ZOC at ") + ", as ordered."
	}
	return r + " and stops: " + stop + "."
}

// stepNames say what each step handed to the referee is.
var stepNames = map[string]string{
	StepExtended:    "the Extended March",
	StepMove:        "where the march stops",
	StepRetreat:     "the Cavalry Retreat",
	StepTie:         "the tied initiative",
	StepInsub:       "the insubordination of a tie",
	StepActivation:  "the Leader Activation",
	StepEvent:       "the random event",
	StepLeaderAlone: "the leaders left alone",
	StepReorg:       "the Reorganization Phase",
	StepVictory:     "the victory",
	StepAttack:      "the attack at the end of the march",
	StepAssault:     "the assault",
}

// tellRuled tells a referee.ruled fact: the step the referee has ruled
// on (the facts after it say how).
func tellRuled(s *State, f events.Fact) string {
	step, ok := stepNames[aStep.Of(f)]
	if !ok {
		step = "the step " + aStep.Of(f)
	}
	switch aStep.Of(f) {
	case StepMove:
		return fmt.Sprintf("The referee rules that %s's march stops in %s.", s.unitName(aUnit.Of(f)), aHex.Of(f))
	case StepExtended:
		return fmt.Sprintf("The referee rules %s's Extended March: %s.", s.unitName(aUnit.Of(f)), emResult(aResult.Of(f)))
	case StepTie:
		if aResult.Of(f) == "END" {
			return "The referee rules that the tied initiative ends the action cycle (GCACW 4.2e)."
		}
		return fmt.Sprintf("The referee rules the tied initiative for %s.", aResult.Of(f))
	case StepRetreat:
		switch {
		case aResult.Of(f) == "none":
			return "The referee rules that no cavalry retreats (GCACW 5.1.2)."
		case aRetreats.In(f):
			return fmt.Sprintf("The referee rules the Cavalry Retreat: %d unit(s) retreat (GCACW 5.1.2).", aRetreats.Of(f))
		}
	}
	return "The referee has ruled on " + step + "."
}

// emResult says what an Extended March result does (GCACW 5.1-EM.4).
func emResult(res string) string {
	switch res {
	case "NE":
		return "no effect"
	case "D":
		return "D, disorganized"
	case "1", "2", "3":
		return res + ", a loss of " + res + " Manpower"
	}
	return res
}

// rolled says the dice of a fact: "4", or "2 + 5 = 7"; with total, the
// argument that holds their sum.
func rolled(f events.Fact, total ...engine.IntField) string {
	if !aDice.In(f) {
		return fmt.Sprint(aDie.Of(f))
	}
	var ds []string
	sum := int64(0)
	for _, v := range aDice.Of(f) {
		ds = append(ds, fmt.Sprint(v))
		sum += v
	}
	for _, t := range total {
		sum = t.Of(f)
	}
	return fmt.Sprintf("%s = %d", strings.Join(ds, " + "), sum)
}

// byWhom ends a sentence with who made the change, if not the rules
// (cited by end): "(by the referee)", or a house rule's reason.
func byWhom(by, end string) string {
	switch by {
	case "":
		return end
	case "referee":
		return ", by the referee's ruling."
	}
	return ": " + strings.TrimSuffix(by, ".") + "."
}

// because ends a sentence with its reason: ": force march (GCACW
// 5.1-FM.1)." or, for the referee's, " by the referee.".
func because(reason string) string {
	if reason == "" || reason == "referee" {
		return " by the referee."
	}
	return ": " + strings.TrimSuffix(reason, ".") + "."
}

// hexPath writes hexes as a path: "1606–1605–1604".
func hexPath(hs []string) string { return strings.Join(hs, "–") }

// oneLine is an order's text on one line.
func oneLine(order string) string { return strings.Join(strings.Fields(order), " ") }

// andList joins "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// an is the article's ending for a word: "n" before a vowel.
func an(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "n"
	}
	return ""
}

// unitName is a unit's name as the board gives it, or id if there is no
// such unit.
func (s *State) unitName(id string) string {
	if u := s.unit(id); u != nil {
		return u.Name
	}
	return id
}

// leaderName is a leader's name as the board gives it, or id.
func (s *State) leaderName(id string) string {
	if l := s.leader(id); l != nil {
		return l.Name
	}
	return id
}

// unitNames lists units by name: "Starling and 12th Calder Cavalry".
func (s *State) unitNames(ids []string) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = s.unitName(id)
	}
	return andList(names)
}

// namesIn writes a referee's note for the players: each unit or leader
// code in it (the referee's RULE orders use codes) as its name.
func (s *State) namesIn(note string) string {
	var b strings.Builder
	word := func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }
	rs := []rune(note)
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && word(rs[j]) {
			j++
		}
		if j == i {
			b.WriteRune(rs[i])
			i++
			continue
		}
		w := string(rs[i:j])
		switch {
		case s.unit(w) != nil:
			w = s.unit(w).Name
		case s.leader(w) != nil:
			w = s.leader(w).Name
		}
		b.WriteString(w)
		i = j
	}
	return b.String()
}

// ofTurns is " of N", the scenario's last turn, for "Turn 2 of 3".
func (s *State) ofTurns() string {
	if s.Scn == nil || s.Scn.Turns == 0 {
		return ""
	}
	return fmt.Sprintf(" of %d", s.Scn.Turns)
}
