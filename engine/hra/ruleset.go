package hra

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// Version changes whenever a decision could change.
const Version = "0.4.2"

// rules is HRA written against its own types; engine.Adapt makes it the
// engine's Ruleset.
type rules struct{}

var _ engine.Rules[*State, Order] = rules{}

// Extras: a decision's facts applied to one copy of the state
// (evolveAll), or in place to a state a fold owns (evolveOwned); the
// facts Evolve leaves the state as it is (inertFacts); the drawn board and
// the stands each side has left; each side's losses; the state is coded
// as JSON, its scenario taken from the initial state.
func (r rules) Extras() engine.Extras[*State] {
	return engine.Extras[*State]{EvolveAll: evolveAll, EvolveOwned: evolveOwned, InertFacts: inertFacts,
		Draw: r.Draw, Count: r.Count, Attach: attach, Summarize: summarize,
		Guide:  engine.OrderGuide{Prefix: "ADV", Keyword: "ADVANCE"},
		Losses: losses, Explain: explain}
}

// losses are the state points each side has lost (engine.LossCounter),
// what a campaign's battle table reads when a battle fought out here
// ends. HRA counts casualties as state points: every unit starts full (3,
// HRA 3a), each loss the fire table gives drops its state by one (HRA
// 4.III.d, T2) and a unit at 0 breaks and is removed (HRA 3a); so a side's
// losses are 3 minus the state of each of its units, a removed unit
// counting 3 (the brigade losses of HRA 12d as H7 reads them, summed
// over the side), less what a unit lacked when the game began (Short: a
// battle its campaign or referee set up weaker), which the battle did
// not cost.
func losses(s *State) map[string]int {
	out := make(map[string]int, len(Sides))
	for _, side := range Sides {
		out[side] = 0
	}
	for _, u := range s.Units {
		if _, ok := out[u.Side]; ok {
			out[u.Side] += max(3-u.Short-max(u.State, 0), 0)
		}
	}
	return out
}

// New returns the HRA ruleset.
func New() engine.Ruleset { return engine.Adapt[*State, Order](rules{}) }

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

func (rules) Name() string    { return "hra" }
func (rules) Version() string { return Version }

// Setup reads the scenario and builds the state before the opening rolls.
func (rules) Setup(scenario []byte, players []events.Player) (*State, error) {
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

func (rules) Parse(s *State, side, text string) ([]Order, []events.Problem) {
	return parseOrders(s, side, text)
}

func (rules) Decide(s *State, side string, os []Order, dice engine.Dice) (engine.Decision, error) {
	if len(os) == 0 {
		return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "no order"}}}, nil
	}
	return decide(s, side, os, dice)
}

func (rules) Evolve(s *State, f events.Fact) (*State, error) { return evolve(s, f) }

func (rules) Prompt(s *State) []engine.Prompt { return prompts(s) }

// View: HRA's battlefield is open; what a side keeps secret (its volleys,
// PICK and RETREAT ORDER lists of Phase III, its generals' assignment)
// is sealed by the runtime (Prompt.Sealed) and never in the state before
// both sides have sent it (H23).
func (rules) View(s *State, v engine.Viewer) engine.View { return view{st: s, v: v} }

func (rules) Render(v engine.View) engine.Board {
	vw, ok := v.(view)
	if !ok {
		return engine.Board{Window: "(no board)", Full: "(no board)"}
	}
	return render(vw.st, vw.v)
}

func (rules) Outcome(st *State) engine.Outcome {
	if st.Phase != PhaseOver {
		return engine.Outcome{}
	}
	return engine.Outcome{Over: true, Winner: st.Winner, Reason: st.Result}
}

// Turn is the round (engine.Turner); 1 before the game has begun.
func (rules) Turn(s *State) int { return max(s.Round, 1) }

type view struct {
	st *State
	v  engine.Viewer
}
