package play

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/store"
)

// Log is what the runner needs of the event store. cmd/pbem passes the bus,
// which appends to the store and then publishes what it appended.
type Log interface {
	Source
	Do(store.Request) (store.Result, error)
	PutSnapshot(game string, seq uint64, data []byte) error
	Secret(game string) ([]byte, error)
}

// Notifier turns a decision into the mails it causes; they are appended in
// the same transaction as the decision (a transactional outbox). after is
// the state once the decision's facts are applied.
type Notifier interface {
	Mails(g *Game, after engine.State, input *events.Envelope, decision events.Payload, ended *events.GameEnded) ([]events.Payload, error)
}

// RunnerOptions tune a Runner.
type RunnerOptions struct {
	// SnapshotEvery writes a snapshot each time a game's log grows by this
	// many events (default 256).
	SnapshotEvery uint64
	Notifier      Notifier
	Logger        *slog.Logger
}

// Runner keeps one actor per active game. Deliver hands it each event the
// bus delivers; the game's actor folds it and decides any undecided input.
type Runner struct {
	log  Log
	reg  *engine.Registry
	opts RunnerOptions
	lg   *slog.Logger

	mu     sync.Mutex
	actors map[string]*actor
	closed bool
	stop   chan struct{}
	wg     sync.WaitGroup
}

// NewRunner returns a runner deciding games of the registered rulesets.
func NewRunner(log Log, reg *engine.Registry, opts RunnerOptions) *Runner {
	if opts.SnapshotEvery == 0 {
		opts.SnapshotEvery = 256
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Runner{log: log, reg: reg, opts: opts, lg: opts.Logger.With("component", "engine"),
		actors: map[string]*actor{}, stop: make(chan struct{})}
}

type actor struct {
	r     *Runner
	id    string
	mu    sync.Mutex
	queue []events.Envelope
	kick  chan struct{}
	clock chan time.Time
	query chan func(*Game)
	g     *Game
	seed  []byte
	snap  uint64 // seq of the last snapshot written or loaded
}

// Deliver hands an event of a game to its actor, starting the actor if
// needed. It never blocks on the actor, and copies e (which may alias a
// read transaction's pages).
func (r *Runner) Deliver(e *events.Envelope) {
	a := r.actor(e.Game)
	if a == nil {
		return
	}
	a.mu.Lock()
	a.queue = append(a.queue, e.Clone())
	a.mu.Unlock()
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// Kick makes game's actor load the game and decide what is undecided.
func (r *Runner) Kick(game string) {
	if a := r.actor(game); a != nil {
		select {
		case a.kick <- struct{}{}:
		default:
		}
	}
}

func (r *Runner) actor(game string) *actor {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	a := r.actors[game]
	if a == nil {
		a = &actor{r: r, id: game, kick: make(chan struct{}, 1), clock: make(chan time.Time, 1), query: make(chan func(*Game))}
		r.actors[game] = a
		r.wg.Add(1)
		go a.run()
	}
	return a
}

// ErrNotRunning is returned by Query once the runner is closed.
var ErrNotRunning = errors.New("runner is not running")

// Query runs fn with game's current state on the game's actor (so fn sees
// a consistent state). fn must not keep g.
func (r *Runner) Query(game string, fn func(g *Game)) error {
	a := r.actor(game)
	if a == nil {
		return ErrNotRunning
	}
	done := make(chan struct{})
	select {
	case a.query <- func(g *Game) { fn(g); close(done) }:
	case <-r.stop:
		return ErrNotRunning
	}
	select {
	case <-done:
		return nil
	case <-r.stop:
		return ErrNotRunning
	}
}

// Tick tells every active game the server's time: a deadline that has
// passed (after its grace) becomes a deadline.passed input, and a
// deadline near enough gets its reminder mail. The engine never reads the
// clock itself; this is the only way time enters a game, and it enters as
// events, so a replay needs no clock.
func (r *Runner) Tick(now time.Time) {
	r.mu.Lock()
	as := make([]*actor, 0, len(r.actors))
	for _, a := range r.actors {
		as = append(as, a)
	}
	r.mu.Unlock()
	for _, a := range as {
		select {
		case a.clock <- now:
		default: // the actor has not taken the last tick yet
		}
	}
}

// Reminder is an optional Notifier method: the mails reminding a player
// that their orders are due (nil: no reminder).
type Reminder interface {
	Reminder(g *Game, d Deadline) ([]events.Payload, error)
}

// Active returns the ids of games with an actor, sorted.
func (r *Runner) Active() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.actors))
	for id := range r.actors {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Close stops every actor once it has finished the append in flight.
func (r *Runner) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.stop)
	r.mu.Unlock()
	r.wg.Wait()
}

