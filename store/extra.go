package store

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// PutSnapshot stores a snapshot of game's state as of seq, keeping the
// newest SnapshotsKept.
func (s *Store) PutSnapshot(game string, seq uint64, data []byte) error {
	err := s.update(func(tx *bolt.Tx) error {
		b, err := tx.Bucket(bSnap).CreateBucketIfNotExists([]byte(game))
		if err != nil {
			return err
		}
		if err := b.Put(seqKey(seq), data); err != nil {
			return err
		}
		// Drop the oldest beyond the number kept.
		n := 0
		c := b.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			n++
		}
		// Delete from the front; re-seek each time, as a cursor's Next after Delete may skip.
		for ; n > s.opts.SnapshotsKept; n-- {
			if k, _ := c.First(); k == nil {
				break
			}
			if err := c.Delete(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("snapshot %s@%d: %w", game, seq, err)
	}
	return nil
}

// Snapshot returns the newest snapshot of game taken at or before seq
// (0: the newest of all). ok is false when there is none.
func (s *Store) Snapshot(game string, atOrBefore uint64) (seq uint64, data []byte, ok bool, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bSnap).Bucket([]byte(game))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		var k, v []byte
		if atOrBefore == 0 {
			k, v = c.Last()
		} else {
			k, v = c.Seek(seqKey(atOrBefore))
			if k == nil || binary.BigEndian.Uint64(k) > atOrBefore {
				k, v = c.Prev()
			}
		}
		if k == nil {
			return nil
		}
		seq, data, ok = binary.BigEndian.Uint64(k), append([]byte(nil), v...), true
		return nil
	})
	return
}

// SetPublished records that game's events up to seq were published on the
// bus. The marker only moves forward.
func (s *Store) SetPublished(marks map[string]uint64) error {
	return s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bPub)
		for game, seq := range marks { // order does not matter: independent keys
			if v := b.Get([]byte(game)); v != nil && binary.BigEndian.Uint64(v) >= seq {
				continue
			}
			if err := b.Put([]byte(game), seqKey(seq)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Secret returns game's dice seed.
func (s *Store) Secret(game string) ([]byte, error) {
	var seed []byte
	err := s.view(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bSecret).Get([]byte(game)); v != nil {
			seed = append([]byte(nil), v...)
		}
		return nil
	})
	if err == nil && seed == nil {
		err = fmt.Errorf("game %s: no dice seed stored", game)
	}
	return seed, err
}
