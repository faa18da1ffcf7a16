package gcacw

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// UNDO (docs/ORDERS.md): a player takes back their last order while no die
// has been rolled for it and no one has seen it. pbem reads "no one has
// seen it" as "no one has acted since": an order's report goes out at
// once, but until the next order or ruling is decided nothing in the game
// rests on it.
//
// Every accepted order of a player that rolled no die starts with an
// undo.point fact, which keeps the state the order started from; the
// first fact of any other decision, while an undo point is kept, is
// undo.cleared; and UNDO is the fact order.undone, which puts that state
// back. The facts say it all, so a replay needs nothing else.

// UndoPoint is the state before a side's last order, kept while it may
// be taken back.
type UndoPoint struct {
	Side string `json:"side"`
	Prev *State `json:"prev"` // never has an UndoPoint of its own
}

// countDice counts the dice a decision rolls, whoever sees them.
type countDice struct {
	d engine.Dice
	n *int
}

func newCountDice(d engine.Dice) countDice { return countDice{d: d, n: new(int)} }

func (c countDice) Roll(purpose string, sides int) int {
	*c.n++
	return c.d.Roll(purpose, sides)
}

func (c countDice) As(vis events.Vis) engine.Dice { return countDice{d: c.d.As(vis), n: c.n} }

// undo decides UNDO from side.
func (m sim) undo(side string, o Order) []events.Problem {
	u := m.State.Undo
	if u == nil || u.Side != side {
		return []events.Problem{problemAt(o, 0, "there is nothing of yours to take back: UNDO takes back your last order while no die has been rolled for it and no one has acted since (ORDERS.md)", "")}
	}
	m.Emit(kOrderUndone, aSide.Arg(side))
	return nil
}

// markUndo puts the undo bookkeeping before a decision's facts: an undo
// point for an order of side that rolled no die (and did not end the
// game), else the end of any undo point kept.
func markUndo(st *State, side string, facts []events.Fact, rolled bool, after *State) []events.Fact {
	if len(facts) == 0 || len(facts) > 0 && facts[0].Kind == kOrderUndone {
		return facts
	}
	var first events.Fact
	switch {
	case side != engine.RefereeSide && !rolled && after.Phase != PhaseOver:
		first = events.NewFact(kUndoPoint, aSide.Arg(side))
	case st.Undo != nil:
		first = events.NewFact(kUndoCleared)
	default:
		return facts
	}
	return append([]events.Fact{first}, facts...)
}

// applyUndo applies the undo facts to the batch.
func (b *batch) applyUndo(f events.Fact) error {
	c := b.c
	switch f.Kind {
	case kUndoPoint:
		prev := *c
		prev.Undo = nil
		c.Undo = &UndoPoint{Side: aSide.Of(f), Prev: &prev}
		// What c shares with prev is copied before a later fact changes
		// it, as what it shares with the base state is.
		b.base, b.ownUnits, b.ownLeaders = &prev, false, false
	case kUndoCleared:
		c.Undo = nil
	case kOrderUndone:
		u := c.Undo
		if u == nil || u.Side != aSide.Of(f) {
			return fmt.Errorf("%s: no undo point of %s", f.Kind, aSide.Of(f))
		}
		*c = *u.Prev
		b.base, b.ownUnits, b.ownLeaders = u.Prev, false, false
	}
	return nil
}
