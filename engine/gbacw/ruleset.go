package gbacw

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// Version changes whenever a decision could change.
const Version = "0.1.0"

// rules is GBACW written against its own types (engine.Rules).
type rules struct{}

var _ engine.Rules[*State, Order] = rules{}

// New returns the GBACW ruleset.
func New() engine.Ruleset { return engine.Adapt[*State, Order](rules{}) }

// Extras: a decision's facts applied to one copy of the state, or in
// place to a state a fold owns (evolveOwned); the facts Evolve leaves
// the state as it is (apply does nothing with them: records of dice and
// their results, for the log and the mails; the facts after them carry
// what they change); the steps a scenario hands to a referee; the drawn
// board and the strength each side has left; the welcome mail's
// sections (the readings and options a game is played with). The state is coded as
// JSON, its scenario taken from the initial state.
func (r rules) Extras() engine.Extras[*State] {
	return engine.Extras[*State]{
		EvolveAll: evolveAll, EvolveOwned: evolveOwned, InertFacts: inertFacts,
		RefereeSteps: refereeSteps, Draw: r.Draw, Count: r.Count, Attach: attach, Summarize: summarize, Explain: explain,
		Guide:  engine.OrderGuide{Prefix: "COORD", Keyword: "COORDINATE"},
		Losses: losses,
	}
}

// losses are the strength points each side has lost (engine.LossCounter):
// what a campaign's battle table reads when a battle fought out here ends.
func losses(s *State) map[string]int {
	out := map[string]int{}
	for _, side := range Sides {
		if i := s.sideIndex(side); i < len(s.Lost) {
			out[side] = s.Lost[i]
		}
	}
	return out
}

// refereeSteps is engine.RefereeStepper's: the steps a game of this
// scenario hands to its referee, for the charts it leaves out.
func refereeSteps(st *State) []string {
	t := st.Scn.Tables
	var out []string
	if t.Efficiency == nil && st.Scn.Options.MarchFixed == 0 {
		out = append(out, "each turn's activation markers and March AM activations (no [efficiency] chart, R5)")
	} else if t.Efficiency == nil {
		out = append(out, "each turn's activation markers (no [efficiency] chart, R5)")
	}
	if t.OrderChange == nil {
		out = append(out, "every order change in an activation (no [order-change] chart, R6)")
	}
	if t.Coordination == 0 {
		out = append(out, "every multi-brigade coordination (no [coordination] chart, R7)")
	}
	if t.Fire == nil {
		out = append(out, "the result of every fire (no [fire] table, R2)")
	}
	if t.Shock == nil {
		out = append(out, "the result of every shock (no [shock] table, R3)")
	}
	if t.Construction == nil {
		out = append(out, "what a unit's construction builds (no [construction] chart, R13)")
	}
	if !st.Scn.Victory {
		out = append(out, "who wins at the end (no [victory] section, R18)")
	}
	return out
}

// System is GBACW as a binary offers it: the ruleset, its scenarios and
// its demo game (Tanner's Mill: the Confederate player sets standing
// reactions at his first chance; the Union player is asked by mail, and
// sets standing fire reactions once asked to return fire; the prompts'
// examples carry the game to its end).
func System() engine.System {
	return engine.System{New: New, Scenarios: Scenarios, Scenario: Scenario, Demo: engine.Demo{
		ScenarioName: "tanners-mill",
		Players: []events.Player{
			{ID: "anna", Name: "Anna", Side: USA},
			{ID: "taro", Name: "Taro", Side: CSA},
		},
		Referees: []events.Player{{ID: "ref", Name: "Referee"}},
		Orders: map[string][]string{
			// Asked by mail to return fire, the Union player answers and,
			// as a player who has been asked once, sets standing orders
			// for the fire reactions; the others are still asked.
			"anna": {"RETURN FIRE\nSTANDING RETURN FIRE ALL ALWAYS\nSTANDING CLOSING FIRE ALL ALWAYS\nSTANDING WITHDRAWAL FIRE ALL ALWAYS"},
			"taro": {
				"STANDING RETURN FIRE ALL ALWAYZ", // a typo: rejected, with the form
				"STANDING RETURN FIRE ALL ALWAYS\nSTANDING CLOSING FIRE ALL ALWAYS\nSTANDING PRE-SHOCK FIRE ALL ALWAYS\n" +
					"STANDING REACTION FACE ALL IF FIRED ON\nSTANDING WITHDRAWAL FIRE ALL ALWAYS\nSTANDING PRE-SHOCK RETREAT ALL IF DISORDERED",
			},
		},
	}}
}

