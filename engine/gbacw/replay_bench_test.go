package gbacw

import (
	"testing"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// playedDecisions plays the sample scenario to its end by the prompts'
// first examples and returns its initial state and each decision's
// facts, in order.
func playedDecisions(tb testing.TB) (*State, [][]events.Fact) {
	tb.Helper()
	t, ok := tb.(*testing.T)
	if !ok {
		t = &testing.T{}
	}
	h := newHarness(t, "replay bench")
	initial := h.st
	var ds [][]events.Fact
	for n := 0; n < 400 && h.st.Phase != PhaseOver; n++ {
		ps := prompts(h.st)
		side := ps[0].Side
		if ps[0].Referee {
			side = engine.RefereeSide
		}
		if probs := h.send(side, ps[0].Examples[0]); len(probs) > 0 {
			tb.Fatalf("%q: %v", ps[0].Examples[0], probs)
		}
		ds = append(ds, h.last.Facts)
	}
	return initial, ds
}

// BenchmarkDecodeAndEvolve folds the decisions of a whole game as a
// replay does: each decoded from its logged form into a reused buffer,
// then applied with EvolveAll through the Ruleset.
func BenchmarkDecodeAndEvolve(b *testing.B) {
	initial, ds := playedDecisions(b)
	var log []events.Envelope
	for i, fs := range ds {
		p := &events.OrderAccepted{Input: uint64(i + 1), Player: "north", RulesetVersion: Version, Echo: []string{"U1a: MOVE 0101"}, Facts: fs}
		log = append(log, events.Envelope{Game: "g", Seq: uint64(i + 1), Type: events.TypeOrderAccepted, Payload: events.EncodePayload(p)})
	}
	rs := New().(play.BatchEvolver)
	b.Run("evolveAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var st any = initial
			for _, fs := range ds {
				var err error
				if st, err = rs.EvolveAll(st, fs); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(ds))/b.Elapsed().Seconds(), "decisions/s")
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
				if st, err = rs.EvolveAll(st, a.Facts); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.N)*float64(len(log))/b.Elapsed().Seconds(), "decisions/s")
	})
}
