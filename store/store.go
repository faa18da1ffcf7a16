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
	"io/fs"
	"log/slog"
	"os"
	"runtime/debug"
	"sort"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"pbem/events"
)

// Bucket names. Per-game data lives in nested buckets named by game id.
var (
	bMeta   = []byte("meta")   // game → head (last seq, last hash)
	bLog    = []byte("log")    // game/ → seq (big endian) → envelope, "i" → seq indexed through, and "k"+idempotency key → seq
	bSnap   = []byte("snap")   // game/ → seq → snapshot
	bPub    = []byte("pub")    // game → seq published on the bus
	bSecret = []byte("secret") // game → dice seed (never in the log until revealed)
	bCkpt   = []byte("ckpt")   // mailbox → checkpoint
	bQuar   = []byte("quar")   // quarantine: id → record
	bRaw    = []byte("raw")    // game/ → seq → raw evidence bytes
	bQuarT  = []byte("quart")  // quarantine by age: time (8 bytes) + id → record size
	bQuarS  = []byte("quars")  // quarantine totals: "bytes", "pruned"
)

// topBuckets are the buckets every store has; laterBuckets were added
// since (the quarantine's time index and counts), made when a store is opened for
// writing and read as empty while they are missing.
var (
	topBuckets   = [][]byte{bMeta, bLog, bSnap, bPub, bSecret, bCkpt, bQuar, bRaw}
	laterBuckets = [][]byte{bQuarT, bQuarS}
)

// addLaterBuckets makes the laterBuckets a store written before them
// lacks, and indexes its quarantine; a store that has them is only read.
func addLaterBuckets(db *bolt.DB) error {
	missing := false
	db.View(func(tx *bolt.Tx) error {
		for _, b := range laterBuckets {
			if tx.Bucket(b) == nil {
				missing = true
				return nil
			}
		}
		missing = missing || tx.Bucket(bQuarS).Get(keyQuarBytes) == nil // after the loop: bQuarS is there
		return nil
	})
	if !missing {
		return nil
	}
	return db.Update(makeLaterBuckets)
}

