package gmb

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// Version changes whenever a decision could change.
const Version = "0.2.1"

type rules struct{}

var _ engine.Rules[*State, Order] = rules{}

// New returns the GMB ruleset.
func New() engine.Ruleset { return engine.Adapt[*State, Order](rules{}) }

// Extras: a decision's facts applied to one copy of the state, or in
// place to a state a fold owns (evolveOwned), the steps
// a scenario hands to a referee, the drawn table and each side's
// strength and losses. The state is coded as JSON, its scenario and
// table taken from the initial state.
func (r rules) Extras() engine.Extras[*State] {
	return engine.Extras[*State]{EvolveAll: evolveAll, EvolveOwned: evolveOwned, RefereeSteps: refereeSteps, Draw: r.Draw, Count: r.Count, Attach: attach, Summarize: summarize, Explain: rules{}.Explain,
		Guide:  engine.OrderGuide{Prefix: "BAT", Keyword: "BATTLEFIELD"},
		Losses: losses}
}

// losses are the units each side has lost (engine.LossCounter), what a
// campaign's battle table reads when a battle fought out here ends. GMB
// counts its losses in units: the army tactics' objectives read "lose
// fewer units than the opponent" and "destroy 25% of the opponent's
// units" (13.12c); cohesion points are no loss unit, their value and
// effects not being in the seeds (R12). A unit is lost when it is
// removed from the table (the referee's SET <unit> REMOVED, combat
// being the referee's: 7.1b, chapters 8-9 not in the seeds).
func losses(s *State) map[string]int {
	out := make(map[string]int, len(s.Sides))
	for _, sd := range s.Sides {
		out[sd.Name] = 0
	}
	for _, u := range s.Units {
		if _, ok := out[u.Side]; ok && u.Removed && !u.Withdrawn {
			out[u.Side]++
		}
	}
	return out
}

// refereeSteps lists what a game of this scenario hands to a referee: the
// chapters the seeds do not give (engine.RefereeStepper), so pbem new
// refuses such a game without one.
func refereeSteps(st *State) []string {
	var out []string
	if st.Scn.Combat == "referee" {
		out = append(out, "combat after each corps' activation (7.1b; chapters 8-9 are not in the seeds)")
	}
	if st.Scn.Year == -1 {
		out = append(out, "the year of the battle (13.4a: the scenario leaves it to the referee)")
	}
	if st.Scn.InitTies == "referee" {
		out = append(out, "a tied initiative roll (the scenario leaves it to the referee)")
	}
	out = append(out, "the objectives achieved and the end of the battle (13.12c; 14.2-14.3 are not in the seeds)")
	return out
}

// System is GMB as a binary offers it: the ruleset, its scenarios and its
// demo game (Hazel Run: the whole setup by mail, then turns of movement
// until the referee scores and ends the battle).
func System() engine.System {
	return engine.System{New: New, Scenarios: Scenarios, Scenario: Scenario, Demo: engine.Demo{
		ScenarioName: "hazel-run",
		Players: []events.Player{
			{ID: "anna", Name: "Anna", Side: "Union"},
			{ID: "taro", Name: "Taro", Side: "Confederate"},
		},
		Referees: []events.Player{{ID: "ref", Name: "Referee"}},
		Orders: map[string][]string{
			"anna": {"TABLE 48x48", "YEAR 1861", "DEAL GENERALS", "DONE", "BATTLEFIELD OFFENSIVE", "TACTIC AGGRESSIVE"},
			"taro": {"TABLE 48x48", "YEAR 1863", "DEAL GENERALS", "DONE", "BATTLEFIELD DEFENSIVE FORCED MARCH", "TACTIC CAUTIOUS"},
		},
	}}
}

func (rules) Name() string    { return "gmb" }
func (rules) Version() string { return Version }

// Setup reads the scenario; the players' sides must be its armies.
func (rules) Setup(scenario []byte, players []events.Player) (*State, error) {
	sc, err := ParseScenario(scenario)
	if err != nil {
		return nil, err
	}
	for _, p := range players {
		if p.Side != "" && sc.Army(p.Side) == nil {
			return nil, fmt.Errorf("gmb: player %s plays %q; the armies are %s and %s", p.ID, p.Side, sc.Armies[0].Side, sc.Armies[1].Side)
		}
	}
	st := newState(sc)
	if sc.TableSize != "" {
		g, _ := sc.Geom(sc.TableSize)
		st.TableSize, st.W, st.H = g.Size, g.Width, g.Height
		st.Step = StepYear
		if sc.Year > 0 {
			st.Year, st.Step = sc.Year, StepDraw
		}
	}
	if err := checkLayout(st); err != nil {
		return nil, err
	}
	return st, nil
}

func (rules) Parse(s *State, side, text string) ([]Order, []events.Problem) {
	return parseOrders(s, side, text)
}

func (rules) Decide(s *State, side string, os []Order, dice engine.Dice) (engine.Decision, error) {
	return decide(s, side, os, dice)
}

func (rules) Evolve(s *State, f events.Fact) (*State, error) { return evolve(s, f) }

func (rules) Facts() []engine.FactSchema { return factSet.Schemas() }

func (rules) Describe(s *State, f events.Fact) string { return describe(s, f) }

func (rules) Prompt(s *State) []engine.Prompt { return prompts(s) }

func (rules) View(s *State, v engine.Viewer) engine.View { return view{s, v} }

func (rules) Render(v engine.View) engine.Board {
	vw, ok := v.(view)
	if !ok {
		return engine.Board{Window: "(no board)", Full: "(no board)"}
	}
	return render(vw.st, vw.v)
}

func (rules) Outcome(s *State) engine.Outcome {
	if s.Step != StepOver {
		return engine.Outcome{}
	}
	return engine.Outcome{Over: true, Winner: s.Winner, Reason: s.Result}
}

// Turn is the game turn; setup counts as turn 1.
func (rules) Turn(s *State) int { return max(s.Turn, 1) }
