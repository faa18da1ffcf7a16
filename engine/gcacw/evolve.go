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
	id := f.Str("unit")
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
	case "turn.begun":
		c.Turn = int(f.Int("turn"))
		c.Phase = PhaseTransfer
		c.TransferDone = nil
		c.Cycle = Cycle{}
		c.Event = ""
		for i := range c.Units {
			if c.Units[i].MarchedTurn {
				b.unitAt(i).MarchedTurn = false
			}
		}
	case "random_event.rolled":
		c.Event = "roll " + strconv.FormatInt(f.Int("roll"), 10)
		if e := f.Str("event"); e != "" {
			c.Event += ": " + e
		}
	case "leader.transferred", "leader.removed":
		id := f.Str("leader")
		i, ok := c.leaderIndex(id)
		if !ok {
			return fmt.Errorf("no leader %s", id)
		}
		l := b.leaderAt(i)
		// GCACW 2.2j: to another unit, or out of play with none left.
		l.Removed = f.Kind == "leader.removed"
		l.With = f.Str("to")
	case "transfer.done":
		c.TransferDone = append(slices.Clone(c.TransferDone), f.Str("side"))
		slices.Sort(c.TransferDone)
	case "cycle.begun":
		c.Phase = PhaseCycle
		c.Cycle = Cycle{}
	case "action_phase.begun":
		c.Cycle = Cycle{N: int(f.Int("n")), Recorded: 0}
		for i := range c.Units {
			if u := c.Units[i]; u.Marched || u.Activated {
				v := b.unitAt(i)
				v.Marched, v.Activated = false, false
			}
		}
	case "initiative.rolled":
		w := f.Str("side")
		c.Cycle.Winner, c.Cycle.Rolled, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, true, w, "roll", StageChoose
		if w == USA {
			c.Cycle.DieUSA, c.Cycle.DieCSA = int(f.Int("die")), int(f.Int("other"))
		} else {
			c.Cycle.DieCSA, c.Cycle.DieUSA = int(f.Int("die")), int(f.Int("other"))
		}
	case "initiative.tied":
		c.Cycle.Rolled = true
		c.Cycle.DieUSA, c.Cycle.DieCSA = int(f.Int("die")), int(f.Int("die"))
	case "initiative.tie_ruled":
		w := f.Str("side")
		c.Cycle.Winner, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, w, "roll", StageChoose
	case "initiative.automatic":
		w := f.Str("side")
		c.Cycle.Winner, c.Cycle.Rolled, c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = w, false, w, "auto", StageChoose
	case "initiative.recorded":
		c.Cycle.Recorded = int(f.Int("die"))
	case "initiative.taken":
		if c.Cycle.Holder != f.Str("side") {
			return fmt.Errorf("%s: %s does not hold the initiative", f.Kind, f.Str("side"))
		}
		c.Cycle.Stage = StageAct
	case "initiative.passed":
		switch c.Cycle.Stage {
		case StageChoose:
			c.Cycle.Holder, c.Cycle.Via, c.Cycle.Stage = opponent(f.Str("side")), "pass", StageLoser
		case StageLoser:
			c.Cycle.Stage = StageDone
			c.Cycle.Holder = ""
		default:
			return fmt.Errorf("%s in stage %q", f.Kind, c.Cycle.Stage)
		}
	case "action.ended":
		c.Cycle.Stage = StageDone
		c.Cycle.Acting = false
	case "cycle.ended":
		c.Phase = PhaseReorg
		c.Cycle = Cycle{}
		c.March, c.Act = nil, nil
	case "reorganization.ended", "reorganization.rolled", "victory.counted":
	case "turn.ended":
		c.Phase = PhaseVictory
	case "game.ended":
		c.Phase = PhaseOver
		c.Winner = f.Str("winner")
		c.Result = f.Str("reason")

	// --- queue (docs/ORDERS.md) ---
	case "queue.added":
		c.Queue = append(slices.Clone(c.Queue), Queued{Side: f.Str("side"), N: int(f.Int("n")), Order: f.Str("order")})
		c.QueueSeq = slices.Clone(c.QueueSeq)
		if len(c.QueueSeq) < 2 {
			c.QueueSeq = []int{0, 0}
		}
		c.QueueSeq[sideIdx(f.Str("side"))] = int(f.Int("n"))
	case "queue.cancelled", "queue.used", "queue.dropped":
		side, n := f.Str("side"), int(f.Int("n"))
		q := slices.DeleteFunc(slices.Clone(c.Queue), func(q Queued) bool { return q.Side == side && q.N == n })
		if len(q) == len(c.Queue) {
			return fmt.Errorf("%s: no queued order %s #%d", f.Kind, side, n)
		}
		if len(q) == 0 {
			q = nil
		}
		c.Queue = q

	// --- march (GCACW 5.1) ---
	case "march.begun":
		id, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		pl, err := planFromString(f.Str("plan"))
		if err != nil {
			return fmt.Errorf("%s: %w", f.Kind, err)
		}
		u := b.unitAt(i)
		u.Marched, u.MarchedTurn = true, true
		c.March = &March{Unit: id, Plan: pl, MA: int(f.Int("ma")), Leader: f.Str("leader"), Opt: f.Bool("opt"), Next: "fatigue"}
		c.Cycle.Acting = true
	case "unit.fatigue_raised":
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Fatigue = int(f.Int("fatigue"))
		if m := b.march(); m != nil {
			m.Extended = f.Bool("extended")
			m.Next = "retreat"
			if m.Extended {
				m.Next = "em"
			}
		}
	case "extended_march.rolled":
	case "extended_march.resolved":
		if m := b.march(); m != nil {
			m.Next = "retreat"
		}
	case "unit.disorganized", "unit.organized":
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Disorganized = f.Kind == "unit.disorganized"
	case "unit.exhausted", "unit.rested":
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Exhausted = f.Kind == "unit.exhausted"
	case "unit.fatigue_set":
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Fatigue = int(f.Int("fatigue"))
	case "strength.lost", "strength.set":
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
		}
		b.unitAt(i).Manpower = int(f.Int("left"))
	case "unit.eliminated":
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
	case "force_march.skipped":
		if m := b.march(); m != nil {
			m.Next = "move"
		}
	case "unit.force_marched":
		if m := b.march(); m != nil {
			m.Next, m.MA = "move", int(f.Int("ma"))
		}
	case "unit.marched", "cavalry.retreated", "unit.placed":
		_, i, err := c.unitArg(&f)
		if err != nil {
			return err
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
			return fmt.Errorf("%s: bad path or hex: %v", f.Kind, err)
		}
		b.unitAt(i).Hex = to
		c.Focus = path
		switch {
		case f.Kind == "unit.marched":
			c.March = nil
			b.activationStep()
		}

	// --- Cavalry Retreat (GCACW 5.1.2) and standing orders ---
	case "standing.set":
		side, unit, when := f.Str("side"), f.Str("unit"), f.Str("when")
		st := slices.DeleteFunc(slices.Clone(c.Standing), func(o Standing) bool { return o.Side == side && o.Unit == unit })
		if when != "ask" {
			st = append(st, Standing{Side: side, Unit: unit, When: when})
			slices.SortFunc(st, func(a, b Standing) int { return strings.Compare(a.Side+"/"+a.Unit, b.Side+"/"+b.Unit) })
		}
		if len(st) == 0 {
			st = nil
		}
		c.Standing = st
	case "cavalry_retreat.asked":
		c.Ask = &Ask{Side: f.Str("side"), Unit: f.Str("unit"), Units: slices.Clone(f.Strs("units")), Wish: slices.Clone(f.Strs("wish"))}
		if len(c.Ask.Wish) == 0 {
			c.Ask.Wish = nil
		}
		if m := b.march(); m != nil {
			m.Next = "retreat"
		}
	case "cavalry_retreat.done":
		c.Ask = nil
		if m := b.march(); m != nil {
			m.Next = "force"
		}
	case "cavalry.stayed", "cavalry_retreat.proposed":
	case "attacks.ruled":
		c.Attacks = f.Bool("allowed")

	// --- leader activation (GCACW 5.2) ---
	case "leader.activated":
		if c.leader(f.Str("leader")) == nil {
			return fmt.Errorf("%s: no leader %q", f.Kind, f.Str("leader"))
		}
		a := &Activation{Leader: f.Str("leader"), Units: slices.Clone(f.Strs("units"))}
		plans := f.Strs("plans")
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
	case "leader.ma_rolled":
		a := b.act()
		if a == nil {
			return fmt.Errorf("%s with no activation", f.Kind)
		}
		a.MA = int(f.Int("ma"))
	case "activation.skipped":
		b.activationStep()
	case "activation.ended":
		c.Act = nil

	// --- UNDO (undo.go) ---
	case "undo.point", "undo.cleared", "order.undone":
		return b.applyUndo(f)

	// --- referee ---
	case "set":
		return b.set(f)
	case "referee.pending":
		if f.Str("step") == StepRetreat {
			c.Ask = nil
		}
		c.Pending = &Pending{Step: f.Str("step"), Unit: f.Str("unit"), Leader: f.Str("leader"), Units: slices.Clone(f.Strs("units")),
			Die: int(f.Int("die")), Path: slices.Clone(f.Strs("path")), Note: f.Str("note")}
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
	case "referee.ruled":
		c.Pending = nil
		if f.Str("step") == StepRetreat {
			if m := b.march(); m != nil {
				m.Next = "force"
			}
		}
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
