package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// A new file is made whole or not at all. bbolt makes a file in two steps
// (its meta pages when it opens an empty file, the buckets in a first
// transaction), and a kill between them would leave a sound but empty
// file that every later open refuses as damaged. So createFile builds the
// file under a temporary name beside it (base + creatingInfix + random),
// with its buckets, fsyncs it, links it to its name (never over a file
// that is there) and fsyncs the directory: a kill at any moment leaves
// either no file at path or a whole one. A temporary file a killed
// creation left is removed by the next writer that opens the file.
const creatingInfix = ".creating-"

// createAttempts bounds how often createFile starts over when its
// temporary file was removed under it (another process's clean-up taking
// it for a leftover in the instant before bbolt locked it).
const createAttempts = 3

// createFile makes the file at path as o says (its buckets, then o.setup
// in the same transaction). It returns nil too when another process made
// the file first: path is there either way, for openFile to open.
func createFile(path string, o fileOptions) error {
	var err error
	for range createAttempts {
		if err = createOnce(path, o); !errors.Is(err, errTempGone) {
			break
		}
	}
	return err
}

var errTempGone = errors.New("its temporary file was removed while it was being made")

func createOnce(path string, o fileOptions) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, base+creatingInfix+"*")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	tmp := f.Name()
	f.Close()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	var db *bolt.DB
	err = guard(func() error {
		var err error
		if db, err = bolt.Open(tmp, 0o600, &bolt.Options{Timeout: o.lockTimeout}); err != nil {
			return err
		}
		return db.Update(func(tx *bolt.Tx) error {
			for _, b := range o.buckets {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			if o.setup != nil {
				return o.setup(tx)
			}
			return nil
		})
	})
	if err != nil {
		if db != nil {
			db.Close()
		}
		return fmt.Errorf("create %s: %w", path, err)
	}
	// bbolt's lock on tmp is held until the end, so no other process's
	// clean-up removes it meanwhile.
	defer db.Close()
	// bbolt fdatasyncs each write; an fsync of the whole file besides, so
	// that its size and pages are on disk before it has its name.
	if err := syncFile(tmp); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	switch err := os.Link(tmp, path); {
	case err == nil:
	case errors.Is(err, fs.ErrExist):
		// Another process made it first: open that one.
		return os.Remove(tmp)
	case errors.Is(err, fs.ErrNotExist):
		return errTempGone
	default:
		// A file system without hard links: rename, after a last look
		// that no file has appeared (a race with another creator here
		// is a lesser evil than no file at all).
		if _, serr := os.Lstat(path); serr == nil {
			return os.Remove(tmp)
		}
		if rerr := os.Rename(tmp, path); rerr != nil {
			return fmt.Errorf("create %s: %w", path, rerr)
		}
	}
	os.Remove(tmp)
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("create %s: the directory: %w", path, err)
	}
	return nil
}

func syncFile(name string) error {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// removeLeftovers removes the temporary files killed creations of path
// left beside it: those no process holds locked (a creation under way
// holds its file's lock until it is done).
func removeLeftovers(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), base+creatingInfix) || !e.Type().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		if tryLock(f) {
			os.Remove(name)
		}
		f.Close()
	}
}