func (r *Runner) stopping() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

func (a *actor) run() {
	defer a.r.wg.Done()
	lg := a.r.lg.With("game", a.id)
	for backoff := 50 * time.Millisecond; a.g == nil; backoff = min(2*backoff, 5*time.Second) {
		if err := a.load(); err != nil {
			lg.Error("cannot load game; will retry", "err", err)
			select {
			case <-a.r.stop:
				return
			case <-time.After(backoff):
			}
		}
	}
	a.decide(lg)
	for {
		select {
		case <-a.r.stop:
			return
		case q := <-a.query:
			q(a.g)
		case now := <-a.clock:
			a.tick(now, lg)
			a.decide(lg)
		case <-a.kick:
			a.mu.Lock()
			q := a.queue
			a.queue = nil
			a.mu.Unlock()
			for i := range q {
				if err := a.take(&q[i]); err != nil {
					lg.Error("event does not fold; reloading the game from the store", "seq", q[i].Seq, "err", err)
					a.g = nil
					if err := a.load(); err != nil {
						lg.Error("reload failed", "err", err)
						return
					}
					break
				}
			}
			a.decide(lg)
		}
	}
}

func (a *actor) load() error {
	g, err := Load(a.r.log, a.r.reg, a.id, 0)
	if err != nil {
		return err
	}
	if a.seed == nil {
		if a.seed, err = a.r.log.Secret(a.id); err != nil {
			return fmt.Errorf("dice seed: %w", err)
		}
	}
	a.g, a.snap = g, g.Seq
	return nil
}

// take folds one delivered event: duplicates are dropped, a gap is filled
// from the store.
func (a *actor) take(e *events.Envelope) error {
	switch {
	case e.Seq <= a.g.Seq:
		return nil
	case e.Seq == a.g.Seq+1:
		return a.g.Apply(a.r.reg, e)
	default:
		return fold(a.r.log, a.r.reg, a.g, 0)
	}
}

