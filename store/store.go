// Package store keeps pbem's event logs: an append-only, hash-chained log
// per game in one bbolt file, with idempotency keys, snapshots, the
// "published up to" marker of the NATS bus, and the secret dice seeds.
//
// bbolt is the only system of record. Appends from many goroutines are
// group-committed: each bbolt transaction takes every append that queued
// while the previous one was being fsynced, so one lone append costs one
// fsync and no timer, and a burst shares fsyncs. Sync is never disabled.
package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"pbem/events"
)

// Bucket names. Per-game data lives in nested buckets named by game id.
var (
	bMeta   = []byte("meta")   // game → head (last seq, last hash)
	bLog    = []byte("log")    // game/ → seq (big endian) → envelope, and "k"+idempotency key → seq
	bSnap   = []byte("snap")   // game/ → seq → snapshot
	bPub    = []byte("pub")    // game → seq published on the bus
	bSecret = []byte("secret") // game → dice seed (never in the log until revealed)
	bCkpt   = []byte("ckpt")   // mailbox → checkpoint
	bQuar   = []byte("quar")   // quarantine: id → record
	bRaw    = []byte("raw")    // game/ → seq → raw evidence bytes
)

var topBuckets = [][]byte{bMeta, bLog, bSnap, bPub, bSecret, bCkpt, bQuar, bRaw}

// A game's log bucket holds its events under 8-byte big-endian seq keys
// (first byte 0 for any seq below 2^56) and, in the same tree, its
// idempotency keys under "k"+key, which sort after every event. One tree
// per game means one append dirties one tree's pages, not two.
const idemPrefix = 'k'

func idemKey(key string) []byte { return append([]byte{idemPrefix}, key...) }

func isSeqKey(k []byte) bool { return len(k) == 8 && k[0] == 0 }

// ErrNoGame is returned for a game the store does not hold.
var ErrNoGame = errors.New("no such game")

// ConflictError says an append expected a game to end at Expected but
// someone appended first: it ends at Actual. Re-read and decide again.
type ConflictError struct {
	Game             string
	Expected, Actual uint64
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("game %s: append expected seq %d, log is at %d", e.Game, e.Expected, e.Actual)
}

// Options tune a Store.
type Options struct {
	// MaxBatch bounds how many appends share one transaction (default 1024).
	MaxBatch int
	// Timeout for acquiring the file lock (default 2s).
	LockTimeout time.Duration
	// SnapshotsKept per game (default 2).
	SnapshotsKept int
	Logger        *slog.Logger
}

// Store is an open bbolt file.
type Store struct {
	db   *bolt.DB
	opts Options
	log  *slog.Logger

	commits  atomic.Uint64
	requests atomic.Uint64

	reqs    chan *appendReq
	stop    chan struct{}
	done    chan struct{}
	closeMu sync.RWMutex
	closed  bool
}

// Open opens (creating if needed) the store at path.
func Open(path string, opts Options) (*Store, error) {
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 1024
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 2 * time.Second
	}
	if opts.SnapshotsKept <= 0 {
		opts.SnapshotsKept = 2
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout})
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range topBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("init store %s: %w", path, err)
	}
	s := &Store{db: db, opts: opts, log: opts.Logger.With("component", "store"),
		reqs: make(chan *appendReq, 4096), stop: make(chan struct{}), done: make(chan struct{})}
	go s.commitLoop()
	return s, nil
}

// Stats counts the store's commits and the append requests they carried
// (their ratio is the group commit's average batch).
type Stats struct{ Commits, Requests uint64 }

// Stats returns the counts so far.
func (s *Store) Stats() Stats { return Stats{Commits: s.commits.Load(), Requests: s.requests.Load()} }

// Path returns the file's path.
func (s *Store) Path() string { return s.db.Path() }

// Close finishes the appends already queued, then closes the file.
func (s *Store) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return nil
	}
	s.closed = true
	s.closeMu.Unlock()
	close(s.stop)
	<-s.done
	return s.db.Close()
}

func seqKey(seq uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	return k[:]
}

// Head is where a game's log ends.
type Head struct {
	Seq  uint64
	Hash events.Hash
}

func encodeHead(h Head) []byte {
	b := binary.AppendUvarint(nil, h.Seq)
	return append(b, h.Hash[:]...)
}

func decodeHead(b []byte) (Head, error) {
	var h Head
	seq, n := binary.Uvarint(b)
	if n <= 0 || len(b)-n != events.HashSize {
		return h, fmt.Errorf("%w: bad head record", events.ErrCorrupt)
	}
	h.Seq = seq
	copy(h.Hash[:], b[n:])
	return h, nil
}

func head(tx *bolt.Tx, game string) (Head, error) {
	v := tx.Bucket(bMeta).Get([]byte(game))
	if v == nil {
		return Head{}, nil
	}
	return decodeHead(v)
}

