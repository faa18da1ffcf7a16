package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

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
// The methods mean what Ruleset's of the same name mean; what a rule
// system may leave out, it says in Extras.
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
	// Extras are the rule system's optional parts, the one way a rule
	// system has or has not one: Adapt reads them once.
	Extras() Extras[S]
}

// Extras are the optional parts of a Rules, each nil (or empty) when the
// rule system has not that part; Adapt supplies the default said.
type Extras[S any] struct {
	// EvolveAll is the runtime's play.BatchEvolver, on the rule system's
	// own state; by default Evolve fact by fact.
	EvolveAll func(s S, facts []events.Fact) (S, error)
	// EvolveOwned is play.OwnedEvolver's; by default EvolveAll (a copy).
	EvolveOwned func(s S, facts []events.Fact) (S, error)
	// InertFacts is play.InertFacter's.
	InertFacts []string
	// RefereeSteps is RefereeStepper's; without it a rule system names no
	// step it hands to a referee.
	RefereeSteps func(s S) []string
	// Explain is Explainer's; without it a rule system adds no sections.
	Explain func(s S, v Viewer, word string) []Explanation
	// Guide is Guider's; without it the order guide gives no example
	// of a shortened keyword or a condition.
	Guide OrderGuide
	// Summarize is Summarizer's; without it a rule system tells nothing
	// of its scenarios but their names.
	Summarize func(s S) Summary
	// Draw and Count are Drawer's and Counter's; without them a rule
	// system draws and counts nothing.
	Draw  func(v View) *draw.Scene
	Count func(v View) []SideCount
	// EncodeState and DecodeState are Ruleset's, both or neither. By
	// default a state is its JSON encoding, and a decoded state gets
	// what its encoding leaves out (the scenario) from the game's initial
	// state with Attach, when given.
	EncodeState func(s S) ([]byte, error)
	DecodeState func(b []byte, initial S) (S, error)
	Attach      func(decoded, initial S) S
	// Battles and BattleResult are Linker's (a campaign's battles fought
	// out in other rule systems); without them a state waits on none.
	Battles      func(s S) []Battle
	BattleResult func(b Battle, end BattleEnd) string
	// Losses is LossCounter's; without it a rule system counts none.
	Losses func(s S) map[string]int
	// BattlePlans is BattlePlanner's; without it a scenario maps no
	// battle's forces.
	BattlePlans func(scenario []byte) ([]BattlePlan, error)
}

// Adapt returns r as a Ruleset, which is also every optional interface
// the runtime asks for (a Teller, a Turner, a BatchEvolver, an
// OwnedEvolver, an InertFacter, a RefereeStepper, an Explainer, a
// Summarizer, a Drawer and a Counter), each answering as r's Extras say, or as the default.
func Adapt[S, O any](r Rules[S, O]) Ruleset {
	return adapter[S, O]{r: r, x: extrasOf(r)}
}

// extras keeps the Extras of each comparable Rules value adapted, so
// that every Ruleset adapted from one rule system holds the same
// pointer: adapted rulesets stay comparable (==, reflect.DeepEqual), as
// they were before they held functions, and Extras is asked once.
var extras sync.Map // Rules value → *Extras[S]

func extrasOf[S, O any](r Rules[S, O]) *Extras[S] {
	if !reflect.TypeOf(r).Comparable() {
		x := r.Extras()
		return &x
	}
	if x, ok := extras.Load(r); ok {
		return x.(*Extras[S])
	}
	x := r.Extras()
	got, _ := extras.LoadOrStore(r, &x)
	return got.(*Extras[S])
}

type adapter[S, O any] struct {
	r Rules[S, O]
	x *Extras[S]
}

