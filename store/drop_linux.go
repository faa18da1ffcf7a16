package store

import "syscall"

// dropPages lets go of the pages of a read-only file mapping this process
// has touched (they stay in the page cache, and a later read maps them
// again), so a walk over a large file does not hold it all in the
// process's resident set.
func dropPages(data []byte) { syscall.Madvise(data, syscall.MADV_DONTNEED) }
