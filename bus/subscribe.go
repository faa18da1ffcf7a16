package bus

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/events"
	"pbem/store"
)

// Subscription delivers every event of every game exactly once, in order
// per game, always as read from the store: what it holds after the
// starting positions, then, at each doorbell NATS brings (and at each
// periodic resync), what it holds after the position reached. The
// handler is never called inside a read transaction, so it may write to
// the store.
type Subscription struct {
	b       *Bus
	handler func(*events.Envelope)
	sub     *nats.Subscription

	mu     sync.Mutex // serialises delivery: NATS messages, catch-up and resync
	pos    map[string]uint64
	from   func(game string) uint64
	stop   chan struct{}
	done   chan struct{}
	closed bool
}

// Subscribe starts a subscription. from gives, for a game the
// subscription has not seen yet, the last seq it already has (nil: 0, so
// every event from the first). handler is called from one goroutine at a
// time and must not block for long; the envelope it gets is valid only
// during the call (Clone what you keep).
func (b *Bus) Subscribe(from func(game string) uint64, handler func(*events.Envelope)) (*Subscription, error) {
	if from == nil {
		from = func(string) uint64 { return 0 }
	}
	s := &Subscription{b: b, handler: handler, pos: map[string]uint64{}, from: from,
		stop: make(chan struct{}), done: make(chan struct{})}
	// Subscribe first and hold delivery until the catch-up is done: a
	// message arriving meanwhile waits, and is then dropped or used by seq.
	s.mu.Lock()
	sub, err := b.nc.Subscribe(allSubjects, s.onMsg)
	if err != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("subscribe %s: %w", allSubjects, err)
	}
	// Never drop messages for being slow; a gap would be filled anyway.
	sub.SetPendingLimits(-1, -1)
	s.sub = sub
	err = s.catchUpAll()
	s.mu.Unlock()
	if err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	b.mu.Lock()
	b.subs = append(b.subs, s)
	b.mu.Unlock()
	go s.resyncLoop()
	return s, nil
}

func (s *Subscription) position(game string) uint64 {
	p, ok := s.pos[game]
	if !ok {
		p = s.from(game)
		s.pos[game] = p
	}
	return p
}

// catchUpBatch bounds the events read in one transaction by catchUp.
const catchUpBatch = 256

// errBatchFull ends a read at catchUpBatch events.
var errBatchFull = errors.New("batch full")

// catchUp delivers game's stored events after the subscription's
// position, a batch at a time, each after its read transaction has
// ended: a handler may write to the store, and a write that grows the
// file waits for every read transaction to end.
func (s *Subscription) catchUp(game string) error {
	batch := make([]events.Envelope, 0, 16)
	for {
		batch = batch[:0]
		err := s.b.st.Read(game, s.position(game)+1, func(e *events.Envelope) error {
			batch = append(batch, e.Clone())
			if len(batch) == catchUpBatch {
				return errBatchFull
			}
			return nil
		})
		if err != nil && !errors.Is(err, errBatchFull) {
			return err
		}
		for i := range batch {
			s.deliver(&batch[i])
		}
		if len(batch) < catchUpBatch {
			return nil
		}
	}
}

func (s *Subscription) catchUpAll() error {
	gs, err := s.b.st.Games()
	if err != nil {
		return err
	}
	for _, g := range gs {
		if g.Head.Seq > s.position(g.Game) {
			if err := s.catchUp(g.Game); err != nil {
				return fmt.Errorf("catch up %s: %w", g.Game, err)
			}
		}
	}
	return nil
}

func (s *Subscription) deliver(e *events.Envelope) {
	if e.Seq != s.pos[e.Game]+1 {
		return
	}
	s.pos[e.Game] = e.Seq
	s.handler(e)
}

// onMsg takes a doorbell: game (from the subject) has an event at seq.
// Nothing in the message is delivered; what the store holds past the
// game's position is, so a forged message can at most make the
// subscription look at the store early.
func (s *Subscription) onMsg(m *nats.Msg) {
	game, ok := gameOf(m.Subject)
	seq, err := strconv.ParseUint(m.Header.Get(SeqHeader), 10, 64)
	if !ok || err != nil {
		s.b.lg.Debug("a message on the bus that is no doorbell", "subject", m.Subject)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || seq <= s.position(game) {
		return // seen already
	}
	if err := s.catchUp(game); err != nil {
		if errors.Is(err, store.ErrNoGame) {
			s.b.lg.Debug("a doorbell for a game the store does not hold", "game", game)
			return
		}
		s.b.lg.Warn("reading a game's new events from the store", "game", game, "err", err)
	}
}

// Rebase runs write, which writes game's events to the store that are
// history rather than news (a game rebuilt from a cluster's stream), and
// moves the subscription's position for game to the seq write returns,
// delivering none of them: no delivery runs while write does.
func (s *Subscription) Rebase(game string, write func() (uint64, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	head, err := write()
	if head > s.position(game) {
		s.pos[game] = head
	}
	return err
}

// Resync compares every game's position with the store and delivers what
// is missing (called after a reconnect, and periodically).
func (s *Subscription) Resync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if err := s.catchUpAll(); err != nil {
		s.b.lg.Warn("resync", "err", err)
	}
}

func (s *Subscription) resyncLoop() {
	defer close(s.done)
	t := time.NewTicker(s.b.cfg.ResyncEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.Resync()
		}
	}
}

// Positions returns a copy of the last seq delivered per game.
func (s *Subscription) Positions() map[string]uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]uint64, len(s.pos))
	for g, p := range s.pos {
		out[g] = p
	}
	return out
}

// Close stops the subscription; no handler call is running once it returns.
func (s *Subscription) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.sub.Unsubscribe()
	close(s.stop)
	<-s.done
}
