package engine_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

type ownOrder struct{ text string }

type ownState struct{ Target int }

func TestAdapterHelpersKeepTheRulesetsOwnTypes(t *testing.T) {
	orders := engine.OrdersOf([]ownOrder{{"ADD 1"}, {"ADD 2"}})
	back, err := engine.OrdersAs[ownOrder]("race", orders)
	if err != nil || len(back) != 2 || back[1].text != "ADD 2" {
		t.Fatalf("round trip: %v %v", back, err)
	}
	if _, err := engine.OrdersAs[ownOrder]("race", []engine.Order{ownOrder{"ADD 1"}, "ADD 2"}); err == nil || err.Error() != "race: order of type string" {
		t.Fatalf("another ruleset's order: %v", err)
	}
	st := &ownState{Target: 5}
	if got := engine.StateAs[*ownState]("race", engine.State(st)); got != st {
		t.Fatal("state not returned as itself")
	}
	defer func() {
		if r := fmt.Sprint(recover()); !strings.Contains(r, "race: state of type int") {
			t.Fatalf("another ruleset's state: %s", r)
		}
	}()
	engine.StateAs[*ownState]("race", engine.State(7))
}

// tally is the smallest Rules: a state that counts its facts, with no
// extras. Its variants below add some.
type tally struct{}

func (tally) Name() string    { return "tally" }
func (tally) Version() string { return "1" }
func (tally) Setup([]byte, []events.Player) (*ownState, error) {
	return &ownState{}, nil
}
func (tally) Parse(*ownState, string, string) ([]ownOrder, []events.Problem) { return nil, nil }
func (tally) Decide(*ownState, string, []ownOrder, engine.Dice) (engine.Decision, error) {
	return engine.Decision{}, nil
}
func (tally) Evolve(s *ownState, _ events.Fact) (*ownState, error) {
	return &ownState{Target: s.Target + 1}, nil
}
func (tally) Facts() []engine.FactSchema                    { return nil }
func (tally) Describe(*ownState, events.Fact) string        { return "" }
func (tally) Prompt(*ownState) []engine.Prompt              { return nil }
func (tally) View(s *ownState, _ engine.Viewer) engine.View { return s }
func (tally) Render(engine.View) engine.Board               { return engine.Board{} }
func (tally) Outcome(*ownState) engine.Outcome              { return engine.Outcome{} }
func (tally) Turn(s *ownState) int                          { return s.Target }
func (tally) Extras() engine.Extras[*ownState]              { return engine.Extras[*ownState]{} }

// tallyBoth hands a step to a referee while fewer than 3 facts were
// counted, and explains the count.
type tallyBoth struct{ tally }

func (tallyBoth) Extras() engine.Extras[*ownState] {
	return engine.Extras[*ownState]{
		RefereeSteps: func(s *ownState) []string {
			if s.Target < 3 {
				return []string{fmt.Sprintf("count %d", s.Target)}
			}
			return nil
		},
		Explain: func(s *ownState, v engine.Viewer, word string) []engine.Explanation {
			return []engine.Explanation{{Heading: word, Lines: []string{fmt.Sprintf("%d for %s", s.Target, v.Side)}}}
		},
	}
}

// Adapt answers every optional method the runtime asks for: with the
// rule system's extra where it has one, else with the default (no
// referee steps, no sections, Evolve fact by fact).
func TestAdaptAnswersWithTheExtrasTheRulesHave(t *testing.T) {
	st := engine.State(&ownState{Target: 2})
	for _, tc := range []struct {
		name              string
		rs                engine.Ruleset
		wantSteps, wantEx string
	}{
		{"no extras", engine.Adapt[*ownState, ownOrder](tally{}), "", ""},
		{"referee steps and explanations", engine.Adapt[*ownState, ownOrder](tallyBoth{}), "count 2", "HELP: 2 for USA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(tc.rs.(engine.RefereeStepper).RefereeSteps(st), "; "); got != tc.wantSteps {
				t.Errorf("RefereeSteps = %q, want %q", got, tc.wantSteps)
			}
			got := ""
			for _, e := range tc.rs.(engine.Explainer).Explain(st, engine.Viewer{Side: "USA"}, engine.ExplainHelp) {
				got = e.Heading + ": " + e.Lines[0]
			}
			if got != tc.wantEx {
				t.Errorf("Explain = %q, want %q", got, tc.wantEx)
			}
			if turn := tc.rs.(engine.Turner).Turn(st); turn != 2 {
				t.Errorf("Turn = %d", turn)
			}
			next, err := tc.rs.(play.BatchEvolver).EvolveAll(st, []events.Fact{events.NewFact("a"), events.NewFact("b")})
			if err != nil || next.(*ownState).Target != 4 {
				t.Errorf("EvolveAll: %v %v", next, err)
			}
			if sc := tc.rs.(engine.Drawer).Draw(st); sc != nil {
				t.Errorf("Draw = %v, want nothing drawn", sc)
			}
		})
	}
}

// scenState keeps its scenario out of its encoding: Attach gives it back.
type scenState struct {
	Scenario string `json:"-"`
	Count    int
}

// scenRules has only what state coding asks of a Rules (its name and
// extras); the rest of the contract is left nil.
type scenRules struct {
	engine.Rules[*scenState, ownOrder]
}

func (scenRules) Name() string { return "scen" }

func (scenRules) Extras() engine.Extras[*scenState] {
	return engine.Extras[*scenState]{Attach: func(st, initial *scenState) *scenState {
		st.Scenario = initial.Scenario
		return st
	}}
}

// By default a state is coded as JSON, and a decoded state gets what its
// encoding leaves out from the initial state; a damaged encoding is an
// error naming the rule system.
func TestAdaptCodesStatesAsJSONByDefault(t *testing.T) {
	rs := engine.Adapt[*scenState, ownOrder](scenRules{})
	initial := &scenState{Scenario: "the map"}
	b, err := rs.EncodeState(&scenState{Scenario: "the map", Count: 3})
	if err != nil || string(b) != `{"Count":3}` {
		t.Fatalf("EncodeState = %s, %v", b, err)
	}
	st, err := rs.DecodeState(b, initial)
	if err != nil || *st.(*scenState) != (scenState{Scenario: "the map", Count: 3}) {
		t.Fatalf("DecodeState = %+v, %v", st, err)
	}
	for _, bad := range []string{`{"Count":`, `null`} {
		if _, err := rs.DecodeState([]byte(bad), initial); err == nil || !strings.HasPrefix(err.Error(), "scen: decode state: ") {
			t.Errorf("DecodeState(%s): %v", bad, err)
		}
	}
}

// Two rulesets adapted from the same rule system are equal (the runtime
// compares games, rules and all, after a snapshot round trip), though
// their extras are functions.
func TestAdaptedRulesetsOfOneRuleSystemAreEqual(t *testing.T) {
	a, b := engine.Adapt[*ownState, ownOrder](tallyBoth{}), engine.Adapt[*ownState, ownOrder](tallyBoth{})
	if a != b || !reflect.DeepEqual(a, b) {
		t.Errorf("two adaptations of tallyBoth differ: %+v, %+v", a, b)
	}
}
