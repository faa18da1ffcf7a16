package hra

import (
	"testing"

	"pbem/engine"
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
	batch := rs.(engine.BatchEvolver)
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
		b.ReportMetric(float64(b.N)*float64(facts)/b.Elapsed().Seconds(), "facts/s")
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		var buf events.FoldBuffer
		for b.Loop() {
			for i := range log {
				buf.Reset()
				if _, err := buf.DecodeAccepted(&log[i]); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b)
	})
	b.Run("evolve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st := initial
			for _, fs := range ds {
				for _, f := range fs {
					if st, err = rs.Evolve(st, f); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		report(b)
	})
	b.Run("evolveAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			st := initial
			for _, fs := range ds {
				if st, err = batch.EvolveAll(st, fs); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b)
	})
	b.Run("decode+evolveAll", func(b *testing.B) {
		b.ReportAllocs()
		var buf events.FoldBuffer
		for b.Loop() {
			st := initial
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
		report(b)
	})
}

func mustScenario(tb testing.TB) []byte {
	tb.Helper()
	b, err := Scenario("kettle-run")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
