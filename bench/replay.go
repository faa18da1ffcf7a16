package bench

import (
	"fmt"
	"runtime"
	"time"

	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

// replayGoal is the replay's goal: this share of a raw scan of the same
// log.
const replayGoal = 0.25

// replayStoreOptions open the replay measurement's store: its pages stay
// mapped (no MappedLimit), so that neither the raw scan nor the replay
// pays the minor faults of pages mapped again after a release, whose
// number depends on how the file's size compares with the limit rather
// than on the work measured. The ratio is then read + decode + evolve
// against a cursor over memory already mapped: the strictest comparison,
// and the raw scan of the goal (6.8 M events/s when it was set).
var replayStoreOptions = store.Options{MappedLimit: -1}

// minPassCPU is the least CPU time of one measurement of the replay part.
const minPassCPU = 200 * time.Millisecond

// rawScan is the replay's baseline: a bbolt cursor scan of game's stored
// events, each seen and counted.
func rawScan(st *store.Store, game string) (int, error) {
	n := 0
	err := st.ReadRaw(game, 1, func(uint64, []byte) error { n++; return nil })
	return n, err
}

// replayFigure is one rule system's replay measurement: events replayed
// and raw-scanned, a game at a time and one game per core at once, each
// a rate and its CPU time.
type replayFigure struct {
	ruleset                string
	alone, aloneBase       rate
	together, togetherBase rate
	// read is the same games read and their envelopes decoded, with no
	// rule system's work: the most any replay of them can reach, since
	// the raw scan looks at the keys alone and never at the bytes of an
	// event.
	read rate
}

func benchReplay(a *app, path, ruleset string, games, perGame, rounds int) (replayFigure, error) {
	fig := replayFigure{ruleset: ruleset}
	st, err := store.Open(path, replayStoreOptions)
	if err != nil {
		return fig, err
	}
	defer st.Close()
	n := min(games, 2000)
	fmt.Fprintf(a.out, "replay, %s: %d whole games of %d events, read + decode + evolve\n", ruleset, n, perGame)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("bench-%05d", i)
	}
	// Warm the page cache for both: one untimed pass touching every byte.
	var sum byte
	for _, id := range ids {
		if err := st.ReadRaw(id, 1, func(_ uint64, raw []byte) error {
			for _, c := range raw {
				sum ^= c
			}
			return nil
		}); err != nil {
			return fig, err
		}
	}
	_ = sum
	// Each game read raw, and each replayed. Alone: one game at a time,
	// the cost of one fold. At once: one worker per core taking the next
	// game, as the runner's actors fold their games side by side when a
	// server starts or a ruleset changes; its baseline is raw scans side
	// by side, so that the ratio compares like with like.
	scan := func(id string) (int, error) { return rawScan(st, id) }
	replay := func(id string) (int, error) {
		g, err := play.Replay(st, a.reg, id, 0)
		if err != nil {
			return 0, err
		}
		return int(g.Seq), nil
	}
	read := func(id string) (int, error) {
		n := 0
		err := st.Read(id, 1, func(*events.Envelope) error { n++; return nil })
		return n, err
	}
	workers := runtime.GOMAXPROCS(0)
	timed := func(workers int, f func(string) (int, error)) func() (rate, error) {
		return func() (rate, error) {
			// The collector's work of the previous measurement is not
			// this one's.
			runtime.GC()
			// Passes over every game until the process has spent
			// minPassCPU: the kernel counts another thread's CPU time
			// only at its next tick, so a pass of a few milliseconds
			// alone would be as much error as figure.
			r := rate{}
			cpu0, start := cpuTime(), time.Now()
			for r.n == 0 || r.cpu < int64(minPassCPU) {
				k, err := eachGame(ids, workers, f)
				if err != nil {
					return r, err
				}
				r.n += k
				r.d, r.cpu = time.Since(start), cpuTime()-cpu0
			}
			return r, nil
		}
	}
	ms := []func() (rate, error){timed(1, scan), timed(1, replay), timed(1, read)}
	if workers > 1 {
		ms = append(ms, timed(workers, scan), timed(workers, replay))
	}
	best, err := bestInTurn(rounds, ms...)
	if err != nil {
		return fig, err
	}
	fig.alone, fig.aloneBase, fig.read = best[1], best[0], best[2]
	replayLines(a, "play.Replay, a game at a time", fig.alone, fig.aloneBase, "raw cursor scan")
	fmt.Fprintf(a.out, "  %-34s %12.0f /s %10.0f CPU ns/event\n  %-34s %12s    %10.3f             (every event's bytes read and its envelope decoded, no rule system's work: the most a replay can reach)\n\n",
		"read + decode alone", fig.read.perSec(), fig.read.cpuPer(), "ratio to the raw scan (CPU)", "", fig.aloneBase.cpuPer()/fig.read.cpuPer())
	if workers > 1 {
		fig.together, fig.togetherBase = best[4], best[3]
		replayLines(a, fmt.Sprintf("play.Replay, %d at once", workers), fig.together, fig.togetherBase, "raw scans side by side")
	}
	return fig, nil
}

