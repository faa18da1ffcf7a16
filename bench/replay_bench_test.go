package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

// BenchmarkReplay replays whole copies of each rule system's demo game
// from a bbolt file, as `pbem bench --parts replay` does, beside the raw
// cursor scan of the same log (its baseline), for profiling by hand
// (-bench 'Replay/gbacw' -cpuprofile …). The ratio the goal is about is
// scan's cpu-ns/event over replay's. In a test binary every read of a
// fact's field is checked against its kind (engine.FactSet), so "rules"
// and "replay" cost more here than in pbem bench, which runs as the
// server does.
func BenchmarkReplay(b *testing.B) {
	for _, rs := range testApp(io.Discard).reg.Names() {
		b.Run(rs, func(b *testing.B) { benchmarkReplay(b, rs) })
	}
}

func benchmarkReplay(b *testing.B, rs string) {
	a := testApp(io.Discard)
	dir := b.TempDir()
	model, err := playModel(a, dir, rs, demoOrders)
	if err != nil {
		b.Fatal(err)
	}
	const games = 50
	path := filepath.Join(dir, "replay.db")
	if err := copyGames(a.reg, path, model, games, len(model)); err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(path, replayStoreOptions)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ids := make([]string, games)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench-%05d", i)
	}
	work, err := rulesAlone(st, a.reg, ids)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		fn   func(id string) (int, error)
	}{
		{"scan", func(id string) (int, error) { return rawScan(st, id) }},
		// Each event's envelope decoded as replay reads it, and nothing
		// folded: what replay costs before any rule system's work.
		{"read", func(id string) (int, error) {
			n := 0
			err := st.Read(id, 1, func(*events.Envelope) error { n++; return nil })
			return n, err
		}},
		// Each decision's facts decoded as the fold decodes them, and
		// nothing applied.
		{"facts", func(id string) (int, error) { return work.decode(st, id, new(events.FoldBuffer)) }},
		// The rule system's work alone: every decision's facts, decoded
		// beforehand, applied to the state as the fold applies them.
		{"rules", work.events},
		{"replay", func(id string) (int, error) {
			g, err := play.Replay(st, a.reg, id, 0)
			if err != nil {
				return 0, err
			}
			return int(g.Seq), nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			cpu0 := cpuTime()
			for b.Loop() {
				for _, id := range ids {
					k, err := c.fn(id)
					if err != nil {
						b.Fatal(err)
					}
					n += k
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
			// The process's CPU time (the collector's too) per event: on a
			// machine others share, less swayed by them than the time taken.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(n), "cpu-ns/event")
		})
	}
}
