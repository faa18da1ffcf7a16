package gbacw

import (
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

// FuzzParseOrders: whatever a mail holds, reading it and deciding it for
// either side or the referee, before the game begins, at its first
// activation and at turn 2, gives orders or problems, never a panic, and
// every problem points at a line and column of the mail.
func FuzzParseOrders(f *testing.F) {
	for _, s := range []string{"BEGIN", "DONE", "PASS", "ORDER U2 ATTACK", "ORDER U2 RESERVE\nDONE", "RELEASE U2",
		"1st Minnesota: MOVE 0809 0808 0708", "1st Minnesota: MOVE 0809\n    0808 0708", "1st Minnesota: FACE NNW", "1st Minnesota: FIRE AT 0604",
		"1st Minnesota: SHOCK 0604 ADVANCE", "1st Minnesota: RECOVER", "CHANGE U Div ATTACK", "COORDINATE U Div, C Div", "SET C1a HEX 0110 FACING NNW",
		"SET TURN 2", ":", "::", "a:b:c", ";;;", "MOVE", "FIRE AT", "\t\tDONE", "x: MOVE 9999 0000 -1"} {
		f.Add(s, 0)
		f.Add(s, 1)
		f.Add(s, 2)
	}
	var states []*State
	f.Fuzz(func(t *testing.T, text string, who int) {
		if states == nil {
			h := newHarness(t, "fuzz")
			states = append(states, h.st.clone())
			h.must(USA, "BEGIN")
			states = append(states, h.st.clone())
			h.playTo(2)
			states = append(states, h.st.clone())
		}
		side := []string{USA, CSA, engine.RefereeSide}[uint(who)%3]
		for _, st := range states {
			enginetest.DecideAnything(t, New(), st, side, text)
		}
	})
}

// FuzzParseScenario: scenario text parses or says why not, never a panic,
// and a scenario that parses draws its board for the referee.
func FuzzParseScenario(f *testing.F) {
	f.Add(string(mustScenario(f, "tanners-mill")))
	f.Add(string(fieldScn("", "")))
	f.Add("scenario x\n[map]\n")
	f.Fuzz(func(t *testing.T, text string) {
		if sc, err := ParseScenario([]byte(text)); err == nil {
			_ = render(newState(sc), engine.Viewer{Referee: true})
		}
	})
}

// A line of nothing but commas is a problem the player is told of, at
// that line, and the orders around it are read as usual.
func TestALineOfCommasIsAProblemTheMailIsToldOf(t *testing.T) {
	h := newHarness(t, "commas")
	probs := h.send(USA, "BEGIN\n, ,\n")
	if len(probs) != 1 || probs[0].Line != 2 || probs[0].Msg != "a line of nothing but commas" {
		t.Fatalf("problems %+v, want one at line 2 saying it holds nothing but commas", probs)
	}
}