// decide decides every pending input in log order and appends each
// decision with the mails it causes.
func (a *actor) decide(lg *slog.Logger) {
	backoff := 50 * time.Millisecond
	for len(a.g.Pending) > 0 && !a.r.stopping() {
		in := a.g.Pending[0]
		stream := NewStream(a.seed, a.id, a.g.Rolls)
		dec, after, out, err := a.g.DecideNext(stream, func() []events.Die { return stream.Rolled })
		if err != nil {
			// A ruleset bug must not wedge the game: reject the input,
			// saying so, and log the error for the operator.
			lg.Error("deciding an input failed; rejecting it", "seq", in.Seq, "err", err)
			dec = &events.OrderRejected{Input: in.Seq, RulesetVersion: a.g.Rules.Version(), Problems: []events.Problem{{
				Line: 1, Col: 1, Msg: "pbem could not decide this order (an internal error, logged for the operator); nothing was applied"}}}
			after, out = a.g.State, engine.Outcome{}
		}
		at := in.Time()
		evs := []events.Envelope{events.New(a.id, at, "", dec)}
		var ended *events.GameEnded
		if out.Over && a.g.Ended == nil {
			ended = &events.GameEnded{Reason: out.Reason, Winner: out.Winner, Seed: a.seed}
		}
		if a.r.opts.Notifier != nil {
			mails, err := a.r.opts.Notifier.Mails(a.g, after, &in, dec, ended)
			if err != nil {
				lg.Error("rendering mails failed; the decision is kept without them", "seq", in.Seq, "err", err)
			}
			for _, m := range mails {
				evs = append(evs, events.New(a.id, at, "", m))
			}
		}
		if ended != nil {
			evs = append(evs, events.New(a.id, at, "", ended))
		}
		res, err := a.r.log.Do(store.Request{Game: a.id, Expected: a.g.Seq, Events: evs})
		var conflict *store.ConflictError
		switch {
		case errors.As(err, &conflict):
			// Someone appended first: fold what they wrote and decide again.
			if err := fold(a.r.log, a.r.reg, a.g, 0); err != nil {
				lg.Error("catching up after a conflict failed", "err", err)
				return
			}
			continue
		case err != nil:
			lg.Error("appending a decision failed; will retry", "seq", in.Seq, "err", err)
			select {
			case <-a.r.stop:
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 10*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		for i := range res.Events {
			if err := a.g.Apply(a.r.reg, &res.Events[i]); err != nil {
				lg.Error("own decision does not fold", "err", err)
				return
			}
		}
		lg.Debug("decided", "input", in.Seq, "decision", dec.EventType(), "seq", res.Last)
		a.maybeSnapshot(lg)
	}
	a.maybeSnapshot(lg)
}

// tick writes what the time now means for the game's deadlines.
func (a *actor) tick(now time.Time, lg *slog.Logger) {
	g := a.g
	if g == nil || g.Ended != nil || g.Paused != nil || len(g.Deadlines) == 0 {
		return
	}
	pol := g.Policy()
	t := now.UnixNano()
	for _, d := range g.Deadlines {
		var evs []events.Envelope
		switch {
		case d.Passed:
			continue
		case t >= d.Due+int64(pol.Grace):
			evs = []events.Envelope{events.New(a.id, now, DeadlineKey(d.Player, d.Due),
				&events.DeadlinePassed{Player: d.Player, Due: d.Due, Default: d.Default})}
		case !d.Reminded && pol.Reminder > 0 && t >= d.Due-int64(pol.Reminder):
			rem, ok := a.r.opts.Notifier.(Reminder)
			if !ok {
				continue
			}
			mails, err := rem.Reminder(g, d)
			if err != nil {
				lg.Error("rendering a reminder failed", "player", d.Player, "err", err)
				continue
			}
			for i, m := range mails {
				key := ""
				if i == 0 {
					key = ReminderKey(d.Player, d.Due)
				}
				evs = append(evs, events.New(a.id, now, key, m))
			}
		}
		if len(evs) == 0 {
			continue
		}
		res, err := a.r.log.Do(store.Request{Game: a.id, Expected: g.Seq, Events: evs})
		if err != nil {
			// A conflict or a store error: the next tick tries again, after
			// the actor has folded what came in meanwhile.
			lg.Warn("writing a deadline event failed; the next tick retries", "player", d.Player, "err", err)
			return
		}
		if res.Duplicate {
			continue
		}
		for i := range res.Events {
			if err := g.Apply(a.r.reg, &res.Events[i]); err != nil {
				lg.Error("own deadline event does not fold", "err", err)
				return
			}
		}
		lg.Info("deadline", "player", d.Player, "due", time.Unix(0, d.Due).UTC(), "wrote", res.Events[0].Type, "seq", res.Last)
	}
}

func (a *actor) maybeSnapshot(lg *slog.Logger) {
	if a.g.Seq-a.snap < a.r.opts.SnapshotEvery {
		return
	}
	data, err := a.g.MarshalSnapshot()
	if err == nil {
		err = a.r.log.PutSnapshot(a.id, a.g.Seq, data)
	}
	if err != nil {
		lg.Error("snapshot failed", "seq", a.g.Seq, "err", err)
		return
	}
	a.snap = a.g.Seq
}
