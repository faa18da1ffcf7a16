package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// ref is how an example order names a counter: its name if that is one
// word, else its code.
func ref(name, id string) string {
	if strings.ContainsAny(name, " '’") {
		return id
	}
	return name
}

// uref names a unit in an example order: its name if that is one word
// and no other unit has it, else its code.
func (st *State) uref(u *Unit) string {
	for _, o := range st.Units {
		if o.ID != u.ID && normName(o.Name) == normName(u.Name) {
			return u.ID
		}
	}
	return ref(u.Name, u.ID)
}

func (st *State) lref(l *Leader) string {
	for _, o := range st.Leaders {
		if o.ID != l.ID && normName(o.Name) == normName(l.Name) {
			return l.ID
		}
	}
	return ref(l.Name, l.ID)
}

// exampleHex returns a hex u may march into now, or "".
func (m sim) exampleHex(u *Unit) string {
	for _, n := range u.Hex.Neighbors() {
		if _, _, why := m.State.stepCost(u, u.Hex, n); why == "" {
			return n.String()
		}
	}
	return ""
}

// exampleInPlace is a march in place side could send now (GCACW 5.1.5:
// the march may end before any MP is spent), or "".
func (m sim) exampleInPlace(side string) string {
	for _, u := range m.State.live() {
		if u.Side == side && m.State.canMarch(u) == "" {
			return "MARCH " + m.State.uref(u) + " END"
		}
	}
	return ""
}

// exampleMarch is a MARCH that side could send now, or "".
func (m sim) exampleMarch(side string) string {
	for _, u := range m.State.live() {
		if u.Side == side && m.State.canMarch(u) == "" {
			if h := m.exampleHex(u); h != "" {
				ex := "MARCH " + m.State.uref(u) + " " + h
				if forceProblem(u, u.Fatigue >= 4) == "" {
					ex += " FORCE IF MA < 3"
				}
				return ex
			}
		}
	}
	return ""
}

// exampleActivate is an ACTIVATE that side could send now, or "".
func (m sim) exampleActivate(side string) string {
	st := m.State
	for _, l := range st.Leaders {
		if l.Side != side || st.leaderEligible(l) != "" {
			continue
		}
		var parts []string
		radius := st.radiusOf(l)
		for _, u := range st.live() {
			if st.mayActivateIn(l, u, radius) != "" {
				continue
			}
			h := m.exampleHex(u)
			if h == "" && st.Scn.Option(OptActivationMarch) {
				continue
			}
			parts = append(parts, strings.TrimSpace(st.uref(u)+" "+h))
			if n := st.activationLimit(side); len(parts) == 2 || n > 0 && len(parts) == n {
				break
			}
		}
		if len(parts) > 0 {
			return "ACTIVATE " + st.lref(l) + ": " + strings.Join(parts, "; ")
		}
	}
	return ""
}

