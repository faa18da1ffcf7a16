package hra

import (
	"fmt"
	"slices"

	"pbem/engine/table"
	"pbem/events"
)

// evolve applies one fact to a copy of st. Facts carry the values they
// set, so evolve only records them.
func evolve(st *State, f events.Fact) (*State, error) {
	s := st.clone()
	if err := s.apply(f); err != nil {
		return nil, err
	}
	return s, nil
}

// evolveAll applies a decision's facts in order to one copy of st: each
// fact only records values in the copy, so the copy evolve makes for each
// fact (every unit and brigade, most of a replay's time) is made once per
// decision instead.
func evolveAll(st *State, fs []events.Fact) (*State, error) {
	s := st.clone()
	for _, f := range fs {
		if err := s.apply(f); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	return s, nil
}

// evolveOwned applies a decision's facts to st itself, which the caller
// owns (play.OwnedEvolver). A state a fold owns came from evolveAll,
// whose clone copies every list and map apply changes, or from an earlier
// evolveOwned, so it shares nothing apply changes with the states before
// it: the fold copies the state once, not once per decision.
func evolveOwned(st *State, fs []events.Fact) (*State, error) {
	for _, f := range fs {
		if err := st.apply(f); err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
	}
	return st, nil
}

// inertFacts are the facts apply records by doing nothing (its first
// case): a fold skips them (play.InertFacter).
var inertFacts = []string{kBattleBegun, kVolleyFired, kMoraleTested, kNote}

// apply records one fact in s, which is the caller's own copy.
func (s *State) apply(f events.Fact) error {
	unit := func() (*Unit, error) {
		u := s.unit(aUnit.Of(f))
		if u == nil {
			return nil, fmt.Errorf("hra: %s: no unit %q", f.Kind, aUnit.Of(f))
		}
		return u, nil
	}
	brig := func() (*Brigade, error) {
		b := s.brigade(aBrigade.Of(f))
		if b == nil {
			return nil, fmt.Errorf("hra: %s: no brigade %q", f.Kind, aBrigade.Of(f))
		}
		return b, nil
	}
	switch f.Kind {
	case kBattleBegun, kVolleyFired, kMoraleTested, kNote:
	case kGeneralRolled, kGeneralSet:
		b, err := brig()
		if err != nil {
			return err
		}
		b.Status = int(aStatus.Of(f))
	case kGeneralsRolled:
		side := aSide.Of(f)
		if side != Union && side != Confederate {
			return fmt.Errorf("hra: generals.rolled: no side %q", side)
		}
		if s.Generals == nil {
			s.Generals = map[string][]int{}
		}
		var pool []int
		for _, v := range aStatuses.Of(f) {
			pool = append(pool, int(v))
		}
		s.Generals[side] = pool
		s.Phase = PhaseGenerals
	case kGeneralAssigned:
		b, err := brig()
		if err != nil {
			return err
		}
		b.Status = int(aStatus.Of(f))
		pool := slices.Clone(s.Generals[b.Side])
		if i := slices.Index(pool, b.Status); i >= 0 {
			pool = slices.Delete(pool, i, i+1)
		}
		if len(pool) == 0 {
			delete(s.Generals, b.Side)
		} else {
			s.Generals[b.Side] = pool
		}
	case kGeneralKilled:
		b, err := brig()
		if err != nil {
			return err
		}
		b.Killed, b.With = true, ""
	case kGeneralMoved:
		b, err := brig()
		if err != nil {
			return err
		}
		b.With = aUnit.Of(f)
	case kSupplyRolled:
		u, err := unit()
		if err != nil {
			return err
		}
		u.Supply = int(aSupply.Of(f))
	case kRoundBegun:
		s.Round = int(aRound.Of(f))
		s.Phase = PhaseOrders
		s.Volleys, s.Declared, s.FirePicks = nil, nil, nil
		for i := range s.Units {
			u := &s.Units[i]
			u.Ordered, u.PassedBy, u.Acted, u.Moved, u.Order = false, false, false, 0, ""
		}
		for i := range s.Brigades {
			s.Brigades[i].Done = false
		}
		for i := range s.Melees {
			s.Melees[i].New = false
		}
	case kInitiativeRolled, kInitiativeSet:
		s.Initiative = aSide.Of(f)
	case kTurnPassed:
		s.ToAct = aToStr.Of(f)
	case kPhaseFire:
		s.Phase, s.ToAct = PhaseFire, ""
	case kUnitMoved:
		u, err := unit()
		if err != nil {
			return err
		}
		u.Front = table.Pt(table.Length(aX.Of(f)), table.Length(aY.Of(f)))
		u.Facing = table.Angle(aFacing.Of(f)).Norm()
		u.Column = aColumn.Of(f)
		u.Moved += table.Length(aCost.Of(f))
		if aCost.Of(f) > 0 || aForced.Of(f) {
			u.Entrenched = false
		}
	case kUnitOrdered:
		u, err := unit()
		if err != nil {
			return err
		}
		u.Ordered, u.Order = true, aOrder.Of(f)
	case kUnitSet, kRefereeSet:
		if aUnit.Of(f) == "" && f.Kind == kRefereeSet {
			return setGame(s, f)
		}
		u, err := unit()
		if err != nil {
			return err
		}
		if err := setField(s, u, aField.Of(f), f); err != nil {
			return err
		}
	case kBrigadeOrdered:
		b, err := brig()
		if err != nil {
			return err
		}
		b.Done = true
	case kMeleeBegun:
		s.Melees = append(s.Melees, Melee{Attacker: aAttacker.Of(f), Defender: aDefender.Of(f), New: true})
	case kMeleeEnded:
		s.Melees = slices.DeleteFunc(s.Melees, func(m Melee) bool {
			return m.Attacker == aAttacker.Of(f) && m.Defender == aDefender.Of(f)
		})
	case kVolleysDeclared:
		side := aSide.Of(f)
		if slices.Contains(s.Declared, side) {
			return fmt.Errorf("hra: %s declared twice", side)
		}
		s.Declared = append(s.Declared, side)
		ts := aTargets.Of(f)
		for i, fr := range aFirers.Of(f) {
			if i < len(ts) {
				s.Volleys = append(s.Volleys, Volley{Firer: fr, Target: ts[i]})
			}
		}
	case kPicksStated:
		side := aSide.Of(f)
		if side != Union && side != Confederate {
			return fmt.Errorf("hra: picks.stated: no side %q", side)
		}
		m := &s.FirePicks
		if aWhat.Of(f) == "retreat" {
			m = &s.RetreatPicks
		}
		if *m == nil {
			*m = map[string][]string{}
		}
		(*m)[side] = slices.Clone(aUnits.Of(f))
	case kBattleEnded:
		s.Phase, s.ToAct = PhaseOver, ""
		s.Winner, s.Result = aWinner.Of(f), aReason.Of(f)
		s.Score = []int{int(aUnion.Of(f)), int(aConfederate.Of(f))}
	default:
		return fmt.Errorf("hra: unknown fact %q", f.Kind)
	}
	return nil
}

// setField sets one field of a unit (decisions' unit.set, the referee's
// SET). Removing a unit ends its melees.
func setField(s *State, u *Unit, field string, f events.Fact) error {
	v := int(aTo.Of(f))
	switch field {
	case "state":
		u.State = max(v, 0)
		if f.Kind == kRefereeSet && s.Phase == PhaseStart {
			// The referee setting the battle up before BEGIN: what the
			// unit lacks then is no loss of the battle's.
			u.Short = 3 - u.State
		}
		if u.Removed() {
			s.Melees = slices.DeleteFunc(s.Melees, func(m Melee) bool { return m.Attacker == u.Name || m.Defender == u.Name })
		}
	case "supply":
		u.Supply = max(v, 0)
	case "busy":
		u.Busy = v
		u.Work = aWork.Of(f)
	case "charges":
		u.Charges = v
	case "column":
		u.Column = v != 0
	case "limbered":
		u.Limbered = v != 0
	case "dismounted":
		u.Dismounted = v != 0
	case "retreating":
		u.Retreating = v != 0
	case "entrenched":
		u.Entrenched = v != 0
	case "acted":
		u.Acted = v != 0
	case "withdraw_next":
		u.WithdrawNext = v != 0
	case "retreat_next":
		u.RetreatNext = v != 0
	case "passed_by":
		u.PassedBy = v != 0
	case "pending":
		u.Pending = aWork.Of(f)
	case "pos":
		u.Front = table.Pt(table.Length(aX.Of(f)), table.Length(aY.Of(f)))
	case "facing":
		u.Facing = table.Angle(v).Norm()
	default:
		return fmt.Errorf("hra: unknown unit field %q", field)
	}
	return nil
}

// setGame applies a referee's SET to a brigade or the game.
func setGame(s *State, f events.Fact) error {
	switch aField.Of(f) {
	case "round":
		s.Round = int(aTo.Of(f))
	case "initiative":
		s.Initiative = aWord.Of(f)
	case "general":
		if b := s.brigade(aBrigade.Of(f)); b != nil {
			b.Status, b.Killed = int(aTo.Of(f)), false
			return nil
		}
		return fmt.Errorf("hra: no brigade %q", aBrigade.Of(f))
	case "with":
		if b := s.brigade(aBrigade.Of(f)); b != nil {
			b.With, b.Killed = aWord.Of(f), false
			return nil
		}
		return fmt.Errorf("hra: no brigade %q", aBrigade.Of(f))
	default:
		return fmt.Errorf("hra: unknown field %q", aField.Of(f))
	}
	return nil
}
