package store

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

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

// fileResident is how much of files this process holds resident through
// its mappings (statm's shared pages: the store's mapping, the
// executable's), -1 if it cannot tell.
func fileResident() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return -1
	}
	pages, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
}
