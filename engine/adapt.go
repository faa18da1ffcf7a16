package engine

import (
	"fmt"

	"pbem/engine/draw"
	"pbem/events"
)

// Helpers for a ruleset's adapter: the engine hands a ruleset back only
// the states and orders the ruleset made, typed as State and Order, and
// these turn them back into the ruleset's own types.

// StateAs returns s as the ruleset's own state type S. Any other type is
// a programming error (the engine never mixes rulesets' states), so it
// panics, naming the ruleset.
func StateAs[S any](ruleset string, s State) S {
	st, ok := s.(S)
	if !ok {
		panic(fmt.Sprintf("%s: state of type %T", ruleset, s))
	}
	return st
}

// OrdersOf returns a ruleset's parsed orders as the engine's.
func OrdersOf[O any](os []O) []Order {
	out := make([]Order, len(os))
	for i, o := range os {
		out[i] = o
	}
	return out
}

// OrdersAs returns the engine's orders as the ruleset's own type O.
func OrdersAs[O any](ruleset string, orders []Order) ([]O, error) {
	out := make([]O, 0, len(orders))
	for _, o := range orders {
		oo, ok := o.(O)
		if !ok {
			return nil, fmt.Errorf("%s: order of type %T", ruleset, o)
		}
		out = append(out, oo)
	}
	return out, nil
}

// Rules is a rule system written against its own types: S its state
// (immutable: Evolve returns a new one) and O its parsed orders. Adapt
// makes it a Ruleset, so a rule system writes no conversions of its own.
// The methods mean what Ruleset's of the same name mean.
type Rules[S, O any] interface {
	Name() string
	Version() string
	Setup(scenario []byte, players []events.Player) (S, error)
	Parse(s S, side, text string) ([]O, []events.Problem)
	Decide(s S, side string, orders []O, dice Dice) (Decision, error)
	Evolve(s S, f events.Fact) (S, error)
	Facts() []FactSchema
	Describe(s S, f events.Fact) string
	Prompt(s S) []Prompt
	View(s S, v Viewer) View
	Render(v View) Board
	Outcome(s S) Outcome
	// Turn is the game turn s is in, 1 for the first (see Turner).
	Turn(s S) int
	EncodeState(s S) ([]byte, error)
	DecodeState(b []byte, initial S) (S, error)
}

// BatchRules is an optional method of Rules: EvolveAll as BatchEvolver
// describes it, for a rule system whose replay is faster with one copy of
// its state per decision than one per fact.
type BatchRules[S any] interface {
	EvolveAll(s S, facts []events.Fact) (S, error)
}

// OwnedRules is an optional method of Rules: EvolveOwned as
// OwnedEvolver describes it, for a rule system whose state knows which of
// its parts it owns, so that a fold changes the state in place after its
// first copy.
type OwnedRules[S any] interface {
	EvolveOwned(s S, facts []events.Fact) (S, error)
}

// InertRules is an optional method of Rules: InertFacts as InertFacter
// describes it.
type InertRules interface {
	InertFacts() []string
}

// StepperRules is an optional method of Rules: RefereeSteps as
// RefereeStepper describes it, on the rule system's own state.
type StepperRules[S any] interface {
	RefereeSteps(s S) []string
}

// ExplainerRules is an optional method of Rules: Explain as Explainer
// describes it, on the rule system's own state.
type ExplainerRules[S any] interface {
	Explain(s S, v Viewer, word string) []Explanation
}

// Adapt returns r as a Ruleset (also a Teller, a Turner, a BatchEvolver,
// an OwnedEvolver, an InertFacter, a Drawer and a Counter: Draw and
// Count call r's when it has them, as Drawer and Counter describe them,
// and return nil when it has not). A Rules that also has StepperRules' or
// ExplainerRules' method is a RefereeStepper or an Explainer too, and one
// without is not: the runtime tells by a type assertion whether a rule
// system has the method, so the Ruleset has it exactly when r does.
func Adapt[S, O any](r Rules[S, O]) Ruleset {
	a := adapter[S, O]{r}
	st, steps := r.(StepperRules[S])
	ex, explains := r.(ExplainerRules[S])
	s, x := stepper[S]{r.Name(), st}, explainer[S]{r.Name(), ex}
	switch {
	case steps && explains:
		return struct {
			adapter[S, O]
			stepper[S]
			explainer[S]
		}{a, s, x}
	case steps:
		return struct {
			adapter[S, O]
			stepper[S]
		}{a, s}
	case explains:
		return struct {
			adapter[S, O]
			explainer[S]
		}{a, x}
	}
	return a
}

// stepper is the RefereeStepper method of an adapted Rules that has it.
type stepper[S any] struct {
	ruleset string
	r       StepperRules[S]
}

