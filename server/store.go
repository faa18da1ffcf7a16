package server

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"pbem/store"
)

// Access is what a command may do with the data directory's store.
type Access int

const (
	// ReadStore: open read-only; the store must exist.
	ReadStore Access = iota
	// WriteStore: open to append; the store must exist.
	WriteStore
	// StartStore: open to append, making the store if the data directory
	// is new (serve, new).
	StartStore
)

// MailhostFile is the built-in mail host's file in a data directory.
// Files of a data directory besides pbem.db: their presence says the
// directory is not new, so a missing pbem.db was lost, not never made.
const MailhostFile = "mailhost.db"

// DBPath is the store's file in the data directory dir.
func DBPath(dir string) string { return filepath.Join(dir, "pbem.db") }

// OpenStore opens the store of the data directory dir for acc (its
// quarantine capped at quarantineMB MiB). Its errors say what is wrong
// in the operator's terms: no store yet, a server holding it, a damaged
// file (and how to examine it).
func OpenStore(dir string, acc Access, quarantineMB int, lg *slog.Logger) (*store.Store, error) {
	path := DBPath(dir)
	opts := store.Options{LockTimeout: time.Second, Logger: lg, ReadOnly: acc == ReadStore, MustExist: true,
		QuarantineBytes: int64(quarantineMB) << 20}
	if acc == StartStore {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("data directory: %w", err)
		}
		lost, err := storeLost(dir)
		if err != nil {
			return nil, err
		}
		if lost != "" {
			return nil, fmt.Errorf("%s is missing, but %s holds %s from an earlier run: pbem.db was moved or lost; restore it from a backup (pbem makes a new one only in a new data directory)", path, dir, lost)
		}
		opts.MustExist = false
	}
	st, err := store.Open(path, opts)
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, store.ErrMissing):
		return nil, fmt.Errorf("no pbem.db in %s: there are no games here yet (create one with 'pbem new', or name the data directory with --data-dir)", dir)
	case errors.Is(err, store.ErrLocked):
		return nil, fmt.Errorf("%s is held by another process, but no 'pbem serve' answers on %s: wait for it to finish, or stop it", path, SocketPath(dir))
	case errors.Is(err, store.ErrDamaged):
		return nil, fmt.Errorf("%w\n'pbem doctor' examines the file; keep a copy of it before anything else", err)
	}
	return nil, err
}

// storeLost returns the name of another pbem file in the data directory
// when pbem.db is missing from it ("" when pbem.db is there or the
// directory is new).
func storeLost(dir string) (string, error) {
	if _, err := os.Stat(DBPath(dir)); err == nil || !errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if _, err := os.Stat(filepath.Join(dir, MailhostFile)); err == nil {
		return MailhostFile, nil
	}
	return "", nil
}
