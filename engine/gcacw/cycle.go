package gcacw

import (
	"fmt"

	"pbem/events"
)

// canMarch returns "" if unit u may be chosen for a March, or why not
// (GCACW 5.1b; 5.1-OPT with the scenario option).
func (s *State) canMarch(u *Unit) string {
	switch {
	case u.Eliminated:
		return "it has been eliminated"
	case u.Fatigue <= 3:
		return "" // GCACW 5.1c: organized or disorganized alike
	case s.Scn.Option(OptFatigue4) && !u.Disorganized:
		return "" // GCACW 5.1-OPT: fatigue 4, organized
	case s.Scn.Option(OptFatigue4):
		return fmt.Sprintf("it is at fatigue %d and disorganized (GCACW 5.1b, 5.1-OPT)", u.Fatigue)
	}
	return fmt.Sprintf("it is at fatigue %d: only units at fatigue 3 or less march (GCACW 5.1b)", u.Fatigue)
}

// eligible reports whether side has a unit able to act. Until the other
// actions are in the rules, that means able to March or to be activated by
// a leader (Ambiguity A26); a leader is eligible only through a unit at
// fatigue 3 or less, which could also march (5.2d).
func (s *State) eligible(side string) bool {
	anyUnit := s.Scn.Reading(ReadA26) == "any-unit" // every unit is eligible
	for _, u := range s.live() {
		if u.Side == side && (anyUnit || s.canMarch(u) == "") {
			return true
		}
	}
	return false
}

// canAct reports whether side has a unit that can March (and so could be
// activated): what taking the initiative needs, whichever reading of
// Ambiguity A26 says which units are eligible.
func (s *State) canAct(side string) bool {
	for _, u := range s.live() {
		if u.Side == side && s.canMarch(u) == "" {
			return true
		}
	}
	return false
}

// recordsDie reports whether the game records the initiative winner's die
// (GCACW 4.2c: all OTR scenarios; others by scenario option).
func (s *State) recordsDie() bool {
	return s.Scn.Game == "OTR" || s.Scn.Option(OptRecordDie)
}

// beginActionPhase runs an Initiative Segment up to the winner's choice
// (GCACW 4.1, 4.2, 4.4b, the state machine of 4.4d).
func (m sim) beginActionPhase() {
	st := m.State
	eU, eC := st.eligible(USA), st.eligible(CSA)
	if !eU && !eC {
		// GCACW 4.4b: no unit of either side can act.
		m.endCycle("neither side has a unit that can act (GCACW 4.4b)")
		return
	}
	m.Emit(kActionPhaseBegun, aN.Arg(int64(st.Cycle.N+1)))
	tieSpecial := st.Scn.Option(OptTieSpecial)
	if !tieSpecial && !(eU && eC) {
		// GCACW 4.2d: the other side wins automatically, without a roll.
		w, l := USA, CSA
		if !eU {
			w, l = CSA, USA
		}
		m.Emit(kInitiativeAutomatic, aSide.Arg(w), aReason.Arg(l+" has no unit that can act (GCACW 4.2d)"))
		return
	}
	// GCACW 4.2a (A11): one die per side; the higher wins.
	dU := m.Dice.Roll("initiative USA", 6)
	dC := m.Dice.Roll("initiative CSA", 6)
	switch {
	case dU > dC:
		m.Emit(kInitiativeRolled, aSide.Arg(USA), aDie.Arg(int64(dU)), aOther.Arg(int64(dC)))
	case dC > dU:
		m.Emit(kInitiativeRolled, aSide.Arg(CSA), aDie.Arg(int64(dC)), aOther.Arg(int64(dU)))
	default:
		m.tie(dU)
		if m.State.Pending != nil {
			return
		}
	}
	m.recordDie()
}

