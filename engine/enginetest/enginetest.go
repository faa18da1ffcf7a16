// Package enginetest is the acceptance suite every ruleset must pass. It
// plays scripted games through the real runner on a real bbolt file
// (committed without fsync: the suite tests the rules, not the store's
// durability, which the store's and cmd/pbem's crash tests do) and
// checks the engine's promises: replaying a log twice gives byte-identical
// state and boards; a full replay equals the incremental fold (and the
// snapshot + tail load) at every event; Evolve never mutates its input;
// a ruleset's EvolveAll, if it has one, gives the state Evolve gives fact
// by fact and never mutates its input either; neither keeps anything of
// the facts it was given (a replay reuses their memory); its EvolveOwned,
// if it has one, gives EvolveAll's state and changes nothing its input
// shares with earlier states; Evolve leaves the state as it is for each
// of its inert facts, which a fold skips;
// Decide is deterministic (re-deciding every input with the logged dice
// gives the logged facts); every die verifies against the seed.
//
// A ruleset package calls Run from its tests with scripts of its own,
// and the mail renderer the leak test reads every mail with (Mailer).
package enginetest

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
	"pbem/store"
)

// Order is one order mail: who sends it and its text.
type Order struct {
	Player string
	Text   string
}

// Script is a game to play: a scenario, players, and orders in turn.
type Script struct {
	Name         string
	Ruleset      string
	ScenarioName string
	Scenario     []byte
	Players      []events.Player
	// Referees, if any: an order whose Player is a referee's id goes in as
	// a referee command (a ruling, a SET, or a game command such as
	// ROLLBACK), so the suite covers the referee's part too.
	Referees []events.Player
	Orders   []Order
	// Secrets are ways to change what one side keeps hidden (another
	// sealed choice): the leak test plays each and checks that no other
	// viewer's material changes before the reveal. Every script is also
	// played with the dice each viewer may not see thrown from another
	// seed (another hand, other hidden draws), with no Secret needed.
	Secrets []Secret
}

// Secret is another version of what one side keeps hidden: some of the
// script's orders (by index in Orders) sent with other texts.
type Secret struct {
	Name   string
	Side   string
	Orders map[int]string
	// Readers, when set, are the only players who may ever learn it: the
	// writer of a press and the players it names. Every other viewer —
	// the side's other players, an observer, and the referees unless
	// RefereesRead — must then receive the same through the whole game,
	// its end included (press is never revealed).
	Readers      []string
	RefereesRead bool
}

// Played is a script after play: its store (open until the test ends), the
// final game, and the whole log.
type Played struct {
	Script Script
	Store  *store.Store
	Game   *play.Game
	Log    []events.Envelope
	Seed   []byte
}

// Decisions returns the decision (accepted or rejected payload) for each
// order, in order.
func (p *Played) Decisions() []events.Payload {
	var out []events.Payload
	for i := range p.Log {
		switch p.Log[i].Type {
		case events.TypeOrderAccepted, events.TypeOrderAcceptedV1, events.TypeOrderRejected:
			d, _ := events.Decode(&p.Log[i])
			out = append(out, d)
		}
	}
	return out
}

// Play runs the script through a real Runner on a fresh bbolt file, one
// order at a time (each decided before the next is sent), with a small
// snapshot interval so loads use snapshot + tail. No mail is rendered.
func Play(t testing.TB, reg *engine.Registry, s Script) *Played {
	t.Helper()
	return playScript(t, reg, s, playOptions{})
}

// playOptions change how a script is played (for the leak test).
type playOptions struct {
	mail   Mailer                  // renders the decisions' mails (nil: none)
	hidden func(events.Vis) []byte // see play.RunnerOptions.HiddenSeed
	orders map[int]string          // texts that replace the script's
	seed   []byte                  // the dice seed (nil: a fresh one)
	volume string                  // every reader's mail volume ("": the default)
}

