package gcacw

import (
	"bytes"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
)

// EvolveAll must give, for every decision of many random games, exactly
// the state evolve gives fact by fact, and leave every state it started
// from as it was (states share units and leaders, so a change in place
// would show in an earlier state). No fact may use the engine's prefix
// for its own facts: the engine would refuse the decision.
func TestEvolveAllEqualsEvolveOnRandomGames(t *testing.T) {
	t.Parallel()
	for seed := range uint64(12) {
		initial, ds := playRandomDecisions(t, seed)
		st := initial
		var states []*State
		var encs [][]byte
		for i, fs := range ds {
			for _, f := range fs {
				if engine.IsGameFact(f) {
					t.Fatalf("seed %d decision %d: fact %s uses the engine's %q prefix", seed, i, f.Kind, engine.GameFactPrefix)
				}
			}
			before := mustEncode(t, st)
			want := st
			for _, f := range fs {
				var err error
				if want, err = evolve(want, f); err != nil {
					t.Fatalf("seed %d decision %d: evolve %s: %v", seed, i, f, err)
				}
			}
			got, err := evolveAll(st, fs)
			if err != nil {
				t.Fatalf("seed %d decision %d: evolveAll: %v", seed, i, err)
			}
			if after := mustEncode(t, st); !bytes.Equal(before, after) {
				t.Fatalf("seed %d decision %d: evolveAll changed its input:\n%s\n---\n%s", seed, i, before, after)
			}
			if g, w := mustEncode(t, got), mustEncode(t, want); !bytes.Equal(g, w) {
				t.Fatalf("seed %d decision %d (%d facts): evolveAll gives\n%s\nevolve fact by fact gives\n%s", seed, i, len(fs), g, w)
			}
			states, encs = append(states, st), append(encs, before)
			st = got
		}
		for i, s := range states {
			if !bytes.Equal(mustEncode(t, s), encs[i]) {
				t.Fatalf("seed %d: the state before decision %d changed after later decisions", seed, i)
			}
		}
	}
}

// A fact that does not apply fails the whole batch, and the state it was
// given is left as it was.
func TestEvolveAllFailsWholeAndKeepsItsInput(t *testing.T) {
	initial, ds := playRandomDecisions(t, 3)
	before := mustEncode(t, initial)
	fs := append([]events.Fact(nil), ds[0]...)
	fs = append(fs, events.NewFact("unit.fatigue_set", events.S("unit", "NOPE"), events.I("fatigue", 2)))
	if _, err := evolveAll(initial, fs); err == nil || !strings.Contains(err.Error(), `no unit "NOPE"`) {
		t.Fatalf("evolveAll with a fact for an unknown unit: err %v", err)
	}
	if !bytes.Equal(mustEncode(t, initial), before) {
		t.Fatal("a failed evolveAll changed its input")
	}
}

func mustEncode(t *testing.T, s *State) []byte {
	t.Helper()
	b, err := encodeState(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
