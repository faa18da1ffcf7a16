package hra

import (
	"testing"

	"pbem/engine"
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
	f.Fuzz(func(t *testing.T, text string, referee bool) {
		side := Union
		if referee {
			side = engine.RefereeSide
		}
		os, probs := parseOrders(st, side, text)
		for _, p := range probs {
			if p.Line < 1 || p.Col < 1 {
				t.Fatalf("%q: problem at %d:%d", text, p.Line, p.Col)
			}
		}
		if len(probs) == 0 {
			if _, err := decide(st, side, os, engine.FixedDice(4)); err != nil {
				t.Fatalf("%q: %v", text, err)
			}
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
