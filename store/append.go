package store

import (
	"errors"
	"fmt"
	"slices"

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
	// DuplicateKey is the idempotency key that made the request a
	// duplicate (the first event's or one of Request.Keys).
	DuplicateKey string
	// Events are the envelopes as stored (chained), nil for a duplicate.
	Events []events.Envelope
	// Checkpointed says that the request's Checkpoint was written with it
	// (always, unless it is CheckpointAfterAll).
	Checkpointed bool
}

// Request is one append: events for one game, expected to follow seq
// Expected. An event's Key, when set, is an idempotency key: if the first
// event's key is already recorded the request is a duplicate and writes
// no events.
//
// The side-writes are committed in the same transaction as the events, or
// not at all: Secret (the game's dice seed, kept out of the log) and Raw
// (the mail behind the first event, as evidence) with the events; the
// Checkpoint even for a duplicate, since the mail it covers is committed
// either way.
type Request struct {
	Game     string
	Expected uint64
	// AtHead appends after whatever the game's log holds when the request
	// is written, ignoring Expected: for events that say the same whatever
	// came before them (a mail sent, an order received), written by one
	// who would otherwise read the head and try again on each conflict,
	// one transaction each. The game's log must exist.
	AtHead bool
	// Past, when set, lets a request that expects Expected land at the
	// head all the same when every event written after Expected is of a
	// type Past accepts: events that change nothing the request was
	// computed from (a mail sent, an input that waits its turn). Its
	// events are chained after them; Result.First says where they
	// landed. Any other event after Expected is a conflict, as without.
	Past   func(typ string) bool
	Events []events.Envelope
	// Keys are more idempotency keys of the request, recorded with the
	// first event's seq: if any of them (or the first event's key) is
	// already recorded, the request is a duplicate. (The intake keys a
	// mail by its Message-ID and by fingerprints of its content, so a
	// copy sent again under a new Message-ID is recognised too.)
	Keys []string

	Secret     []byte
	Raw        []byte
	Checkpoint *MailboxCheckpoint
	// CheckpointAfterAll makes the Checkpoint conditional, for the last
	// request of a DoAll that takes a batch of mails: it is written only
	// if this request and every one before it in the DoAll appended their
	// events (none a duplicate, a conflict or an error), since only then
	// is every mail it covers committed as a new one, and nothing is left
	// for the caller to answer. Result.Checkpointed says whether it was.
	CheckpointAfterAll bool
}

// MailboxCheckpoint is a checkpoint to advance with an append.
type MailboxCheckpoint struct {
	Mailbox string
	Checkpoint
}

type appendReq struct {
	Request
	s        *Store
	res      Result
	err      error
	finished chan struct{}
	// held: a request before this one in its DoAll did not append, so a
	// CheckpointAfterAll is not written.
	held bool
	// recent is the game's recentKeys after this append, for the
	// committer to keep once it is durable (nil: unknown).
	recent *recentKeys
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
	if s.g == nil {
		return Result{}, fmt.Errorf("append to %s: %w", r.Game, errReadOnly)
	}
	req := &appendReq{Request: r, s: s, finished: make(chan struct{})}
	if !s.g.do(req) {
		return Result{}, ErrClosed
	}
	<-req.finished
	if req.err == nil && !req.res.Duplicate {
		s.appended.Add(uint64(len(req.res.Events)))
	}
	return req.res, req.err
}

