//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// precheck runs checkShape on the file at path under a shared lock
// (so no writer is halfway through a page meanwhile), waiting for the
// lock as bbolt would.
func precheck(path string, timeout time.Duration) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // bbolt will say what is wrong
	}
	defer f.Close() // releases the lock too
	for deadline := time.Now().Add(timeout); ; time.Sleep(20 * time.Millisecond) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("open %s: %w", path, ErrLocked)
		}
	}
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	// Under guard: a file cut short while it is walked faults, and the
	// fault becomes an error.
	if err := guard(func() error { return checkShape(f, fi.Size()) }); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	return nil
}
