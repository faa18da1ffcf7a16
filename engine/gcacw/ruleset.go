package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/events"
)

// Version changes whenever a decision could change.
const Version = "0.4.1"

// rules is GCACW written against its own types (*State, Order);
// engine.Adapt makes it the engine's Ruleset.
type rules struct{}

var _ engine.Rules[*State, Order] = rules{}

// Extras: a decision's facts applied with one copy of the state
// (evolveAll), the steps a scenario hands to a referee, HELP and STATUS
// sections, the drawn board and casualties, and a state encoded without
// its scenario.
func (r rules) Extras() engine.Extras[*State] {
	return engine.Extras[*State]{
		EvolveAll: evolveAll, RefereeSteps: refereeSteps, Explain: r.Explain, Summarize: summarize,
		Draw: r.Draw, Count: r.Count, EncodeState: encodeState, DecodeState: decodeState,
		Guide:   engine.OrderGuide{Prefix: "MAR", Keyword: "MARCH", Conditions: "FORCE IF MA < 4, STOP AT 2316"},
		Battles: battlesWaited, BattleResult: battleResultOrder, BattlePlans: battlePlans,
	}
}

// New returns the GCACW ruleset.
func New() engine.Ruleset { return engine.Adapt[*State, Order](rules{}) }

// System is GCACW as a binary offers it: the ruleset, its scenarios and
// its demo game (Harrow Creek, with a scripted typo, a forced march and
// an assault).
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
		// Each player sends a turn's plan in one mail, as the orders
		// conventions mean: the Leader Transfer Phase's PASS and the
		// actions to take whenever they hold the initiative, as QUEUE
		// lines (pbem plays them without asking, GCACW 4.2), so that a
		// mail answers the game only where something new is to decide.
		Orders: map[string][]string{
			// Anna's three actions, then she passes, so that the 1st Ohio
			// Squadron waits beside Starling for its march and its assault.
			"anna": {"PASS\nQUEUE MARCH Lyle 1605 FORCE IF MA < 3\nQUEUE ACTIVATE Kellogg: Vane 1310 1311\nQUEUE MARCH Orne 1407 1307 FORCE"},
			// Taro's plan has a typo (rejected whole, with "did you mean");
			// the assault is not queued (QUEUE keeps marches and passes):
			// he sends it when Starling stands next to the 1st Ohio.
			"taro": {"PASS\nQUEUE ACTIVATE Gaines: Becket 0605; Washburn 0507\nQUEUE MARCH Starlng 0810 FORCE",
				"PASS\nQUEUE ACTIVATE Gaines: Becket 0605; Washburn 0507\nQUEUE MARCH Starling 0810 FORCE",
				"ASSAULT Starling ON 0711"},
			// The referee rules Starling's assault on the 1st Ohio Squadron
			// by mail (with no referee, the SAMPLE combat table does).
			"ref": {"RULE LOSS 1OH 1\nRULE LOSS Starling 1\nRULE ADVANCE Starling 0711\nRULE DONE"},
		},
		// Asked whether the 1st Ohio Squadron retreats before Starling's
		// march (GCACW 5.1.2), Anna keeps it where it is.
		Answers: map[string][]string{"anna": {"CAVALRY RETREAT 1OH NONE"}},
		// A player whose plan is played passes the initiative, now and
		// the next time he holds it (a queued PASS), rather than be asked
		// again for each Action Phase of the turn (GCACW 4.2).
		Rest: "PASS\nQUEUE PASS",
	}}
}

func (rules) Name() string    { return "gcacw" }
func (rules) Version() string { return Version }

// Setup reads the scenario and builds the state at the start of turn 1
// (GCACW 3: its Leader Transfer Phase; a Random Events roll, if the
// scenario plays them, comes with the first order of the turn).
func (rules) Setup(scenario []byte, players []events.Player) (*State, error) {
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

func (rules) Parse(s *State, side, text string) ([]Order, []events.Problem) {
	return parseOrders(s, side, text)
}

func (rules) Decide(s *State, side string, orders []Order, dice engine.Dice) (engine.Decision, error) {
	return decide(s, side, orders, dice)
}

func (rules) Evolve(s *State, f events.Fact) (*State, error) { return evolve(s, f) }

func (rules) Prompt(s *State) []engine.Prompt { return prompts(s) }

// View: GCACW has no hidden information on the map (2.2o: Strength
// markers are open), so every viewer sees the whole map; a side's queued
// and standing orders are its own (board.go shows a player only theirs).
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

// Turn is the game turn the state is in (GCACW 3), for engine.Turner.
func (rules) Turn(s *State) int { return s.Turn }

type view struct {
	st *State
	v  engine.Viewer
}

// Facts implements engine.Teller (tell.go).
func (rules) Facts() []engine.FactSchema { return factSet.Schemas() }

// Describe implements engine.Teller: tell.
// Players read no R-numbers or ambiguity ids (plainRule): those stay in
// pbem log and doc.go.
func (rules) Describe(s *State, f events.Fact) string { return plainRule(tell(s, f)) }