// DoAll runs requests in order in one transaction, each as Do runs it
// and with its own outcome (a conflict, a duplicate: a request sees those
// before it), and returns once they are durable (or failed): one commit
// for requests that would otherwise wait for one after the other.
func (s *Store) DoAll(rs []Request) ([]Result, []error) {
	res, errs := make([]Result, len(rs)), make([]error, len(rs))
	if s.g == nil {
		for i, r := range rs {
			errs[i] = fmt.Errorf("append to %s: %w", r.Game, errReadOnly)
		}
		return res, errs
	}
	all := &allReq{finished: make(chan struct{})}
	for i, r := range rs {
		if r.Game == "" || len(r.Events) == 0 {
			errs[i] = errors.New("append: need a game and at least one event")
			continue
		}
		for j := range r.Events {
			if r.Events[j].Game != r.Game {
				errs[i] = fmt.Errorf("append to %s: event %d is for game %q", r.Game, j, r.Events[j].Game)
			}
		}
		if errs[i] == nil {
			all.reqs = append(all.reqs, &appendReq{Request: r, s: s})
		}
	}
	if len(all.reqs) > 0 && !s.g.do(all) {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = ErrClosed
			}
		}
		return res, errs
	}
	if len(all.reqs) > 0 {
		<-all.finished
	}
	k := 0
	for i := range rs {
		if errs[i] != nil {
			continue
		}
		r := all.reqs[k]
		k++
		res[i], errs[i] = r.res, r.err
		if r.err == nil && !r.res.Duplicate {
			s.appended.Add(uint64(len(r.res.Events)))
		}
	}
	return res, errs
}

// allReq is DoAll's requests, one job.
type allReq struct {
	reqs     []*appendReq
	finished chan struct{}
}

func (a *allReq) apply(tx *bolt.Tx) error {
	held := false
	for _, r := range a.reqs {
		r.held = held
		if err := r.apply(tx); err != nil {
			return err
		}
		held = held || r.err != nil || r.res.Duplicate
	}
	return nil
}

func (a *allReq) fail(err error) {
	for _, r := range a.reqs {
		r.fail(err)
	}
}

func (a *allReq) done() {
	for _, r := range a.reqs {
		r.committed()
	}
	close(a.finished)
}

func (r *appendReq) apply(tx *bolt.Tx) error {
	// Recomputed from the transaction's view every time it runs, so
	// running it again is harmless.
	r.res, r.err, r.recent = Result{}, nil, nil
	return r.s.apply(tx, r)
}

func (r *appendReq) fail(err error) {
	r.res, r.err, r.recent = Result{}, fmt.Errorf("append to %s: %w", r.Game, err), nil
}

func (r *appendReq) done() {
	r.committed()
	close(r.finished)
}

// committed keeps what the committer learnt of the game, once the
// append is durable (done runs on the committer's goroutine).
func (r *appendReq) committed() {
	if r.err == nil && r.recent != nil {
		r.s.recent.set(r.Game, r.recent)
	}
}

