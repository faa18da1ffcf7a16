package store

// prefetch asks the CPU to bring in the cache line at addr (PREFETCHT0):
// a hint that never faults, whatever addr is, and that waits for nothing.
//
//go:noescape
func prefetch(addr uintptr)
