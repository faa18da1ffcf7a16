package gcacw

import (
	"math/rand/v2"
	"sync"
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// randomGames are the random games of the sample scenario by seed, each
// played once for all the tests that read it: its states are never
// changed in place (evolve copies what it changes, which the tests
// check) and its facts are only read.
var randomGames sync.Map // seed → *randomGame

type randomGame struct {
	mu        sync.Mutex
	done      bool
	initial   *State
	decisions [][]events.Fact
}

// playRandomDecisions plays a random game as playRandom does (once per
// seed, for every test that asks) and returns its initial state and the
// facts of each decision, in log order. The caller must change neither.
func playRandomDecisions(tb testing.TB, seed uint64) (*State, [][]events.Fact) {
	tb.Helper()
	v, _ := randomGames.LoadOrStore(seed, new(randomGame))
	g := v.(*randomGame)
	g.mu.Lock()
	defer g.mu.Unlock() // also when the game fails to play: the next caller plays it again
	if !g.done {
		g.initial, g.decisions = playRandomDecisionsAfresh(tb, seed)
		g.done = true
	}
	return g.initial, g.decisions
}

// playRandomDecisionsAfresh is playRandomDecisions, played now.
func playRandomDecisionsAfresh(tb testing.TB, seed uint64) (*State, [][]events.Fact) {
	tb.Helper()
	b, err := Scenario("harrow-creek")
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
	var all [][]events.Fact
	for steps := 0; steps < 400 && st.Phase != PhaseOver; steps++ {
		fs := randomStep(tb, st, r, seed, steps)
		for _, f := range fs {
			if st, err = evolve(st, f); err != nil {
				tb.Fatalf("seed %d: %s: %v", seed, f, err)
			}
		}
		all = append(all, fs)
	}
	return initial, all
}

// acceptedLog encodes each decision as the order.accepted event the
// engine would log for it.
func acceptedLog(decisions [][]events.Fact) []events.Envelope {
	var out []events.Envelope
	for i, fs := range decisions {
		p := &events.OrderAccepted{Input: uint64(i + 1), Player: "north", RulesetVersion: Version,
			Echo: []string{"MARCH Orne 1407 1307 FORCE", "ok"}, Facts: fs}
		out = append(out, events.Envelope{Game: "g", Seq: uint64(i + 1), Type: events.TypeOrderAccepted, Payload: events.EncodePayload(p)})
	}
	return out
}

// BenchmarkDecodeAndEvolve decodes and folds every decision of a random
// game as replay does: DecodeAccepted into a reused buffer, then the facts
// through EvolveAll. The ruleset is used as the runtime uses it, through
// engine.Ruleset (the kit's adapter), so the adapter's cost is measured.
func BenchmarkDecodeAndEvolve(b *testing.B) {
	initial, ds := playRandomDecisions(b, 1)
	log := acceptedLog(ds)
	var rs engine.Ruleset = New()
	batch := rs.(play.BatchEvolver)
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range log {
				if _, err := events.DecodeAccepted(&log[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
	})
	b.Run("decode-into-buffer", func(b *testing.B) {
		b.ReportAllocs()
		var buf events.FoldBuffer
		facts := 0
		for b.Loop() {
			for i := range log {
				buf.Reset()
				a, err := buf.DecodeAccepted(&log[i])
				if err != nil {
					b.Fatal(err)
				}
				facts += len(a.Facts)
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
		b.ReportMetric(float64(facts)/b.Elapsed().Seconds(), "facts/s")
	})
	b.Run("evolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var st any = initial
			for _, fs := range ds {
				for _, f := range fs {
					var err error
					if st, err = rs.Evolve(st, f); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
	})
	b.Run("evolveAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var st any = initial
			for _, fs := range ds {
				var err error
				if st, err = batch.EvolveAll(st, fs); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
	})
	b.Run("decode+evolveAll", func(b *testing.B) {
		b.ReportAllocs()
		var buf events.FoldBuffer
		for b.Loop() {
			var st any = initial
			for i := range log {
				buf.Reset()
				a, err := buf.DecodeAccepted(&log[i])
				if err != nil {
					b.Fatal(err)
				}
				if st, err = batch.EvolveAll(st, a.Facts); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
	})
}