func (x stepper[S]) RefereeSteps(s State) []string {
	return x.r.RefereeSteps(StateAs[S](x.ruleset, s))
}

// explainer is the Explainer method of an adapted Rules that has it.
type explainer[S any] struct {
	ruleset string
	r       ExplainerRules[S]
}

func (x explainer[S]) Explain(s State, v Viewer, word string) []Explanation {
	return x.r.Explain(StateAs[S](x.ruleset, s), v, word)
}

type adapter[S, O any] struct{ r Rules[S, O] }

var (
	_ Ruleset      = adapter[int, int]{}
	_ Teller       = adapter[int, int]{}
	_ Turner       = adapter[int, int]{}
	_ BatchEvolver = adapter[int, int]{}
	_ OwnedEvolver = adapter[int, int]{}
	_ InertFacter  = adapter[int, int]{}
	_ Drawer       = adapter[int, int]{}
	_ Counter      = adapter[int, int]{}

	_ RefereeStepper = stepper[int]{}
	_ Explainer      = explainer[int]{}
)

func (a adapter[S, O]) state(s State) S { return StateAs[S](a.r.Name(), s) }

func (a adapter[S, O]) Name() string    { return a.r.Name() }
func (a adapter[S, O]) Version() string { return a.r.Version() }

func (a adapter[S, O]) Setup(scenario []byte, players []events.Player) (State, error) {
	s, err := a.r.Setup(scenario, players)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (a adapter[S, O]) Parse(s State, side, text string) ([]Order, []events.Problem) {
	os, probs := a.r.Parse(a.state(s), side, text)
	if len(probs) > 0 {
		return nil, probs
	}
	return OrdersOf(os), nil
}

func (a adapter[S, O]) Decide(s State, side string, orders []Order, dice Dice) (Decision, error) {
	os, err := OrdersAs[O](a.r.Name(), orders)
	if err != nil {
		return Decision{}, err
	}
	return a.r.Decide(a.state(s), side, os, dice)
}

func (a adapter[S, O]) Evolve(s State, f events.Fact) (State, error) {
	next, err := a.r.Evolve(a.state(s), f)
	if err != nil {
		return nil, err
	}
	return next, nil
}

// InertFacts are the Rules' InertFacts if it has them, else none.
func (a adapter[S, O]) InertFacts() []string {
	if in, ok := a.r.(InertRules); ok {
		return in.InertFacts()
	}
	return nil
}

// EvolveOwned is the Rules' EvolveOwned if it has one, else EvolveAll
// (a copy, which the caller may own as well as its input).
func (a adapter[S, O]) EvolveOwned(s State, facts []events.Fact) (State, error) {
	if o, ok := a.r.(OwnedRules[S]); ok {
		next, err := o.EvolveOwned(a.state(s), facts)
		if err != nil {
			return nil, err
		}
		return next, nil
	}
	return a.EvolveAll(s, facts)
}

func (a adapter[S, O]) EvolveAll(s State, facts []events.Fact) (State, error) {
	st := a.state(s)
	if b, ok := a.r.(BatchRules[S]); ok {
		next, err := b.EvolveAll(st, facts)
		if err != nil {
			return nil, err
		}
		return next, nil
	}
	for _, f := range facts {
		next, err := a.r.Evolve(st, f)
		if err != nil {
			return nil, fmt.Errorf("evolve %s: %w", f.Kind, err)
		}
		st = next
	}
	return st, nil
}

func (a adapter[S, O]) Facts() []FactSchema { return a.r.Facts() }
func (a adapter[S, O]) Describe(s State, f events.Fact) string {
	return a.r.Describe(a.state(s), f)
}
func (a adapter[S, O]) Prompt(s State) []Prompt             { return a.r.Prompt(a.state(s)) }
func (a adapter[S, O]) View(s State, v Viewer) View         { return a.r.View(a.state(s), v) }
func (a adapter[S, O]) Render(v View) Board                 { return a.r.Render(v) }
func (a adapter[S, O]) Outcome(s State) Outcome             { return a.r.Outcome(a.state(s)) }
func (a adapter[S, O]) Turn(s State) int                    { return a.r.Turn(a.state(s)) }
func (a adapter[S, O]) EncodeState(s State) ([]byte, error) { return a.r.EncodeState(a.state(s)) }
func (a adapter[S, O]) DecodeState(b []byte, initial State) (State, error) {
	s, err := a.r.DecodeState(b, a.state(initial))
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (a adapter[S, O]) Draw(v View) *draw.Scene {
	if d, ok := a.r.(Drawer); ok {
		return d.Draw(v)
	}
	return nil
}

func (a adapter[S, O]) Count(v View) []SideCount {
	if c, ok := a.r.(Counter); ok {
		return c.Count(v)
	}
	return nil
}
