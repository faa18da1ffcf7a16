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

// A FuzzedGame is the game whose orders FuzzOrders fuzzes.
type FuzzedGame struct {
	Scenario []byte
	Players  []events.Player
	// Paths are orders played from the start, one after another, to
	// reach steps the prompts' examples do not (an assault and its
	// rulings, a combat): the first state of each kind of step along
	// them is fuzzed too. An order whose Player is no player's id is
	// the referee's. An order the rules refuse leaves the game as it
	// was, as in a script.
	Paths [][]Order
	// Seeds are inputs beside the prompts' examples.
	Seeds []string
}

// maxFuzzStates bounds the states each fuzzed input is decided against.
const maxFuzzStates = 60

// GameStates plays games of rs by the prompts' own examples, as players
// who copy the mail's examples would, and then g's paths, and returns
// the first state of every kind of step they passed through, up to max
// states: the states an order fuzzer decides its inputs against, so that
// an input reaches the code of every phase and not only the first. One
// game sends each prompt's first example the rules accept; another takes
// the examples in turn (the n-th step's from its n-th example on), which
// goes elsewhere where the first example is always to pass or hold. Each
// of those games brings at most a third of the states, and the paths the
// rest.
//
// A step's kind is its prompts' sides and words, numbers left out (turn
// 3's orders are the same kind of step as turn 2's).
func GameStates(tb testing.TB, rs engine.Ruleset, g FuzzedGame, max int) []engine.State {
	tb.Helper()
	c := &stateSet{rs: rs, seen: map[string]bool{}}
	setup := func() engine.State {
		st, err := rs.Setup(g.Scenario, g.Players)
		if err != nil {
			tb.Fatalf("setup: %v", err)
		}
		return st
	}
	for _, inTurn := range []bool{false, true} {
		st := setup()
		dice := play.NewStream([]byte("game states"), "fuzz", 0)
		limit := len(c.out) + max/3
		for step := 0; step < 2000 && len(c.out) < limit && !rs.Outcome(st).Over; step++ {
			ps := rs.Prompt(st)
			if len(ps) == 0 {
				break
			}
			c.keep(st)
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
	for _, path := range g.Paths {
		st := setup()
		dice := play.NewStream([]byte("game states"), "fuzz", 0)
		for _, o := range path {
			if len(c.out) >= max {
				break
			}
			c.keep(st)
			side := engine.RefereeSide
			if i := slices.IndexFunc(g.Players, func(p events.Player) bool { return p.ID == o.Player }); i >= 0 {
				side = g.Players[i].Side
			}
			next, ok := decideAndApply(rs, st, side, o.Text, dice)
			if !ok {
				// As the runner does: the order is refused and the game
				// stays as it was (the fuzz's dice are not the script's).
				tb.Logf("a path's order refused: %s's %q (%s)", o.Player, o.Text, stepOf(rs, st))
				continue
			}
			st = next
		}
		if len(c.out) < max {
			c.keep(st)
		}
	}
	if len(c.out) == 0 {
		tb.Fatal("the game has no step to fuzz")
	}
	return c.out
}

// stateSet keeps the first state of each kind of step.
type stateSet struct {
	rs   engine.Ruleset
	seen map[string]bool
	out  []engine.State
}

func (c *stateSet) keep(st engine.State) {
	ps := c.rs.Prompt(st)
	if len(ps) == 0 {
		return
	}
	if kind := stepKind(ps); !c.seen[kind] {
		c.seen[kind] = true
		c.out = append(c.out, st)
	}
}

// stepKind is the prompts' sides and words, without their numbers.
func stepKind(ps []engine.Prompt) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Side + "|" + strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return -1
			}
			return r
		}, p.What) + "\n")
	}
	return b.String()
}

// playExample decides the first of p's examples the rules accept, from
// its from-th on (counted round), and applies its facts.
func playExample(rs engine.Ruleset, st engine.State, p engine.Prompt, dice engine.Dice, from int) (engine.State, bool) {
	side := p.Side
	if p.Referee {
		side = engine.RefereeSide
	}
	for i := range p.Examples {
		if next, ok := decideAndApply(rs, st, side, p.Examples[(from+i)%len(p.Examples)], dice); ok {
			return next, true
		}
	}
	return st, false
}

// decideAndApply decides side's text at st and applies its facts; ok is
// false if the rules refuse it.
func decideAndApply(rs engine.Ruleset, st engine.State, side, text string, dice engine.Dice) (engine.State, bool) {
	os, probs := rs.Parse(st, side, text)
	if len(probs) > 0 {
		return st, false
	}
	d, err := rs.Decide(st, side, os, dice)
	if err != nil || len(d.Problems) > 0 {
		return st, false
	}
	next := st
	for _, f := range d.Facts {
		if next, err = rs.Evolve(next, f); err != nil {
			return st, false
		}
	}
	return next, true
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
// every kind of step of g's games (GameStates; at most 60), goes through
// DecideAnything. The examples of those steps' prompts and g's paths'
// orders are its seeds, beside g's own.
func FuzzOrders(f *testing.F, rs engine.Ruleset, g FuzzedGame) {
	states := GameStates(f, rs, g, maxFuzzStates)
	var kinds []string
	for _, st := range states {
		kinds = append(kinds, stepOf(rs, st))
	}
	f.Logf("%d kinds of step:\n%s", len(states), strings.Join(kinds, "\n"))
	sides := []string{engine.RefereeSide}
	for _, p := range g.Players {
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
	for _, path := range g.Paths {
		for _, o := range path {
			add(o.Text)
		}
	}
	for _, s := range g.Seeds {
		add(s)
	}
	f.Fuzz(func(t *testing.T, text string, who uint8) {
		side := sides[int(who)%len(sides)]
		for _, st := range states {
			DecideAnything(t, rs, st, side, text)
		}
	})
}
