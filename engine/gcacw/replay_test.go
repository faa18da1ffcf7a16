package gcacw

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/events"
	"pbem/internal/golden"
)

// randomStep is one step of a random game: a random prompt, a random one
// of its examples (the referee ends a Reorganization Phase), decided with
// seeded dice. It returns the facts, which the caller applies.
func randomStep(tb testing.TB, st *State, r *rand.Rand, seed uint64, steps int) []events.Fact {
	tb.Helper()
	ps := prompts(st)
	if len(ps) == 0 {
		tb.Fatalf("seed %d step %d: nobody is asked to act in %s", seed, steps, st.Phase)
	}
	p := ps[r.IntN(len(ps))]
	side := p.Side
	if p.Referee {
		side = engine.RefereeSide
	}
	ex := p.Examples[r.IntN(len(p.Examples))]
	if p.Referee && st.Phase == PhaseReorg {
		ex = "RULE DONE"
	}
	if st.Undo != nil && r.IntN(8) == 0 {
		side, ex = st.Undo.Side, "UNDO" // take the last order back now and then
	}
	os, probs := parseOrders(st, side, ex)
	if len(probs) > 0 {
		tb.Fatalf("seed %d step %d: example %q: %v", seed, steps, ex, probs)
	}
	d, err := decide(st, side, os, randDice{r})
	if err != nil || len(d.Problems) > 0 {
		tb.Fatalf("seed %d step %d: example %q: %v %v", seed, steps, ex, err, d.Problems)
	}
	checkTold(tb, st, d.Facts)
	return d.Facts
}

// playRandom plays a game of the sample scenario as the random play test
// does (choosing among the examples the prompts give, with seeded dice)
// and returns its initial state and the accepted facts in log order: the
// game of playRandomDecisions, played once for every test that reads it.
func playRandom(tb testing.TB, seed uint64) (*State, []events.Fact) {
	tb.Helper()
	initial, ds := playRandomDecisions(tb, seed)
	return initial, slices.Concat(ds...)
}

// playRandomScenario plays a random game of a shipped scenario, at most
// maxSteps orders.
func playRandomScenario(tb testing.TB, name string, seed uint64, maxSteps int) (*State, []events.Fact) {
	tb.Helper()
	b, err := Scenario(name)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := New().Setup(b, nil)
	if err != nil {
		tb.Fatal(err)
	}
	initial := s.(*State)
	r := rand.New(rand.NewPCG(seed, 7))
	st := initial
	var all []events.Fact
	for steps := 0; steps < maxSteps && st.Phase != PhaseOver; steps++ {
		for _, f := range randomStep(tb, st, r, seed, steps) {
			if st, err = evolve(st, f); err != nil {
				tb.Fatalf("seed %d: %s: %v", seed, f, err)
			}
			all = append(all, f)
		}
	}
	return initial, all
}

// BenchmarkEvolveReplay folds the facts of a whole random game from the
// initial state, as replaying the game's log does.
func BenchmarkEvolveReplay(b *testing.B) {
	initial, fs := playRandom(b, 1) // the longest of the random test's games
	b.ReportAllocs()
	for b.Loop() {
		st := initial
		for _, f := range fs {
			var err error
			if st, err = evolve(st, f); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)*float64(len(fs))/b.Elapsed().Seconds(), "facts/s")
}

// The encoding of every state of a few random games is pinned by a digest
// per game: a change of the state's representation must not change a byte
// of what EncodeState writes (saved snapshots must still decode and
// compare equal). States share the units and leaders that did not change,
// so every state of a game must also still encode as it did once the game
// is over.
func TestEncodeStateOfRandomGamesIsStable(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for seed := range uint64(6) {
		initial, fs := playRandom(t, seed)
		h := sha256.New()
		var states []*State
		var encs []string
		st := initial
		for i := -1; i < len(fs); i++ {
			if i >= 0 {
				var err error
				if st, err = evolve(st, fs[i]); err != nil {
					t.Fatal(err)
				}
			}
			enc, err := encodeState(st)
			if err != nil {
				t.Fatal(err)
			}
			h.Write(enc)
			h.Write([]byte{'\n'})
			states, encs = append(states, st), append(encs, string(enc))
		}
		fmt.Fprintf(&b, "seed %d: %d facts, states %x\n", seed, len(fs), h.Sum(nil))
		for i, st := range states {
			if enc, _ := encodeState(st); string(enc) != encs[i] {
				t.Fatalf("seed %d: state %d changed after later facts", seed, i)
			}
		}
	}
	golden.CheckString(t, "random-game-states.txt", b.String())
}

// planWords splits every plan into the words planLexer reads in it, whether
// it takes the short way (plans as Plan.String writes them) or not.
func FuzzPlanWords(f *testing.F) {
	for _, s := range []string{"", "1605", "1703 FORCE IF MA < 3", "0504 0503 FORCE IF MA <= 4 STOP AT 0503 IF ZOC THEN STOP",
		"0504 FORCE IF SHORT", "0504 force if ma >= 3", "  0504   0505 ", "FORCE IF MA<4", "FORCE IF MA <=4", "<==", "= =", "a=b",
		"0504,0505", "0504\t0505", "\"05 04\" 0505", "“0504” 0505", "0504 # note", "0504;0505", "MA:4", "Ünit 0504", "\xff0504", "0504\u00a00505"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, _ := planLexer.Line(s)
		want := make([]string, len(toks))
		for i, tok := range toks {
			want[i] = tok.Text
		}
		if got := planWords(s); !slices.Equal(got, want) {
			t.Errorf("planWords(%q) = %q, planLexer reads %q", s, got, want)
		}
	})
}
