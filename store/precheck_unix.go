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

// tryLock takes f's exclusive lock if no process holds a lock on it
// (closing f releases it).
func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// syncDir fsyncs the directory dir, so that the names made and removed in
// it are on disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
