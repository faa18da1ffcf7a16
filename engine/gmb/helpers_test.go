package gmb

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

var testPlayers = []events.Player{
	{ID: "anna", Name: "Anna", Side: "Union", Addresses: []string{"anna@example.org"}},
	{ID: "taro", Name: "Taro", Side: "Confederate", Addresses: []string{"taro@example.jp"}},
}

// game is a GMB game decided and evolved in the test, without the
// runtime: each side's orders go straight to Decide (a sealed step's as
// the runtime decides them when they open).
type game struct {
	t    testing.TB
	st   *State
	dice engine.Dice
	log  []events.Fact
}

// lcg is a small deterministic dice stream for tests.
func lcg(seed uint64) engine.Dice {
	x := seed
	return engine.DiceFunc(func(_ string, sides int) int {
		x = x*6364136223846793005 + 1442695040888963407
		return int((x>>33)%uint64(sides)) + 1
	})
}

// scenario returns the sample scenario with extra lines.
func scenario(t testing.TB, extra ...string) []byte {
	t.Helper()
	b, err := Scenario("hazel-run")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, []byte("\n"+strings.Join(extra, "\n")+"\n")...)
}

func newGame(t *testing.T, extra ...string) *game {
	t.Helper()
	st, err := rules{}.Setup(scenario(t, extra...), testPlayers)
	if err != nil {
		t.Fatal(err)
	}
	return &game{t: t, st: st, dice: lcg(1)}
}

// decide parses and decides a side's mail; it returns the decision and
// the problems (parse or decide).
func (g *game) decide(side, text string) (engine.Decision, []events.Problem) {
	g.t.Helper()
	os, probs := parseOrders(g.st, side, text)
	if len(probs) > 0 {
		return engine.Decision{}, probs
	}
	d, err := decide(g.st, side, os, g.dice)
	if err != nil {
		g.t.Fatalf("%s %q: %v", side, text, err)
	}
	if len(d.Problems) > 0 {
		return d, d.Problems
	}
	next, err := evolveAll(g.st, d.Facts)
	if err != nil {
		g.t.Fatalf("%s %q: evolve: %v", side, text, err)
	}
	g.st = next
	g.log = append(g.log, d.Facts...)
	return d, nil
}

// send decides a mail that must be accepted.
func (g *game) send(side, text string) engine.Decision {
	g.t.Helper()
	d, probs := g.decide(side, text)
	if len(probs) > 0 {
		g.t.Fatalf("%s %q refused at step %s: %v", side, text, g.st.Step, probs)
	}
	return d
}

// refuse decides a mail that must be refused, with a message holding want.
func (g *game) refuse(side, text, want string) {
	g.t.Helper()
	_, probs := g.decide(side, text)
	if len(probs) == 0 {
		g.t.Fatalf("%s %q was accepted; want a refusal saying %q", side, text, want)
	}
	if !strings.Contains(probs[0].Msg, want) {
		g.t.Fatalf("%s %q refused with %q; want %q", side, text, probs[0].Msg, want)
	}
}

// auto answers the prompts with their first examples until stop says so
// (or the game waits on nobody), at most n mails.
func (g *game) auto(n int, stop func(*State) bool) {
	g.t.Helper()
	for range n {
		if stop(g.st) {
			return
		}
		ps := prompts(g.st)
		if len(ps) == 0 {
			return
		}
		p := ps[0]
		side := p.Side
		if p.Referee {
			side = engine.RefereeSide
		}
		if len(p.Examples) == 0 {
			g.t.Fatalf("step %s: prompt %q has no example", g.st.Step, p.What)
		}
		g.send(side, p.Examples[0])
	}
	if !stop(g.st) {
		g.t.Fatalf("the game did not get there within %d mails: step %s", n, g.st.Step)
	}
}

func atStep(step string) func(*State) bool { return func(s *State) bool { return s.Step == step } }

// facts returns the logged facts of a kind.
func (g *game) facts(kind string) []events.Fact {
	var out []events.Fact
	for _, f := range g.log {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

var engineViewerRef = engine.Viewer{Referee: true}
