package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"pbem/engine"
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

// tally is the smallest Rules: a state that counts its facts. Its
// variants below add the optional methods.
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
func (tally) EncodeState(*ownState) ([]byte, error)         { return nil, nil }
func (tally) DecodeState([]byte, *ownState) (*ownState, error) {
	return &ownState{}, nil
}

// tallySteps hands a step to a referee while fewer than 3 facts were
// counted.
type tallySteps struct{ tally }

func (tallySteps) RefereeSteps(s *ownState) []string {
	if s.Target < 3 {
		return []string{fmt.Sprintf("count %d", s.Target)}
	}
	return nil
}

// tallyExplains explains the count.
type tallyExplains struct{ tally }

func (tallyExplains) Explain(s *ownState, v engine.Viewer, word string) []engine.Explanation {
	return []engine.Explanation{{Heading: word, Lines: []string{fmt.Sprintf("%d for %s", s.Target, v.Side)}}}
}

type tallyBoth struct{ tallySteps }

func (tallyBoth) Explain(s *ownState, v engine.Viewer, word string) []engine.Explanation {
	return tallyExplains{}.Explain(s, v, word)
}

// Adapt passes on the optional methods a rule system's Rules has on its
// own state (a RefereeStepper, an Explainer), and only those: the runtime
// asks for them by type assertion, so an adapter that always had them
// would claim, for a rule system without RefereeSteps, that no step goes
// to a referee.
func TestAdaptKeepsTheOptionalMethodsTheRulesHave(t *testing.T) {
	st := engine.State(&ownState{Target: 2})
	for _, tc := range []struct {
		name              string
		rs                engine.Ruleset
		steps, explains   bool
		wantSteps, wantEx string
	}{
		{"neither", engine.Adapt[*ownState, ownOrder](tally{}), false, false, "", ""},
		{"referee steps", engine.Adapt[*ownState, ownOrder](tallySteps{}), true, false, "count 2", ""},
		{"explanations", engine.Adapt[*ownState, ownOrder](tallyExplains{}), false, true, "", "HELP: 2 for USA"},
		{"both", engine.Adapt[*ownState, ownOrder](tallyBoth{}), true, true, "count 2", "HELP: 2 for USA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stepper, ok := tc.rs.(engine.RefereeStepper)
			if ok != tc.steps {
				t.Fatalf("RefereeStepper: %v, want %v", ok, tc.steps)
			}
			if ok {
				if got := strings.Join(stepper.RefereeSteps(st), "; "); got != tc.wantSteps {
					t.Errorf("RefereeSteps = %q, want %q", got, tc.wantSteps)
				}
			}
			ex, ok := tc.rs.(engine.Explainer)
			if ok != tc.explains {
				t.Fatalf("Explainer: %v, want %v", ok, tc.explains)
			}
			if ok {
				e := ex.Explain(st, engine.Viewer{Side: "USA"}, engine.ExplainHelp)
				if got := e[0].Heading + ": " + e[0].Lines[0]; got != tc.wantEx {
					t.Errorf("Explain = %q, want %q", got, tc.wantEx)
				}
			}
			// The contract's other parts stay, whichever optional methods.
			if turn := tc.rs.(engine.Turner).Turn(st); turn != 2 {
				t.Errorf("Turn = %d", turn)
			}
			next, err := tc.rs.(engine.BatchEvolver).EvolveAll(st, []events.Fact{events.NewFact("a"), events.NewFact("b")})
			if err != nil || next.(*ownState).Target != 4 {
				t.Errorf("EvolveAll: %v %v", next, err)
			}
		})
	}
}
