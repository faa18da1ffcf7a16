package store

import (
	"time"

	bolt "go.etcd.io/bbolt"
)

// The store releases the file's pages it has mapped (see release) after
// releaseEvery read transactions, and not sooner than releaseAfter since
// the last release: a process loading games as fast as it can maps a
// few tens of megabytes of the file between two releases, and one
// reading the same pages over and over maps them again a few times a
// second at most (a minor fault each, from the page cache).
const (
	releaseEvery = 256
	releaseAfter = 100 * time.Millisecond
)

// afterView counts a read transaction and, every releaseEvery of them,
// releases the file's mapped pages if releaseAfter passed since the last
// release.
func (s *Store) afterView() {
	if s.views.Add(1)%releaseEvery != 0 {
		return
	}
	now, last := time.Now().UnixNano(), s.released.Load()
	if now-last >= int64(releaseAfter) && s.released.CompareAndSwap(last, now) {
		s.release()
	}
}

// release lets go of the file's pages that reads mapped into this
// process. Every page a read touches stays in the process's resident set
// until then (with its neighbours, which the kernel maps around a fault):
// loading ten thousand games touched a gigabyte of a file that holds a
// tenth of it in their current snapshots and tails. The pages stay in the
// page cache, shared and reclaimable, and the next read maps them again,
// so the resident set holds what the process uses, not what it once read.
// It runs inside a read transaction, so bbolt cannot remap the file under
// it; a failure only leaves the pages mapped.
func (s *Store) release() {
	err := s.db.View(func(tx *bolt.Tx) error {
		return dropMapped(s.db.Info().Data, int(tx.Size()))
	})
	if err != nil {
		s.log.Debug("releasing mapped pages", "err", err)
	}
}
