//go:build !unix

package store

import (
	"fmt"
	"os"
	"time"
)

// precheck runs checkShape on the file at path (without a lock where
// flock is not to be had).
func precheck(path string, _ time.Duration) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
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
