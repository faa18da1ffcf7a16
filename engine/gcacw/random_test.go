package gcacw

import (
	"math/rand/v2"
	"testing"

	"pbem/engine"
	"pbem/events"
)

type randDice struct{ r *rand.Rand }

func (d randDice) Roll(_ string, sides int) int { return 1 + d.r.IntN(sides) }

// Random games of the sample scenario, choosing among the examples the
// prompts give: every example must be accepted, every fact must apply
// without changing its input, and the state must survive encoding.
func TestRandomPlayOfTheSampleScenario(t *testing.T) {
	t.Parallel()
	b, _ := Scenario("harrow-creek")
	rs := New()
	for seed := range uint64(6) {
		r := rand.New(rand.NewPCG(seed, 7))
		s, err := rs.Setup(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*State)
		steps := 0
		for ; steps < 400 && st.Phase != PhaseOver; steps++ {
			for _, f := range randomStep(t, st, r, seed, steps) {
				before, _ := encodeState(st)
				next, err := evolve(st, f)
				if err != nil {
					t.Fatalf("seed %d: %s: %v", seed, f, err)
				}
				if after, _ := encodeState(st); string(after) != string(before) {
					t.Fatalf("seed %d: %s changed its input", seed, f)
				}
				st = next
			}
			enc, _ := encodeState(st)
			back, err := decodeState(enc, st)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := encodeState(back); string(again) != string(enc) {
				t.Fatalf("seed %d step %d: the state does not survive encoding", seed, steps)
			}
			st = back
			_ = render(st, engine.Viewer{Side: USA})
		}
		if st.Phase != PhaseOver {
			t.Errorf("seed %d: the game did not end in %d orders (%s, turn %d)", seed, steps, st.Phase, st.Turn)
		}
	}
}

func (d randDice) As(events.Vis) engine.Dice { return d }
