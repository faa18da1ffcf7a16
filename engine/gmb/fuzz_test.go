package gmb

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// FuzzParseOrders: whatever a mail holds, reading and deciding it at any
// step gives orders or problems, never a panic.
func FuzzParseOrders(f *testing.F) {
	for _, s := range []string{"TABLE 48x48", "KEEP 1, 2, 3", "BATTLEFIELD NEUTRAL FORCED MARCH", "ROAD BASE A, SP2, SOUTH",
		"RIVER 0,30 48,30", "PLACE woods 6x4 AT 24,30 TURN 45", "PLACE hill 1,1 5,1 3,4", "FENCE ALONG road 1 FROM 2 TO 8",
		"WALL ALONG rough 1 EDGES 1-3", "Iron Brigade: MARCH FORWARD 6, WHEEL LEFT 30, PIVOT RIGHT 90", "PATROL AT 8,45 22,45",
		"SET Iron Brigade POS 10,10", "SET game STEP over", "Iron: ROAD TO 24,30; Irish: HOLD", "x=12 y=30", "PLACE", ";;;", ":"} {
		f.Add(s)
	}
	var states []*State
	f.Fuzz(func(t *testing.T, text string) {
		if states == nil {
			// The game at several steps: setup, terrain, battle.
			g := newGame(t)
			for _, step := range []string{StepTable, StepGenerals, StepLinear, StepNormal, StepSpecial, StepActivate, StepMove} {
				g.auto(400, atStep(step))
				states = append(states, g.st)
			}
		}
		for _, st := range states {
			for _, side := range []string{"Union", "Confederate", engine.RefereeSide} {
				os, probs := parseOrders(st, side, text)
				if len(os) == 0 && len(probs) == 0 {
					t.Fatalf("%q: neither orders nor problems", text)
				}
				if len(probs) == 0 {
					if _, err := decide(st, side, os, lcg(1)); err != nil {
						t.Fatalf("%q at %s: %v", text, st.Step, err)
					}
				}
			}
		}
	})
}

func TestScenarioErrorsSayWhatIsMissing(t *testing.T) {
	base := string(scenario(t))
	for _, tc := range []struct{ from, to, want string }{
		{"die 6", "die x", `line 14: "x" is not a number`},
		{"zoc 3 ", "", "zoc N (R5, G1)"},
		{"unit-type infantry | move 9 | base 6x2", "unit-type infantry | move 9", "unit-type NAME | move N | base WxD"},
		{"terrain woods | area | obstacle | T", "", "terrain woods"},
		{"general Hunt | Army artillery | command 3", "general Hunt | Army artilery | command 3", `level "Army artilery"`},
		{"general McClellan | Army | Cautious | command 2", "general McClellan | Army | command 2", "McClellan's character (13.8b)"},
		{"turns 3 ", "turns 3\noption roads crooked\n", "option roads is one of shortest, free"},
		{"year 1863", "year 1862", "Alabama Brigade is fielded only from 1863 (13.4b)"},
	} {
		sc := strings.Replace(base, tc.from, tc.to, 1)
		_, err := ParseScenario([]byte(sc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q → %q: %v; want an error saying %q", tc.from, tc.to, err, tc.want)
		}
	}
	if _, err := (rules{}).Setup([]byte(base), []events.Player{{ID: "x", Side: "Prussia"}}); err == nil || !strings.Contains(err.Error(), "the armies are Union and Confederate") {
		t.Errorf("a player of no army: %v", err)
	}
}

// FuzzParseScenario: scenario text parses or says why not, never a panic,
// and a scenario that parses draws its board for the referee.
func FuzzParseScenario(f *testing.F) {
	b, err := Scenario("hazel-run")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("turns 3\n")
	f.Fuzz(func(t *testing.T, text string) {
		if sc, err := ParseScenario([]byte(text)); err == nil {
			_ = render(newState(sc), engine.Viewer{Referee: true})
		}
	})
}
