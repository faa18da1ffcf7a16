package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/store"
)

// Log is what the runner needs of the event store. The server passes its
// log (server.Log): the store, its appends made through the bus, which
// publishes what it appended.
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
	// HiddenSeed is for the acceptance suite's leak test alone: when set,
	// a die whose visibility it gives a seed for is thrown from that seed
	// instead of the game's (so the log no longer verifies).
	HiddenSeed func(events.Vis) []byte
	// IdleAfter lets a game's actor go after this long with nothing to do
	// (default 30 minutes); it is loaded again when next needed.
	IdleAfter time.Duration
	// RetryMax bounds the backoff between attempts to load a game that
	// cannot be loaded (default 5 minutes).
	RetryMax time.Duration
	// View, when set, is what Runner.View gives of a game: the actor
	// makes it anew each time the game moves on (never while it holds
	// decisions the log does not have), and anyone may read it at once,
	// however busy the actor is.
	View func(g *Game) any
	// Timings, when set, is told how long each game's load ("load") and
	// each decision with its mails and append ("decide") took, for
	// metrics.
	Timings func(kind string, d time.Duration)
	// Links, when set, lets a campaign's games open the battles they
	// wait on and an ended battle carry its result back (link.go).
	Links *Links
}

// Runner keeps one actor per active game. Deliver hands it each event the
// bus delivers; the game's actor folds it and decides any undecided input.
//
// One game never holds up another: a game that cannot be loaded (a
// damaged log, a ruleset this binary lacks) is retried with a growing
// backoff, and meanwhile answers every query at once with its error; a
// fold that fails part way drops the half-folded game and loads it anew
// from the store; a game idle for IdleAfter, with nothing undecided and
// no deadline running, is let go, and loaded again when it is next needed.
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
	if opts.IdleAfter == 0 {
		opts.IdleAfter = 30 * time.Minute
	}
	if opts.RetryMax == 0 {
		opts.RetryMax = 5 * time.Minute
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
	mu    sync.Mutex // guards queue
	queue []events.Envelope
	kick  chan struct{}
	clock chan tickReq
	query chan func(*Game, error)
	done  chan struct{} // closed when the actor has stopped (let go, or the runner closed)
	leave chan struct{} // closed by Drop: stop at once
	g     *Game
	seed  []byte
	snap  uint64 // seq of the last snapshot written or loaded
	// rolled is the seq of the last rollback whose battles link has
	// abandoned (0 after a load: they are looked at again, once).
	rolled uint64
	// relink: a link failed (a battle not opened, a result not carried
	// back): the clock tries again, and the actor is not let go meanwhile.
	relink bool
	// openFailed is the last error opening a battle, logged once at
	// ERROR; the same error at the next ticks' retries is logged at DEBUG
	// (a decision never opens a battle that cannot open — DecideNext
	// refuses it — so this is a scenario gone from the binary since).
	openFailed string
	// view is RunnerOptions.View of the game at seq viewSeq.
	view    atomic.Pointer[gameView]
	viewSeq uint64
	// alone decides one input per append: after an append of several
	// failed, until one succeeds (the retries then back off as usual).
	alone bool
}

type gameView struct{ v any }

// View returns RunnerOptions.View of game as its actor last published
// it, without waiting for the actor; false when the game has no actor,
// or none that has loaded it (Query then loads it, or says why not).
func (r *Runner) View(game string) (any, bool) {
	r.mu.Lock()
	a := r.actors[game]
	r.mu.Unlock()
	if a == nil {
		return nil, false
	}
	v := a.view.Load()
	if v == nil {
		return nil, false
	}
	return v.v, true
}

// publish makes the game's view anew if the game moved on since.
func (a *actor) publish() {
	if a.r.opts.View == nil || a.g == nil || a.g.Seq == a.viewSeq && a.view.Load() != nil {
		return
	}
	a.view.Store(&gameView{a.r.opts.View(a.g)})
	a.viewSeq = a.g.Seq
}