// tie settles a tied initiative roll (GCACW 4.2b, 4.2e).
func (m sim) tie(d int) {
	st := m.State
	game := st.Scn.Game
	switch {
	case st.Scn.Option(OptTieSpecial):
		// GCACW 4.2e (R6): the scenario's tie may end the turn or cause
		// insubordination; its procedure is the scenario's, so the referee rules.
		m.Emit(kInitiativeTied, aDie.Arg(int64(d)))
		m.Emit(kRefereePending, aStep.Arg(StepTie), aDie.Arg(int64(d)),
			aNote.Arg("a tied initiative roll in this scenario may end the turn or cause insubordination (GCACW 4.2e): rule the winner, or END"))
	case game == "BAC" || game == "AIO":
		// GCACW 4.2b: the game's table says who wins each tied number (R5).
		if len(st.Scn.Tables.Ties) == 0 {
			m.Emit(kInitiativeTied, aDie.Arg(int64(d)))
			m.Emit(kRefereePending, aStep.Arg(StepTie), aDie.Arg(int64(d)),
				aNote.Arg(fmt.Sprintf("%s: the winner of a tie depends on the number rolled (GCACW 4.2b); this scenario loads no tie table", game)))
			return
		}
		row := st.Scn.Tables.Ties[d-1]
		m.Emit(kInitiativeRolled, aSide.Arg(row.Winner), aDie.Arg(int64(d)), aOther.Arg(int64(d)),
			aTie.Arg(true), aRule.Arg(fmt.Sprintf("%s tie table: %d goes to %s (GCACW 4.2b)", game, d, row.Winner)))
		if row.Insubordination {
			m.Emit(kRefereePending, aStep.Arg(StepInsub), aDie.Arg(int64(d)),
				aNote.Arg(fmt.Sprintf("%s: a tie on %d may make units insubordinate (GCACW 4.2b); apply it, then RULE DONE", game, d)))
		}
	default:
		// GCACW 4.2b: in all other games the Confederacy wins ties.
		m.Emit(kInitiativeRolled, aSide.Arg(CSA), aDie.Arg(int64(d)), aOther.Arg(int64(d)),
			aTie.Arg(true), aRule.Arg("the Confederacy wins ties (GCACW 4.2b)"))
	}
}

// recordDie writes down the winner's die where the game requires it
// (GCACW 4.2c).
func (m sim) recordDie() {
	st := m.State
	if !st.recordsDie() || !st.Cycle.Rolled || st.Cycle.Winner == "" {
		return
	}
	d := st.Cycle.DieUSA
	if st.Cycle.Winner == CSA {
		d = st.Cycle.DieCSA
	}
	m.Emit(kInitiativeRecorded, aSide.Arg(st.Cycle.Winner), aDie.Arg(int64(d)))
}

// pass passes the initiative: from the winner to the loser (GCACW 4.2f);
// from the loser, the action cycle ends (GCACW 4.2g, 4.2h, 4.4a).
func (m sim) pass(side, reason string) {
	stage := m.State.Cycle.Stage
	args := []events.Arg{aSide.Arg(side)}
	if reason != "" {
		args = append(args, aReason.Arg(reason))
	}
	m.Emit(kInitiativePassed, args...)
	if stage == StageLoser {
		m.endCycle("both players passed in the same Initiative Segment (GCACW 4.4a)")
	}
}

// endCycle ends the action cycle; the Reorganization Phase follows
// (GCACW 4.4c) and is the referee's (R14).
func (m sim) endCycle(reason string) {
	m.Emit(kCycleEnded, aReason.Arg(reason))
}

// take takes the initiative (GCACW 4.2f, 4.2g) if not taken already.
func (m sim) take(side string) {
	if m.State.Cycle.Stage != StageAct {
		m.Emit(kInitiativeTaken, aSide.Arg(side))
	}
}

// endAction ends the action; a new Action Phase follows (GCACW 4.4a).
func (m sim) endAction() {
	m.Emit(kActionEnded, aSide.Arg(m.State.Cycle.Holder))
}

// advance runs every step that needs no one's decision: the next
// Initiative Segment, automatic passes, and orders waiting in the queue of
// the side that holds the initiative. It stops where a player or the
// referee must answer.
func (m sim) advance() {
	for range 10000 {
		st := m.State
		if st.Pending != nil && !(st.Pending.Step == StepEvent && st.Phase == PhaseTransfer && len(st.TransferDone) < 2) || st.Ask != nil {
			return
		}
		switch st.Phase {
		case PhaseTransfer:
			if st.Pending != nil || len(st.TransferDone) < 2 {
				return
			}
			m.Emit(kCycleBegun, aTurn.Arg(int64(st.Turn)))
		case PhaseCycle:
			switch st.Cycle.Stage {
			case "", StageDone:
				if st.Cycle.Stage == "" && st.Cycle.Rolled {
					return // a tie waits for the referee
				}
				m.beginActionPhase()
			case StageChoose, StageLoser:
				h := st.Cycle.Holder
				if !st.eligible(h) {
					// GCACW 4.2e: a winner with no eligible unit must pass;
					// (derived, 4.4d) so must a loser with none.
					m.pass(h, "no unit that can act (GCACW 4.2e)")
					continue
				}
				if !m.useQueue(h) {
					return
				}
			case StageAct:
				if !m.useQueue(st.Cycle.Holder) {
					return
				}
			default:
				return
			}
		case PhaseReorg:
			// GCACW 3, phase 4: by the scenario's table, or the referee's.
			if st.Scn.Tables.Reorg == nil {
				return
			}
			m.reorganize()
		case PhaseVictory:
			// R24: by the scenario's victory conditions, or the referee's
			// (who weighs them where the scenario says "decide referee").
			if !st.Scn.Tables.Victory.counts() {
				return
			}
			m.victory()
		default:
			return
		}
	}
	panic(internal{fmt.Errorf("advance: no end to automatic steps")})
}
