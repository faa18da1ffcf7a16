//go:build !unix

package store

import (
	"os"
	"time"
)

// lockShared has no lock to take here: the check goes on without.
func lockShared(*os.File, time.Duration) (bool, error) { return false, nil }

// tryLock cannot tell a leftover from a file in use here: leftovers stay
// (they are never opened as a store).
func tryLock(*os.File) bool { return false }

// syncDir has no directory to fsync here.
func syncDir(string) error { return nil }