// makeLaterBuckets makes the laterBuckets and indexes the quarantine.
func makeLaterBuckets(tx *bolt.Tx) error {
	for _, b := range laterBuckets {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return indexQuarantine(tx)
}

// A game's log bucket holds its events under 8-byte big-endian seq keys
// (first byte 0 for any seq below 2^56) and, in the same tree, its
// idempotency keys under "k"+key, which sort after every event. One tree
// per game means one append dirties one tree's pages, not two.
//
// An event's own key is in the event, so the index of those keys is
// written in arrears: "i" (between the events and the keys, so in the
// leaf the newest events are in) holds the seq up to which the events'
// keys are indexed, and a key is looked for in the index and then among
// the events after it, at most indexLag of them. An append indexes them
// all once that many wait. Without "i" (a file written before) every
// key is indexed. The keys a request adds beside its events' (Keys) are
// not in any event: they are indexed at once.
//
// The index in arrears halves the pages an append dirties: the newest
// events and "i" share a leaf, while a new key lands anywhere among the
// keys (pbem bench's appends went from 0.66–0.69 of raw bbolt to 0.87–0.93
// when nothing but the event was written).
const (
	idemPrefix = 'k'
	indexLag   = 32
)

var indexedKey = []byte{'i'}

func idemKey(key string) []byte { return append([]byte{idemPrefix}, key...) }

// indexedThrough returns the seq up to which logB's events' keys are in
// its index: all of them (through head) in a bucket without the mark.
func indexedThrough(logB *bolt.Bucket, head uint64) (uint64, bool) {
	v := logB.Get(indexedKey)
	if len(v) != 8 {
		return head, false
	}
	return binary.BigEndian.Uint64(v), true
}

// findKeys returns the first of keys ("" skipped) that logB has
// recorded, and the seq it was first recorded at: for each key, the
// index, then the events not indexed yet (those after from, when
// marked; read once for all the keys). With rc and rk (the game's
// recent entry at this head, see recentKeys) the events are read only
// when a key hashes like one of theirs. When the events were read,
// seen holds their keys' hashes (not nil).
func findKeys(logB *bolt.Bucket, keys []string, from uint64, marked bool, rc *recentCache, rk *recentKeys) (seq uint64, key string, found bool, seen []uint64, err error) {
	at := make([]uint64, len(keys)) // 0: not recorded
	missing := 0
	for i, k := range keys {
		if k == "" {
			continue
		}
		if v := logB.Get(idemKey(k)); v != nil {
			at[i] = binary.BigEndian.Uint64(v)
		} else {
			missing++
		}
	}
	if marked && missing > 0 && (rk == nil || rc.mayHold(rk, keys, at)) {
		seen = []uint64{}
		err = eachUnindexedKey(logB, from, func(seq uint64, ek []byte) {
			for i, k := range keys {
				if at[i] == 0 && k != "" && string(ek) == k {
					at[i] = seq
				}
			}
			if rc != nil {
				seen = append(seen, rc.hash(string(ek)))
			}
		})
		if err != nil {
			return 0, "", false, nil, err
		}
	}
	for i, k := range keys {
		if at[i] != 0 {
			return at[i], k, true, seen, nil
		}
	}
	return 0, "", false, seen, nil
}

// eachUnindexedKey calls fn with the seq and key of each of logB's events
// after seq from that has a key, in order; the key aliases the file.
func eachUnindexedKey(logB *bolt.Bucket, from uint64, fn func(seq uint64, key []byte)) error {
	c := logB.Cursor()
	for k, v := c.Seek(seqKey(from + 1)); k != nil && isSeqKey(k); k, v = c.Next() {
		ek, err := events.KeyView(v)
		if err != nil {
			return fmt.Errorf("event %d: %w", binary.BigEndian.Uint64(k), err)
		}
		if len(ek) > 0 {
			fn(binary.BigEndian.Uint64(k), ek)
		}
	}
	return nil
}

// keyEntry is an index entry: a key and the seq it was first recorded at.
type keyEntry struct{ key, seq []byte }

// unindexedKeys returns the index entries of logB's events after seq from
// (read before the append writes anything, so that a damaged event fails
// the append alone).
func unindexedKeys(logB *bolt.Bucket, from uint64) ([]keyEntry, error) {
	var out []keyEntry
	err := eachUnindexedKey(logB, from, func(seq uint64, ek []byte) {
		out = append(out, keyEntry{idemKey(string(ek)), seqKey(seq)})
	})
	return out, err
}

// indexKeys writes entries in order (a key already there keeps the seq
// it was first recorded at) and marks the events indexed through seq.
func indexKeys(logB *bolt.Bucket, entries []keyEntry, through uint64) error {
	for _, e := range entries {
		if logB.Get(e.key) == nil {
			if err := logB.Put(e.key, e.seq); err != nil {
				return err
			}
		}
	}
	return logB.Put(indexedKey, seqKey(through))
}

func isSeqKey(k []byte) bool { return len(k) == 8 && k[0] == 0 }

// ErrNoGame is returned for a game the store does not hold.
var ErrNoGame = errors.New("no such game")

// Errors of opening and reading a file, for callers to tell apart with
// errors.Is (the messages say the rest).
var (
	// ErrLocked: another process holds the file (a running pbem serve).
	ErrLocked = errors.New("locked by another process")
	// ErrMissing: there is no file, and the caller did not ask to create one.
	ErrMissing = errors.New("no such file")
	// ErrDamaged: the file is not a sound database (truncated, empty,
	// overwritten, a page that does not parse). Nothing was changed.
	ErrDamaged = errors.New("damaged")
	// ErrNoAccess: the file system or the permissions keep this process
	// from opening the file as asked (a read-only mount, a file it may
	// not write or read). Nothing is wrong with the file.
	ErrNoAccess = errors.New("access refused")
)

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
	// MustExist refuses to make a new file: a missing one is ErrMissing.
	// pbem's commands set it unless they start a new data directory
	// (serve and new), so a command that reads never creates a store.
	MustExist bool
	// ReadOnly opens the file for reading only, under a shared lock:
	// every write fails and nothing in the file changes.
	ReadOnly bool
	// QuarantineBytes caps the quarantine's records; past it the oldest
	// are pruned and counted (default 64 MiB).
	QuarantineBytes int64
	Logger          *slog.Logger
	// NoSync commits without fsync (bbolt's NoSync): a crash of the
	// machine may lose what was committed, or damage the file. It is for
	// tests that play games through the store without testing its
	// durability (the rule systems' acceptance suite); pbem never sets it.
	NoSync bool
	// MappedLimit is how much of files the process may hold resident
	// through its mappings before the store lets go of the pages its
	// reads mapped (default 128 MiB; negative: never).
	MappedLimit int64
}

