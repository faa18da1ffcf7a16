package enginetest

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// GameStates plays games of rs on scenario by the prompts' own
// examples, as players who copy the mail's examples would, and returns
// the first state of every kind of step they passed through, up to max
// states: the states an order fuzzer decides its inputs against, so that
// an input reaches the code of every phase and not only the first. One
// game sends each prompt's first example the rules accept; another takes
// the examples in turn (the n-th step's from its n-th example on), which
// goes elsewhere where the first example is always to pass or hold. Each
// game brings at most half the states.
//
// A step's kind is its prompt's side and words, numbers left out (turn
// 3's orders are the same kind of step as turn 2's).
func GameStates(tb testing.TB, rs engine.Ruleset, scenario []byte, players []events.Player, max int) []engine.State {
	tb.Helper()
	seen := map[string]bool{}
	var out []engine.State
	for _, inTurn := range []bool{false, true} {
		st, err := rs.Setup(scenario, players)
		if err != nil {
			tb.Fatalf("setup: %v", err)
		}
		dice := play.NewStream([]byte("game states"), "fuzz", 0)
		limit := len(out) + max/2
		for step := 0; step < 2000 && len(out) < limit && !rs.Outcome(st).Over; step++ {
			ps := rs.Prompt(st)
			if len(ps) == 0 {
				break
			}
			if kind := stepKind(ps[0]); !seen[kind] {
				seen[kind] = true
				out = append(out, st)
			}
			from := 0
			if inTurn {
				from = step
			}
			next, ok := playExample(rs, st, ps[0], dice, from)
			if !ok {
				break // no example is accepted: the game goes no further this way
			}
			st = next
		}
	}
	if len(out) == 0 {
		tb.Fatal("the game has no step to fuzz")
	}
	return out
}

// stepKind is a prompt's side and words, without its numbers.
func stepKind(p engine.Prompt) string {
	return p.Side + "|" + strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}, p.What)
}

// playExample decides the first of p's examples the rules accept, from
// its from-th on (counted round), and applies its facts.
func playExample(rs engine.Ruleset, st engine.State, p engine.Prompt, dice engine.Dice, from int) (engine.State, bool) {
	side := p.Side
	if p.Referee {
		side = engine.RefereeSide
	}
	for i := range p.Examples {
		ex := p.Examples[(from+i)%len(p.Examples)]
		os, probs := rs.Parse(st, side, ex)
		if len(probs) > 0 {
			continue
		}
		d, err := rs.Decide(st, side, os, dice)
		if err != nil || len(d.Problems) > 0 {
			continue
		}
		next := st
		for _, f := range d.Facts {
			if next, err = rs.Evolve(next, f); err != nil {
				return st, false
			}
		}
		return next, true
	}
	return st, false
}

// DecideAnything checks what a fuzzer's text, sent by side at st, comes
// to: orders or problems, every problem at a line and a column of the
// mail, and orders decided into facts or problems, never an error or a
// panic (the runtime would catch one, and the player would be told of
// an internal error instead of their orders).
func DecideAnything(t *testing.T, rs engine.Ruleset, st engine.State, side, text string) {
	t.Helper()
	os, probs := rs.Parse(st, side, text)
	for _, p := range probs {
		if p.Line < 1 || p.Col < 1 {
			t.Fatalf("%s sends %q: a problem at line %d column %d", side, text, p.Line, p.Col)
		}
	}
	if len(probs) > 0 || len(os) == 0 {
		return
	}
	if _, err := rs.Decide(st, side, os, play.NewStream([]byte("fuzz"), "fuzz", 0)); err != nil {
		t.Fatalf("%s sends %q at %q: %v", side, text, stepOf(rs, st), err)
	}
}

// stepOf says which step st is at, for a failure's message.
func stepOf(rs engine.Ruleset, st engine.State) string {
	if ps := rs.Prompt(st); len(ps) > 0 {
		return ps[0].What
	}
	return "no prompt"
}

// FuzzOrders is the body of a rule system's order fuzzer: every input,
// sent by any side of the game or its referee, at the first state of
// every kind of step of games played by the prompts' examples (at most
// 60), goes through DecideAnything. The examples of those prompts are
// its seeds, beside any given.
func FuzzOrders(f *testing.F, rs engine.Ruleset, scenario []byte, players []events.Player, seeds ...string) {
	states := GameStates(f, rs, scenario, players, 60)
	var kinds []string
	for _, st := range states {
		kinds = append(kinds, stepOf(rs, st))
	}
	f.Logf("%d kinds of step:\n%s", len(states), strings.Join(kinds, "\n"))
	sides := []string{engine.RefereeSide}
	for _, p := range players {
		if !slices.Contains(sides, p.Side) {
			sides = append(sides, p.Side)
		}
	}
	added := map[string]bool{}
	add := func(s string) {
		if !added[s] {
			added[s] = true
			for i := range sides {
				f.Add(s, uint8(i))
			}
		}
	}
	for _, st := range states {
		for _, p := range rs.Prompt(st) {
			for _, ex := range p.Examples {
				add(ex)
			}
		}
	}
	for _, s := range seeds {
		add(s)
	}
	f.Fuzz(func(t *testing.T, text string, who uint8) {
		side := sides[int(who)%len(sides)]
		for _, st := range states {
			DecideAnything(t, rs, st, side, text)
		}
	})
}
