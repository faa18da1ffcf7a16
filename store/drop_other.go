//go:build !linux

package store

// dropPages does nothing here: the walk's mapping stays resident until it
// is unmapped.
func dropPages([]byte) {}

func dropMapped(uintptr, int) error { return nil }

func fileResident() int64 { return -1 }
