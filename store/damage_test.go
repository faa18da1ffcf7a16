package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pbem/events"
	"pbem/internal/damagetest"
)

// goodFile writes a store with a few games, snapshots, a checkpoint and a
// quarantined mail, and returns its bytes.
func goodFile(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pbem.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 6; g++ {
		id := fmt.Sprintf("g%d", g)
		for i := 0; i < 40; i++ {
			req := Request{Game: id, Expected: uint64(i), Events: []events.Envelope{order(id, fmt.Sprintf("<%s-%d>", id, i), fmt.Sprintf("MARCH %d with a longer text to fill pages %0100d", i, i))}}
			if i == 0 {
				req.Secret = []byte("seed of " + id)
			}
			if _, err := s.Do(req); err != nil {
				t.Fatal(err)
			}
		}
		s.PutSnapshot(id, 20, []byte("snapshot"))
	}
	s.Quarantine(Quarantined{At: time.Unix(1, 0), Mailbox: "INBOX", UID: 3, From: "x@y", Reason: "unknown sender", Raw: []byte("raw")}, Checkpoint{1, 3})
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exercise calls every read (and, unless read-only, a write) of s; the
// test fails by panicking if any of them panics.
func exercise(s *Store) {
	gs, _ := s.Games()
	gs = append(gs, GameInfo{Game: "g1"}, GameInfo{Game: "g5"})
	for _, g := range gs {
		s.Head(g.Game)
		s.Read(g.Game, 1, func(*events.Envelope) error { return nil })
		s.Verify(g.Game)
		s.Snapshot(g.Game, 0)
		s.Secret(g.Game)
		s.Lookup(g.Game, "<g1-3>")
		s.Raw(g.Game, 1)
	}
	s.QuarantineList()
	s.Checkpoint("INBOX")
	s.Check()
	if !s.opts.ReadOnly {
		s.Append("g1", 40, order("g1", "", "after the damage"))
		s.PutSnapshot("g2", 41, []byte("x"))
		s.ServerSecret("reply", func() ([]byte, error) { return []byte("k"), nil })
	}
}

// A damaged file gives errors, never a panic: bbolt's panics and the
// faults of reading a truncated mapping stop at the store's boundary.
// Where it opens, Check names a problem (or the damage hit nothing that
// matters, such as free space).
func TestDamagedFilesGiveErrorsNeverPanics(t *testing.T) {
	good := goodFile(t)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	cases := damagetest.Of(good, rng)
	dir := t.TempDir()
	var refused, opened, flagged int
	for i, c := range cases {
		for _, ro := range []bool{true, false} {
			path := filepath.Join(dir, fmt.Sprintf("case%d-%v.db", i, ro))
			if err := os.WriteFile(path, c.Data, 0o600); err != nil {
				t.Fatal(err)
			}
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s (read-only %v): panic %v", c.Name, ro, p)
					}
				}()
				s, err := Open(path, Options{ReadOnly: ro, MustExist: true, LockTimeout: 100 * time.Millisecond})
				if err != nil {
					if !errors.Is(err, ErrDamaged) {
						t.Errorf("%s: open failed without saying the file is damaged: %v", c.Name, err)
					}
					refused++
					return
				}
				opened++
				if ro {
					if ps, err := s.Check(); err != nil || len(ps) > 0 {
						flagged++
					}
				}
				exercise(s)
				s.Close()
			}()
			os.Remove(path)
		}
	}
	t.Logf("%d damaged files (each read-only and writable): %d refused at open, %d opened (%d of the read-only ones flagged by Check), 0 panics",
		len(cases), refused, opened, flagged)
}

// A missing file is not made by a reader, and an empty one is never made
// into a store again (it is the evidence of a loss).
func TestMissingAndEmptyFilesAreNotInitialised(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pbem.db")
	if _, err := Open(path, Options{MustExist: true}); !errors.Is(err, ErrMissing) {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := Open(path, Options{ReadOnly: true}); !errors.Is(err, ErrMissing) {
		t.Fatalf("missing file, read-only: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a reader made the file")
	}
	os.WriteFile(path, nil, 0o600)
	for _, o := range []Options{{}, {MustExist: true}, {ReadOnly: true}} {
		if _, err := Open(path, o); !errors.Is(err, ErrDamaged) {
			t.Fatalf("empty file %+v: %v", o, err)
		}
	}
	if fi, _ := os.Stat(path); fi.Size() != 0 {
		t.Fatal("the empty file was written to")
	}
}

// A second process (or a second open) waits for the lock, then says who
// holds it.
func TestLockedFileSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := Open(path, Options{ReadOnly: true, LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Fatalf("want ErrLocked, got %v", err)
	}
}

// Check finds an altered event and a head that disagrees with its log.
func TestCheckFindsAlteredEvents(t *testing.T) {
	good := goodFile(t)
	path := filepath.Join(t.TempDir(), "pbem.db")
	os.WriteFile(path, good, 0o600)
	s, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if ps, err := s.Check(); err != nil || len(ps) != 0 {
		t.Fatalf("a sound file: %v %v", ps, err)
	}
	s.Close()
	s, _ = Open(path, Options{})
	// Change an event's text behind the chain's back, as flipByte does in
	// the verify test: the page is sound, the chain is not.
	s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bLog).Bucket([]byte("g3"))
		v := append([]byte(nil), b.Get(seqKey(7))...)
		v[len(v)-60] ^= 1
		return b.Put(seqKey(7), v)
	})
	ps, err := s.Check()
	s.Close()
	if err != nil || len(ps) != 1 {
		t.Fatalf("want one problem, got %q %v", ps, err)
	}
	if want := "game g3: chain broken at seq 7"; len(ps[0]) < len(want) || ps[0][:len(want)] != want {
		t.Fatalf("problem %q", ps[0])
	}
}