var (
	_ Ruleset        = adapter[int, int]{}
	_ Teller         = adapter[int, int]{}
	_ Turner         = adapter[int, int]{}
	_ Drawer         = adapter[int, int]{}
	_ Counter        = adapter[int, int]{}
	_ RefereeStepper = adapter[int, int]{}
	_ Explainer      = adapter[int, int]{}
	_ Summarizer     = adapter[int, int]{}
	_ Guider         = adapter[int, int]{}
	_ Linker         = adapter[int, int]{}
	_ LossCounter    = adapter[int, int]{}
	_ BattlePlanner  = adapter[int, int]{}
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

func (a adapter[S, O]) InertFacts() []string { return a.x.InertFacts }

func (a adapter[S, O]) EvolveOwned(s State, facts []events.Fact) (State, error) {
	if a.x.EvolveOwned == nil {
		return a.EvolveAll(s, facts)
	}
	next, err := a.x.EvolveOwned(a.state(s), facts)
	if err != nil {
		return nil, err
	}
	return next, nil
}

func (a adapter[S, O]) EvolveAll(s State, facts []events.Fact) (State, error) {
	st := a.state(s)
	if a.x.EvolveAll != nil {
		next, err := a.x.EvolveAll(st, facts)
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
func (a adapter[S, O]) Prompt(s State) []Prompt     { return a.r.Prompt(a.state(s)) }
func (a adapter[S, O]) View(s State, v Viewer) View { return a.r.View(a.state(s), v) }
func (a adapter[S, O]) Render(v View) Board         { return a.r.Render(v) }
func (a adapter[S, O]) Outcome(s State) Outcome     { return a.r.Outcome(a.state(s)) }
func (a adapter[S, O]) Turn(s State) int            { return a.r.Turn(a.state(s)) }

func (a adapter[S, O]) EncodeState(s State) ([]byte, error) {
	if a.x.EncodeState != nil {
		return a.x.EncodeState(a.state(s))
	}
	b, err := json.Marshal(a.state(s))
	if err != nil {
		return nil, fmt.Errorf("%s: encode state: %w", a.r.Name(), err)
	}
	return b, nil
}

func (a adapter[S, O]) DecodeState(b []byte, initial State) (State, error) {
	if a.x.DecodeState != nil {
		s, err := a.x.DecodeState(b, a.state(initial))
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	var s S
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: decode state: %w", a.r.Name(), err)
	}
	if v := reflect.ValueOf(&s).Elem(); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("%s: decode state: no state", a.r.Name())
	}
	if a.x.Attach != nil {
		s = a.x.Attach(s, a.state(initial))
	}
	return s, nil
}

func (a adapter[S, O]) RefereeSteps(s State) []string {
	if a.x.RefereeSteps == nil {
		return nil
	}
	return a.x.RefereeSteps(a.state(s))
}

func (a adapter[S, O]) Summarize(s State) Summary {
	if a.x.Summarize == nil {
		return Summary{}
	}
	return a.x.Summarize(a.state(s))
}

func (a adapter[S, O]) Guide() OrderGuide { return a.x.Guide }

func (a adapter[S, O]) Explain(s State, v Viewer, word string) []Explanation {
	if a.x.Explain == nil {
		return nil
	}
	return a.x.Explain(a.state(s), v, word)
}

func (a adapter[S, O]) Draw(v View) *draw.Scene {
	if a.x.Draw == nil {
		return nil
	}
	return a.x.Draw(v)
}

func (a adapter[S, O]) Count(v View) []SideCount {
	if a.x.Count == nil {
		return nil
	}
	return a.x.Count(v)
}

func (a adapter[S, O]) Battles(s State) []Battle {
	if a.x.Battles == nil {
		return nil
	}
	return a.x.Battles(a.state(s))
}

func (a adapter[S, O]) BattleResult(b Battle, end BattleEnd) string {
	if a.x.BattleResult == nil {
		return ""
	}
	return a.x.BattleResult(b, end)
}

func (a adapter[S, O]) BattlePlans(scenario []byte) ([]BattlePlan, error) {
	if a.x.BattlePlans == nil {
		return nil, nil
	}
	return a.x.BattlePlans(scenario)
}

func (a adapter[S, O]) Losses(s State) map[string]int {
	if a.x.Losses == nil {
		return nil
	}
	return a.x.Losses(a.state(s))
}
