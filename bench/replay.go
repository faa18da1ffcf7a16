package bench

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"pbem/engine"
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
	// rules is the rule system's own work alone: every decision's facts,
	// decoded beforehand and kept in memory, applied to the game's state
	// as the fold applies them, with no store, no envelope and no mail
	// bookkeeping. Whatever a decoder or a store does, a replay costs at
	// least this much more than reading.
	rules rate
	// facts is read, with every decision's facts decoded as the fold
	// decodes them (its buffers, the inert facts left out), and nothing
	// applied: what a replay must read before the rules' work.
	facts rate
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
	work, err := rulesAlone(st, a.reg, ids)
	if err != nil {
		return fig, err
	}
	var bufs sync.Pool
	facts := func(id string) (int, error) {
		buf, _ := bufs.Get().(*events.FoldBuffer)
		if buf == nil {
			buf = new(events.FoldBuffer)
		}
		defer bufs.Put(buf)
		return work.decode(st, id, buf)
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
	ms := []func() (rate, error){timed(1, scan), timed(1, replay), timed(1, read), timed(1, work.events), timed(1, facts)}
	if workers > 1 {
		ms = append(ms, timed(workers, scan), timed(workers, replay))
	}
	best, err := bestInTurn(rounds, ms...)
	if err != nil {
		return fig, err
	}
	fig.alone, fig.aloneBase, fig.read, fig.rules, fig.facts = best[1], best[0], best[2], best[3], best[4]
	replayLines(a, "play.Replay, a game at a time", fig.alone, fig.aloneBase, "raw cursor scan")
	fmt.Fprintf(a.out, "  %-34s %12.0f /s %10.0f CPU ns/event\n  %-34s %12s    %10.3f             (every event's bytes read and its envelope decoded, nothing more)\n",
		"read + decode alone", fig.read.perSec(), fig.read.cpuPer(), "ratio to the raw scan (CPU)", "", fig.aloneBase.cpuPer()/fig.read.cpuPer())
	fmt.Fprintf(a.out, "  %-34s %12.0f /s %10.0f CPU ns/event\n  %-34s %12s    %10.3f             (every decision's facts, decoded beforehand, applied to the state as the fold applies them: the rule system's own work, with no store and no decoding)\n",
		"the rules' work alone", fig.rules.perSec(), fig.rules.cpuPer(), "ratio to the raw scan (CPU)", "", fig.aloneBase.cpuPer()/fig.rules.cpuPer())
	fmt.Fprintf(a.out, "  %-34s %12.0f /s %10.0f CPU ns/event\n  %-34s %12s    %10.3f             (read + decode, and every decision's facts decoded as the fold decodes them, nothing applied)\n",
		"read + decode, the facts too", fig.facts.perSec(), fig.facts.cpuPer(), "ratio to the raw scan (CPU)", "", fig.aloneBase.cpuPer()/fig.facts.cpuPer())
	fmt.Fprintf(a.out, "  %-34s %12s    %10.3f             (the raw scan over the facts read and decoded and the rules' work together: what a replay reaches if pbem's own bookkeeping, mails and inputs, cost nothing)\n\n",
		"ceiling of a replay", "", fig.ceiling())
	if workers > 1 {
		fig.together, fig.togetherBase = best[6], best[5]
		replayLines(a, fmt.Sprintf("play.Replay, %d at once", workers), fig.together, fig.togetherBase, "raw scans side by side")
	}
	return fig, nil
}

// ceiling is the most a replay of the figure's games can reach: the raw
// scan over reading them, decoding their decisions' facts and the rules'
// work of applying them, with nothing else of a fold.
func (f replayFigure) ceiling() float64 {
	return f.aloneBase.cpuPer() / (f.facts.cpuPer() + f.rules.cpuPer())
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
			ratio: r, goal: fmt.Sprintf("ratio ≥ %.2f (read %.2f, facts %.2f, rules %.2f, ceiling %.2f)", replayGoal, f.aloneBase.cpuPer()/f.read.cpuPer(),
				f.aloneBase.cpuPer()/f.facts.cpuPer(), f.aloneBase.cpuPer()/f.rules.cpuPer(), f.ceiling()), met: r >= replayGoal})
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

// rulesWork is the rule system's work of whole games alone: the state
// after each game's creation and every decision's facts, read from the
// store beforehand, to apply in order as the fold does (a copy for the
// first decision, then in place). The game's own facts, which play keeps
// rather than the rule system, and the inert facts are left out, as the
// fold leaves them out of Evolve.
type rulesWork map[string]*rulesGame

type rulesGame struct {
	rules     engine.Ruleset
	inert     []string
	start     engine.State
	decisions [][]events.Fact
	events    int // the game's events, decisions or not
}

// rulesAlone reads the rule system's work of each game in ids from st.
func rulesAlone(st *store.Store, reg *engine.Registry, ids []string) (rulesWork, error) {
	w := make(rulesWork, len(ids))
	for _, id := range ids {
		g0, err := play.Replay(st, reg, id, 1)
		if err != nil {
			return nil, err
		}
		if g0.Rules == nil {
			return nil, fmt.Errorf("replay %s: no rule system after its first event", id)
		}
		g := &rulesGame{rules: g0.Rules, start: g0.State, inert: play.InertFacts(g0.Rules)}
		buf := new(events.FoldBuffer) // never reset: the facts are kept
		err = st.Read(id, 1, func(e *events.Envelope) error {
			g.events++
			if !events.IsAccepted(e.Type) {
				return nil
			}
			acc, err := buf.DecodeAccepted(e, g.inert...)
			if err != nil {
				return err
			}
			for facts := acc.Facts; len(facts) > 0; {
				n := 0
				for n < len(facts) && !engine.IsGameFact(facts[n]) {
					n++
				}
				if n > 0 {
					g.decisions = append(g.decisions, facts[:n])
				}
				facts = facts[min(n+1, len(facts)):]
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", id, err)
		}
		w[id] = g
	}
	return w, nil
}

// play applies game id's decisions to its first state and returns the
// state they end in and the game's number of events.
func (w rulesWork) play(id string) (engine.State, int, error) {
	g := w[id]
	s, owned := g.start, false
	for _, facts := range g.decisions {
		var err error
		if owned {
			s, err = play.EvolveOwned(g.rules, s, facts)
		} else {
			s, err = play.EvolveAll(g.rules, s, facts)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("evolve %s: %w", id, err)
		}
		owned = true
	}
	return s, g.events, nil
}

// decode reads game id's events from st and decodes each decision's
// facts into buf as the fold decodes them (the inert ones left out),
// applying nothing, and returns the number of events.
func (w rulesWork) decode(st *store.Store, id string, buf *events.FoldBuffer) (int, error) {
	inert := w[id].inert
	n := 0
	err := st.Read(id, 1, func(e *events.Envelope) error {
		n++
		if !events.IsAccepted(e.Type) {
			return nil
		}
		buf.Reset()
		_, err := buf.DecodeAccepted(e, inert...)
		return err
	})
	return n, err
}

// events is play as a measurement: the game's number of events.
func (w rulesWork) events(id string) (int, error) {
	_, n, err := w.play(id)
	return n, err
}