func playScript(t testing.TB, reg *engine.Registry, s Script, o playOptions) *Played {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	const game = "test-game"
	at := time.Date(1863, 7, 1, 8, 0, 0, 0, time.UTC)
	ng := play.NewGame{ID: game, Ruleset: s.Ruleset, ScenarioName: s.ScenarioName,
		Scenario: s.Scenario, Players: s.Players, Referees: s.Referees, At: at, Seed: o.seed}
	if o.volume != "" {
		ng.Settings = []events.Setting{{Key: play.SettingMail, Value: o.volume}}
	}
	opts := play.RunnerOptions{SnapshotEvery: 3, HiddenSeed: o.hidden}
	if o.mail != nil {
		opts.Notifier, ng.Welcome = o.mail, o.mail.Welcome
	}
	log := newWatchedLog(st)
	r := play.NewRunner(log, reg, opts)
	defer r.Close()
	created, err := play.Create(st, reg, ng)
	if err != nil {
		t.Fatalf("%s: create: %v", s.Name, err)
	}
	r.Deliver(&created)
	// A query is answered once the game's actor has loaded the game.
	if err := r.Query(context.Background(), game, func(*play.Game) {}); err != nil {
		t.Fatalf("%s: load: %v", s.Name, err)
	}
	for i, ord := range s.Orders {
		h, _ := st.Head(game)
		at = at.Add(time.Hour)
		key := fmt.Sprintf("<order-%d@test>", i)
		text := ord.Text
		if alt, ok := o.orders[i]; ok {
			text = alt
		}
		var in events.Payload = &events.OrderReceived{Player: ord.Player, Text: text, MessageID: key, Source: "test"}
		for _, ref := range s.Referees {
			if ref.ID == ord.Player {
				in = &events.RefereeCommand{Referee: ord.Player, Text: text, Reason: "test", MessageID: key, Source: "test"}
			}
		}
		res, err := st.Append(game, h.Seq, events.New(game, at, key, in))
		if err != nil {
			t.Fatalf("%s: order %d: %v", s.Name, i+1, err)
		}
		r.Deliver(&res.Events[0])
		if !log.waitPast(res.Last, time.Minute) {
			t.Fatalf("%s: order %d: the runner did not decide it within a minute", s.Name, i+1)
		}
	}
	p := &Played{Store: st, Script: s}
	if p.Log, err = st.Events(game, 1); err != nil {
		t.Fatal(err)
	}
	if p.Seed, err = st.Secret(game); err != nil {
		t.Fatal(err)
	}
	if p.Game, err = play.Load(st, reg, game, 0); err != nil {
		t.Fatalf("%s: load: %v", s.Name, err)
	}
	return p
}

// watchedLog is the store as the runner sees it (play.Log), telling the
// suite when the runner has written: the runner writes nothing but its
// decisions (with their mails) through Do, one input at a time here, so
// once it has written past an input's seq that input is decided.
type watchedLog struct {
	*store.Store
	mu      sync.Mutex
	written uint64        // the last seq the runner wrote
	changed chan struct{} // closed (and replaced) when written grows
}

func newWatchedLog(st *store.Store) *watchedLog {
	return &watchedLog{Store: st, changed: make(chan struct{})}
}

func (w *watchedLog) Do(req store.Request) (store.Result, error) {
	res, err := w.Store.Do(req)
	if err == nil && !res.Duplicate {
		w.mu.Lock()
		if res.Last > w.written {
			w.written = res.Last
			close(w.changed)
			w.changed = make(chan struct{})
		}
		w.mu.Unlock()
	}
	return res, err
}

// waitPast waits until the runner has written past seq, at most for
// limit; false if it has not.
func (w *watchedLog) waitPast(seq uint64, limit time.Duration) bool {
	timeout := time.NewTimer(limit)
	defer timeout.Stop()
	for {
		w.mu.Lock()
		done, changed := w.written > seq, w.changed
		w.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-changed:
		case <-timeout.C:
			return false
		}
	}
}

// Run plays each script and checks every engine invariant on its log,
// and that no viewer learns another's secret before its reveal, reading
// every mail as mail renders it. It returns the played games for the
// caller's own assertions. The checks of a script, and the leak test's
// games, run in parallel, each on a store of its own.
func Run(t *testing.T, reg *engine.Registry, mail Mailer, scripts ...Script) []*Played {
	t.Helper()
	out := make([]*Played, len(scripts))
	for i, s := range scripts {
		t.Run(s.Name, func(t *testing.T) {
			p := Play(t, reg, s)
			out[i] = p
			check(t, reg, p, true)
			if mail == nil {
				t.Fatal("the leak and volume tests need the mail renderer (enginetest.Mailer): without it no mail is compared")
			}
			// The game with mails both tests start from, played once, here:
			// its store lives until both are done.
			base := mailedPlay(t, reg, mail, s)
			t.Run("NoViewerLearnsAnotherSecretBeforeItsReveal", func(t *testing.T) {
				t.Parallel()
				leak(t, reg, mail, s, base)
			})
			t.Run("EveryMailVolumeTellsEveryFact", func(t *testing.T) {
				t.Parallel()
				volumes(t, reg, mail, s, base)
			})
		})
		if out[i] == nil {
			t.FailNow() // the script could not be played
		}
	}
	return out
}

