package store

import (
	"time"

	bolt "go.etcd.io/bbolt"
)

// The store releases the file's pages it has mapped (see release) once
// the process holds more than Options.MappedLimit of files' pages
// resident, looking after every releaseEvery read transactions and not
// sooner than releaseAfter since it last looked: a process loading games
// as fast as it can holds a bounded part of the file, and one rereading a
// working set smaller than the limit keeps it mapped (a page mapped again
// after a release costs a minor fault, several times the cost of reading
// it).
const (
	releaseEvery = 256
	releaseAfter = 100 * time.Millisecond
)

// afterView counts a read transaction and, every releaseEvery of them,
// releases the file's mapped pages if releaseAfter passed since the last
// look and the process's file pages are over the limit.
func (s *Store) afterView() {
	if s.opts.MappedLimit < 0 || s.views.Add(1)%releaseEvery != 0 {
		return
	}
	now, last := time.Now().UnixNano(), s.released.Load()
	if now-last >= int64(releaseAfter) && s.released.CompareAndSwap(last, now) && fileResident() > s.opts.MappedLimit {
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
