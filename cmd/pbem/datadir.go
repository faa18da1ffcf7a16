package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"pbem/store"
)

// access is what a command may do with the data directory's store.
type access int

const (
	// readStore: open read-only; the store must exist.
	readStore access = iota
	// writeStore: open to append; the store must exist.
	writeStore
	// startStore: open to append, making the store if the data directory
	// is new (serve, new).
	startStore
)

// Files of a data directory besides pbem.db: their presence says the
// directory is not new, so a missing pbem.db was lost, not never made.
const mailhostFile = "mailhost.db"

// openStore opens the data directory's store for acc. Its errors say what
// is wrong in the operator's terms: no store yet, a server holding it, a
// damaged file (and how to examine it).
func (a *app) openStore(acc access) (*store.Store, error) {
	path := a.dbPath()
	opts := store.Options{LockTimeout: time.Second, Logger: a.lg, ReadOnly: acc == readStore, MustExist: true,
		QuarantineBytes: int64(a.cfg.Mail.QuarantineMB) << 20}
	if acc == startStore {
		if err := os.MkdirAll(a.cfg.DataDir, 0o700); err != nil {
			return nil, fmt.Errorf("data directory: %w", err)
		}
		lost, err := a.storeLost()
		if err != nil {
			return nil, err
		}
		if lost != "" {
			return nil, fmt.Errorf("%s is missing, but %s holds %s from an earlier run: pbem.db was moved or lost; restore it from a backup (pbem makes a new one only in a new data directory)", path, a.cfg.DataDir, lost)
		}
		opts.MustExist = false
	}
	st, err := store.Open(path, opts)
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, store.ErrMissing):
		return nil, fmt.Errorf("no pbem.db in %s: there are no games here yet (create one with 'pbem new', or name the data directory with --data-dir)", a.cfg.DataDir)
	case errors.Is(err, store.ErrLocked):
		return nil, fmt.Errorf("%s is held by another process, but no 'pbem serve' answers on %s: wait for it to finish, or stop it", path, a.socketPath())
	case errors.Is(err, store.ErrDamaged):
		return nil, fmt.Errorf("%w\n'pbem doctor' examines the file; keep a copy of it before anything else", err)
	}
	return nil, err
}

// storeLost returns the name of another pbem file in the data directory
// when pbem.db is missing from it ("" when pbem.db is there or the
// directory is new).
func (a *app) storeLost() (string, error) {
	if _, err := os.Stat(a.dbPath()); err == nil || !errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if _, err := os.Stat(filepath.Join(a.cfg.DataDir, mailhostFile)); err == nil {
		return mailhostFile, nil
	}
	return "", nil
}

// open returns the event log for the running command, opening the store
// on first use with the command's access.
func (a *app) open() (logStore, error) {
	if a.log != nil {
		return a.log, nil
	}
	st, err := a.openStore(a.access)
	if err != nil {
		return nil, err
	}
	a.log, a.closeFn = st, st.Close
	return st, nil
}
