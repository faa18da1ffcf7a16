package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"pbem/engine/play"
	"pbem/store"
)

// BenchmarkActiveGamesMemory loads copies of the default rule system's
// demo game (its first 100 events, a snapshot five before the end), as
// `pbem bench --parts memory` does in a fresh process, and reports the
// resident bytes per game: the store's mapping of the file, and the live
// heap with every game held (-bench ActiveGamesMemory).
func BenchmarkActiveGamesMemory(b *testing.B) {
	a := testApp(io.Discard)
	dir := b.TempDir()
	model, err := playModel(a, dir, "", demoOrders)
	if err != nil {
		b.Fatal(err)
	}
	const games = 2000
	path := filepath.Join(dir, "active.db")
	if err := copyGames(a.reg, path, model, games, min(100, len(model))); err != nil {
		b.Fatal(err)
	}
	var mapped, heap int64
	for b.Loop() {
		st, err := store.Open(path, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		held := make([]*play.Game, 0, games)
		for i := range games {
			g, err := play.Load(st, a.reg, fmt.Sprintf("bench-%05d", i), 0)
			if err != nil {
				b.Fatal(err)
			}
			held = append(held, g)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mapped, _ = smapsRss(path)
		heap = int64(ms.HeapAlloc)
		runtime.KeepAlive(held)
		st.Close()
	}
	b.ReportMetric(float64(mapped)/games, "mapped-B/game")
	b.ReportMetric(float64(heap)/games, "heap-B/game")
}
