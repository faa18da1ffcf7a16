//go:build !amd64

package store

// prefetch does nothing where pbem has no prefetch instruction for it.
func prefetch(uintptr) {}