func (rules) Name() string    { return "gbacw" }
func (rules) Version() string { return Version }

// Setup reads the scenario and builds the state before the first turn.
func (rules) Setup(scenario []byte, players []events.Player) (*State, error) {
	for _, p := range players {
		if p.Side != "" && p.Side != USA && p.Side != CSA {
			return nil, fmt.Errorf("gbacw: player %s plays side %q; the sides are %s and %s", p.ID, p.Side, USA, CSA)
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

func (rules) Decide(s *State, side string, orders []Order, dice engine.Dice) (engine.Decision, error) {
	if len(orders) == 0 {
		return engine.Decision{Problems: []events.Problem{{Line: 1, Col: 1, Msg: "no order"}}}, nil
	}
	return decide(s, side, orders, dice)
}

func (rules) Evolve(s *State, f events.Fact) (*State, error) { return evolve(s, f) }

func (rules) Facts() []engine.FactSchema              { return factSet.Schemas() }
func (rules) Describe(s *State, f events.Fact) string { return describe(s, f) }
func (rules) Prompt(s *State) []engine.Prompt         { return prompts(s) }

// view is the engine.View of GBACW: what one viewer (a side, or a
// referee) may see of a state. Render draws it as the ASCII board
// (board.go), and Draw draws it as a picture (draw.go) from the
// same value, so both show the same things to the same person:
//
//   - st, the state, read-only (a view may be kept while the game goes
//     on: a state is never changed once made, see State.clone). Nothing
//     on the battlefield is hidden in GBACW: every unit (st.Units: hex,
//     Facing, Stack order, SP, Order, Disordered, Routed, Mounted, OOC,
//     Fatigue, ...), leader (st.Leaders), brigade and division, the
//     activation (st.Act, st.Pool), and the question the game waits on
//     (st.asked()) are open to every viewer. The map is st.Scn: Grid,
//     Hex(h) for terrain and level (Level, Gradual), SideFeatures for hexside
//     features (stream, ford, bridge, crest, wall: crest and wall block
//     LOS, 12.3), Routes/RoutesIn for roads, pike and trails, Places and
//     Objectives (st.Held says who holds each).
//   - How to read a unit: Facing is a hex.Vertex (7.1: the two front
//     hexes meet at it; hex.VertexSector says whether a hex is in its
//     front, flank or rear), or, for a unit on March orders
//     (u.onSide()), a hex.Direction: the hexside it faces (10.2;
//     hex.SideSector). Several units in a hex are ordered by
//     st.unitsAt(h), top first (8.3); the board marks the top unit's
//     facing (hex.Mark) and lists a second unit. st.cohesion(u),
//     st.ma(u), st.collapsed(u), st.extended(u) give the values on the
//     side up; st.code(u)/st.lcode(l) the counter codes (CSA lower case);
//     st.def(u) the counter (R1).
//   - v, the viewer. The only secret in a GBACW state is each side's
//     standing reaction orders (st.Standing, docs/ORDERS.md): a board shows a
//     side's only to that side or to a referee, as roster does with
//     st.standingList(side) when v.Referee || v.Side == side. Anything
//     that draws a view must keep to that rule (the acceptance suite's
//     leak test compares every viewer's boards byte for byte).
type view struct {
	st *State
	v  engine.Viewer
}

func (rules) View(s *State, v engine.Viewer) engine.View { return view{st: s, v: v} }

func (rules) Render(v engine.View) engine.Board {
	vw, ok := v.(view)
	if !ok {
		return engine.Board{Window: "(no board)", Full: "(no board)"}
	}
	return render(vw.st, vw.v)
}

func (rules) Outcome(s *State) engine.Outcome {
	if s.Phase != PhaseOver {
		return engine.Outcome{}
	}
	return engine.Outcome{Over: true, Winner: s.Winner, Reason: s.Result}
}

// Turn is the game turn (engine.Turner); 1 before the game has begun.
func (rules) Turn(s *State) int { return max(s.Turn, 1) }
