package gcacw

import (
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

// Scenario text never panics the parser; it parses or says why not.
func FuzzParseScenario(f *testing.F) {
	b, _ := Scenario("harrow-creek")
	f.Add(string(b))
	f.Add(base)
	f.Add("[tables x]\nclear 1 1 1")
	f.Add("scenario x\n[map]\nhexes 0101 0101\n[units]\nUSA A \"a\" inf XX str=1 at=0101\n[extended-march]\ncolumns O1-21 D1-21\n<=1 NE NE\n>=2 D D\ndrm +1 side=")
	f.Fuzz(func(t *testing.T, text string) {
		sc, err := ParseScenario([]byte(text))
		if err == nil {
			st := newState(sc)
			_ = render(st, engine.Viewer{Referee: true})
		}
	})
}

// Order text never panics the order parser or Decide, before the first
// initiative or in the action cycle.
func FuzzParseOrders(f *testing.F) {
	for _, s := range []string{"PASS", "MARCH Orne 1407 1307 FORCE IF MA < 4", "ACTIVATE Brand:\n  Orne 1407\n  Pask 1509", "QUEUE MARCH Orne 1407", "CANCEL 1",
		"TRANSFER Brand TO Pask", "RULE EXTENDED MARCH Orne D", "MARCH Orne 1407 STOP AT", "FORCE IF MA <", "\"", "MARCH \"Orne", ";;;", "TAKE TAKE",
		"SET Orne HEX 1307\nSET Orne FATIGUE 2", "SET Vane STRENGTH 0", "SET Vane ELIMINATED\nSET Vane STRENGTH 2", "SET Brand HEX 1508", "SET Brand WITH Pask",
		"SET TURN 2", "SET PHASE action-cycle\nSET STAGE act", "SET Orne MARCHED NO", "SET HOLDER none"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	var states []*State
	f.Fuzz(func(t *testing.T, text string, referee bool) {
		if states == nil {
			states = []*State{harrowHarness(t, false).st, harrowHarness(t, true).st}
		}
		side := USA
		if referee {
			side = engine.RefereeSide
		}
		for _, st := range states {
			enginetest.DecideAnything(t, New(), st, side, text)
		}
	})
}
