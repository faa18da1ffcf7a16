package engine

import (
	"fmt"

	"pbem/events"
)

// Sim is how a rule system decides one action: each fact, as it is made,
// is applied to the state at once with the rule system's own Evolve, so
// the next rule reads the state after it, and the facts and the echo
// (how each line was read) are collected with their visibilities. A
// decision made this way evolves to exactly the state Decide saw, which
// is what the runtime and the acceptance suite expect.
//
// A fact that does not evolve is a bug in the rule system: Emit stops the
// decision at once (Decide, below, returns the error), rather than let
// it go on from a state that is not the one the log will give.
type Sim[S any] struct {
	State S
	Dice  Dice

	evolve  func(S, events.Fact) (S, error)
	facts   []events.Fact
	echo    []string
	echoVis []events.Vis
}

// simStop carries an evolve error out of a decision.
type simStop struct{ err error }

// Emit makes a public fact and applies it.
func (m *Sim[S]) Emit(kind string, args ...events.Arg) { m.EmitFact(events.NewFact(kind, args...)) }

// EmitTo makes a fact only vis's viewers see, and applies it.
func (m *Sim[S]) EmitTo(vis events.Vis, kind string, args ...events.Arg) {
	m.EmitFact(events.NewFact(kind, args...).To(vis))
}

// EmitFact applies f and keeps it.
func (m *Sim[S]) EmitFact(f events.Fact) {
	next, err := m.evolve(m.State, f)
	if err != nil {
		panic(simStop{fmt.Errorf("%s: %w", f, err)})
	}
	m.State = next
	m.facts = append(m.facts, f)
}

// Say adds a public line to the echo.
func (m *Sim[S]) Say(format string, a ...any) { m.SayTo(events.Vis{}, format, a...) }

// SayTo adds a line to the echo that only vis's viewers read.
func (m *Sim[S]) SayTo(vis events.Vis, format string, a ...any) {
	m.echo = append(m.echo, fmt.Sprintf(format, a...))
	m.echoVis = append(m.echoVis, vis)
}

// Facts are the facts emitted so far.
func (m *Sim[S]) Facts() []events.Fact { return m.facts }

// Decide runs fn on a Sim of st and returns what it made: its facts and
// echo, or, when fn returns problems, the problems alone (nothing of a
// rejected action is applied). An evolve error inside fn ends it and is
// returned.
func Decide[S any](st S, dice Dice, evolve func(S, events.Fact) (S, error), fn func(m *Sim[S]) []events.Problem) (d Decision, err error) {
	m := &Sim[S]{State: st, Dice: dice, evolve: evolve}
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(simStop)
			if !ok {
				panic(r)
			}
			d, err = Decision{}, stop.err
		}
	}()
	if probs := fn(m); len(probs) > 0 {
		return Decision{Problems: probs}, nil
	}
	return Decision{Echo: m.echo, EchoVis: events.CompactVis(m.echoVis), Facts: m.facts}, nil
}
