package store

import "syscall"

// dropPages lets go of the pages of a read-only file mapping this process
// has touched (they stay in the page cache, and a later read maps them
// again), so a walk over a large file does not hold it all in the
// process's resident set.
func dropPages(data []byte) { syscall.Madvise(data, syscall.MADV_DONTNEED) }

// dropMapped is dropPages for n bytes mapped at addr (bbolt's own mapping
// of the store, which it gives as an address).
func dropMapped(addr uintptr, n int) error {
	if n <= 0 {
		return nil
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(n), syscall.MADV_DONTNEED); errno != 0 {
		return errno
	}
	return nil
}