// Head returns where game's log ends (zero for a game with no events).
func (s *Store) Head(game string) (Head, error) {
	var h Head
	err := s.db.View(func(tx *bolt.Tx) (err error) { h, err = head(tx, game); return })
	return h, err
}

// GameInfo summarises one game's log.
type GameInfo struct {
	Game      string
	Head      Head
	Published uint64
}

// Games lists every game, sorted by id.
func (s *Store) Games() ([]GameInfo, error) {
	var out []GameInfo
	err := s.db.View(func(tx *bolt.Tx) error {
		pub := tx.Bucket(bPub)
		return tx.Bucket(bMeta).ForEach(func(k, v []byte) error {
			h, err := decodeHead(v)
			if err != nil {
				return fmt.Errorf("game %s: %w", k, err)
			}
			gi := GameInfo{Game: string(k), Head: h}
			if p := pub.Get(k); p != nil {
				gi.Published = binary.BigEndian.Uint64(p)
			}
			out = append(out, gi)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out, err
}

// Read calls fn for each event of game from seq from (1-based) on, in
// order. env and its payload are valid only during the call (they alias
// the file's pages): fn must Clone what it keeps.
func (s *Store) Read(game string, from uint64, fn func(env *events.Envelope) error) error {
	var d events.Decoder
	var env events.Envelope // one for the whole read: fn may not keep it
	return s.ReadRaw(game, from, func(seq uint64, raw []byte) error {
		var err error
		if env, err = d.UnmarshalView(raw); err != nil {
			return fmt.Errorf("game %s seq %d: %w", game, seq, err)
		}
		return fn(&env)
	})
}

// ReadRaw calls fn with the stored bytes of each event from seq from on.
// The bytes are valid only during the call.
func (s *Store) ReadRaw(game string, from uint64, fn func(seq uint64, raw []byte) error) error {
	if from == 0 {
		from = 1
	}
	return s.db.View(func(tx *bolt.Tx) error { return readRaw(tx, game, from, fn) })
}

// readRaw is ReadRaw within the transaction tx.
func readRaw(tx *bolt.Tx, game string, from uint64, fn func(seq uint64, raw []byte) error) error {
	b := tx.Bucket(bLog).Bucket([]byte(game))
	if b == nil {
		return fmt.Errorf("game %s: %w", game, ErrNoGame)
	}
	c := b.Cursor()
	for k, v := c.Seek(seqKey(from)); k != nil && isSeqKey(k); k, v = c.Next() {
		if err := fn(binary.BigEndian.Uint64(k), v); err != nil {
			return err
		}
	}
	return nil
}

// Events returns game's events from seq from on.
func (s *Store) Events(game string, from uint64) ([]events.Envelope, error) {
	var out []events.Envelope
	err := s.Read(game, from, func(e *events.Envelope) error { out = append(out, e.Clone()); return nil })
	return out, err
}

// Lookup returns the seq an idempotency key was first recorded at.
func (s *Store) Lookup(game, key string) (uint64, bool, error) {
	var seq uint64
	var ok bool
	err := s.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bLog).Bucket([]byte(game)); b != nil {
			if v := b.Get(idemKey(key)); v != nil {
				seq, ok = binary.BigEndian.Uint64(v), true
			}
		}
		return nil
	})
	return seq, ok, err
}

// Verify walks game's whole chain and returns the number of events checked
// and, if a link is broken, a *events.ChainError naming the first one.
func (s *Store) Verify(game string) (uint64, error) {
	v := events.Verifier{Game: game}
	var stored Head
	// The head and the log are read in one transaction: read in two, an
	// append between them (a live server's) would look like a broken chain.
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		if stored, err = head(tx, game); err != nil {
			return err
		}
		return readRaw(tx, game, 1, func(seq uint64, raw []byte) error {
			env, err := events.UnmarshalView(raw)
			if err != nil {
				return &events.ChainError{Game: game, Seq: v.Seq() + 1, Reason: err.Error()}
			}
			if env.Seq != seq {
				return &events.ChainError{Game: game, Seq: v.Seq() + 1, Reason: fmt.Sprintf("stored under key %d but says seq %d", seq, env.Seq)}
			}
			return v.Next(&env)
		})
	})
	if err != nil {
		return v.Seq(), err
	}
	if v.Seq() != stored.Seq {
		return v.Seq(), &events.ChainError{Game: game, Seq: v.Seq() + 1, Reason: fmt.Sprintf("head says %d events, log holds %d", stored.Seq, v.Seq())}
	}
	return v.Seq(), nil
}

// ErrClosed is returned by operations on a closed store.
var ErrClosed = errors.New("store closed")