// Deliver hands an event of a game to its actor, starting the actor if
// needed. It never blocks on the actor, and copies e (which may alias a
// read transaction's pages).
func (r *Runner) Deliver(e *events.Envelope) {
	c := e.Clone()
	r.with(e.Game, func(a *actor) {
		a.mu.Lock()
		a.queue = append(a.queue, c)
		a.mu.Unlock()
		a.poke()
	})
}

// Kick makes game's actor load the game and decide what is undecided.
func (r *Runner) Kick(game string) { r.with(game, (*actor).poke) }

func (a *actor) poke() {
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// with runs fn with game's actor, started if needed, holding the
// runner's lock: an actor lets itself go only under that lock and with
// an empty queue, so nothing fn hands it is lost.
func (r *Runner) with(game string, fn func(*actor)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	a := r.actors[game]
	if a == nil {
		a = &actor{r: r, id: game, kick: make(chan struct{}, 1), clock: make(chan tickReq, 1),
			query: make(chan func(*Game, error)), done: make(chan struct{}), leave: make(chan struct{})}
		r.actors[game] = a
		r.wg.Add(1)
		go a.run()
	}
	fn(a)
}

// ErrNotRunning is returned by Query once the runner is closed.
var ErrNotRunning = errors.New("runner is not running")

// Query runs fn with game's current state on the game's actor (so fn sees
// a consistent state). fn must not keep g. A game that cannot be loaded
// answers at once with the reason, and fn is not called; ctx bounds the
// wait for a game that is busy.
func (r *Runner) Query(ctx context.Context, game string, fn func(g *Game)) error {
	for {
		var a *actor
		r.with(game, func(x *actor) { a = x })
		if a == nil {
			return ErrNotRunning
		}
		result := make(chan error, 1)
		select {
		case a.query <- func(g *Game, err error) {
			if err == nil {
				// A panic of fn (a rule system's Render or Prompt, say)
				// is the query's error, not the end of the game's actor.
				if err = engine.Guard("answering a query", func() error { fn(g); return nil }); err != nil {
					logPanic(r.lg, "a query of the game failed", err, "game", game)
					err = fmt.Errorf("game %s: %w (the operator has been told)", game, err)
				}
			}
			result <- err
		}:
		case <-a.done:
			continue // let go meanwhile: ask the next one
		case <-r.stop:
			return ErrNotRunning
		case <-ctx.Done():
			return fmt.Errorf("query game %s: %w", game, ctx.Err())
		}
		select {
		case err := <-result:
			return err
		case <-r.stop:
			return ErrNotRunning
		}
	}
}

// Tick tells every active game the server's time: a deadline that has
// passed (after its grace) becomes a deadline.passed input, and a
// deadline near enough gets its reminder mail. The engine never reads the
// clock itself; this is the only way time enters a game, and it enters as
// events, so a replay needs no clock.
func (r *Runner) Tick(now time.Time) {
	as := r.actorsNow()
	for _, a := range as {
		select {
		case a.clock <- tickReq{now: now}:
		default: // the actor has not taken the last tick yet
		}
	}
}

// actorsNow is the runner's actors at this moment (in no set order).
func (r *Runner) actorsNow() []*actor {
	r.mu.Lock()
	defer r.mu.Unlock()
	as := make([]*actor, 0, len(r.actors))
	for _, a := range r.actors {
		as = append(as, a)
	}
	return as
}

// tickReq is one tick of the server's clock for an actor; done, when not
// nil, is closed once the actor has written and decided what the tick
// means for its game.
type tickReq struct {
	now  time.Time
	done chan struct{}
}

func (t tickReq) handled() {
	if t.done != nil {
		close(t.done)
	}
}

// TickAndWait is Tick, and waits until every game with an actor has
// written what now means for it (a deadline passed, a reminder, a pause
// run out), decided it and queued its mails: a caller that then sees no
// such event knows the clock said nothing to the game. It returns how many
// games it ticked.
func (r *Runner) TickAndWait(ctx context.Context, now time.Time) (int, error) {
	as := r.actorsNow()
	// Every actor is told before any is waited for: they work at once.
	sent := make([]chan struct{}, len(as))
	for i, a := range as {
		tr := tickReq{now: now, done: make(chan struct{})}
		select {
		case a.clock <- tr:
			sent[i] = tr.done
		case <-a.done: // let go: no deadline runs in it
		case <-r.stop:
			return 0, ErrNotRunning
		case <-ctx.Done():
			return 0, fmt.Errorf("tick game %s: %w", a.id, ctx.Err())
		}
	}
	n := 0
	for i, a := range as {
		if sent[i] == nil {
			continue
		}
		select {
		case <-sent[i]:
			n++
		case <-a.done:
		case <-r.stop:
			return n, ErrNotRunning
		case <-ctx.Done():
			return n, fmt.Errorf("tick game %s: %w", a.id, ctx.Err())
		}
	}
	return n, nil
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

// Drop stops game's actor, if it has one, without waiting for it: the
// game is no longer this server's to decide (another node of a cluster
// owns it). An append in flight ends as the log decides; nothing more is
// written. A later Deliver, Kick or Query starts a new actor.
func (r *Runner) Drop(game string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a := r.actors[game]; a != nil {
		delete(r.actors, game)
		close(a.leave)
	}
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

func (a *actor) left() bool {
	select {
	case <-a.leave:
		return true
	default:
		return false
	}
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
	defer close(a.done)
	lg := a.r.lg.With("game", a.id)
	backoff := 50 * time.Millisecond
	idle := time.NewTimer(a.r.opts.IdleAfter)
	defer idle.Stop()
	for {
		if a.g == nil {
			err := a.load()
			if err != nil {
				logPanic(lg, "cannot load game; queries get this error until a retry loads it", err, "retry_in", backoff)
				if !a.failing(fmt.Errorf("game %s cannot be loaded: %w (the operator has been told)", a.id, err), backoff) {
					return
				}
				backoff = min(2*backoff, a.r.opts.RetryMax)
				continue
			}
			backoff = 50 * time.Millisecond
			a.decide(lg)
			if a.g == nil {
				// Deciding dropped the game (another writer came first
				// while it held decisions not yet in the log): load it
				// anew before anything else sees it.
				if a.r.stopping() || a.left() {
					return
				}
				continue
			}
			a.link(lg)
		}
		a.publish()
		select {
		case <-a.r.stop:
			return
		case <-a.leave:
			return
		case q := <-a.query:
			q(a.g, nil)
		case tr := <-a.clock:
			a.tick(tr.now, lg)
			a.decide(lg)
			if a.g != nil && a.relink {
				a.link(lg)
			}
			tr.handled()
			if a.g == nil {
				continue // loaded anew first
			}
		case <-a.kick:
			a.mu.Lock()
			q := a.queue
			a.queue = nil
			a.mu.Unlock()
			for i := range q {
				if err := a.take(&q[i]); err != nil {
					// What was folded of it cannot be trusted: load anew.
					logPanic(lg, "event does not fold; loading the game anew from the store", err, "seq", q[i].Seq)
					a.g = nil
					break
				}
			}
			if a.g != nil {
				a.decide(lg)
			}
		case <-idle.C:
			if a.letGo() {
				lg.Debug("idle game let go")
				return
			}
		}
		if a.g != nil {
			idle.Reset(a.r.opts.IdleAfter)
		}
	}
}

// failing answers queries with err, and drops what is delivered (a load
// reads it from the store), until wait has passed; false when the runner
// stops meanwhile.
func (a *actor) failing(err error, wait time.Duration) bool {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-a.r.stop:
			return false
		case <-a.leave:
			return false
		case q := <-a.query:
			q(nil, err)
		case tr := <-a.clock:
			tr.handled() // a game that cannot load has no clock to apply
		case <-a.kick:
			a.mu.Lock()
			q := a.queue
			a.queue = nil
			a.mu.Unlock()
			a.answerFailing(q, err)
		case <-t.C:
			return true
		}
	}
}

// letGo removes an idle actor from the runner, if its game needs nothing
// of it: no input undecided, nothing delivered, no deadline running (the
// clock reaches only games that have an actor).
func (a *actor) letGo() bool {
	g := a.g
	if g != nil && (len(g.Pending) > 0 || g.runningDeadline()) || a.relink {
		return false
	}
	a.r.mu.Lock()
	defer a.r.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.queue) > 0 || len(a.kick) > 0 {
		return false
	}
	if a.r.actors[a.id] == a { // not dropped (and replaced) meanwhile
		delete(a.r.actors, a.id)
	}
	return true
}

