package hra

import (
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

var schemas = engine.NewSchemas(factSet.Schemas()...)

// harness plays orders against a state with a real dice stream.
type harness struct {
	t    testing.TB
	st   *State
	dice engine.Dice
	last engine.Decision
}

func newHarness(t testing.TB, seed string) *harness {
	t.Helper()
	b, err := Scenario("kettle-run")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := ParseScenario(b)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, st: newState(sc), dice: play.NewStream([]byte(seed), "test", 0)}
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
	for _, f := range d.Facts {
		// Every fact of every test's decisions matches its schema and is
		// told in words (engine.Teller).
		if err := schemas.Check(f); err != nil {
			h.t.Fatalf("%q: %v", text, err)
		}
		if s := describe(f); s == "" || strings.HasPrefix(s, "Recorded: ") {
			h.t.Fatalf("%q: %s is told as %q", text, f, s)
		}
		next, err := evolve(h.st, f)
		if err != nil {
			h.t.Fatalf("%q: evolve %s: %v", text, f, err)
		}
		h.st = next
	}
	return nil
}

func (h *harness) must(side, text string) {
	h.t.Helper()
	if probs := h.send(side, text); len(probs) > 0 {
		h.t.Fatalf("%s %q rejected: %+v", side, text, probs)
	}
}

func (h *harness) echo() string { return strings.Join(h.last.Echo, "\n") }

// playToEnd sends each prompt's first example until the game is over.
func (h *harness) playToEnd(max int) int {
	h.t.Helper()
	n := 0
	for ; n < max && h.st.Phase != PhaseOver; n++ {
		ps := prompts(h.st)
		if len(ps) == 0 || len(ps[0].Examples) == 0 {
			h.t.Fatalf("no prompt in phase %s", h.st.Phase)
		}
		h.must(ps[0].Side, ps[0].Examples[0])
	}
	return n
}

// simulate runs one of the decision's steps (fn) on st with dice, as
// decide runs them, and returns the state it leaves.
func simulate(tb testing.TB, st *State, dice engine.Dice, fn func(m *sim)) *State {
	tb.Helper()
	out := st
	if _, err := engine.Decide(st, dice, evolve, func(s *engine.Sim[*State]) []events.Problem {
		m := &sim{s}
		fn(m)
		out = m.State
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return out
}