// Check verifies the invariants on a played log.
func Check(t *testing.T, reg *engine.Registry, p *Played) {
	t.Helper()
	check(t, reg, p, false)
}

// check verifies the invariants on a played log, each in a subtest; with
// parallel the subtests run in parallel once the caller returns (so it
// must not change p.Store after).
func check(t *testing.T, reg *engine.Registry, p *Played, parallel bool) {
	t.Helper()
	game := p.Log[0].Game
	if n, err := p.Store.Verify(game); err != nil || n != uint64(len(p.Log)) {
		t.Fatalf("hash chain: %d events verified of %d: %v", n, len(p.Log), err)
	}
	run := func(name string, f func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			if parallel {
				t.Parallel()
			}
			f(t)
		})
	}
	run("ReplayTwiceIsByteIdentical", func(t *testing.T) {
		a, b := replay(t, reg, p, 0), replay(t, reg, p, 0)
		compareGames(t, "two full replays", a, b)
		for _, v := range viewers(a) {
			ba, bb := a.Rules.Render(a.Rules.View(a.State, v)), b.Rules.Render(b.Rules.View(b.State, v))
			if ba != bb {
				t.Fatalf("boards for %+v differ between replays:\n%s\n---\n%s", v, ba.Full, bb.Full)
			}
			if ba.Full == "" || ba.Window == "" {
				t.Fatalf("empty board for %+v", v)
			}
			if da, db := drawn(a.Rules, a.State, v), drawn(b.Rules, b.State, v); !bytes.Equal(da, db) {
				t.Fatalf("drawn boards for %+v differ between replays", v)
			}
		}
	})
	run("FullReplayEqualsIncrementalFoldAtEveryEvent", func(t *testing.T) {
		inc := &play.Game{ID: game}
		for i := range p.Log {
			e := &p.Log[i]
			if err := inc.Apply(reg, e); err != nil {
				t.Fatalf("seq %d: %v", e.Seq, err)
			}
			compareGames(t, fmt.Sprintf("replay to %d vs incremental", e.Seq), replay(t, reg, p, e.Seq), inc)
			loaded, err := play.Load(p.Store, reg, game, e.Seq)
			if err != nil {
				t.Fatalf("load at %d: %v", e.Seq, err)
			}
			compareGames(t, fmt.Sprintf("snapshot+tail load at %d vs incremental", e.Seq), loaded, inc)
		}
	})
	run("EveryFactMatchesItsSchemaAndIsTold", func(t *testing.T) {
		teller := p.Game.Rules
		schemas := engine.NewSchemas(teller.Facts()...)
		g := &play.Game{ID: game}
		for i := range p.Log {
			e := &p.Log[i]
			if events.IsAccepted(e.Type) {
				d, err := events.Decode(e)
				if err != nil {
					t.Fatalf("seq %d: %v", e.Seq, err)
				}
				for _, f := range rulesetFacts(d.(*events.OrderAccepted).Facts) {
					if err := schemas.Check(f); err != nil {
						t.Fatalf("seq %d: %v", e.Seq, err)
					}
					if s := teller.Describe(g.State, f); strings.TrimSpace(s) == "" || strings.Contains(s, f.Kind+" ") {
						t.Fatalf("seq %d: %s is told as %q: say it in words", e.Seq, f, s)
					}
				}
			}
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
		}
	})
	run("EveryExampleFitsAMail", func(t *testing.T) {
		// The mail indents an example four spaces and keeps within 78
		// columns; a long order wraps as the order language allows
		// (engine.ContinueLong), never past the edge of a phone.
		g := &play.Game{ID: game}
		for i := range p.Log {
			e := &p.Log[i]
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
			if g.State == nil || !events.IsAccepted(e.Type) {
				continue
			}
			for _, pr := range g.Rules.Prompt(g.State) {
				for _, ex := range pr.Examples {
					for _, l := range strings.Split(ex, "\n") {
						if n := utf8.RuneCountInString(l); n > engine.ExampleWidth {
							t.Fatalf("seq %d: an example line of %d columns, over %d: %q", e.Seq, n, engine.ExampleWidth, l)
						}
					}
				}
			}
		}
	})
	run("EvolveNeverMutatesItsInput", func(t *testing.T) {
		g := &play.Game{ID: game}
		for i := range p.Log {
			e := &p.Log[i]
			if events.IsAccepted(e.Type) {
				d, _ := events.Decode(e)
				st := g.State
				for _, f := range rulesetFacts(d.(*events.OrderAccepted).Facts) {
					before := encode(t, g.Rules, st)
					next, err := g.Rules.Evolve(st, f)
					if err != nil {
						t.Fatalf("seq %d: evolve %s: %v", e.Seq, f, err)
					}
					if after := encode(t, g.Rules, st); !bytes.Equal(before, after) {
						t.Fatalf("seq %d: Evolve(%s) changed its input state", e.Seq, f)
					}
					st = next
				}
			}
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
		}
	})
	run("EvolveKeepsNothingOfItsFacts", func(t *testing.T) {
		// Each fact alone through Evolve (a later fact of the decision
		// could hide what an earlier one kept), then each decision
		// through EvolveAll; each time the facts' memory is overwritten
		// and the state must encode and draw as before.
		g := &play.Game{ID: game}
		unchanged := func(seq uint64, what string, st engine.State, facts []events.Fact) {
			t.Helper()
			before := encode(t, g.Rules, st)
			board := g.Rules.Render(g.Rules.View(st, engine.Viewer{Referee: true})).Full
			poison(facts)
			if after := encode(t, g.Rules, st); !bytes.Equal(before, after) {
				t.Fatalf("seq %d: the state after %s changed when its facts' memory was reused: it keeps part of them:\n%s\n---\n%s", seq, what, before, after)
			}
			if after := g.Rules.Render(g.Rules.View(st, engine.Viewer{Referee: true})).Full; after != board {
				t.Fatalf("seq %d: the board after %s changed when its facts' memory was reused:\n%s\n---\n%s", seq, what, board, after)
			}
		}
		for i := range p.Log {
			e := &p.Log[i]
			if events.IsAccepted(e.Type) {
				d, err := events.Decode(e)
				if err != nil {
					t.Fatalf("seq %d: %v", e.Seq, err)
				}
				facts := rulesetFacts(d.(*events.OrderAccepted).Facts)
				st := g.State
				for _, f := range facts {
					own := cloneFact(f)
					next, err := g.Rules.Evolve(st, own)
					if err != nil {
						t.Fatalf("seq %d: evolve %s: %v", e.Seq, f, err)
					}
					unchanged(e.Seq, "Evolve("+f.String()+")", next, []events.Fact{own})
					st = next
				}
				if b, ok := g.Rules.(play.BatchEvolver); ok && len(facts) > 0 {
					own := make([]events.Fact, len(facts))
					for j, f := range facts {
						own[j] = cloneFact(f)
					}
					next, err := b.EvolveAll(g.State, own)
					if err != nil {
						t.Fatalf("seq %d: EvolveAll: %v", e.Seq, err)
					}
					unchanged(e.Seq, "EvolveAll", next, own)
				}
			}
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
		}
	})
	run("EvolveAllEqualsEvolveFactByFact", func(t *testing.T) {
		g := &play.Game{ID: game}
		for i := range p.Log {
			e := &p.Log[i]
			if b, ok := g.Rules.(play.BatchEvolver); ok && events.IsAccepted(e.Type) {
				d, err := events.Decode(e)
				if err != nil {
					t.Fatalf("seq %d: %v", e.Seq, err)
				}
				facts := rulesetFacts(d.(*events.OrderAccepted).Facts)
				before := encode(t, g.Rules, g.State)
				want := g.State
				for _, f := range facts {
					if want, err = g.Rules.Evolve(want, f); err != nil {
						t.Fatalf("seq %d: evolve %s: %v", e.Seq, f, err)
					}
				}
				got, err := b.EvolveAll(g.State, facts)
				if err != nil {
					t.Fatalf("seq %d: EvolveAll: %v", e.Seq, err)
				}
				if after := encode(t, g.Rules, g.State); !bytes.Equal(before, after) {
					t.Fatalf("seq %d: EvolveAll changed its input state:\n%s\n---\n%s", e.Seq, before, after)
				}
				if gb, wb := encode(t, g.Rules, got), encode(t, g.Rules, want); !bytes.Equal(gb, wb) {
					t.Fatalf("seq %d: EvolveAll gives\n%s\nEvolve fact by fact gives\n%s", e.Seq, gb, wb)
				}
			}
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
		}
	})
	run("InertFactsLeaveTheStateAsItIs", func(t *testing.T) {
		// A fold skips the ruleset's inert facts: Evolve of each must
		// leave the state as it was, wherever it comes in a decision.
		g := &play.Game{ID: game}
		for i := range p.Log {
			e := &p.Log[i]
			if inert := play.InertFacts(g.Rules); len(inert) > 0 && events.IsAccepted(e.Type) {
				d, err := events.Decode(e)
				if err != nil {
					t.Fatalf("seq %d: %v", e.Seq, err)
				}
				st := g.State
				for _, f := range rulesetFacts(d.(*events.OrderAccepted).Facts) {
					next, err := g.Rules.Evolve(st, f)
					if err != nil {
						t.Fatalf("seq %d: evolve %s: %v", e.Seq, f, err)
					}
					if slices.Contains(inert, f.Kind) {
						if before, after := encode(t, g.Rules, st), encode(t, g.Rules, next); !bytes.Equal(before, after) {
							t.Fatalf("seq %d: %s is inert, yet Evolve changed the state:\n%s\n---\n%s", e.Seq, f, before, after)
						}
					}
					st = next
				}
			}
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
		}
	})
	run("EvolveOwnedGivesEvolveAllsStateAndLeavesWhatItShares", func(t *testing.T) {
		// A fold changes the state it made in place (EvolveOwned): from
		// each decision's state, one decision through EvolveAll (a copy
		// that shares the rest with the states before it), then the next
		// ones through EvolveOwned must give what EvolveAll gives, keep
		// nothing of their facts, and leave every earlier state as it was.
		type step struct {
			before engine.State
			enc    []byte
			facts  []events.Fact
		}
		g := &play.Game{ID: game}
		var steps []step
		for i := range p.Log {
			e := &p.Log[i]
			if events.IsAccepted(e.Type) && g.Rules != nil {
				d, err := events.Decode(e)
				if err != nil {
					t.Fatalf("seq %d: %v", e.Seq, err)
				}
				if fs := rulesetFacts(d.(*events.OrderAccepted).Facts); len(fs) > 0 {
					steps = append(steps, step{g.State, encode(t, g.Rules, g.State), fs})
				}
			}
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
		}
		o, ok := g.Rules.(play.OwnedEvolver)
		if !ok {
			return // EvolveOwned is EvolveAll (play.EvolveOwned)
		}
		const ahead = 4 // decisions folded in place from each state
		for k := range steps {
			st, err := play.EvolveAll(g.Rules, steps[k].before, steps[k].facts)
			if err != nil {
				t.Fatalf("decision %d: EvolveAll: %v", k, err)
			}
			for j := k + 1; j < min(k+1+ahead, len(steps)); j++ {
				if !bytes.Equal(encode(t, g.Rules, st), steps[j].enc) {
					break // the engine changed the state between (a rollback, a SET)
				}
				want, err := play.EvolveAll(g.Rules, steps[j].before, steps[j].facts)
				if err != nil {
					t.Fatalf("decision %d: EvolveAll: %v", j, err)
				}
				own := make([]events.Fact, len(steps[j].facts))
				for x, f := range steps[j].facts {
					own[x] = cloneFact(f)
				}
				if st, err = o.EvolveOwned(st, own); err != nil {
					t.Fatalf("decision %d: EvolveOwned: %v", j, err)
				}
				got := encode(t, g.Rules, st)
				if wb := encode(t, g.Rules, want); !bytes.Equal(got, wb) {
					t.Fatalf("decision %d after %d: EvolveOwned gives\n%s\nEvolveAll gives\n%s", j, k, got, wb)
				}
				poison(own)
				if after := encode(t, g.Rules, st); !bytes.Equal(got, after) {
					t.Fatalf("decision %d: the state after EvolveOwned changed when its facts' memory was reused: it keeps part of them", j)
				}
			}
		}
		for k := range steps {
			if now := encode(t, g.Rules, steps[k].before); !bytes.Equal(now, steps[k].enc) {
				t.Fatalf("decision %d: its state changed after later decisions were folded in place: EvolveOwned changed a part it shares:\n%s\n---\n%s", k, steps[k].enc, now)
			}
		}
	})
	run("DecideIsDeterministicAndDiceVerify", func(t *testing.T) {
		g := &play.Game{ID: game, History: play.LogHistory(p.Store, reg, game)}
		for i := range p.Log {
			e := &p.Log[i]
			switch e.Type {
			case events.TypeOrderAccepted, events.TypeOrderAcceptedV1, events.TypeOrderRejected:
				logged, _ := events.Decode(e)
				var dice []events.Die
				if acc, ok := logged.(*events.OrderAccepted); ok {
					dice = acc.Dice
				}
				again, note, err := g.Redecide(reg, logged)
				if err != nil {
					t.Fatalf("seq %d: %v", e.Seq, err)
				}
				if note != "" {
					t.Fatalf("seq %d: re-deciding used the dice differently: %s", e.Seq, note)
				}
				if !reflect.DeepEqual(again, logged) {
					t.Fatalf("seq %d: re-decided %+v\nlogged %+v", e.Seq, again, logged)
				}
				for _, d := range dice {
					if err := play.VerifyDie(p.Seed, game, d); err != nil {
						t.Fatalf("seq %d: %v", e.Seq, err)
					}
				}
			}
			if err := g.Apply(reg, e); err != nil {
				t.Fatal(err)
			}
		}
		if play.Commit(p.Seed) != g.Created.SeedCommitment {
			t.Fatal("the stored seed does not match the logged commitment")
		}
	})
}