// Store is an open bbolt file.
type Store struct {
	db   *bolt.DB
	opts Options
	log  *slog.Logger

	counts   commitCounts
	appended atomic.Uint64
	views    atomic.Uint64 // read transactions, for release
	released atomic.Int64  // when mapped pages were last released (unix ns)

	g      *group       // nil when read-only
	recent *recentCache // the committer's: see recentKeys
}

// Open opens the store at path, creating it unless Options.MustExist or
// ReadOnly is set. A file
// that is not a sound store gives an error wrapping ErrDamaged, never a
// panic, and is left as it is.
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
	if opts.QuarantineBytes <= 0 {
		opts.QuarantineBytes = 64 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MappedLimit == 0 {
		opts.MappedLimit = 128 << 20
	}
	db, err := openFile(path, fileOptions{create: !opts.MustExist, readOnly: opts.ReadOnly, noSync: opts.NoSync, lockTimeout: opts.LockTimeout,
		buckets: topBuckets, setup: makeLaterBuckets})
	if err != nil {
		return nil, err
	}
	if !opts.ReadOnly {
		if err := guard(func() error { return addLaterBuckets(db) }); err != nil {
			db.Close()
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	s := &Store{db: db, opts: opts, log: opts.Logger.With("component", "store")}
	if !opts.ReadOnly {
		s.recent = newRecentCache()
		s.g = newGroup(db, opts.MaxBatch, s.counts.add)
	}
	return s, nil
}

// fileOptions say how openFile opens a bbolt file.
type fileOptions struct {
	create, readOnly bool
	noSync           bool
	lockTimeout      time.Duration
	// buckets are the top-level buckets a sound file has: made in a new
	// file, and any missing from an existing one means it is damaged.
	buckets [][]byte
	// setup, if set, runs in the transaction that makes a new file's
	// buckets.
	setup func(tx *bolt.Tx) error
}

// openFile opens a bbolt file, refusing a missing one (unless o.create),
// an empty one, a truncated one and one without its buckets, with errors
// that say so; bbolt's panics on a damaged file are stopped here. A new
// file is made whole before it has its name (see createFile).
func openFile(path string, o fileOptions) (db *bolt.DB, err error) {
	if !o.readOnly {
		removeLeftovers(path)
	}
	fi, statErr := os.Stat(path)
	if errors.Is(statErr, fs.ErrNotExist) {
		if !o.create || o.readOnly {
			return nil, fmt.Errorf("open %s: %w", path, ErrMissing)
		}
		if err := createFile(path, o); err != nil {
			if nw := notWritable(path, err, true); nw != nil {
				return nil, nw
			}
			return nil, err
		}
		fi, statErr = os.Stat(path)
	}
	switch {
	case statErr != nil:
		return nil, fmt.Errorf("open %s: %w", path, statErr)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("open %s: %w: not a regular file", path, ErrDamaged)
	case fi.Size() == 0:
		// Never initialise an empty file again: it is the evidence of a loss.
		return nil, fmt.Errorf("open %s: %w: the file is empty (0 bytes); move it away and restore a backup", path, ErrDamaged)
	}
	if err := precheck(path, o.lockTimeout); err != nil {
		return nil, err
	}
	err = guard(func() error {
		var err error
		// The free list is read now, under guard, not lazily later
		// (bbolt's Check reads it on a goroutine of its own).
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: o.lockTimeout, ReadOnly: o.readOnly, NoSync: o.noSync, PreLoadFreelist: true})
		return err
	})
	if err != nil {
		switch {
		case errors.Is(err, bolterrors.ErrTimeout):
			return nil, fmt.Errorf("open %s: %w", path, ErrLocked)
		case errors.Is(err, ErrDamaged):
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		if nw := notWritable(path, err, !o.readOnly); nw != nil {
			return nil, nw
		}
		// Whatever else bbolt refuses in an existing file (a bad magic
		// number or checksum, "file size too small" …) is in the file.
		return nil, fmt.Errorf("open %s: %w: %v", path, ErrDamaged, err)
	}
	err = guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			// A file cut short: its pages reach past its end, and reading
			// them would fault.
			if tx.Size() > fi.Size() {
				return fmt.Errorf("%w: the file is truncated: it holds %d bytes, its pages reach %d", ErrDamaged, fi.Size(), tx.Size())
			}
			for _, b := range o.buckets {
				if tx.Bucket(b) == nil {
					return fmt.Errorf("%w: it has no %q bucket", ErrDamaged, b)
				}
			}
			return nil
		})
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// notWritable names an error of opening path that is the file system's
// or the permissions' (a read-only mount, a file or directory this process
// may not write, an immutable file), not the file's: nil for any other.
// write says whether path was opened for writing.
func notWritable(path string, err error, write bool) error {
	why := err.Error()
	if errno := syscall.Errno(0); errors.As(err, &errno) {
		why = errno.Error()
	}
	switch {
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("open %s: %w: it is on a read-only file system; remount it read-write, or move the data directory to a writable one (commands that only read, such as pbem doctor, work as it is)", path, ErrNoAccess)
	case errors.Is(err, fs.ErrPermission): // EACCES, EPERM
		what := "read"
		if write {
			what = "write"
		}
		return fmt.Errorf("open %s: %w: permission denied (%s): this process (user %d) may not %s it; check the owner and mode of the file and of its directory, and that the file is not immutable (lsattr)", path, ErrNoAccess, why, os.Geteuid(), what)
	}
	return nil
}

