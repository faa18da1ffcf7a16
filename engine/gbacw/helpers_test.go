package gbacw

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// harness plays orders against a state with a real dice stream, or with
// dice the test scripts (each d10 roll takes the next value; 0-9).
type harness struct {
	t    *testing.T
	st   *State
	dice engine.Dice
	last engine.Decision
	// rolls, when set, are the next d10 values (as the die shows them).
	rolls []int
}

func newHarness(t *testing.T, seed string) *harness {
	t.Helper()
	return newHarnessOf(t, seed, mustScenario(t, "tanners-mill"))
}

func mustScenario(t testing.TB, name string) []byte {
	t.Helper()
	b, err := Scenario(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func newHarnessOf(t *testing.T, seed string, scn []byte) *harness {
	t.Helper()
	sc, err := ParseScenario(scn)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, st: newState(sc)}
	stream := play.NewStream([]byte(seed), "test", 0)
	h.dice = engine.DiceFunc(func(purpose string, sides int) int {
		if len(h.rolls) > 0 && sides == 10 {
			v := h.rolls[0]
			h.rolls = h.rolls[1:]
			if v == 0 {
				return 10 // the die's 0
			}
			return v
		}
		return stream.Roll(purpose, sides)
	})
	return h
}

// send decides text for side and applies its facts; it returns the problems.
func (h *harness) send(side, text string) []events.Problem {
	h.t.Helper()
	os, probs := parseOrders(h.st, side, text)
	if len(probs) > 0 {
		return probs
	}
	d, err := decide(h.st, side, os, h.dice)
	if err != nil {
		h.t.Fatalf("%q: %v", text, err)
	}
	h.last = d
	if len(d.Problems) > 0 {
		return d.Problems
	}
	st, err := evolveAll(h.st, d.Facts)
	if err != nil {
		h.t.Fatalf("%q: evolve: %v", text, err)
	}
	h.st = st
	return nil
}

func (h *harness) must(side, text string) {
	h.t.Helper()
	if probs := h.send(side, text); len(probs) > 0 {
		h.t.Fatalf("%s %q rejected: %+v\n%s", side, text, probs, render(h.st, engine.Viewer{Referee: true}).Window)
	}
}

// refused sends text and requires it refused with a message holding want.
func (h *harness) refused(side, text, want string) {
	h.t.Helper()
	probs := h.send(side, text)
	if len(probs) == 0 {
		h.t.Fatalf("%s %q accepted; want refused with %q\n%s", side, text, want, h.echo())
	}
	for _, p := range probs {
		if strings.Contains(p.Msg, want) {
			return
		}
	}
	h.t.Fatalf("%s %q refused with %+v; want %q", side, text, probs, want)
}

func (h *harness) echo() string { return strings.Join(h.last.Echo, "\n") }

// told reports whether the last decision told a fact holding want.
func (h *harness) told(want string) bool {
	for _, f := range h.last.Facts {
		if strings.Contains(describe(h.st, f), want) || strings.Contains(f.String(), want) {
			return true
		}
	}
	return strings.Contains(h.echo(), want)
}

func (h *harness) facts() string {
	var b strings.Builder
	for _, f := range h.last.Facts {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}

// playToEnd answers each prompt with its first example until the game is
// over; it returns how many orders it sent.
func (h *harness) playToEnd(max int) int {
	h.t.Helper()
	n := 0
	for ; n < max && h.st.Phase != PhaseOver; n++ {
		ps := prompts(h.st)
		if len(ps) == 0 || len(ps[0].Examples) == 0 {
			h.t.Fatalf("no prompt in phase %s", h.st.Phase)
		}
		side := ps[0].Side
		if ps[0].Referee {
			side = engine.RefereeSide
		}
		h.must(side, ps[0].Examples[0])
	}
	return n
}
