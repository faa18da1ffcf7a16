//go:build !unix

package store

import (
	"errors"
	"io"
)

// mapFile is not had here: walkTrees reads instead.
func mapFile(io.ReaderAt, int64) ([]byte, func(), error) {
	return nil, nil, errors.New("no mapping")
}
