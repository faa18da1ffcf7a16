package main

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"pbem/engine/play"
	"pbem/store"
)

// BenchmarkReplay replays whole copies of the GCACW demo game from a bbolt
// file, as `pbem bench --parts replay` does, for profiling by hand.
func BenchmarkReplay(b *testing.B) {
	a := &app{cfg: defaultConfig(), reg: registry(), out: io.Discard}
	dir := b.TempDir()
	model, err := playModel(a, dir, "gcacw")
	if err != nil {
		b.Fatal(err)
	}
	const games = 50
	path := filepath.Join(dir, "replay.db")
	if err := copyGames(path, model, games, len(model)); err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for i := range games {
			g, err := play.Replay(st, a.reg, fmt.Sprintf("bench-%05d", i), 0)
			if err != nil {
				b.Fatal(err)
			}
			n += int(g.Seq)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
}