// poison overwrites every fact, argument and list element in place, as a
// replay's next decision overwrites the memory of the one before.
func poison(fs []events.Fact) {
	for i := range fs {
		for j := range fs[i].Args {
			a := &fs[i].Args[j]
			for k := range a.Ints {
				a.Ints[k] = -1 << 40
			}
			for k := range a.Strs {
				a.Strs[k] = "☠"
			}
			*a = events.Arg{Key: "☠", Kind: events.ArgStr, Str: "☠", Int: -1 << 40}
		}
		fs[i] = events.Fact{Kind: "☠"}
	}
}

// cloneFact returns a copy of f that shares no memory with it.
func cloneFact(f events.Fact) events.Fact {
	c := events.Fact{Kind: f.Kind, Args: make([]events.Arg, len(f.Args))}
	for i, a := range f.Args {
		a.Ints = append([]int64(nil), a.Ints...)
		a.Strs = append([]string(nil), a.Strs...)
		c.Args[i] = a
	}
	return c
}

// rulesetFacts are a decision's facts the ruleset folds (the engine's own
// pbem.* facts, a rollback's say, are not the ruleset's to evolve).
func rulesetFacts(fs []events.Fact) []events.Fact {
	var out []events.Fact
	for _, f := range fs {
		if !engine.IsGameFact(f) {
			out = append(out, f)
		}
	}
	return out
}

