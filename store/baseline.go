package store

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// RawFile is bare bbolt with none of the store's work, for the baselines
// pbem bench measures the store against (bbolt stays inside this
// package).
type RawFile struct {
	db      *bolt.DB
	lastTx  int // the transaction BatchPut last ran in
	commits int // BatchPut's transactions
}

// OpenRaw creates or opens a bare bbolt file whose Batch shares a
// transaction among up to maxBatch callers (0: bbolt's default, 1000
// callers and a 10 ms delay).
func OpenRaw(path string, maxBatch int) (*RawFile, error) {
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if maxBatch > 0 {
		db.MaxBatchSize = maxBatch
	}
	return &RawFile{db: db}, nil
}

// BatchPut stores v under seq (8 bytes, big endian) in bucket, through
// bbolt's Batch: durable when it returns.
func (f *RawFile) BatchPut(bucket []byte, seq uint64, v []byte) error {
	return f.db.Batch(func(tx *bolt.Tx) error {
		// Batch runs its callers one after the other, in one transaction.
		if tx.ID() != f.lastTx {
			f.lastTx = tx.ID()
			f.commits++
		}
		return putSeq(tx, bucket, seq, v)
	})
}

// Put stores v under seq (8 bytes, big endian) in bucket in a
// transaction of its own: one commit, durable when it returns.
func (f *RawFile) Put(bucket []byte, seq uint64, v []byte) error {
	return f.db.Update(func(tx *bolt.Tx) error { return putSeq(tx, bucket, seq, v) })
}

// putSeq stores v under seq (8 bytes, big endian) in bucket, made if
// need be.
func putSeq(tx *bolt.Tx, bucket []byte, seq uint64, v []byte) error {
	b, err := tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	return b.Put(k[:], v)
}

// Commits returns BatchPut's transactions so far, once no BatchPut
// runs.
func (f *RawFile) Commits() int { return f.commits }

// Close closes the file.
func (f *RawFile) Close() error { return f.db.Close() }

// Keys counts the keys of a top-level bucket with a bare cursor.
func (f *RawFile) Keys(bucket []byte) (int, error) {
	n := 0
	err := f.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if b == nil {
			return fmt.Errorf("no bucket %q", bucket)
		}
		c := b.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			n++
		}
		return nil
	})
	return n, err
}
