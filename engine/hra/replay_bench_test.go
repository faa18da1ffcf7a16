package hra

import (
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// playedDecisions plays Kettle Run to its end by the prompts' first
// examples (as TestPlayToEndWithPromptExamples) and returns the facts of
// each decision, in log order.
func playedDecisions(tb testing.TB) [][]events.Fact {
	tb.Helper()
	h := newHarness(tb, "seed-1")
	var out [][]events.Fact
	for n := 0; n < 400 && h.st.Phase != PhaseOver; n++ {
		ps := prompts(h.st)
		if len(ps) == 0 || len(ps[0].Examples) == 0 {
			tb.Fatalf("no prompt in phase %s", h.st.Phase)
		}
		h.must(ps[0].Side, ps[0].Examples[0])
		out = append(out, h.last.Facts)
	}
	if h.st.Phase != PhaseOver {
		tb.Fatal("the game did not end")
	}
	return out
}

// BenchmarkDecodeAndEvolve decodes and folds every decision of a whole
// game of Kettle Run as replay does, through the Ruleset the runtime
// holds: "decode" alone is the baseline (reading the log, which any
// replay pays), "evolve" applies the facts one by one, "evolveAll" a
// decision at a time, and "decode+evolveAll" is replay's loop.
func BenchmarkDecodeAndEvolve(b *testing.B) {
	ds := playedDecisions(b)
	rs := New()
	initial, err := rs.Setup(mustScenario(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	var log []events.Envelope
	facts := 0
	for i, fs := range ds {
		p := &events.OrderAccepted{Input: uint64(i + 1), Player: "north", RulesetVersion: Version, Echo: []string{"Iron Brigade: ADVANCE 6"}, Facts: fs}
		log = append(log, events.Envelope{Game: "g", Seq: uint64(i + 1), Type: events.TypeOrderAccepted, Payload: events.EncodePayload(p)})
		facts += len(fs)
	}
	batch := rs.(play.BatchEvolver)
	decode := func(buf *events.FoldBuffer, i int) ([]events.Fact, error) {
		buf.Reset()
		a, err := buf.DecodeAccepted(&log[i])
		if err != nil {
			return nil, err
		}
		return a.Facts, nil
	}
	// Each variant folds decision i into st.
	for _, c := range []struct {
		name string
		step func(st engine.State, i int, buf *events.FoldBuffer) (engine.State, error)
	}{
		{"decode", func(st engine.State, i int, buf *events.FoldBuffer) (engine.State, error) {
			_, err := decode(buf, i)
			return st, err
		}},
		{"evolve", func(st engine.State, i int, _ *events.FoldBuffer) (engine.State, error) {
			for _, f := range ds[i] {
				var err error
				if st, err = rs.Evolve(st, f); err != nil {
					return nil, err
				}
			}
			return st, nil
		}},
		{"evolveAll", func(st engine.State, i int, _ *events.FoldBuffer) (engine.State, error) {
			return batch.EvolveAll(st, ds[i])
		}},
		{"decode+evolveAll", func(st engine.State, i int, buf *events.FoldBuffer) (engine.State, error) {
			fs, err := decode(buf, i)
			if err != nil {
				return nil, err
			}
			return batch.EvolveAll(st, fs)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf events.FoldBuffer
			for b.Loop() {
				st := initial
				for i := range log {
					if st, err = c.step(st, i, &buf); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
			b.ReportMetric(float64(b.N)*float64(facts)/b.Elapsed().Seconds(), "facts/s")
		})
	}
}

func mustScenario(tb testing.TB) []byte {
	tb.Helper()
	b, err := Scenario("kettle-run")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
