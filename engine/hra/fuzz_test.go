package hra

import (
	"fmt"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

// Order text never panics the parser or Decide.
func FuzzParseOrders(f *testing.F) {
	b, _ := Scenario("kettle-run")
	sc, err := ParseScenario(b)
	if err != nil {
		f.Fatal(err)
	}
	st := simulate(f, newState(sc), &seq{v: []int{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 6, 1}}, (*sim).begin)
	for _, s := range []string{"BEGIN", "Iron Brigade: ADVANCE 6", "2nd Wis: WHEEL LEFT 45, ADVANCE 3", "FIRE 2nd Wisconsin AT 2nd Virginia",
		"FIRE NONE", "SET 2nd Wisconsin STATE 2", "Iron: ROAD TO Kettle Mill", "Iron: MOVE TO 40 40", ":", "a:b:c", "Iron Brigade: GENERAL TO 6th",
		"PICK 2nd Wisconsin, 6th", "RETREAT ORDER 2nd Wis, , x", "RETREAT ORDER", "PICK", "RETREAT ORDER NONE"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	var states []*State
	f.Fuzz(func(t *testing.T, text string, referee bool) {
		if states == nil {
			// The state above, and the first state of each phase and
			// round of a game played by the prompts' first examples.
			states = []*State{st}
			h := newHarness(t, "fuzz")
			seen := map[string]bool{}
			for n := 0; n < 400 && h.st.Phase != PhaseOver; n++ {
				if at := fmt.Sprint(h.st.Phase, h.st.Round); !seen[at] {
					seen[at] = true
					states = append(states, h.st.clone())
				}
				ps := prompts(h.st)
				h.must(ps[0].Side, ps[0].Examples[0])
			}
		}
		side := Union
		if referee {
			side = engine.RefereeSide
		}
		for _, st := range states {
			enginetest.DecideAnything(t, New(), st, side, text)
		}
	})
}

// Scenario text never panics the parser.
func FuzzParseScenario(f *testing.F) {
	b, _ := Scenario("kettle-run")
	f.Add(string(b))
	f.Add(small)
	f.Fuzz(func(t *testing.T, text string) {
		if sc, err := ParseScenario([]byte(text)); err == nil {
			_ = render(newState(sc), engine.Viewer{Referee: true})
		}
	})
}
