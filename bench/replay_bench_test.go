package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"syscall"
	"testing"

	"pbem/engine/play"
	"pbem/store"
)

// BenchmarkReplay replays whole copies of each rule system's demo game
// from a bbolt file, as `pbem bench --parts replay` does, for profiling by
// hand (-bench Replay/gbacw -cpuprofile …).
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
	st, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	b.ReportAllocs()
	n := 0
	cpu0 := cpuTime()
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
	// The process's CPU time (the collector's too) per event: on a
	// machine others share, less swayed by them than the time taken.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(n), "cpu-ns/event")
}

// cpuTime is the CPU time the process has used, user and system, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