// guard runs fn and turns a panic in it into an error wrapping
// ErrDamaged: bbolt panics on pages that do not parse, and a read of a
// mapping past the end of a truncated file faults (which SetPanicOnFault
// turns into a panic). A panic in a caller's callback (see caller) is not
// bbolt's and goes on.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if up, ok := p.(userPanic); ok {
				panic(up.v)
			}
			err = fmt.Errorf("%w: %v", ErrDamaged, p)
		}
	}()
	return fn()
}

// userPanic carries a panic raised by a caller's callback through guard.
type userPanic struct{ v any }

// A caller marks the caller's callback running (in), for its rethrow.
type caller struct{ in bool }

// rethrow, deferred around a loop calling a caller's callback inside a
// guarded transaction, marks a panic in the callback (c.in set while it
// runs) as the caller's, not a sign of a damaged file. One deferral for
// the whole loop: a replay calls its callback for every event.
func (c *caller) rethrow() {
	if c.in {
		if p := recover(); p != nil {
			panic(userPanic{p})
		}
	}
}

// view and update are db.View and db.Update under guard.
func (s *Store) view(fn func(tx *bolt.Tx) error) error {
	defer s.afterView()
	return guard(func() error { return s.db.View(fn) })
}

// update runs fn in a write transaction: the group committer's, shared
// with the appends and the other writes waiting (a snapshot, a mailbox
// checkpoint, the published markers would otherwise each take bbolt's
// write lock for a commit and two fsyncs of their own, between the
// group's commits). fn may run more than once, so it must recompute
// everything from tx; it returns once the transaction is durable.
func (s *Store) update(fn func(tx *bolt.Tx) error) error {
	if s.opts.ReadOnly || s.g == nil {
		return errReadOnly
	}
	j := &txJob{fn: fn, finished: make(chan struct{})}
	if !s.g.do(j) {
		return ErrClosed
	}
	<-j.finished
	return j.err
}

// txJob is one update, a job of the group committer.
type txJob struct {
	fn       func(tx *bolt.Tx) error
	err      error
	finished chan struct{}
}

func (j *txJob) apply(tx *bolt.Tx) error { j.err = nil; return j.fn(tx) }
func (j *txJob) fail(err error)          { j.err = err }
func (j *txJob) done()                   { close(j.finished) }

var errReadOnly = errors.New("the store is open read-only")

// Stats counts a file's commits and the requests they carried (their
// ratio is the group commit's average batch), the time spent committing
// (writing and fsyncing: one commit at a time, so Busy over the time
// elapsed is how much of it the file was committing), and for the event
// log the events appended.
type Stats struct {
	Commits, Requests, Events uint64
	Busy                      time.Duration
}

// commitCounts gathers a group committer's Stats.
type commitCounts struct {
	commits, requests atomic.Uint64
	busy              atomic.Int64
}

func (c *commitCounts) add(jobs int, took time.Duration) {
	c.commits.Add(1)
	c.requests.Add(uint64(jobs))
	c.busy.Add(int64(took))
}

