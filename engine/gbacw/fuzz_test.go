package gbacw

import (
	"testing"

	"pbem/engine"
)

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
