//go:build unix

package store

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// mapFile maps r (an *os.File) read-only, for walkTrees.
func mapFile(r io.ReaderAt, size int64) ([]byte, func(), error) {
	f, ok := r.(*os.File)
	if !ok || size <= 0 || size != int64(int(size)) {
		return nil, nil, errors.New("not a mappable file")
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
