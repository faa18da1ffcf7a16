package gcacw

import (
	"testing"

	"pbem/engine"
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
