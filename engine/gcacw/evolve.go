package gcacw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pbem/engine/hex"
	"pbem/events"
)

// evolve applies one fact to s and returns the next state; s is never
// changed (every slice or pointer that changes is copied first).
func evolve(s *State, f events.Fact) (*State, error) {
	b := newBatch(s)
	if err := b.apply(f); err != nil {
		return nil, err
	}
	return b.c, nil
}

// evolveAll applies a decision's facts in order and returns the state
// after the last: the state evolve gives applied fact by fact, built with
// one copy of the state rather than one per fact. s is never changed.
func evolveAll(s *State, fs []events.Fact) (*State, error) {
	b := newBatch(s)
	for _, f := range fs {
		if err := b.apply(f); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	return b.c, nil
}

// batch is a state being changed in place by facts: c is a private
// shallow copy of base, the state the facts started from. What c shares
// with base (the Units and Leaders slices, each unit and leader, the
// March, Activation and Pending records) is copied the first time a fact
// changes it and changed in place after that, so base is never changed and
// a decision's facts copy each thing they touch once. A pointer in c equal
// to the one in base is shared; any other was made by this batch.
type batch struct {
	base, c    *State
	ownUnits   bool // c.Units is a copy of base.Units
	ownLeaders bool
}

func newBatch(s *State) *batch {
	return &batch{base: s, c: s.clone()}
}

// unitAt returns c.Units[i], ready to be changed.
func (b *batch) unitAt(i int) *Unit {
	if !b.ownUnits {
		b.c.Units = slices.Clone(b.c.Units)
		b.ownUnits = true
	}
	if u := b.c.Units[i]; u == b.base.Units[i] {
		v := *u
		b.c.Units[i] = &v
	}
	return b.c.Units[i]
}

// leaderAt returns c.Leaders[i], ready to be changed.
func (b *batch) leaderAt(i int) *Leader {
	if !b.ownLeaders {
		b.c.Leaders = slices.Clone(b.c.Leaders)
		b.ownLeaders = true
	}
	if l := b.c.Leaders[i]; l == b.base.Leaders[i] {
		v := *l
		b.c.Leaders[i] = &v
	}
	return b.c.Leaders[i]
}

// march returns c.March ready to be changed, or nil if no march is in
// progress.
func (b *batch) march() *March {
	if b.c.March != nil && b.c.March == b.base.March {
		m := *b.c.March
		b.c.March = &m
	}
	return b.c.March
}

// act returns c.Act ready to be changed, or nil if no activation is in
// progress.
func (b *batch) act() *Activation {
	if b.c.Act != nil && b.c.Act == b.base.Act {
		a := *b.c.Act
		b.c.Act = &a
	}
	return b.c.Act
}

// unitArg finds a fact's unit: its ID and its index in s.Units.
func (s *State) unitArg(f *events.Fact) (string, int, error) {
	id := aUnit.Of(*f)
	i, ok := s.unitIndex(id)
	if !ok {
		return id, 0, fmt.Errorf("%s: no unit %q", f.Kind, id)
	}
	return id, i, nil
}

// activationStep counts a finished march in the activation in progress.
func (b *batch) activationStep() {
	if a := b.act(); a != nil {
		a.Done++
	}
}

// apply applies one fact to c.
func (b *batch) apply(f events.Fact) error {
	c := b.c
	switch f.Kind {
	// --- turn sequence (GCACW 3) ---
	case kTurnBegun:
		c.Turn = int(aTurn.Of(f))
		c.Phase = PhaseTransfer
		c.TransferDone = nil
		c.Cycle = Cycle{}
		c.Event = ""
		for i := range c.Units {
			if c.Units[i].MarchedTurn {
				b.unitAt(i).MarchedTurn = false
			}
		}
	case kRandomEventRolled:
		c.Event = "roll " + strconv.FormatInt(aRoll.Of(f), 10)
		if e := aEvent.Of(f); e != "" {
			c.Event += ": " + e
		}
	case kLeaderTransferred, kLeaderRemoved:
		id := aLeader.Of(f)
		i, ok := c.leaderIndex(id)
		if !ok {
			return fmt.Errorf("no leader %s", id)
		}
		l := b.leaderAt(i)
		// GCACW 2.2j: to another unit, or out of play with none left.
		l.Removed, l.With = true, ""
		if f.Kind == kLeaderTransferred {
			l.Removed, l.With = false, aTo.Of(f)
		}
	case kTransferDone:
		c.TransferDone = append(slices.Clone(c.TransferDone), aSide.Of(f))
		slices.Sort(c.TransferDone)
	case kCycleBegun:
		c.Phase = PhaseCycle
		c.Cycle = Cycle{}
	case kActionPhaseBegun:
		c.Cycle = Cycle{N: int(aN.Of(f)), Recorded: 0}
		for i := range c.Units {
			if u := c.Units[i]; u.Marched || u.Activated {
				v := b.unitAt(i)
				v.Marched, v.Activated = false, false
			}
		}
	case kInitiativeRolled:
		w := aSide.Of(f)
		c.Cycle.Winner, c.Cycle.Rolled, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, true, w, "roll", StageChoose
		if w == USA {
			c.Cycle.DieUSA, c.Cycle.DieCSA = int(aDie.Of(f)), int(aOther.Of(f))
		} else {
			c.Cycle.DieCSA, c.Cycle.DieUSA = int(aDie.Of(f)), int(aOther.Of(f))
		}
	case kInitiativeTied:
		c.Cycle.Rolled = true
		c.Cycle.DieUSA, c.Cycle.DieCSA = int(aDie.Of(f)), int(aDie.Of(f))
	case kInitiativeTieRuled:
		w := aSide.Of(f)
		c.Cycle.Winner, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, w, "roll", StageChoose
	case kInitiativeAutomatic:
		w := aSide.Of(f)
		c.Cycle.Winner, c.Cycle.Rolled, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, false, w, "auto", StageChoose
	case kInitiativeRecorded:
		c.Cycle.Recorded = int(aDie.Of(f))
	case kInitiativeTaken:
		if c.Cycle.Holder != aSide.Of(f) {
			return fmt.Errorf("%s: %s does not hold the initiative", f.Kind, aSide.Of(f))
		}
		c.Cycle.Stage = StageAct
	case kInitiativePassed:
		switch c.Cycle.Stage {
		case StageChoose:
			c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = opponent(aSide.Of(f)), "pass", StageLoser
		case StageLoser:
			c.Cycle.Stage = StageDone
			c.Cycle.Holder = ""
		default:
			return fmt.Errorf("%s in stage %q", f.Kind, c.Cycle.Stage)
		}
	case kActionEnded:
		c.Cycle.Stage = StageDone
		c.Cycle.Acting = false
	case kCycleEnded:
		c.Phase = PhaseReorg
		c.Cycle = Cycle{}
		c.March, c.Act = nil, nil
	case kReorganizationEnded, kReorganizationRolled, kVictoryCounted, kVictoryWeighed:
	case kTurnEnded:
		c.Phase = PhaseVictory
	case kGameEnded:
		c.Phase = PhaseOver
		c.Winner = aWinner.Of(f)
		c.Result = aReason.Of(f)

	// --- queue (docs/ORDERS.md) ---
	case kQueueAdded:
		c.Queue = append(slices.Clone(c.Queue), Queued{Side: aSide.Of(f), N: int(aN.Of(f)), Order: aOrder.Of(f)})
		c.QueueSeq = slices.Clone(c.QueueSeq)
		if len(c.QueueSeq) < 2 {
			c.QueueSeq = []int{0, 0}
		}
		c.QueueSeq[sideIdx(aSide.Of(f))] = int(aN.Of(f))
	case kQueueCancelled, kQueueUsed, kQueueDropped:
		side, n := aSide.Of(f), int(aN.Of(f))
		q := slices.DeleteFunc(slices.Clone(c.Queue), func(q Queued) bool { return q.Side == side && q.N == n })
		if len(q) == len(c.Queue) {
			return fmt.Errorf("%s: no queued order %s #%d", f.Kind, side, n)
		}
		if len(q) == 0 {
			q = nil
		}
		c.Queue = q

	// --- march (GCACW 5.1) ---
	case kMarchBegun:
		id, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		pl, err := planFromString(aPlan.Of(f))
		if err != nil {
			return fmt.Errorf("%s: %w", f.Kind, err)
		}
		u := b.unitAt(i)
		u.Marched, u.MarchedTurn = true, true
		c.March = &March{Unit: id, Plan: pl, MA: int(aMa.Of(f)), Leader: aLeader.Of(f), Opt: aOpt.Of(f), Next: "fatigue"}
		c.Cycle.Acting = true
	case kUnitFatigueRaised:
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Fatigue = int(aFatigue.Of(f))
		if m := b.march(); m != nil {
			m.Extended = aExtended.Of(f)
			m.Next = "retreat"
			if m.Extended {
				m.Next = "em"
			}
		}
	case kExtendedMarchRolled:
	case kExtendedMarchResolved:
		if m := b.march(); m != nil {
			m.Next = "retreat"
		}
	case kUnitDisorganized, kUnitOrganized:
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Disorganized = f.Kind == kUnitDisorganized
	case kUnitExhausted, kUnitRested:
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Exhausted = f.Kind == kUnitExhausted
	case kUnitFatigueSet:
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Fatigue = int(aFatigue.Of(f))
	case kStrengthLost, kStrengthSet:
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Manpower = int(aLeft.Of(f))
	case kUnitEliminated:
		id, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		u := b.unitAt(i)
		u.Eliminated, u.Manpower = true, 0
		if c.March != nil && c.March.Unit == id {
			c.March = nil
			b.activationStep()
		}
	case kForceMarchSkipped:
		if m := b.march(); m != nil {
			m.Next = "move"
		}
	case kUnitForceMarched:
		if m := b.march(); m != nil {
			m.Next, m.MA = "move", int(aMa.Of(f))
		}
	case kUnitMarched, kCavalryRetreated, kUnitPlaced:
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		var to hex.Hex
		var path []hex.Hex
		if f.Kind == kUnitPlaced {
			to, err = hex.Parse(aHex.Of(f))
			path = []hex.Hex{to}
		} else {
			path, err = hexList(aPath.Of(f))
			if len(path) > 0 {
				to = path[len(path)-1]
			}
		}
		if err != nil || len(path) == 0 {
			return fmt.Errorf("%s: bad path or hex: %v", f.Kind, err)
		}
		b.unitAt(i).Hex = to
		c.Focus = path
		switch {
		case f.Kind == kUnitMarched:
			c.March = nil
			b.activationStep()
		}

	// --- Cavalry Retreat (GCACW 5.1.2) and standing orders ---
	case kStandingSet:
		side, unit, when := aSide.Of(f), aUnit.Of(f), aWhen.Of(f)
		st := slices.DeleteFunc(slices.Clone(c.Standing), func(o Standing) bool { return o.Side == side && o.Unit == unit })
		if when != "ask" {
			st = append(st, Standing{Side: side, Unit: unit, When: when})
			slices.SortFunc(st, func(a, b Standing) int { return strings.Compare(a.Side+"/"+a.Unit, b.Side+"/"+b.Unit) })
		}
		if len(st) == 0 {
			st = nil
		}
		c.Standing = st
	case kCavalryRetreatAsked:
		c.Ask = &Ask{Side: aSide.Of(f), Unit: aUnit.Of(f), Units: slices.Clone(aUnits.Of(f)), Wish: slices.Clone(aWish.Of(f))}
		if len(c.Ask.Wish) == 0 {
			c.Ask.Wish = nil
		}
		if m := b.march(); m != nil {
			m.Next = "retreat"
		}
	case kFallBackAsked:
		c.Ask = &Ask{Side: aSide.Of(f), Hex: aHex.Of(f), Units: slices.Clone(aUnits.Of(f)), Attackers: slices.Clone(aAttackers.Of(f)),
			Defenders: slices.Clone(aDefenders.Of(f)), Step: aStep.Of(f)}
	case kFallBackDone:
		c.Ask = nil
	case kCavalryRetreatDone:
		c.Ask = nil
		if m := b.march(); m != nil {
			m.Next = "force"
		}
	case kCavalryStayed, kCavalryRetreatProposed:
	case kAttacksRuled:
		c.Attacks = aAllowed.Of(f)

	// --- leader activation (GCACW 5.2) ---
	case kLeaderActivated:
		if c.leader(aLeader.Of(f)) == nil {
			return fmt.Errorf("%s: no leader %q", f.Kind, aLeader.Of(f))
		}
		a := &Activation{Leader: aLeader.Of(f), Units: slices.Clone(aUnits.Of(f))}
		plans := aPlans.Of(f)
		if len(plans) != len(a.Units) {
			return fmt.Errorf("%s: %d plans for %d units", f.Kind, len(plans), len(a.Units))
		}
		if len(plans) > 0 {
			a.Plans = make([]Plan, 0, len(plans))
		}
		for i, id := range a.Units {
			pl, err := planFromString(plans[i])
			if err != nil {
				return fmt.Errorf("%s: %w", f.Kind, err)
			}
			a.Plans = append(a.Plans, pl)
			j, ok := c.unitIndex(id)
			if !ok {
				return fmt.Errorf("%s: no unit %q", f.Kind, id)
			}
			b.unitAt(j).Activated = true
		}
		c.Act = a
		c.Cycle.Acting = true
	case kLeaderMaRolled:
		a := b.act()
		if a == nil {
			return fmt.Errorf("%s with no activation", f.Kind)
		}
		a.MA = int(aMa.Of(f))
	case kActivationSkipped:
		b.activationStep()
	case kActivationEnded:
		c.Act = nil

	// --- UNDO (undo.go) ---
	case kUndoPoint, kUndoCleared, kOrderUndone:
		return b.applyUndo(f)

	// --- referee ---
	case kSet:
		return b.set(f)
	case kRefereePending:
		if aStep.Of(f) == StepRetreat {
			c.Ask = nil
		}
		c.Pending = &Pending{Step: aStep.Of(f), Unit: aUnit.Of(f), Leader: aLeader.Of(f), Units: slices.Clone(aUnits.Of(f)),
			Die: int(aDie.Of(f)), Path: slices.Clone(aPath.Of(f)), Note: aNote.Of(f)}
		if m := b.march(); m != nil {
			switch c.Pending.Step {
			case StepMove:
				m.Next = "move"
			case StepRetreat:
				m.Next = "retreat"
			case StepExtended:
				m.Next = "em"
			}
		}
	case kBattleOpened:
		at := aHex.Of(f)
		c.Pending = &Pending{Step: StepBattle, Leader: aLeader.Of(f), Units: slices.Clone(aUnits.Of(f)), Path: []string{at},
			Note: fmt.Sprintf("the assault on %s is being fought out as a battle of %s, scenario %s", at, systemTitle(aSystem.Of(f)), aScenario.Of(f)),
			Battle: &FoughtOut{Key: aKey.Of(f), System: aSystem.Of(f), Scenario: aScenario.Of(f), Side: aSide.Of(f), Sides: slices.Clone(aSides.Of(f)),
				Forces: aForcesBy.Of(f), Muster: slices.Clone(aMuster.Of(f))}}
	case kBattleEnded:
		c.Pending = nil
	case kRefereeRuled:
		c.Pending = nil
		if aStep.Of(f) == StepRetreat {
			if m := b.march(); m != nil {
				m.Next = "force"
			}
		}
	case kAssaultDeclared:
		c.Cycle.Acting = true
	case kAssaultRolled:
	case kUnitFellBack, kUnitAdvanced:
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		var to hex.Hex
		if f.Kind == kUnitAdvanced {
			to, err = hex.Parse(aHex.Of(f))
		} else if path := aPath.Of(f); len(path) > 0 {
			to, err = hex.Parse(path[len(path)-1])
		} else {
			err = fmt.Errorf("no path")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", f.Kind, err)
		}
		b.unitAt(i).Hex = to
	default:
		return fmt.Errorf("gcacw: unknown fact %q", f.Kind)
	}
	return nil
}

func hexList(ss []string) ([]hex.Hex, error) {
	out := make([]hex.Hex, 0, len(ss))
	for _, x := range ss {
		h, err := hex.Parse(x)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

func hexStrs(hs []hex.Hex) []string {
	out := make([]string, 0, len(hs))
	for _, h := range hs {
		out = append(out, h.String())
	}
	return out
}