// runningDeadline reports whether a deadline of g has yet to pass.
func (g *Game) runningDeadline() bool {
	if g.Ended != nil {
		return false
	}
	for _, d := range g.Deadlines {
		if !d.Passed {
			return true
		}
	}
	return false
}

func (a *actor) load() error {
	if t := a.r.opts.Timings; t != nil {
		defer func(start time.Time) { t("load", time.Since(start)) }(time.Now())
	}
	g, snap, err := load(a.r.log, a.r.reg, a.id, 0)
	if err != nil {
		return err
	}
	if a.seed == nil {
		if a.seed, err = a.r.log.Secret(a.id); err != nil {
			return fmt.Errorf("dice seed: %w", err)
		}
	}
	// The snapshot the next one follows is the one the game was loaded
	// from: counted from the seq loaded, a game loaded again and again (a
	// decision that landed behind the intake's events loads it anew)
	// never got a snapshot, and each load replayed it from the start
	// (pbem bench throughput: one load every nine orders, each replaying
	// up to 3,000 events).
	a.g, a.snap = g, snap
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

// maxDecideBatch bounds the inputs decided into one append.
const maxDecideBatch = 32

// decide decides every pending input in log order and appends each
// decision with the mails it causes. Several inputs pending are decided
// one after the other into one append (one transaction, not one each):
// each decision is folded at once, chained where the log will put it, so
// that the next is decided on the game as it will be, exactly as if each
// had been appended alone.
func (a *actor) decide(lg *slog.Logger) {
	backoff := 50 * time.Millisecond
	for a.g != nil && len(a.g.Pending) > 0 && !a.r.stopping() && !a.left() {
		start := time.Now()
		base := a.g.Seq
		var evs []events.Envelope
		var single engine.State // the state after evs, decided and not folded yet
		folded := false         // a.g holds decisions the log does not have yet
		first := a.g.Pending[0].Seq
		for n := 0; len(a.g.Pending) > 0 && n < maxDecideBatch; n++ {
			alone := decidedAlone(a.g.Pending[0].Type)
			if folded && alone {
				break // decided in an append of its own, next
			}
			one, after := a.decision(lg)
			if !folded && (len(a.g.Pending) == 1 || a.alone || alone || decidedAlone(a.g.Pending[1].Type)) {
				evs, single = one, after // alone: appended, then folded, as it always was
				break
			}
			for i := range one {
				one[i].Chain(a.g.Seq+1, a.g.Hash)
				if err := a.g.Apply(a.r.reg, &one[i]); err != nil {
					logPanic(lg, "own decision does not fold; loading the game anew", err, "seq", one[i].Seq)
					a.g = nil
					return
				}
			}
			a.g.carryPrompts(after)
			folded = true
			evs = append(evs, one...)
		}
		// The decisions may land after events that leave them as they are
		// (decidedPast): their mails then sit a few seqs later than they
		// were composed for, which only their Message-IDs show.
		res, err := a.r.log.Do(store.Request{Game: a.id, Expected: base, Past: decidedPast, Events: evs})
		var conflict *store.ConflictError
		switch {
		case errors.As(err, &conflict) && folded:
			// Someone appended first, and the game holds decisions the
			// log refused: load it anew, and decide again.
			a.g = nil
			return
		case errors.As(err, &conflict):
			// Someone appended first: fold what they wrote and decide again.
			if err := fold(a.r.log, a.r.reg, a.g, 0); err != nil {
				// Never keep a half-folded game: load it anew.
				lg.Error("catching up after a conflict failed; loading the game anew", "err", err)
				a.g = nil
				return
			}
			continue
		case err != nil && folded:
			// Retried one input at a time, backing off, on the game
			// loaded anew.
			lg.Error("appending decisions failed; will retry", "seq", first, "err", err)
			a.g, a.alone = nil, true
			return
		case err != nil:
			lg.Error("appending a decision failed; will retry", "seq", first, "err", err)
			select {
			case <-a.r.stop:
				return
			case <-a.leave:
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 10*time.Second)
			continue
		}
		backoff, a.alone = 50*time.Millisecond, false
		switch {
		case res.First != base+1 && folded:
			// The log put events the decisions do not depend on before
			// them (decidedPast), so the game chained them elsewhere than
			// the log: load it anew (the decisions are in the log).
			a.g = nil
			return
		case res.First != base+1:
			// Fold those events and the decision from the log.
			if err := fold(a.r.log, a.r.reg, a.g, 0); err != nil {
				lg.Error("catching up after a decision failed; loading the game anew", "err", err)
				a.g = nil
				return
			}
		case folded:
			if res.Last != a.g.Seq || res.Events[len(res.Events)-1].Hash != a.g.Hash {
				lg.Error("the log chained the decisions otherwise than the game; loading the game anew", "seq", res.Last)
				a.g = nil
				return
			}
		default:
			for i := range res.Events {
				if err := a.g.Apply(a.r.reg, &res.Events[i]); err != nil {
					logPanic(lg, "own decision does not fold; loading the game anew", err, "seq", res.Events[i].Seq)
					a.g = nil
					return
				}
			}
			a.g.carryPrompts(single)
		}
		a.publish()
		lg.Debug("decided", "input", first, "seq", res.Last)
		if t := a.r.opts.Timings; t != nil {
			t("decide", time.Since(start))
		}
		a.maybeSnapshot(lg)
		a.link(lg)
	}
	if a.g != nil {
		a.maybeSnapshot(lg)
	}
}

// decidedAlone reports whether an input of type typ is decided in an
// append of its own, never with others. A referee's command may name seqs
// of the game (ROLLBACK 2 ACTIONS, ROLLBACK TO, the actions accepted
// since the mail it answers), and of several decisions appended at once
// each is decided on the game with the earlier ones at the seqs they were
// chained at, which the log may not keep (decidedPast). An order names
// none, and its mails name theirs only in their Message-IDs, by which a
// reply finds them (the intake looks a mail up by its id).
func decidedAlone(typ string) bool { return events.IsRefereeCommand(typ) }

// decidedPast reports whether an event of type typ, written after the
// game a decision was made on, leaves the decision as it is, so that the
// decision may land after it (store.Request.Past): a mail sent, the
// intake's records that change no game, and inputs, which wait their
// turn behind the one decided (the decision of the first pending input
// reads neither the later inputs nor the outbox).
func decidedPast(typ string) bool {
	switch typ {
	case events.TypeMailSent, events.TypeOrderHeld, events.TypeOrderConfirmed, events.TypeMailRefused,
		events.TypeOrderReceived, events.TypeOrderReceivedV1,
		events.TypeRefereeCommand, events.TypeRefereeCommandV2, events.TypeRefereeCommandV1:
		return true
	}
	return false
}

// link opens the battles the game waits on that are not open yet, and
// carries the result of an ended battle to its campaign (link.go), each
// through the durable path with its idempotency key: what fails here is
// tried again when the game next decides or loads.
func (a *actor) link(lg *slog.Logger) {
	// The campaign's rule system says which battles it waits on: a panic
	// there stops the linking of this game, never the server (contain.go).
	if err := engine.Guard("linking a campaign and its battles", func() error { a.linkBattles(lg); return nil }); err != nil {
		logPanic(lg, "linking a campaign and its battles failed", err)
	}
}

func (a *actor) linkBattles(lg *slog.Logger) {
	l := a.r.opts.Links
	g := a.g
	if l == nil || g == nil {
		return
	}
	retry := a.relink
	a.relink = false
	// A rollback since the last linking (or a link to try again): a
	// battle's may withdraw the result its campaign took.
	rolled := retry || len(g.Branches) > 0 && g.Branches[len(g.Branches)-1].By > a.rolled
	if len(Battles(g)) > 0 {
		var at time.Time
		_ = a.r.log.Read(g.ID, g.Seq, func(e *events.Envelope) error {
			at = e.Time()
			return nil
		})
		created, err := OpenBattles(a.r.log, a.r.reg, g, *l, at)
		switch {
		case err != nil && err.Error() != a.openFailed:
			lg.Error("opening a battle failed; the campaign waits on it, and it is tried again each tick (logged again only if the error changes)", "err", err)
			a.openFailed, a.relink = err.Error(), true
		case err != nil:
			lg.Debug("opening a battle failed again", "err", err)
			a.relink = true
		default:
			a.openFailed = ""
		}
		for i := range created {
			lg.Info("battle opened", "battle", created[i].Game)
			a.r.Deliver(&created[i])
		}
		carried, err := CarryEnded(a.r.log, a.r.reg, g)
		if err != nil {
			lg.Error("carrying an ended battle's result failed; will try again", "err", err)
			a.relink = true
		}
		for i := range carried {
			lg.Info("battle result carried back", "campaign", carried[i].Game, "seq", carried[i].Seq)
			a.r.Deliver(&carried[i])
		}
	}
	if n := len(g.Branches); n > 0 && g.Branches[n-1].By > a.rolled {
		abandoned, err := Abandon(a.r.log, a.r.reg, g, l)
		if err != nil {
			lg.Error("abandoning the battles of a rollback failed; will try again", "err", err)
			a.relink = true
		} else {
			a.rolled = g.Branches[n-1].By
		}
		for i := range abandoned {
			lg.Info("battle abandoned", "battle", abandoned[i].Game)
			a.r.Deliver(&abandoned[i])
		}
	}
	if _, _, ok := Parent(g); ok && rolled {
		e, err := a.withdraw(l, lg)
		if err != nil {
			lg.Info("withdrawing a rolled-back battle's result from its campaign: will try again", "err", err)
			a.relink = true
		}
		if e != nil {
			lg.Info("battle result withdrawn", "campaign", e.Game, "seq", e.Seq)
			a.r.Deliver(e)
		}
	}
	if _, _, ok := Parent(g); ok && g.Ended != nil {
		e, err := a.carryBack(l, lg)
		if err != nil {
			lg.Error("carrying a battle's result back failed; will try again", "err", err)
			a.relink = true
		}
		if e != nil {
			lg.Info("battle result carried back", "campaign", e.Game, "seq", e.Seq)
			a.r.Deliver(e)
		}
	}
}

// carryBack carries the ended battle's result to its campaign: handed to
// the node holding the campaign when that is another node of a cluster
// (Links.Hand), else appended here.
func (a *actor) carryBack(l *Links, lg *slog.Logger) (*events.Envelope, error) {
	r, ok, err := ResultOf(a.r.log, a.g)
	if err != nil || !ok {
		return nil, err
	}
	if l.Hand != nil {
		handled, err := l.Hand(r)
		if err != nil {
			return nil, fmt.Errorf("handing the result to campaign %s: %w", r.Campaign, err)
		}
		if handled {
			lg.Info("battle result handed to the node holding its campaign", "campaign", r.Campaign)
			return nil, nil
		}
	}
	return TakeResult(a.r.log, a.r.reg, r)
}

// withdraw withdraws the results the battle's rollbacks closed from its
// campaign: handed to the node holding the campaign when that is another
// node of a cluster (Links.HandWithdraw), else appended here.
func (a *actor) withdraw(l *Links, lg *slog.Logger) (*events.Envelope, error) {
	w, ok, err := WithdrawalOf(a.r.log, a.g)
	if err != nil || !ok {
		return nil, err
	}
	if l.HandWithdraw != nil {
		handled, err := l.HandWithdraw(w)
		if err != nil {
			return nil, fmt.Errorf("handing the withdrawal to campaign %s: %w", w.Campaign, err)
		}
		if handled {
			lg.Info("battle's withdrawal handed to the node holding its campaign", "campaign", w.Campaign)
			return nil, nil
		}
	}
	return TakeWithdrawal(a.r.log, a.r.reg, w)
}

// decision decides the first pending input and returns the decision
// with the mails it causes (and the game's end, if it ends), not yet
// chained.
func (a *actor) decision(lg *slog.Logger) ([]events.Envelope, engine.State) {
	in := a.g.Pending[0]
	stream := NewStream(a.seed, a.id, a.g.Rolls)
	stream.seedFor = a.r.opts.HiddenSeed
	dec, after, out, err := a.g.DecideNext(a.r.reg, stream, func() []events.Die { return stream.Rolled })
	if err != nil {
		// A ruleset bug (an error, or a panic) must not wedge the game
		// nor stop the server: reject the input, saying so, and log
		// the error for the operator. The rejection is in the log, so
		// the input is never decided again.
		logPanic(lg, "deciding an input failed; rejecting it", err, "seq", in.Seq)
		dec = undecided(a.g, &in)
		after, out = a.g.State, engine.Outcome{}
	}
	at := in.Time()
	evs := []events.Envelope{events.New(a.id, at, "", dec)}
	var ended *events.GameEnded
	if out.Over && a.g.Ended == nil {
		ended = &events.GameEnded{Reason: out.Reason, Winner: out.Winner, Seed: a.seed}
	}
	if a.r.opts.Notifier != nil {
		var mails []events.Payload
		err := engine.Guard("composing mails", func() (err error) {
			mails, err = a.r.opts.Notifier.Mails(a.g, after, &in, dec, ended)
			return err
		})
		if err != nil {
			logPanic(lg, "rendering mails failed; the decision is kept without them", err, "seq", in.Seq)
			mails = nil
		}
		for _, m := range mails {
			evs = append(evs, events.New(a.id, at, "", m))
		}
	}
	if ended != nil {
		evs = append(evs, events.New(a.id, at, "", ended))
	}
	return evs, after
}

// tick writes what the time now means for the game's deadlines.
func (a *actor) tick(now time.Time, lg *slog.Logger) {
	g := a.g
	if g == nil || g.Ended != nil {
		return
	}
	if g.Paused != nil {
		a.tickPause(now, lg)
		return
	}
	if len(g.Deadlines) == 0 {
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
			var mails []events.Payload
			err := engine.Guard("composing a reminder", func() (err error) {
				mails, err = rem.Reminder(g, d)
				return err
			})
			if err != nil {
				logPanic(lg, "rendering a reminder failed", err, "player", d.Player)
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
		res, written, ok := a.writeClock(evs, lg.With("player", d.Player))
		if !ok {
			return
		}
		if written {
			lg.Info("deadline", "player", d.Player, "due", time.Unix(0, d.Due).UTC(), "wrote", res.Events[0].Type, "seq", res.Last)
		}
	}
}

// writeClock appends what the server's clock means for the game and
// folds it: written is false for what was written before (a duplicate
// key), ok false when nothing more should be written this tick (a
// conflict or a store error: the next tick tries again, after the actor
// has folded what came in meanwhile).
func (a *actor) writeClock(evs []events.Envelope, lg *slog.Logger) (res store.Result, written, ok bool) {
	res, err := a.r.log.Do(store.Request{Game: a.id, Expected: a.g.Seq, Events: evs})
	if err != nil {
		lg.Warn("writing what the clock says failed; the next tick retries", "event", evs[0].Type, "err", err)
		return res, false, false
	}
	if res.Duplicate {
		return res, false, true
	}
	for i := range res.Events {
		if err := a.g.Apply(a.r.reg, &res.Events[i]); err != nil {
			lg.Error("own clock event does not fold; loading the game anew", "err", err)
			a.g = nil
			return res, false, false
		}
	}
	return res, true, true
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
		logPanic(lg, "snapshot failed", err, "seq", a.g.Seq)
		return
	}
	a.snap = a.g.Seq
}

// tickPause ends a players' pause that has lasted the game's pause-max,
// by writing the pause.expired input (once, whatever the ticks).
func (a *actor) tickPause(now time.Time, lg *slog.Logger) {
	g := a.g
	end := g.PauseEnds()
	if end == 0 || now.UnixNano() < end {
		return
	}
	since := g.Paused.At
	e := events.New(a.id, now, PauseExpiredKey(since), &events.PauseExpired{At: since, Due: end})
	if res, written, _ := a.writeClock([]events.Envelope{e}, lg); written {
		lg.Info("pause ran out", "since", time.Unix(0, since).UTC(), "seq", res.Last)
	}
}
