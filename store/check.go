package store

import (
	"encoding/binary"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"pbem/events"
)

// maxProblems bounds the problems Check lists: past that many the file is
// beyond repair by hand anyway.
const maxProblems = 100

// Check examines the whole file: bbolt's own consistency check of every
// page, then every game's head, hash chain and idempotency keys, every
// snapshot key, checkpoint and quarantine record. It returns the problems
// found (none: the file is sound), up to maxProblems; err is for a file
// that could not be read at all.
func (s *Store) Check() (problems []string, err error) {
	err = checkFile(s.db, s.opts.ReadOnly, func(tx *bolt.Tx, add func(string, ...any)) {
		checkLogs(tx, add)
	})
	return problemsOf(err)
}

// problemsOf splits checkFile's result into the problems and an error
// that stopped the check.
func problemsOf(err error) ([]string, error) {
	if ps, ok := err.(problemList); ok {
		return ps, nil
	}
	return nil, err
}

type problemList []string

func (p problemList) Error() string { return fmt.Sprintf("%d problems", len(p)) }

// checkFile runs bbolt's page check and then more (a file's own checks)
// in one transaction, and returns the problems as a problemList (nil if
// there are none). A writable store checks inside a write transaction
// (bbolt's check is not safe in a read transaction beside a writer) that
// it rolls back.
func checkFile(db *bolt.DB, readOnly bool, more func(tx *bolt.Tx, add func(string, ...any))) error {
	var ps problemList
	add := func(format string, a ...any) {
		if len(ps) < maxProblems {
			ps = append(ps, fmt.Sprintf(format, a...))
		}
	}
	err := guard(func() error {
		tx, err := db.Begin(!readOnly)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		// bbolt's check runs on a goroutine of its own, where a fault on a
		// garbled page would kill the process: first walk every page here,
		// under guard, and run it only on a file that walks cleanly.
		if err := walk(tx); err != nil {
			add("pages: %v", err)
			return nil
		}
		for err := range tx.Check() {
			// bbolt reports an assertion its check tripped over as a
			// recovered "panic: …": it is a finding, nothing crashed.
			add("pages: %s", strings.TrimPrefix(err.Error(), "panic: "))
		}
		if len(ps) > 0 {
			// Reading on through broken pages would only fault.
			return nil
		}
		more(tx, add)
		return nil
	})
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// checkLogs checks what the event log's buckets hold.
func checkLogs(tx *bolt.Tx, add func(string, ...any)) {
	for _, b := range topBuckets {
		if tx.Bucket(b) == nil {
			add("the %q bucket is missing", b)
			return
		}
	}
	logs := tx.Bucket(bLog)
	tx.Bucket(bMeta).ForEach(func(k, v []byte) error {
		game := string(k)
		h, err := decodeHead(v)
		if err != nil {
			add("game %s: its head: %v", game, err)
			return nil
		}
		lb := logs.Bucket(k)
		if lb == nil {
			add("game %s: the head says %d events, but there is no log", game, h.Seq)
			return nil
		}
		ver := events.Verifier{Game: game}
		var last events.Hash
		broken := false
		lb.ForEach(func(k, v []byte) error {
			switch {
			case isSeqKey(k):
				if broken {
					return nil
				}
				seq := binary.BigEndian.Uint64(k)
				env, err := events.UnmarshalView(v)
				if err != nil {
					add("game %s seq %d: %v", game, seq, err)
					broken = true
					return nil
				}
				if env.Seq != seq {
					add("game %s: the event stored under seq %d says seq %d", game, seq, env.Seq)
					broken = true
					return nil
				}
				if err := ver.Next(&env); err != nil {
					add("%v", err)
					broken = true
				}
				last = env.Hash
			case string(k) == string(indexedKey):
				if len(v) != 8 || binary.BigEndian.Uint64(v) > h.Seq {
					add("game %s: its keys are said to be indexed through event %x, past its head %d", game, v, h.Seq)
				}
			case len(k) > 0 && k[0] == idemPrefix:
				if len(v) != 8 || binary.BigEndian.Uint64(v) == 0 || binary.BigEndian.Uint64(v) > h.Seq {
					add("game %s: idempotency key %q points at no event", game, k[1:])
				}
			default:
				add("game %s: a key that is neither an event nor an idempotency key: %x", game, k)
			}
			return nil
		})
		if !broken && ver.Seq() != h.Seq {
			add("game %s: the head says %d events, the log holds %d", game, h.Seq, ver.Seq())
		}
		if ver.Seq() > 0 && !broken && ver.Seq() == h.Seq && last != h.Hash {
			add("game %s: the head's hash is not the last event's", game)
		}
		return nil
	})
	logs.ForEach(func(k, v []byte) error {
		if v == nil && tx.Bucket(bMeta).Get(k) == nil {
			add("game %s: a log without a head", k)
		}
		return nil
	})
	tx.Bucket(bSnap).ForEach(func(k, _ []byte) error {
		if b := tx.Bucket(bSnap).Bucket(k); b != nil {
			b.ForEach(func(sk, _ []byte) error {
				if len(sk) != 8 {
					add("game %s: a snapshot under a bad key %x", k, sk)
				}
				return nil
			})
		}
		return nil
	})
	tx.Bucket(bCkpt).ForEach(func(k, v []byte) error {
		if len(v) != 8 {
			add("mailbox %s: a checkpoint of %d bytes, not 8", k, len(v))
		}
		return nil
	})
	tx.Bucket(bQuar).ForEach(func(k, v []byte) error {
		if _, err := decodeQuarantined(string(k), v); err != nil {
			add("quarantine record %s: %v", k, err)
		}
		return nil
	})
}

// walk reads every bucket, key and value of tx (the first and last byte
// of each value, which reaches every page of a long one), returning the
// error a damaged page gives.
func walk(tx *bolt.Tx) error {
	return guard(func() error {
		var sum byte
		var visit func(b *bolt.Bucket) error
		visit = func(b *bolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				if v == nil {
					nb := b.Bucket(k)
					if nb == nil {
						return fmt.Errorf("%w: key %x is neither a value nor a bucket", ErrDamaged, k)
					}
					return visit(nb)
				}
				if len(v) > 0 {
					sum ^= v[0] ^ v[len(v)-1]
				}
				return nil
			})
		}
		err := tx.ForEach(func(name []byte, b *bolt.Bucket) error { return visit(b) })
		_ = sum
		return err
	})
}
