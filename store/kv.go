package store

import (
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// KV is a small transactional key-value file for what pbem keeps durably
// beside its event log (the built-in mail host's mailboxes): nested
// buckets of keys and values, writes group-committed and fsynced like
// the log's appends, and the same protections — no panic on a damaged
// file, no file made by a reader.
type KV struct {
	counts   commitCounts
	db       *bolt.DB
	g        *group // nil when read-only
	readOnly bool
}

// KVOptions say how to open a KV file.
type KVOptions struct {
	// MustExist refuses to make a new file (ErrMissing).
	MustExist bool
	// ReadOnly opens for reading only, under a shared lock.
	ReadOnly bool
	// LockTimeout for the file lock (default 2s).
	LockTimeout time.Duration
	// Buckets are the top-level buckets: made in a new file, and required
	// in an existing one (a file without them is damaged).
	Buckets []string
	// MaxBatch bounds the writes per transaction (default 256).
	MaxBatch int
}

// OpenKV opens the KV file at path.
func OpenKV(path string, opts KVOptions) (*KV, error) {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = 2 * time.Second
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 256
	}
	var buckets [][]byte
	for _, b := range opts.Buckets {
		buckets = append(buckets, []byte(b))
	}
	db, err := openFile(path, fileOptions{create: !opts.MustExist, readOnly: opts.ReadOnly, lockTimeout: opts.LockTimeout, buckets: buckets})
	if err != nil {
		return nil, err
	}
	k := &KV{db: db, readOnly: opts.ReadOnly}
	if !opts.ReadOnly {
		k.g = newGroup(db, opts.MaxBatch, k.counts.add)
	}
	return k, nil
}

// Path returns the file's path.
func (k *KV) Path() string { return k.db.Path() }

// Stats returns the file's commits so far (Events is not counted).
func (k *KV) Stats() Stats { return k.counts.stats() }

// Close finishes the writes already queued, then closes the file.
func (k *KV) Close() error {
	if k.g != nil {
		k.g.close()
	}
	return k.db.Close()
}

// Do queues fn to run in a transaction shared with other writes, and
// calls then with the outcome once the transaction is durable (or has
// failed, and nothing of fn is written). fn may run more than once: it
// must recompute everything from the transaction. then is called on the
// committing goroutine, in the order the writes were queued: it must be
// quick and must not wait for another write of k.
func (k *KV) Do(fn func(*KVTx) error, then func(error)) {
	if k.g == nil {
		then(fmt.Errorf("%s: %w", k.db.Path(), errReadOnly))
		return
	}
	if !k.g.do(&kvJob{fn: fn, then: then}) {
		then(ErrClosed)
	}
}

// Update runs fn in a durable transaction and returns once it is
// committed or has failed.
func (k *KV) Update(fn func(*KVTx) error) error {
	done := make(chan error, 1)
	k.Do(fn, func(err error) { done <- err })
	return <-done
}

// View runs fn in a read transaction. Slices fn gets are valid only
// during the call.
func (k *KV) View(fn func(*KVTx) error) error {
	return guard(func() error { return k.db.View(func(tx *bolt.Tx) error { return fn(&KVTx{tx}) }) })
}

// Check runs bbolt's consistency check of every page and returns the
// problems found (none: the file is sound).
func (k *KV) Check() ([]string, error) {
	return problemsOf(checkFile(k.db, k.readOnly, func(*bolt.Tx, func(string, ...any)) {}))
}

type kvJob struct {
	fn   func(*KVTx) error
	then func(error)
	err  error
}

func (j *kvJob) apply(tx *bolt.Tx) error { j.err = nil; return j.fn(&KVTx{tx}) }
func (j *kvJob) fail(err error)          { j.err = err }
func (j *kvJob) done()                   { j.then(j.err) }

// KVTx is a transaction of a KV file.
type KVTx struct{ tx *bolt.Tx }

// Bucket returns the bucket at path (nil if it does not exist).
func (t *KVTx) Bucket(path ...string) *KVBucket {
	if len(path) == 0 {
		return nil
	}
	b := t.tx.Bucket([]byte(path[0]))
	for _, name := range path[1:] {
		if b == nil {
			return nil
		}
		b = b.Bucket([]byte(name))
	}
	if b == nil {
		return nil
	}
	return &KVBucket{b}
}

// CreateBucket returns the bucket at path, making it and its parents as
// needed.
func (t *KVTx) CreateBucket(path ...string) (*KVBucket, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("create bucket: no name")
	}
	b, err := t.tx.CreateBucketIfNotExists([]byte(path[0]))
	for _, name := range path[1:] {
		if err != nil {
			break
		}
		b, err = b.CreateBucketIfNotExists([]byte(name))
	}
	if err != nil {
		return nil, fmt.Errorf("create bucket %s: %w", strings.Join(path, "/"), err)
	}
	return &KVBucket{b}, nil
}

// KVBucket is a bucket of a KV transaction.
type KVBucket struct{ b *bolt.Bucket }

// Get returns key's value (nil if absent), valid during the transaction.
func (b *KVBucket) Get(key []byte) []byte { return b.b.Get(key) }

// Put sets key to value.
func (b *KVBucket) Put(key, value []byte) error { return b.b.Put(key, value) }

// Delete removes key.
func (b *KVBucket) Delete(key []byte) error { return b.b.Delete(key) }

// ForEach calls fn for each key that holds a value (not a bucket), in
// key order.
func (b *KVBucket) ForEach(fn func(k, v []byte) error) error {
	return b.b.ForEach(func(k, v []byte) error {
		if v == nil {
			return nil
		}
		return fn(k, v)
	})
}

// Buckets calls fn for each nested bucket, in name order.
func (b *KVBucket) Buckets(fn func(name string, nb *KVBucket) error) error {
	return b.b.ForEachBucket(func(k []byte) error { return fn(string(k), &KVBucket{b.b.Bucket(k)}) })
}

// Bucket returns the nested bucket name (nil if absent).
func (b *KVBucket) Bucket(name string) *KVBucket {
	nb := b.b.Bucket([]byte(name))
	if nb == nil {
		return nil
	}
	return &KVBucket{nb}
}

// CreateBucket returns the nested bucket name, making it if needed.
func (b *KVBucket) CreateBucket(name string) (*KVBucket, error) {
	nb, err := b.b.CreateBucketIfNotExists([]byte(name))
	if err != nil {
		return nil, fmt.Errorf("create bucket %s: %w", name, err)
	}
	return &KVBucket{nb}, nil
}

// DeleteBucket removes the nested bucket name and all it holds.
func (b *KVBucket) DeleteBucket(name string) error { return b.b.DeleteBucket([]byte(name)) }