// replayLines prints a replay figure beside its baseline: events/s, and
// the process's CPU time per event (the collector's included), which a
// machine shared with other work sways far less than the time taken.
func replayLines(a *app, what string, ours, base rate, baseWhat string) {
	fmt.Fprintf(a.out, "  %-34s %12.0f /s %10.0f CPU ns/event\n  %-34s %12.0f /s %10.0f CPU ns/event\n  %-34s %12.3f    %10.3f             goal: ratio ≥ %.2f of the raw scan\n\n",
		what, ours.perSec(), ours.cpuPer(), "baseline: "+baseWhat, base.perSec(), base.cpuPer(),
		"ratio (time, CPU)", ours.perSec()/base.perSec(), base.cpuPer()/ours.cpuPer(), replayGoal)
}

// replaySummary prints the replay figures of every rule system measured,
// one line each, beside their baselines and the goal, and adds each to
// the run's summary by the ratio of CPU time a game at a time.
func replaySummary(a *app, figs []replayFigure) {
	for _, f := range figs {
		r := f.aloneBase.cpuPer() / f.alone.cpuPer()
		a.sum.add(summaryRow{measure: "whole-game replay, " + f.ruleset,
			figure: fmt.Sprintf("%.0f CPU ns/ev", f.alone.cpuPer()), baseline: fmt.Sprintf("%.0f CPU ns/ev", f.aloneBase.cpuPer()),
			ratio: r, goal: fmt.Sprintf("ratio ≥ %.2f (read %.2f)", replayGoal, f.aloneBase.cpuPer()/f.read.cpuPer()), met: r >= replayGoal})
	}
	if len(figs) < 2 {
		return
	}
	fmt.Fprintf(a.out, "replay, every rule system (ratio to the raw scan of the same run, by time and by CPU time per event; goal ≥ %.2f)\n", replayGoal)
	fmt.Fprintf(a.out, "  %-8s %11s %11s %7s %7s   %11s %11s %7s %7s\n", "", "alone /s", "raw scan /s", "time", "CPU", "at once /s", "raw scans", "time", "CPU")
	ratio := func(r float64) string {
		mark := ""
		if r < replayGoal {
			mark = "!"
		}
		return fmt.Sprintf("%.3f%s", r, mark)
	}
	for _, f := range figs {
		tog := ratio
		if f.together.n == 0 { // one core: nothing measured at once
			tog = func(float64) string { return "-" }
		}
		fmt.Fprintf(a.out, "  %-8s %11.0f %11.0f %7s %7s   %11.0f %11.0f %7s %7s\n", f.ruleset,
			f.alone.perSec(), f.aloneBase.perSec(), ratio(f.alone.perSec()/f.aloneBase.perSec()), ratio(f.aloneBase.cpuPer()/f.alone.cpuPer()),
			f.together.perSec(), f.togetherBase.perSec(), tog(f.together.perSec()/f.togetherBase.perSec()), tog(f.togetherBase.cpuPer()/f.together.cpuPer()))
	}
	fmt.Fprintln(a.out, "  (! below the goal)")
	fmt.Fprintln(a.out)
}