func (c *commitCounts) stats() Stats {
	return Stats{Commits: c.commits.Load(), Requests: c.requests.Load(), Busy: time.Duration(c.busy.Load())}
}

// Sub returns the counts from o to s.
func (s Stats) Sub(o Stats) Stats {
	return Stats{Commits: s.Commits - o.Commits, Requests: s.Requests - o.Requests, Events: s.Events - o.Events, Busy: s.Busy - o.Busy}
}

// Stats returns the counts so far.
func (s *Store) Stats() Stats {
	st := s.counts.stats()
	st.Events = s.appended.Load()
	return st
}

// Path returns the file's path.
func (s *Store) Path() string { return s.db.Path() }

// Close finishes the appends already queued, then closes the file.
func (s *Store) Close() error {
	if s.g != nil {
		s.g.close()
	}
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
	err := s.view(func(tx *bolt.Tx) (err error) { h, err = head(tx, game); return })
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
	err := s.view(func(tx *bolt.Tx) error {
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
	var c caller
	return s.readRaw(game, from, true, &c, func(seq uint64, raw []byte) error {
		if err := d.DecodeView(raw, &env); err != nil {
			return fmt.Errorf("game %s seq %d: %w", game, seq, err)
		}
		c.in = true
		err := fn(&env)
		c.in = false
		return err
	})
}

// ReadRaw calls fn with the stored bytes of each event from seq from on.
// The bytes are valid only during the call.
func (s *Store) ReadRaw(game string, from uint64, fn func(seq uint64, raw []byte) error) error {
	var c caller
	return s.readRaw(game, from, false, &c, func(seq uint64, raw []byte) error {
		c.in = true
		err := fn(seq, raw)
		c.in = false
		return err
	})
}

// readRaw reads as ReadRaw, with c marking the caller's callback running
// and ahead as readRaw's.
func (s *Store) readRaw(game string, from uint64, ahead bool, c *caller, fn func(seq uint64, raw []byte) error) error {
	if from == 0 {
		from = 1
	}
	return s.view(func(tx *bolt.Tx) error {
		defer c.rethrow()
		return readRaw(tx, game, from, ahead, fn)
	})
}

// readRaw is ReadRaw within the transaction tx. With ahead, for a reader
// that looks at the head of each event and skips the rest (Read's
// decoders), it asks for the next event's memory while fn works
// (prefetchAfter); a reader of every byte (Verify's hashing, ReadRaw's
// callers) needs no help, and ReadRaw stays the plain cursor scan the
// replay's baseline measures.
func readRaw(tx *bolt.Tx, game string, from uint64, ahead bool, fn func(seq uint64, raw []byte) error) error {
	b := tx.Bucket(bLog).Bucket([]byte(game))
	if b == nil {
		return fmt.Errorf("game %s: %w", game, ErrNoGame)
	}
	c := b.Cursor()
	for k, v := c.Seek(seqKey(from)); k != nil && isSeqKey(k); k, v = c.Next() {
		if ahead {
			prefetchAfter(v)
		}
		if err := fn(binary.BigEndian.Uint64(k), v); err != nil {
			return err
		}
	}
	return nil
}

// prefetchAfter asks for the memory just past v while fn reads v: a page
// of the log holds its events' keys and values one after another, so
// that is the next event's key and the head of its value, where the
// cursor's next step and the decoder first read (three cache lines: the
// key, the hashes, the rest of the head and the start of the payload).
// Fetched only when read, they cost a tenth of a replay: a decoder
// touches each event's head and skips the rest, too far apart for the
// hardware to see a stream. (Past the last event of a page this fetches
// lines no one reads; a prefetch never faults.)
func prefetchAfter(v []byte) {
	if len(v) > 0 {
		// One call a line: measured, a call for all three cost more.
		next := uintptr(unsafe.Pointer(unsafe.SliceData(v))) + uintptr(len(v))
		prefetch(next)
		prefetch(next + 64)
		prefetch(next + 128)
	}
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
	err := s.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bLog).Bucket([]byte(game)); b != nil {
			from, marked := indexedThrough(b, 0)
			var err error
			if seq, _, ok, _, err = findKeys(b, []string{key}, from, marked, nil, nil); err != nil {
				return fmt.Errorf("look up a key of game %s: %w", game, err)
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
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		if stored, err = head(tx, game); err != nil {
			return err
		}
		return readRaw(tx, game, 1, false, func(seq uint64, raw []byte) error {
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
