package gcacw

import (
	"fmt"
	"slices"

	"pbem/engine/hex"
	"pbem/events"
)

// evolve applies one fact to s and returns the next state; s is never
// changed (every slice or pointer that changes is copied first).
func evolve(s *State, f events.Fact) (*State, error) {
	// unitArg finds the fact's unit: its ID and its index in s.Units.
	unitArg := func() (string, int, error) {
		id := f.Str("unit")
		i, ok := s.unitIndex(id)
		if !ok {
			return id, 0, fmt.Errorf("%s: no unit %q", f.Kind, id)
		}
		return id, i, nil
	}
	switch f.Kind {
	// --- turn sequence (GCACW 3) ---
	case "turn.begun":
		c := s.clone()
		c.Turn = int(f.Int("turn"))
		c.Phase = PhaseTransfer
		c.TransferDone = nil
		c.Cycle = Cycle{}
		c.Event = ""
		return c, nil
	case "random_event.rolled":
		c := s.clone()
		c.Event = fmt.Sprintf("roll %d", f.Int("roll"))
		if e := f.Str("event"); e != "" {
			c.Event += ": " + e
		}
		return c, nil
	case "leader.transferred":
		return s.withLeader(f.Str("leader"), func(l *Leader) { l.With = f.Str("to") })
	case "transfer.done":
		c := s.clone()
		c.TransferDone = append(slices.Clone(s.TransferDone), f.Str("side"))
		slices.Sort(c.TransferDone)
		return c, nil
	case "cycle.begun":
		c := s.clone()
		c.Phase = PhaseCycle
		c.Cycle = Cycle{}
		return c, nil
	case "action_phase.begun":
		c := s.clone()
		c.Cycle = Cycle{N: int(f.Int("n")), Recorded: 0}
		c.Units = slices.Clone(s.Units)
		for i, u := range c.Units {
			if u.Marched || u.Activated {
				v := *u
				v.Marched, v.Activated = false, false
				c.Units[i] = &v
			}
		}
		return c, nil
	case "initiative.rolled":
		c := s.clone()
		w := f.Str("side")
		c.Cycle.Winner, c.Cycle.Rolled, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, true, w, "roll", StageChoose
		if w == USA {
			c.Cycle.DieUSA, c.Cycle.DieCSA = int(f.Int("die")), int(f.Int("other"))
		} else {
			c.Cycle.DieCSA, c.Cycle.DieUSA = int(f.Int("die")), int(f.Int("other"))
		}
		return c, nil
	case "initiative.tied":
		c := s.clone()
		c.Cycle.Rolled = true
		c.Cycle.DieUSA, c.Cycle.DieCSA = int(f.Int("die")), int(f.Int("die"))
		return c, nil
	case "initiative.tie_ruled":
		c := s.clone()
		w := f.Str("side")
		c.Cycle.Winner, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, w, "roll", StageChoose
		return c, nil
	case "initiative.automatic":
		c := s.clone()
		w := f.Str("side")
		c.Cycle.Winner, c.Cycle.Rolled, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, false, w, "auto", StageChoose
		return c, nil
	case "initiative.recorded":
		c := s.clone()
		c.Cycle.Recorded = int(f.Int("die"))
		return c, nil
	case "initiative.taken":
		if s.Cycle.Holder != f.Str("side") {
			return nil, fmt.Errorf("%s: %s does not hold the initiative", f.Kind, f.Str("side"))
		}
		c := s.clone()
		c.Cycle.Stage = StageAct
		return c, nil
	case "initiative.passed":
		c := s.clone()
		switch s.Cycle.Stage {
		case StageChoose:
			c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = opponent(f.Str("side")), "pass", StageLoser
		case StageLoser:
			c.Cycle.Stage = StageDone
			c.Cycle.Holder = ""
		default:
			return nil, fmt.Errorf("%s in stage %q", f.Kind, s.Cycle.Stage)
		}
		return c, nil
	case "action.ended":
		c := s.clone()
		c.Cycle.Stage = StageDone
		c.Cycle.Acting = false
		return c, nil
	case "cycle.ended":
		c := s.clone()
		c.Phase = PhaseReorg
		c.Cycle = Cycle{}
		c.March, c.Act = nil, nil
		return c, nil
	case "reorganization.ended":
		return s.clone(), nil
	case "turn.ended":
		c := s.clone()
		c.Phase = PhaseVictory
		return c, nil
	case "game.ended":
		c := s.clone()
		c.Phase = PhaseOver
		c.Winner = f.Str("winner")
		c.Result = f.Str("reason")
		return c, nil

	// --- queue (ORDERS.md) ---
	case "queue.added":
		c := s.clone()
		c.Queue = append(slices.Clone(s.Queue), Queued{Side: f.Str("side"), N: int(f.Int("n")), Order: f.Str("order")})
		c.QueueSeq = slices.Clone(s.QueueSeq)
		if len(c.QueueSeq) < 2 {
			c.QueueSeq = []int{0, 0}
		}
		c.QueueSeq[sideIdx(f.Str("side"))] = int(f.Int("n"))
		return c, nil
	case "queue.cancelled", "queue.used", "queue.dropped":
		c := s.clone()
		c.Queue = slices.DeleteFunc(slices.Clone(s.Queue), func(q Queued) bool { return q.Side == f.Str("side") && q.N == int(f.Int("n")) })
		if len(c.Queue) == len(s.Queue) {
			return nil, fmt.Errorf("%s: no queued order %s #%d", f.Kind, f.Str("side"), f.Int("n"))
		}
		if len(c.Queue) == 0 {
			c.Queue = nil
		}
		return c, nil

	// --- march (GCACW 5.1) ---
	case "march.begun":
		id, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		pl, err := planFromString(f.Str("plan"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Kind, err)
		}
		c := s.withUnitAt(i, func(u *Unit) { u.Marched = true })
		c.March = &March{Unit: id, Plan: pl, MA: int(f.Int("ma")), Leader: f.Str("leader"), Opt: f.Bool("opt"), Next: "fatigue"}
		c.Cycle.Acting = true
		return c, nil
	case "unit.fatigue_raised":
		_, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		c := s.withUnitAt(i, func(u *Unit) { u.Fatigue = int(f.Int("fatigue")) })
		if c.March != nil {
			m := *c.March
			m.Extended = f.Bool("extended")
			m.Next = "retreat"
			if m.Extended {
				m.Next = "em"
			}
			c.March = &m
		}
		return c, nil
	case "extended_march.rolled":
		return s.clone(), nil
	case "extended_march.resolved":
		c := s.clone()
		if c.March != nil {
			m := *c.March
			m.Next = "retreat"
			c.March = &m
		}
		return c, nil
	case "unit.disorganized", "unit.organized":
		_, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		return s.withUnitAt(i, func(u *Unit) { u.Disorganized = f.Kind == "unit.disorganized" }), nil
	case "unit.exhausted", "unit.rested":
		_, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		return s.withUnitAt(i, func(u *Unit) { u.Exhausted = f.Kind == "unit.exhausted" }), nil
	case "unit.fatigue_set":
		_, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		return s.withUnitAt(i, func(u *Unit) { u.Fatigue = int(f.Int("fatigue")) }), nil
	case "strength.lost", "strength.set":
		_, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		return s.withUnitAt(i, func(u *Unit) { u.Manpower = int(f.Int("left")) }), nil
	case "unit.eliminated":
		id, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		c := s.withUnitAt(i, func(u *Unit) { u.Eliminated, u.Manpower = true, 0 })
		if c.March != nil && c.March.Unit == id {
			c.March = nil
			c = c.activationStep()
		}
		return c, nil
	case "force_march.skipped":
		c := s.clone()
		if c.March != nil {
			m := *c.March
			m.Next = "move"
			c.March = &m
		}
		return c, nil
	case "unit.force_marched":
		c := s.clone()
		if c.March != nil {
			m := *c.March
			m.Next, m.MA = "move", int(f.Int("ma"))
			c.March = &m
		}
		return c, nil
	case "unit.marched", "cavalry.retreated", "unit.placed":
		_, i, err := unitArg()
		if err != nil {
			return nil, err
		}
		var to hex.Hex
		var path []hex.Hex
		if f.Kind == "unit.placed" {
			to, err = hex.Parse(f.Str("hex"))
			path = []hex.Hex{to}
		} else {
			path, err = hexList(f.Strs("path"))
			if len(path) > 0 {
				to = path[len(path)-1]
			}
		}
		if err != nil || len(path) == 0 {
			return nil, fmt.Errorf("%s: bad path or hex: %v", f.Kind, err)
		}
		c := s.withUnitAt(i, func(u *Unit) { u.Hex = to })
		c.Focus = path
		switch {
		case f.Kind == "unit.marched":
			c.March = nil
			c = c.activationStep()
		case f.Kind == "cavalry.retreated" && c.March != nil:
			m := *c.March
			m.Next = "force"
			c.March = &m
		}
		return c, nil

	// --- leader activation (GCACW 5.2) ---
	case "leader.activated":
		if s.leader(f.Str("leader")) == nil {
			return nil, fmt.Errorf("%s: no leader %q", f.Kind, f.Str("leader"))
		}
		a := &Activation{Leader: f.Str("leader"), Units: f.Strs("units")}
		plans := f.Strs("plans")
		if len(plans) != len(a.Units) {
			return nil, fmt.Errorf("%s: %d plans for %d units", f.Kind, len(plans), len(a.Units))
		}
		c := s.clone()
		c.Units = slices.Clone(s.Units)
		for i, id := range a.Units {
			pl, err := planFromString(plans[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Kind, err)
			}
			a.Plans = append(a.Plans, pl)
			j, ok := c.unitIndex(id)
			if !ok {
				return nil, fmt.Errorf("%s: no unit %q", f.Kind, id)
			}
			u := *c.Units[j]
			u.Activated = true
			c.Units[j] = &u
		}
		c.Act = a
		c.Cycle.Acting = true
		return c, nil
	case "leader.ma_rolled":
		if s.Act == nil {
			return nil, fmt.Errorf("%s with no activation", f.Kind)
		}
		c := s.clone()
		a := *s.Act
		a.MA = int(f.Int("ma"))
		c.Act = &a
		return c, nil
	case "activation.skipped":
		return s.clone().activationStep(), nil
	case "activation.ended":
		c := s.clone()
		c.Act = nil
		return c, nil

	// --- referee ---
	case "referee.pending":
		c := s.clone()
		c.Pending = &Pending{Step: f.Str("step"), Unit: f.Str("unit"), Leader: f.Str("leader"), Units: f.Strs("units"),
			Die: int(f.Int("die")), Path: f.Strs("path"), Note: f.Str("note")}
		if c.March != nil {
			m := *c.March
			switch c.Pending.Step {
			case StepMove:
				m.Next = "move"
			case StepRetreat:
				m.Next = "retreat"
			case StepExtended:
				m.Next = "em"
			}
			c.March = &m
		}
		return c, nil
	case "referee.ruled":
		c := s.clone()
		c.Pending = nil
		if f.Str("step") == StepRetreat && c.March != nil {
			m := *c.March
			m.Next = "force"
			c.March = &m
		}
		return c, nil
	}
	return nil, fmt.Errorf("gcacw: unknown fact %q", f.Kind)
}

// activationStep counts a finished march in the activation in progress.
func (s *State) activationStep() *State {
	if s.Act == nil {
		return s
	}
	a := *s.Act
	a.Done++
	s.Act = &a
	return s
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
