package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// Version changes whenever a decision could change.
const Version = "0.3.0"

type ruleset struct{}

var (
	_ engine.Turner         = ruleset{}
	_ engine.RefereeStepper = ruleset{}
)

// New returns the GCACW ruleset.
func New() engine.Ruleset { return ruleset{} }

// System is GCACW as a binary offers it: the ruleset, its scenarios and
// its demo game (Harrow Creek, with a scripted typo and a forced march).
func System() engine.System {
	return engine.System{New: New, Scenarios: Scenarios, Scenario: Scenario, Demo: engine.Demo{
		// With a referee, the referee rules the steps the seed leaves out
		// (the sample's house rules play them in a game without one).
		ScenarioName: "harrow-creek" + RefereedSuffix,
		// Alone, the sample's house rules play those steps.
		Alone: "harrow-creek",
		Players: []events.Player{
			{ID: "anna", Name: "Anna", Side: USA},
			{ID: "taro", Name: "Taro", Side: CSA},
		},
		Referees: []events.Player{{ID: "ref", Name: "Referee"}},
		Orders: map[string][]string{
			"anna": {"MARCH Lyle 1605 FORCE IF MA < 3", "ACTIVATE Kellogg: Vane 1310 1311", "MARCH Orne 1407 1307 FORCE"},
			"taro": {"MARCH Starlng 0810", "ACTIVATE Gaines: Becket 0605; Washburn 0507", "MARCH Starling 0810 FORCE"},
		},
	}}
}

func (ruleset) Name() string    { return "gcacw" }
func (ruleset) Version() string { return Version }

// Setup reads the scenario and builds the state at the start of turn 1
// (GCACW 3: its Leader Transfer Phase; a Random Events roll, if the
// scenario plays them, comes with the first order of the turn).
func (ruleset) Setup(scenario []byte, players []events.Player) (engine.State, error) {
	for _, p := range players {
		if p.Side != "" && p.Side != USA && p.Side != CSA {
			return nil, fmt.Errorf("gcacw: player %s plays side %q; the sides are USA and CSA (GCACW 2a)", p.ID, p.Side)
		}
	}
	sc, err := ParseScenario(scenario)
	if err != nil {
		return nil, err
	}
	return newState(sc), nil
}

func newState(sc *ScenarioDef) *State {
	st := &State{Scn: sc, Turn: 1, Phase: PhaseTransfer, QueueSeq: []int{0, 0}}
	st.Units = pointers(slices.Clone(sc.Units))
	st.Leaders = pointers(slices.Clone(sc.Leaders))
	slices.SortFunc(st.Units, func(a, b *Unit) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(st.Leaders, func(a, b *Leader) int { return strings.Compare(a.ID, b.ID) })
	return st
}

// pointers returns pointers to the elements of xs, in order.
func pointers[T any](xs []T) []*T {
	out := make([]*T, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}

func asState(s engine.State) *State { return engine.StateAs[*State]("gcacw", s) }

func (ruleset) Parse(s engine.State, side, text string) ([]engine.Order, []events.Problem) {
	os, probs := parseOrders(asState(s), side, text)
	if len(probs) > 0 {
		return nil, probs
	}
	return engine.OrdersOf(os), nil
}

func (ruleset) Decide(s engine.State, side string, orders []engine.Order, dice engine.Dice) (engine.Decision, error) {
	os, err := engine.OrdersAs[Order]("gcacw", orders)
	if err != nil {
		return engine.Decision{}, err
	}
	return decide(asState(s), side, os, dice)
}

func (ruleset) Evolve(s engine.State, f events.Fact) (engine.State, error) {
	return evolve(asState(s), f)
}

func (ruleset) Prompt(s engine.State) []engine.Prompt { return prompts(asState(s)) }

// View: GCACW has no hidden information (2.2o: Strength markers are open),
// so every viewer sees the whole state.
func (ruleset) View(s engine.State, v engine.Viewer) engine.View {
	return view{st: asState(s), v: v}
}

func (ruleset) Render(v engine.View) engine.Board {
	vw, ok := v.(view)
	if !ok {
		return engine.Board{Window: "(no board)", Full: "(no board)"}
	}
	return render(vw.st, vw.v)
}

func (ruleset) Outcome(s engine.State) engine.Outcome {
	st := asState(s)
	if st.Phase != PhaseOver {
		return engine.Outcome{}
	}
	return engine.Outcome{Over: true, Winner: st.Winner, Reason: st.Result}
}

// Turn implements engine.Turner: the game turn the state is in (GCACW 3).
func (ruleset) Turn(s engine.State) int { return asState(s).Turn }

func (ruleset) EncodeState(s engine.State) ([]byte, error) { return encodeState(asState(s)) }
func (ruleset) DecodeState(b []byte, initial engine.State) (engine.State, error) {
	return decodeState(b, asState(initial))
}

type view struct {
	st *State
	v  engine.Viewer
}

// EvolveAll implements engine.BatchEvolver: a decision's facts applied
// with one copy of the state, not one per fact.
func (ruleset) EvolveAll(s engine.State, facts []events.Fact) (engine.State, error) {
	return evolveAll(asState(s), facts)
}

// Facts implements engine.Teller.
func (ruleset) Facts() []engine.FactSchema { return factSchemas() }

// Describe implements engine.Teller: tell.
func (ruleset) Describe(s engine.State, f events.Fact) string { return tell(asState(s), f) }