func replay(t *testing.T, reg *engine.Registry, p *Played, at uint64) *play.Game {
	t.Helper()
	g, err := play.Replay(p.Store, reg, p.Log[0].Game, at)
	if err != nil {
		t.Fatalf("replay to %d: %v", at, err)
	}
	return g
}

func encode(t *testing.T, rs engine.Ruleset, s engine.State) []byte {
	t.Helper()
	b, err := rs.EncodeState(s)
	if err != nil {
		t.Fatalf("encode state: %v", err)
	}
	return b
}

func compareGames(t *testing.T, what string, a, b *play.Game) {
	t.Helper()
	sa, err := a.MarshalSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.MarshalSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sa, sb) {
		t.Fatalf("%s: states differ at seq %d/%d:\n%s\n---\n%s", what, a.Seq, b.Seq,
			encode(t, a.Rules, a.State), encode(t, b.Rules, b.State))
	}
}

func viewers(g *play.Game) []engine.Viewer {
	vs := []engine.Viewer{{Referee: true}}
	seen := map[string]bool{}
	for _, p := range g.Created.Players {
		if p.Side != "" && !seen[p.Side] {
			seen[p.Side] = true
			vs = append(vs, engine.Viewer{Side: p.Side})
		}
	}
	return vs
}

// Orders builds a list of orders from pairs: player, text, player, text …
func Orders(pairs ...string) []Order {
	if len(pairs)%2 != 0 {
		panic("enginetest.Orders: odd number of arguments")
	}
	out := make([]Order, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, Order{Player: pairs[i], Text: pairs[i+1]})
	}
	return out
}

// drawn is v's drawn board of st as SVG, or nil when the rule system
// draws nothing (engine.Drawer).
func drawn(rs engine.Ruleset, st engine.State, v engine.Viewer) []byte {
	d, ok := rs.(engine.Drawer)
	if !ok {
		return nil
	}
	sc := d.Draw(rs.View(st, v))
	if sc == nil {
		return nil
	}
	return sc.SVG()
}
