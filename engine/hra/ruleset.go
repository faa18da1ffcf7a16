package hra

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// Version changes whenever a decision could change.
const Version = "0.4.0"

type ruleset struct{}

// New returns the HRA ruleset.
func New() engine.Ruleset { return ruleset{} }

// System is HRA as a binary offers it: the ruleset, its scenarios and its
// demo game (Kettle Run: a typo first, then the prompts' examples carry
// the game to its end).
func System() engine.System {
	return engine.System{New: New, Scenarios: Scenarios, Scenario: Scenario, Demo: engine.Demo{
		ScenarioName: "kettle-run",
		Players: []events.Player{
			{ID: "anna", Name: "Anna", Side: Union},
			{ID: "taro", Name: "Taro", Side: Confederate},
		},
		Referees: []events.Player{{ID: "ref", Name: "Referee"}},
		Orders: map[string][]string{
			"anna": {"Iron Brigade: ADVANCE 4", "Buford's Horse: ADVANCE 5"},
			"taro": {"Stonewall Brigadier: ADVANCE 4", "Stonewall Brigade: ADVANCE 4"},
		},
	}}
}

func (ruleset) Name() string    { return "hra" }
func (ruleset) Version() string { return Version }

// Setup reads the scenario and builds the state before the opening rolls.
func (ruleset) Setup(scenario []byte, players []events.Player) (engine.State, error) {
	for _, p := range players {
		if p.Side != "" && p.Side != Union && p.Side != Confederate {
			return nil, fmt.Errorf("hra: player %s plays side %q; the sides are %s and %s", p.ID, p.Side, Union, Confederate)
		}
	}
	sc, err := ParseScenario(scenario)
	if err != nil {
		return nil, err
	}
	return newState(sc), nil
}

func asState(s engine.State) *State { return engine.StateAs[*State]("hra", s) }

func (ruleset) Parse(s engine.State, side, text string) ([]engine.Order, []events.Problem) {
	os, probs := parseOrders(asState(s), side, text)
	if len(probs) > 0 {
		return nil, probs
	}
	return engine.OrdersOf(os), nil
}

func (ruleset) Decide(s engine.State, side string, orders []engine.Order, dice engine.Dice) (engine.Decision, error) {
	os, err := engine.OrdersAs[Order]("hra", orders)
	if err != nil {
		return engine.Decision{}, err
	}
	if len(os) == 0 {
		return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "no order"}}}, nil
	}
	return decide(asState(s), side, os, dice)
}

func (ruleset) Evolve(s engine.State, f events.Fact) (engine.State, error) {
	return evolve(asState(s), f)
}

// EvolveAll implements engine.BatchEvolver: a decision's facts applied
// to one copy of the state.
func (ruleset) EvolveAll(s engine.State, fs []events.Fact) (engine.State, error) {
	return evolveAll(asState(s), fs)
}

func (ruleset) Prompt(s engine.State) []engine.Prompt { return prompts(asState(s)) }

// View: HRA's battlefield is open; only the volleys a side has declared
// are hidden from the other until both have declared (H23).
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

// Turn is the round (engine.Turner); 1 before the game has begun.
func (ruleset) Turn(s engine.State) int { return max(asState(s).Round, 1) }

func (ruleset) EncodeState(s engine.State) ([]byte, error) { return encodeState(asState(s)) }
func (ruleset) DecodeState(b []byte, initial engine.State) (engine.State, error) {
	return decodeState(b, asState(initial))
}

type view struct {
	st *State
	v  engine.Viewer
}
