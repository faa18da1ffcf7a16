package play

import (
	"reflect"
	"slices"

	"pbem/engine"
)

// promptMemo is what a ruleset prompted in one state.
type promptMemo struct {
	name, version string // the ruleset's
	st            engine.State
	ps            []engine.Prompt
}

// rulePrompts is g.Rules.Prompt(st), asked once of each of the last two
// states: deciding an input asks it of the state before (a sealed step?)
// and after (whose deadlines run?), and the decision's mails of both
// again (what is asked now, what was asked before); the examples in a
// prompt try orders against the rules, the better part of a decision's
// cost. A state is never changed in place but by a fold, which forgets
// what was asked (applyFacts); the ruleset's name and version are part of
// the question, for an audit re-decides on a copy of the game under the
// version that decided. A state whose type cannot be compared is asked
// each time.
func (g *Game) rulePrompts(st engine.State) []engine.Prompt {
	if st == nil || !reflect.TypeOf(st).Comparable() {
		return g.Rules.Prompt(st)
	}
	name, version := g.Rules.Name(), g.Rules.Version()
	for _, m := range g.prompted {
		if m.st == st && m.name == name && m.version == version {
			return slices.Clone(m.ps)
		}
	}
	ps := g.Rules.Prompt(st)
	g.prompted[1], g.prompted[0] = g.prompted[0], promptMemo{name: name, version: version, st: st, ps: slices.Clone(ps)}
	return ps
}

// carryPrompts tells the game that its state, just folded from a decision
// of its own, is after, the state that decision computed: the fold
// evolved the same facts from the same state (the rule contract has
// EvolveAll equal Evolve fact by fact, and enginetest checks it), so
// what after prompted, the decision's mails asked already, is what the
// game's state prompts, and the next decision need not ask again.
func (g *Game) carryPrompts(after engine.State) {
	if after == nil || g.State == after || g.State == nil || !reflect.TypeOf(g.State).Comparable() {
		return
	}
	name, version := g.Rules.Name(), g.Rules.Version()
	for _, m := range g.prompted {
		if m.st == after && m.name == name && m.version == version {
			g.prompted[1], g.prompted[0] = g.prompted[0], promptMemo{name: name, version: version, st: g.State, ps: m.ps}
			return
		}
	}
}
