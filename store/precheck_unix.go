//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockShared takes a shared lock on f, waiting for a writer's lock as
// bbolt would (ok false: no lock to be had on this file; go on without).
// Closing f releases it.
func lockShared(f *os.File, timeout time.Duration) (ok bool, err error) {
	for deadline := time.Now().Add(timeout); ; time.Sleep(20 * time.Millisecond) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case time.Now().After(deadline):
			return false, ErrLocked
		}
	}
}
