package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"pbem/events"
)

// Result says what an append did.
type Result struct {
	// First and Last are the sequence numbers written. For a duplicate,
	// First is the seq the idempotency key was first recorded at and
	// nothing was written.
	First, Last uint64
	Duplicate   bool
	// Events are the envelopes as stored (chained), nil for a duplicate.
	Events []events.Envelope
}

// Request is one append: events for one game, expected to follow seq
// Expected. An event's Key, when set, is an idempotency key: if the first
// event's key is already recorded the request is a duplicate and writes
// nothing. Extra, when set, runs in the same transaction after the events
// are written (an IMAP checkpoint, raw evidence); it must be idempotent
// and must only write.
type Request struct {
	Game     string
	Expected uint64
	Events   []events.Envelope
	Extra    func(tx *bolt.Tx, r *Result) error
}

type appendReq struct {
	Request
	res  Result
	err  error
	done chan struct{}
}

// Append appends evs to game if its log ends at expected. See Request.
func (s *Store) Append(game string, expected uint64, evs ...events.Envelope) (Result, error) {
	return s.Do(Request{Game: game, Expected: expected, Events: evs})
}

// Do runs one append request, group-committed with any others in flight,
// and returns once it is durable (or failed).
func (s *Store) Do(r Request) (Result, error) {
	if r.Game == "" || len(r.Events) == 0 {
		return Result{}, errors.New("append: need a game and at least one event")
	}
	for i := range r.Events {
		if r.Events[i].Game != r.Game {
			return Result{}, fmt.Errorf("append to %s: event %d is for game %q", r.Game, i, r.Events[i].Game)
		}
	}
	req := &appendReq{Request: r, done: make(chan struct{})}
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		return Result{}, ErrClosed
	}
	s.reqs <- req
	s.closeMu.RUnlock()
	<-req.done
	return req.res, req.err
}

// commitLoop takes the first waiting request, then everything else already
// queued (up to MaxBatch), and commits them in one transaction: one fsync
// for the lot. While it commits, new requests queue for the next round.
//
// Writers released by a commit come straight back with their next append,
// but not all at the same instant; taking only what is queued at that
// moment splits them into alternating half batches. So the loop also waits
// a little (at most gatherWait, far below one fsync) for as many requests
// as the previous batch carried. A lone writer's previous batch was one, so
// it never waits: no fixed delay, unlike bbolt's Batch timer.
func (s *Store) commitLoop() {
	defer close(s.done)
	batch := make([]*appendReq, 0, s.opts.MaxBatch)
	expect := 1
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case r := <-s.reqs:
			batch = append(batch[:0], r)
		case <-s.stop:
			// Finish what is queued, then stop: no acknowledged append is lost.
			for {
				select {
				case r := <-s.reqs:
					s.commit([]*appendReq{r})
				default:
					return
				}
			}
		}
		s.drain(&batch)
		if len(batch) < expect {
			timer.Reset(gatherWait)
		gather:
			for len(batch) < expect && len(batch) < s.opts.MaxBatch {
				select {
				case r := <-s.reqs:
					batch = append(batch, r)
					s.drain(&batch)
				case <-timer.C:
					break gather
				}
			}
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		}
		expect = len(batch)
		s.commit(batch)
	}
}

// gatherWait bounds how long a commit waits for the writers of the
// previous batch to come back (an fsync here takes about 2 ms).
const gatherWait = 300 * time.Microsecond

func (s *Store) drain(batch *[]*appendReq) {
	for len(*batch) < s.opts.MaxBatch {
		select {
		case r := <-s.reqs:
			*batch = append(*batch, r)
		default:
			return
		}
	}
}

func (s *Store) commit(batch []*appendReq) {
	err := s.db.Update(func(tx *bolt.Tx) error {
		for _, r := range batch {
			// Each request's work is recomputed from the transaction's
			// view every time it runs, so running it again is harmless.
			r.res, r.err = Result{}, nil
			if err := s.apply(tx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		// A failed transaction writes nothing. Retry each request alone so
		// one bad request cannot fail the others.
		if len(batch) > 1 {
			for _, r := range batch {
				s.commit([]*appendReq{r})
			}
			return
		}
		batch[0].res, batch[0].err = Result{}, fmt.Errorf("append to %s: %w", batch[0].Game, err)
	}
	s.commits.Add(1)
	s.requests.Add(uint64(len(batch)))
	for _, r := range batch {
		close(r.done)
	}
}

// apply writes one request inside tx. Outcomes the caller must handle (a
// conflict, a duplicate) are recorded in r without failing the
// transaction, so they cost the other requests nothing.
func (s *Store) apply(tx *bolt.Tx, r *appendReq) error {
	game := []byte(r.Game)
	logB := tx.Bucket(bLog).Bucket(game)
	if key := r.Events[0].Key; key != "" && logB != nil {
		if v := logB.Get(idemKey(key)); v != nil {
			seq := binary.BigEndian.Uint64(v)
			r.res = Result{First: seq, Last: seq, Duplicate: true}
			return nil
		}
	}
	h, err := head(tx, r.Game)
	if err != nil {
		return err
	}
	if h.Seq != r.Expected {
		r.err = &ConflictError{Game: r.Game, Expected: r.Expected, Actual: h.Seq}
		return nil
	}
	if logB == nil {
		if logB, err = tx.Bucket(bLog).CreateBucket(game); err != nil {
			return err
		}
	}
	// Events are appended in key order; keys land anywhere in their range.
	logB.FillPercent = 0.9
	out := make([]events.Envelope, len(r.Events))
	for i := range r.Events {
		e := r.Events[i]
		e.Chain(h.Seq+1, h.Hash)
		if err := logB.Put(seqKey(e.Seq), e.Marshal()); err != nil {
			return err
		}
		if e.Key != "" {
			if k := idemKey(e.Key); logB.Get(k) == nil {
				if err := logB.Put(k, seqKey(e.Seq)); err != nil {
					return err
				}
			}
		}
		h = Head{Seq: e.Seq, Hash: e.Hash}
		out[i] = e
	}
	if err := tx.Bucket(bMeta).Put(game, encodeHead(h)); err != nil {
		return err
	}
	r.res = Result{First: out[0].Seq, Last: h.Seq, Events: out}
	if r.Extra != nil {
		return r.Extra(tx, &r.res)
	}
	return nil
}