func (m sim) exampleTransfer(side string) string {
	st := m.State
	live := st.live()
	for _, l := range st.Leaders {
		if l.Side != side {
			continue
		}
		// transferWhy alone, as validateTransfer judges an order: a
		// refused order's problem also looks through every unit for a
		// hint, and the example asked that of each pair it tried (3% of
		// the CPU of pbem bench throughput, STATUS replies in the
		// transfer phase).
		for _, u := range live {
			if u.Side == side && st.transferWhy(l, u, false) == "" {
				return "TRANSFER " + st.lref(l) + " TO " + st.uref(u)
			}
		}
	}
	return ""
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func phaseName(st *State) string {
	switch st.Phase {
	case PhaseTransfer:
		return fmt.Sprintf("Leader Transfer Phase of turn %d", st.Turn)
	case PhaseCycle:
		return fmt.Sprintf("action cycle of turn %d", st.Turn)
	case PhaseReorg:
		return fmt.Sprintf("Reorganization Phase of turn %d", st.Turn)
	case PhaseVictory:
		return "end of the game, waiting for the referee's ruling on the result"
	}
	return "end of the game"
}

// waitingFor says whom the game waits for, as seen by side.
func waitingFor(st *State, side string) string {
	var who []string
	for _, p := range prompts(st) {
		w := p.Side
		if p.Referee {
			w = "the referee"
		} else if w == side {
			w = "you"
		}
		what := p.What
		if a := st.Ask; a != nil && !p.Referee && p.Side == a.Side {
			// The owner's mail says it all; everyone else reads the gist.
			what = a.gist()
		}
		who = append(who, w+" ("+what+")")
	}
	if len(who) == 0 {
		return "the game is over"
	}
	return "the game waits for " + strings.Join(who, " and ")
}

func refereeWaiting(st *State) string { return waitingFor(st, engine.RefereeSide) }

func refereeHint(st *State) string {
	for _, p := range prompts(st) {
		if p.Referee && len(p.Examples) > 0 {
			return p.Examples[0]
		}
	}
	return "HELP"
}

func (c Cycle) rollText() string {
	if !c.Rolled {
		return "automatically"
	}
	return fmt.Sprintf("USA %d, CSA %d", c.DieUSA, c.DieCSA)
}

// prompts says who must act now (engine.Ruleset.Prompt).
func prompts(st *State) []engine.Prompt {
	m := trial(st)
	var out []engine.Prompt
	if p := st.Pending; p != nil && p.Step == StepBattle {
		// The campaign waits on the battle: no one here must act; its
		// result comes back as RULE BATTLE when it ends.
		return nil
	}
	if p := st.Pending; p != nil {
		out = append(out, engine.Prompt{Referee: true, What: "rule: " + plainRule(p.Note), Examples: refereeExamples(st)})
		if !(p.Step == StepEvent && st.Phase == PhaseTransfer) {
			return out
		}
	}
	if a := st.Ask; a != nil {
		if a.Hex != "" {
			return append(out, fallBackPrompt(st, a))
		}
		return append(out, retreatPrompt(st, a))
	}
	switch st.Phase {
	case PhaseTransfer:
		for _, side := range Sides {
			if slices.Contains(st.TransferDone, side) {
				continue
			}
			out = append(out, engine.Prompt{Side: side,
				What:     fmt.Sprintf("Leader Transfer Phase, turn %d: move leaders to other subordinate units, or pass", st.Turn),
				Examples: nonEmpty("PASS", m.exampleTransfer(side))})
		}
	case PhaseCycle:
		c := st.Cycle
		h := c.Holder
		acts := nonEmpty(m.exampleMarch(h), m.exampleActivate(h), m.exampleAssault(h))
		switch c.Stage {
		case StageChoose:
			out = append(out, engine.Prompt{Side: h,
				What:     fmt.Sprintf("%s won the initiative (%s): take it and act, or pass it to %s", h, c.rollText(), opponent(h)),
				Examples: append(acts, "PASS")})
		case StageLoser:
			out = append(out, engine.Prompt{Side: h,
				What:     fmt.Sprintf("%s passed the initiative to %s: take it and act, or pass and end the action cycle", opponent(h), h),
				Examples: append(acts, "PASS")})
		case StageAct:
			out = append(out, engine.Prompt{Side: h, What: h + " took the initiative: send the action", Examples: acts})
		}
	case PhaseReorg:
		if st.Scn.Tables.Reorg != nil {
			break // the scenario's table plays it (R14)
		}
		out = append(out, engine.Prompt{Referee: true,
			What:     fmt.Sprintf("Reorganization Phase of turn %d: its procedures are not in the rules (R14); adjust the units, then RULE DONE", st.Turn),
			Examples: refereeExamples(st)})
	case PhaseVictory:
		v := st.Scn.Tables.Victory
		if v.counts() {
			break // the scenario's victory conditions count it (R24)
		}
		what := "the last turn is over; the victory conditions are not in the rules (R24) and the scenario states none: rule the result"
		if v != nil {
			what = "the last turn is over: rule the result, weighing the scenario's victory conditions (R24): " + strings.TrimPrefix(st.weighLine(), fmt.Sprintf("the referee decides the result after turn %d, weighing the scenario's conditions: ", st.Scn.Turns))
		}
		out = append(out, engine.Prompt{Referee: true,
			What:     what,
			Examples: []string{"RULE WINNER USA", "RULE WINNER DRAW"}})
	}
	return out
}

func refereeExamples(st *State) []string {
	p := st.Pending
	anyUnit := ""
	for _, u := range st.live() {
		anyUnit = st.uref(u)
		break
	}
	if p == nil {
		return []string{"RULE FATIGUE " + anyUnit + " 0", "RULE ORGANIZED " + anyUnit, "RULE DONE"}
	}
	unit := p.Unit
	if u := st.unit(p.Unit); u != nil {
		unit = st.uref(u)
	}
	switch p.Step {
	case StepExtended:
		return []string{"RULE EXTENDED MARCH " + unit + " NE", "RULE EXTENDED MARCH " + unit + " D"}
	case StepMove:
		last := p.Path[len(p.Path)-1]
		return []string{"RULE MARCH " + unit + " " + last, "RULE MARCH " + unit + " " + p.Path[0]}
	case StepRetreat:
		ex := []string{"RULE RETREAT NONE"}
		if c := st.unit(p.Units[0]); c != nil {
			for _, n := range c.Hex.Neighbors() {
				if st.Scn.Map.OnMap(n) && st.Scn.Map.Terrain(n) != Water && !st.hasEnemy(c.Side, n) {
					ex = append(ex, "RULE RETREAT "+st.uref(c)+" "+n.String())
					break
				}
			}
		}
		return ex
	case StepTie:
		return []string{"RULE INITIATIVE CSA", "RULE INITIATIVE USA", "RULE INITIATIVE END"}
	case StepAssault, StepAttack:
		return assaultExamples(st, p)
	case StepLeaderAlone:
		l := st.leader(p.Units[0])
		m := trial(st)
		for _, u := range st.live() {
			if m.validateTransfer(Order{Leader: l.ID, Target: u.ID}, true) == nil {
				return []string{"RULE TRANSFER " + st.lref(l) + " TO " + st.uref(u)}
			}
		}
		return []string{"RULE TRANSFER " + st.lref(l) + " TO <unit>"}
	}
	return []string{"RULE FATIGUE " + anyUnit + " 1", "RULE DONE"}
}

// readBack says how an order was read.
func readBack(st *State, o Order) string {
	name := func(id string) string {
		if u := st.unit(id); u != nil {
			return u.Name + " (" + id + ")"
		}
		if l := st.leader(id); l != nil {
			return l.Name + " (" + id + ")"
		}
		return id
	}
	switch o.Kind {
	case oMarch:
		if len(o.Plan.Path) == 0 {
			return strings.TrimSpace(fmt.Sprintf("MARCH %s END (in place) %s", name(o.Unit), o.Plan))
		}
		return fmt.Sprintf("MARCH %s %s", name(o.Unit), o.Plan)
	case oActivate:
		var es []string
		for _, e := range o.Entries {
			es = append(es, strings.TrimSpace(name(e.Unit)+" "+e.Plan.String()))
		}
		return fmt.Sprintf("ACTIVATE %s: %s", name(o.Leader), strings.Join(es, "; "))
	case oTransfer:
		return fmt.Sprintf("TRANSFER %s TO %s", name(o.Leader), name(o.Target))
	case oAssault:
		var es []string
		for _, e := range o.Entries {
			es = append(es, name(e.Unit))
		}
		w := "ASSAULT "
		if o.Grand {
			w = "GRAND ASSAULT "
		}
		if o.Leader != "" {
			w += name(o.Leader) + ": "
		}
		return w + strings.Join(es, ", ") + " ON " + o.At.String()
	case oQueue:
		return "QUEUE " + strings.Join(strings.Fields(o.Queued), " ")
	case oCancel:
		return fmt.Sprintf("CANCEL %d", o.N)
	case oStanding:
		who := "ALL"
		if o.Unit != "" {
			who = name(o.Unit)
		}
		if o.When == "ask" {
			return "STANDING CAVALRY RETREAT " + who + " ASK (no standing order: ask me)"
		}
		return "STANDING CAVALRY RETREAT " + who + " " + describeWhen(o.When)
	case oRetreat:
		if o.Rule.Result == "none" {
			return "CAVALRY RETREAT " + name(o.Unit) + " NONE"
		}
		return strings.TrimSpace("CAVALRY RETREAT " + name(o.Unit) + " " + strings.Join(hexStrs(o.Rule.Hexes), " "))
	case oSet:
		return readBackSet(st, o, name)
	case oRule:
		r := o.Rule
		parts := []string{"RULE", strings.ToUpper(r.What)}
		if r.Leader != "" {
			parts = append(parts, name(r.Leader))
			if r.What == "transfer" {
				parts = append(parts, "TO")
			}
		}
		if r.Unit != "" {
			parts = append(parts, name(r.Unit))
		}
		if r.Result != "" {
			parts = append(parts, r.Result)
		}
		if r.What == "fatigue" || r.What == "manpower" || r.What == "loss" {
			parts = append(parts, fmt.Sprint(r.N))
		}
		parts = append(parts, hexStrs(r.Hexes)...)
		return strings.Join(parts, " ")
	}
	return o.Kind
}

// echoLine writes a fact as a line of the decision's echo ("how your
// orders were read"). The echo is logged with the decision, so these
// lines stay as they are (a change would change decisions, and
// Version); the players' mails tell each fact afresh with tell.
func echoLine(f events.Fact) string {
	u := aUnit.OfAny(f)
	switch f.Kind {
	case kTurnBegun:
		return fmt.Sprintf("Turn %d begins.", aTurn.Of(f))
	case kRandomEventRolled:
		return fmt.Sprintf("Random events: pbem rolls %s: %s", rolled(f, aRoll), aEvent.Of(f))
	case kLeaderTransferred:
		return fmt.Sprintf("%s moves from %s to %s.", aLeader.Of(f), aFrom.Of(f), aTo.Of(f))
	case kTransferDone:
		return fmt.Sprintf("%s ends its Leader Transfer Phase.", aSide.Of(f))
	case kCycleBegun:
		return "The action cycle begins."
	case kActionPhaseBegun:
		return fmt.Sprintf("Action Phase %d.", aN.Of(f))
	case kInitiativeRolled:
		s := fmt.Sprintf("Initiative: %s rolls %d, %s %d: %s wins", aSide.Of(f), aDie.Of(f), opponent(aSide.Of(f)), aOther.Of(f), aSide.Of(f))
		if aTie.Of(f) {
			s += " the tie (" + aRule.Of(f) + ")"
		}
		return s + "."
	case kInitiativeTied:
		return fmt.Sprintf("Initiative: both roll %d, a tie for the referee.", aDie.Of(f))
	case kInitiativeTieRuled:
		return fmt.Sprintf("The referee gives the tied initiative to %s.", aSide.Of(f))
	case kInitiativeAutomatic:
		return fmt.Sprintf("Initiative: %s, without a roll (%s).", aSide.Of(f), aReason.Of(f))
	case kInitiativeRecorded:
		return fmt.Sprintf("Initiative die recorded: %d (GCACW 4.2c).", aDie.Of(f))
	case kInitiativeTaken:
		return fmt.Sprintf("%s takes the initiative.", aSide.Of(f))
	case kInitiativePassed:
		s := aSide.Of(f) + " passes"
		if r := aReason.Of(f); r != "" {
			s += " (" + r + ")"
		}
		return s + "."
	case kActionEnded:
		return ""
	case kCycleEnded:
		return "The action cycle ends: " + aReason.Of(f) + "."
	case kReorganizationEnded:
		return "The Reorganization Phase ends."
	case kReorganizationRolled:
		res := "stays disorganized"
		if aOrganized.Of(f) {
			res = "is organized"
		}
		return fmt.Sprintf("Reorganization roll %s: die %d (organized on %s): %s.", u, aDie.Of(f), aOn.Of(f), res)
	case kVictoryCounted:
		return fmt.Sprintf("Victory points: USA %d, CSA %d (%s).", aUsa.Of(f), aCsa.Of(f), strings.Join(aDetail.Of(f), "; "))
	case kVictoryWeighed:
		return fmt.Sprintf("Victory conditions weighed by the referee: USA %d VP, CSA %d VP by their count (%s).", aUsa.Of(f), aCsa.Of(f), strings.Join(aDetail.Of(f), "; "))
	case kAttacksRuled:
		if aAllowed.Of(f) {
			return "The referee allows marches to end attacking an enemy unit (GCACW 5.1.5)."
		}
		return "The referee refuses marches that end attacking an enemy unit (GCACW 5.1.5)."
	case kLeaderRemoved:
		return fmt.Sprintf("%s leaves play: %s.", aLeader.Of(f), aReason.Of(f))
	case kTurnEnded:
		return fmt.Sprintf("Turn %d ends.", aTurn.Of(f))
	case kGameEnded:
		w := aWinner.Of(f)
		if w == "" {
			w = "nobody (a draw)"
		}
		return "The game ends: won by " + w + "; " + aReason.Of(f) + "."
	case kQueueAdded:
		return fmt.Sprintf("Queued #%d: %s", aN.Of(f), strings.Join(strings.Fields(aOrder.Of(f)), " "))
	case kQueueCancelled:
		return fmt.Sprintf("Queued order #%d cancelled.", aN.Of(f))
	case kQueueUsed:
		return fmt.Sprintf("%s's queued order #%d is used: %s", aSide.Of(f), aN.Of(f), strings.Join(strings.Fields(aOrder.Of(f)), " "))
	case kQueueDropped:
		return fmt.Sprintf("%s's queued order #%d is dropped: %s", aSide.Of(f), aN.Of(f), aReason.Of(f))
	case kMarchBegun:
		if l := aLeader.Of(f); l != "" {
			return fmt.Sprintf("%s marches with %s's MA %d.", u, l, aMa.Of(f))
		}
		return fmt.Sprintf("%s marches: rolls %s: MA %d.", u, dieLine(factDice(f), maMod(f)), aMa.Of(f))
	case kUnitFatigueRaised:
		s := fmt.Sprintf("%s fatigue %d -> %d", u, aFromInt.Of(f), aFatigue.Of(f))
		if aExtended.Of(f) {
			s += ": an Extended March"
		}
		return s + "."
	case kExtendedMarchRolled:
		return fmt.Sprintf("Extended March %s: die %d (the referee reads the table).", u, aDie.Of(f))
	case kExtendedMarchResolved:
		if aBy.Of(f) == "referee" {
			return fmt.Sprintf("Extended March %s: %s (referee).", u, aResult.Of(f))
		}
		return fmt.Sprintf("Extended March %s: rolls %s, column %s: %s.", u, emRoll(f), aColumn.Of(f), aResult.Of(f))
	case kUnitDisorganized:
		return fmt.Sprintf("%s is disorganized (%s).", u, aReason.Of(f))
	case kUnitOrganized:
		return fmt.Sprintf("%s is organized (%s).", u, aReason.Of(f))
	case kUnitExhausted:
		return u + " is exhausted."
	case kUnitRested:
		return u + " is no longer exhausted."
	case kUnitFatigueSet:
		if by := aBy.Of(f); by != "" && by != "referee" {
			return fmt.Sprintf("%s fatigue %d (%s).", u, aFatigue.Of(f), by)
		}
		return fmt.Sprintf("%s fatigue set to %d.", u, aFatigue.Of(f))
	case kStrengthLost:
		return fmt.Sprintf("%s loses %d Manpower, %d left (%s).", u, aManpower.Of(f), aLeft.Of(f), aReason.Of(f))
	case kStrengthSet:
		return fmt.Sprintf("%s Manpower set to %d.", u, aLeft.Of(f))
	case kUnitEliminated:
		return fmt.Sprintf("%s is eliminated (%s).", u, aReason.Of(f))
	case kForceMarchSkipped:
		return fmt.Sprintf("%s does not force march: %s.", u, aReason.Of(f))
	case kUnitForceMarched:
		return fmt.Sprintf("%s force marches: rolls %s: +%d MP, MA %d.", u, forceRoll(f), aMp.Of(f), aMa.Of(f))
	case kUnitMarched:
		return fmt.Sprintf("%s marches %s (%d of %d MP; %s).", u, strings.Join(aPath.Of(f), "-"), aMp.Of(f), aMa.Of(f), aStopped.Of(f))
	case kCavalryRetreated:
		s := fmt.Sprintf("%s retreats %s", u, strings.Join(aPath.Of(f), "-"))
		if by := aBy.Of(f); by != "" && by != "referee" {
			s += " (" + by + ")"
		}
		return s + "."
	case kCavalryStayed:
		return fmt.Sprintf("%s does not retreat (%s).", u, aReason.Of(f))
	case kCavalryRetreatAsked:
		return fmt.Sprintf("%s's march waits: %s is asked whether %s retreats (GCACW 5.1.2).", u, aSide.Of(f), strings.Join(aUnits.Of(f), ", "))
	case kCavalryRetreatProposed:
		return fmt.Sprintf("%s's owner proposes the retreat %s (for the referee).", u, strings.Join(aPath.Of(f), "-"))
	case kCavalryRetreatDone:
		return ""
	case kStandingSet:
		who := aUnit.Of(f)
		if who == "" {
			who = "every cavalry unit"
		}
		if aWhen.Of(f) == "ask" {
			return fmt.Sprintf("%s: no standing Cavalry Retreat order for %s (asked each time).", aSide.Of(f), who)
		}
		return fmt.Sprintf("%s: standing order, Cavalry Retreat %s for %s.", aSide.Of(f), describeWhen(aWhen.Of(f)), who)
	case kUnitPlaced:
		return fmt.Sprintf("%s is placed in %s.", u, aHex.Of(f))
	case kLeaderActivated:
		s := fmt.Sprintf("%s activates %s", aLeader.Of(f), strings.Join(aUnits.Of(f), ", "))
		if l := aLimit.Of(f); l != "any" {
			s += " (limit " + l + ")"
		}
		return s + "."
	case kLeaderMaRolled:
		return fmt.Sprintf("%s's MA (%s leader): rolls %s: MA %d.", aLeader.Of(f), aClass.Of(f), dieLine(factDice(f), fmt.Sprintf("%+d %s leader (5.2.3)", aMa.Of(f)-sum64(factDice(f)), aClass.Of(f))), aMa.Of(f))
	case kActivationSkipped:
		return fmt.Sprintf("%s does not march: %s.", u, aReason.Of(f))
	case kActivationEnded:
		return ""
	case kRefereePending:
		return "Waiting for the referee: " + aNote.Of(f) + "."
	case kRefereeRuled, kUndoPoint, kUndoCleared:
		return ""
	case kOrderUndone:
		return fmt.Sprintf("%s takes back its last order (UNDO): the game is as it was before it.", aSide.Of(f))
	}
	if s, ok := echoAssault(f); ok {
		return s
	}
	return f.String()
}
