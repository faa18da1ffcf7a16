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

// apply records one fact in s, which is the caller's own copy.
func (s *State) apply(f events.Fact) error {
	unit := func() (*Unit, error) {
		u := s.unit(f.Str("unit"))
		if u == nil {
			return nil, fmt.Errorf("hra: %s: no unit %q", f.Kind, f.Str("unit"))
		}
		return u, nil
	}
	brig := func() (*Brigade, error) {
		b := s.brigade(f.Str("brigade"))
		if b == nil {
			return nil, fmt.Errorf("hra: %s: no brigade %q", f.Kind, f.Str("brigade"))
		}
		return b, nil
	}
	switch f.Kind {
	case "battle.begun", "volley.fired", "morale.tested", "note":
	case "general.rolled", "general.set":
		b, err := brig()
		if err != nil {
			return err
		}
		b.Status = int(f.Int("status"))
	case "generals.rolled":
		side := f.Str("side")
		if side != Union && side != Confederate {
			return fmt.Errorf("hra: generals.rolled: no side %q", side)
		}
		if s.Generals == nil {
			s.Generals = map[string][]int{}
		}
		var pool []int
		for _, v := range f.Ints("statuses") {
			pool = append(pool, int(v))
		}
		s.Generals[side] = pool
		s.Phase = PhaseGenerals
	case "general.assigned":
		b, err := brig()
		if err != nil {
			return err
		}
		b.Status = int(f.Int("status"))
		pool := slices.Clone(s.Generals[b.Side])
		if i := slices.Index(pool, b.Status); i >= 0 {
			pool = slices.Delete(pool, i, i+1)
		}
		if len(pool) == 0 {
			delete(s.Generals, b.Side)
		} else {
			s.Generals[b.Side] = pool
		}
	case "general.killed":
		b, err := brig()
		if err != nil {
			return err
		}
		b.Killed, b.With = true, ""
	case "general.moved":
		b, err := brig()
		if err != nil {
			return err
		}
		b.With = f.Str("unit")
	case "supply.rolled":
		u, err := unit()
		if err != nil {
			return err
		}
		u.Supply = int(f.Int("supply"))
	case "round.begun":
		s.Round = int(f.Int("round"))
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
	case "initiative.rolled", "initiative.set":
		s.Initiative = f.Str("side")
	case "turn.passed":
		s.ToAct = f.Str("to")
	case "phase.fire":
		s.Phase, s.ToAct = PhaseFire, ""
	case "unit.moved":
		u, err := unit()
		if err != nil {
			return err
		}
		u.Front = table.Pt(table.Length(f.Int("x")), table.Length(f.Int("y")))
		u.Facing = table.Angle(f.Int("facing")).Norm()
		u.Column = f.Bool("column")
		u.Moved += table.Length(f.Int("cost"))
		if f.Int("cost") > 0 || f.Bool("forced") {
			u.Entrenched = false
		}
	case "unit.ordered":
		u, err := unit()
		if err != nil {
			return err
		}
		u.Ordered, u.Order = true, f.Str("order")
	case "unit.set", "referee.set":
		if f.Str("unit") == "" && f.Kind == "referee.set" {
			return setGame(s, f)
		}
		u, err := unit()
		if err != nil {
			return err
		}
		if err := setField(s, u, f.Str("field"), f); err != nil {
			return err
		}
	case "brigade.ordered":
		b, err := brig()
		if err != nil {
			return err
		}
		b.Done = true
	case "melee.begun":
		s.Melees = append(s.Melees, Melee{Attacker: f.Str("attacker"), Defender: f.Str("defender"), New: true})
	case "melee.ended":
		s.Melees = slices.DeleteFunc(s.Melees, func(m Melee) bool {
			return m.Attacker == f.Str("attacker") && m.Defender == f.Str("defender")
		})
	case "volleys.declared":
		side := f.Str("side")
		if slices.Contains(s.Declared, side) {
			return fmt.Errorf("hra: %s declared twice", side)
		}
		s.Declared = append(s.Declared, side)
		ts := f.Strs("targets")
		for i, fr := range f.Strs("firers") {
			if i < len(ts) {
				s.Volleys = append(s.Volleys, Volley{Firer: fr, Target: ts[i]})
			}
		}
	case "picks.stated":
		side := f.Str("side")
		if side != Union && side != Confederate {
			return fmt.Errorf("hra: picks.stated: no side %q", side)
		}
		m := &s.FirePicks
		if f.Str("what") == "retreat" {
			m = &s.RetreatPicks
		}
		if *m == nil {
			*m = map[string][]string{}
		}
		(*m)[side] = slices.Clone(f.Strs("units"))
	case "battle.ended":
		s.Phase, s.ToAct = PhaseOver, ""
		s.Winner, s.Result = f.Str("winner"), f.Str("reason")
		s.Score = []int{int(f.Int("union")), int(f.Int("confederate"))}
	default:
		return fmt.Errorf("hra: unknown fact %q", f.Kind)
	}
	return nil
}

// setField sets one field of a unit (decisions' unit.set, the referee's
// SET). Removing a unit ends its melees.
func setField(s *State, u *Unit, field string, f events.Fact) error {
	v := int(f.Int("to"))
	switch field {
	case "state":
		u.State = max(v, 0)
		if u.Removed() {
			s.Melees = slices.DeleteFunc(s.Melees, func(m Melee) bool { return m.Attacker == u.Name || m.Defender == u.Name })
		}
	case "supply":
		u.Supply = max(v, 0)
	case "busy":
		u.Busy = v
		u.Work = f.Str("work")
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
		u.Pending = f.Str("work")
	case "pos":
		u.Front = table.Pt(table.Length(f.Int("x")), table.Length(f.Int("y")))
	case "facing":
		u.Facing = table.Angle(v).Norm()
	default:
		return fmt.Errorf("hra: unknown unit field %q", field)
	}
	return nil
}

// setGame applies a referee's SET to a brigade or the game.
func setGame(s *State, f events.Fact) error {
	switch f.Str("field") {
	case "round":
		s.Round = int(f.Int("to"))
	case "initiative":
		s.Initiative = f.Str("word")
	case "general":
		if b := s.brigade(f.Str("brigade")); b != nil {
			b.Status, b.Killed = int(f.Int("to")), false
			return nil
		}
		return fmt.Errorf("hra: no brigade %q", f.Str("brigade"))
	case "with":
		if b := s.brigade(f.Str("brigade")); b != nil {
			b.With, b.Killed = f.Str("word"), false
			return nil
		}
		return fmt.Errorf("hra: no brigade %q", f.Str("brigade"))
	default:
		return fmt.Errorf("hra: unknown field %q", f.Str("field"))
	}
	return nil
}