// apply writes one request inside tx. Outcomes the caller must handle (a
// conflict, a duplicate) are recorded in r without failing the
// transaction, so they cost the other requests nothing.
func (s *Store) apply(tx *bolt.Tx, r *appendReq) error {
	game := []byte(r.Game)
	logB := tx.Bucket(bLog).Bucket(game)
	// A damaged head fails the request below, unless it is a duplicate.
	h, headErr := head(tx, r.Game)
	var rk *recentKeys // the game's keys as the committer last left them, if still at h
	if headErr == nil {
		rk = s.recent.at(r.Game, h)
	}
	var indexed uint64
	var marked bool
	switch {
	case rk != nil:
		indexed, marked = rk.indexed, rk.marked
	case logB != nil:
		indexed, marked = indexedThrough(logB, h.Seq)
	default:
		indexed = h.Seq
	}
	if rk == nil && headErr == nil && !marked {
		rk = &recentKeys{head: h, indexed: indexed} // every key is in the index
	}
	if logB != nil {
		seq, key, found, seen, err := findKeys(logB, append([]string{r.Events[0].Key}, r.Keys...), indexed, marked, s.recent, rk)
		if err != nil {
			// A damaged event fails this request, not the others
			// committed with it.
			r.err = fmt.Errorf("append to %s: look up its keys: %w", r.Game, err)
			return nil
		}
		if found {
			r.res = Result{First: seq, Last: seq, Duplicate: true, DuplicateKey: key}
			if r.CheckpointAfterAll {
				return nil // the caller answers the copy, then moves the checkpoint
			}
			return r.checkpoint(tx)
		}
		if rk == nil && seen != nil && headErr == nil {
			rk = &recentKeys{head: h, indexed: indexed, marked: marked, hashes: seen}
		}
	}
	// Nothing of the request is written yet: a damaged head, or a log
	// bucket that cannot be made, fails this request alone, not the
	// others of its transaction (a DoAll takes a batch of several games'
	// mails, and a failed transaction is retried job by job, a DoAll as
	// one).
	if headErr != nil {
		r.err = fmt.Errorf("append to %s: read its head: %w", r.Game, headErr)
		return nil
	}
	if r.AtHead && h.Seq == 0 {
		r.err = fmt.Errorf("append at head of game %s: %w", r.Game, ErrNoGame)
		return nil
	}
	if h.Seq != r.Expected && !r.AtHead && !passable(logB, r.Past, r.Expected, h.Seq) {
		r.err = &ConflictError{Game: r.Game, Expected: r.Expected, Actual: h.Seq}
		return nil
	}
	if logB == nil {
		var err error
		if logB, err = tx.Bucket(bLog).CreateBucket(game); err != nil {
			r.err = fmt.Errorf("append to %s: make its log: %w", r.Game, err)
			return nil
		}
	}
	// Events are appended in key order; keys land anywhere in their range.
	logB.FillPercent = 0.9
	var keys []keyEntry
	index := h.Seq+uint64(len(r.Events))-indexed >= indexLag
	if index {
		var err error
		if keys, err = unindexedKeys(logB, indexed); err != nil {
			r.err = fmt.Errorf("append to %s: index its keys: %w", r.Game, err)
			return nil
		}
	}
	out := make([]events.Envelope, len(r.Events))
	for i := range r.Events {
		e := r.Events[i]
		if err := logB.Put(seqKey(h.Seq+1), e.MarshalChained(h.Seq+1, h.Hash)); err != nil {
			return err
		}
		h = Head{Seq: e.Seq, Hash: e.Hash}
		out[i] = e
	}
	// The events' own keys are indexed in arrears (see indexLag); the
	// request's other keys are in no event, so they are indexed now.
	for _, key := range r.Keys {
		if key == "" || slices.ContainsFunc(out, func(e events.Envelope) bool { return e.Key == key }) {
			continue
		}
		if k := idemKey(key); logB.Get(k) == nil {
			if err := logB.Put(k, seqKey(out[0].Seq)); err != nil {
				return err
			}
		}
	}
	switch {
	case index:
		for _, e := range out {
			if e.Key != "" {
				keys = append(keys, keyEntry{idemKey(e.Key), seqKey(e.Seq)})
			}
		}
		if err := indexKeys(logB, keys, h.Seq); err != nil {
			return err
		}
	case !marked:
		if err := logB.Put(indexedKey, seqKey(indexed)); err != nil {
			return err
		}
	}
	if err := tx.Bucket(bMeta).Put(game, encodeHead(h)); err != nil {
		return err
	}
	r.res = Result{First: out[0].Seq, Last: h.Seq, Events: out}
	r.recent = s.recent.after(rk, h, index, out)
	if r.Secret != nil {
		if err := tx.Bucket(bSecret).Put(game, r.Secret); err != nil {
			return err
		}
	}
	if r.Raw != nil {
		if err := putRaw(tx, r.Game, r.res.First, r.Raw); err != nil {
			return err
		}
	}
	return r.checkpoint(tx)
}

// MaxPast bounds the events a request with Past looks at past its
// Expected: beyond it the request is a conflict, as without Past.
const MaxPast = 256

// passable reports whether the events of logB after expected, up to
// head, are all of types past accepts.
func passable(logB *bolt.Bucket, past func(string) bool, expected, head uint64) bool {
	if past == nil || logB == nil || head < expected || head-expected > MaxPast {
		return false
	}
	var d events.Decoder
	for seq := expected + 1; seq <= head; seq++ {
		v := logB.Get(seqKey(seq))
		if v == nil {
			return false
		}
		e, err := d.UnmarshalView(v)
		if err != nil || !past(e.Type) {
			return false
		}
	}
	return true
}

func (r *appendReq) checkpoint(tx *bolt.Tx) error {
	if r.Checkpoint == nil || r.Checkpoint.Mailbox == "" || r.CheckpointAfterAll && r.held {
		return nil
	}
	if err := putCheckpoint(tx, r.Checkpoint.Mailbox, r.Checkpoint.Checkpoint); err != nil {
		return err
	}
	r.res.Checkpointed = true
	return nil
}
