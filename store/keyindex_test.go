package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"pbem/events"
)

// A mail sent again is a duplicate however far back its first copy lies:
// among the events whose keys the index does not hold yet, at the edge of
// the index, or long indexed, and after the store is opened again.
func TestAKeyIsADuplicateWhereverItsEventIs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*indexLag + 5
	for i := 1; i <= n; i++ {
		key := fmt.Sprintf("<m%d>", i)
		if i%7 == 0 {
			key = "" // an event without a key (a decision) among them
		}
		if _, err := s.Append("g1", uint64(i-1), order("g1", key, "PASS")); err != nil {
			t.Fatal(err)
		}
	}
	check := func(t *testing.T, s *Store) {
		t.Helper()
		for i := 1; i <= n; i++ {
			key := fmt.Sprintf("<m%d>", i)
			seq, ok, err := s.Lookup("g1", key)
			if i%7 == 0 {
				if ok || err != nil {
					t.Errorf("Lookup(%s) = %d, %v, %v; it was never recorded", key, seq, ok, err)
				}
				continue
			}
			if err != nil || !ok || seq != uint64(i) {
				t.Errorf("Lookup(%s) = %d, %v, %v; want %d", key, seq, ok, err, i)
			}
			r, err := s.Append("g1", 1, order("g1", key, "PASS"))
			if err != nil || !r.Duplicate || r.First != uint64(i) || r.DuplicateKey != key {
				t.Errorf("sent again, %s: %+v, %v; want a duplicate of %d", key, r, err, i)
			}
		}
		if h, _ := s.Head("g1"); h.Seq != n {
			t.Errorf("head %d after the duplicates, want %d", h.Seq, n)
		}
		if problems, err := s.Check(); err != nil || len(problems) > 0 {
			t.Errorf("check: %v %v", problems, err)
		}
	}
	check(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check(t, s)
	// The keys are all in the index once indexLag more events came.
	var through uint64
	s.view(func(tx *bolt.Tx) error {
		through, _ = indexedThrough(tx.Bucket(bLog).Bucket([]byte("g1")), 0)
		return nil
	})
	if through != n-n%indexLag {
		t.Errorf("indexed through %d, want %d (every %d events)", through, n-n%indexLag, indexLag)
	}
}

// A file written before the index was kept in arrears has every key in
// its index and no mark: its keys are found, and appends go on from it.
func TestAFileWithEveryKeyIndexedAndNoMarkKeepsItsKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		if _, err := s.Append("g1", uint64(i-1), order("g1", fmt.Sprintf("<m%d>", i), "PASS")); err != nil {
			t.Fatal(err)
		}
	}
	// Make it the old file: every key indexed, no mark.
	if err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bLog).Bucket([]byte("g1"))
		keys, err := unindexedKeys(b, 0)
		if err != nil {
			return err
		}
		if err := indexKeys(b, keys, 5); err != nil {
			return err
		}
		return b.Delete(indexedKey)
	}); err != nil {
		t.Fatal(err)
	}
	// A new process opens it.
	s.Close()
	if s, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	for i := 6; i <= 8; i++ {
		if _, err := s.Append("g1", uint64(i-1), order("g1", fmt.Sprintf("<m%d>", i), "PASS")); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= 8; i++ {
		key := fmt.Sprintf("<m%d>", i)
		if r, err := s.Append("g1", 8, order("g1", key, "PASS")); err != nil || !r.Duplicate || r.First != uint64(i) {
			t.Errorf("sent again, %s: %+v, %v; want a duplicate of %d", key, r, err, i)
		}
	}
	s.Close()
}

// The committer knows the keys of the events it wrote since the index
// (see recentKeys), and what it knows follows every way a request ends:
// a key sent again is a duplicate whether its first copy came in an
// earlier commit or earlier in the same one, and stays new when its
// first request wrote nothing.
func TestTheCommitterKnowsTheKeysItWrote(t *testing.T) {
	s := open(t)
	res, errs := s.DoAll([]Request{
		{Game: "g1", Expected: 0, Events: []events.Envelope{order("g1", "<a>", "PASS")}},
		{Game: "g1", Expected: 1, Events: []events.Envelope{order("g1", "<a>", "PASS")}},
		{Game: "g1", Expected: 1, Events: []events.Envelope{order("g1", "<b>", "PASS")}},
		{Game: "g2", Expected: 0, Events: []events.Envelope{order("g2", "<a>", "PASS")}},
	})
	for i, want := range []struct {
		first uint64
		dup   bool
	}{{1, false}, {1, true}, {2, false}, {1, false}} {
		if errs[i] != nil || res[i].First != want.first || res[i].Duplicate != want.dup {
			t.Errorf("request %d of one commit: %+v %v, want first %d, duplicate %v", i, res[i], errs[i], want.first, want.dup)
		}
	}
	// A conflict and a request of the wrong game write nothing.
	if _, err := s.Append("g1", 0, order("g1", "<c>", "PASS")); !errors.As(err, new(*ConflictError)) {
		t.Fatalf("append expecting seq 0 of g1 at 2: %v, want a conflict", err)
	}
	if _, errs := s.DoAll([]Request{{Game: "g1", Expected: 2, Events: []events.Envelope{order("g2", "<d>", "PASS")}}}); errs[0] == nil {
		t.Fatal("a request with another game's event was taken")
	}
	for i, key := range []string{"<c>", "<d>"} {
		if r, err := s.Append("g1", uint64(2+i), order("g1", key, "PASS")); err != nil || r.Duplicate || r.First != uint64(3+i) {
			t.Errorf("%s after the request that wrote nothing: %+v %v, want it new at %d", key, r, err, 3+i)
		}
	}
	// Then far more than the index leaves unindexed, one commit each,
	// and every key sent again.
	n := uint64(4)
	for i := 0; i < indexLag+10; i++ {
		if _, err := s.Append("g1", n, order("g1", fmt.Sprintf("<m%d>", i), "PASS")); err != nil {
			t.Fatal(err)
		}
		n++
		for j, key := range []string{"<a>", "<b>", "<c>", "<d>", fmt.Sprintf("<m%d>", i), fmt.Sprintf("<m%d>", i/2)} {
			want := []uint64{1, 2, 3, 4, n, 5 + uint64(i/2)}[j]
			if r, err := s.Append("g1", 1, order("g1", key, "PASS")); err != nil || !r.Duplicate || r.First != want {
				t.Fatalf("after %d events, %s again: %+v %v, want a duplicate of %d", n, key, r, err, want)
			}
		}
	}
	if h, _ := s.Head("g1"); h.Seq != n {
		t.Errorf("head %d, want %d: a duplicate was written", h.Seq, n)
	}
}

// The keys a request adds beside its events' own are found at once, and
// one of them that is also an event's key of the same request points at
// that event.
func TestRequestKeysAreFoundBeforeTheirEventsAreIndexed(t *testing.T) {
	s := open(t)
	if _, err := s.Append("g1", 0, order("g1", "", "created")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Do(Request{Game: "g1", Expected: 1, Events: []events.Envelope{order("g1", "<a>", "PASS"), order("g1", "<b>", "PASS")}, Keys: []string{"mail:a", "<b>"}}); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]uint64{"<a>": 2, "<b>": 3, "mail:a": 2} {
		if seq, ok, err := s.Lookup("g1", key); err != nil || !ok || seq != want {
			t.Errorf("Lookup(%s) = %d %v %v, want %d", key, seq, ok, err, want)
		}
	}
}

// A damaged event among those not indexed yet fails the appends and
// lookups that must read it with an error, not a panic, and leaves other
// games' appends alone.
func TestADamagedUnindexedEventFailsOnlyItsGame(t *testing.T) {
	s := open(t)
	for i := 1; i <= 3; i++ {
		if _, err := s.Append("g1", uint64(i-1), order("g1", fmt.Sprintf("<m%d>", i), "PASS")); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bLog).Bucket([]byte("g1")).Put(seqKey(2), []byte{9, 9, 9})
	}); err != nil {
		t.Fatal(err)
	}
	// The process that opens the file next meets the damage (the one that
	// wrote the events knows their keys and does not read them again).
	path := s.Path()
	s.Close()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, _, err := s.Lookup("g1", "<new>"); !errors.Is(err, events.ErrCorrupt) {
		t.Errorf("lookup past a damaged event: %v, want it to say the log is damaged", err)
	}
	res, errs := s.DoAll([]Request{
		{Game: "g1", Expected: 3, Events: []events.Envelope{order("g1", "<new>", "PASS")}},
		{Game: "g2", Expected: 0, Events: []events.Envelope{order("g2", "<other>", "PASS")}},
	})
	if !errors.Is(errs[0], events.ErrCorrupt) {
		t.Errorf("append to the damaged game: %+v %v, want it to say the log is damaged", res[0], errs[0])
	}
	if errs[1] != nil || res[1].Last != 1 {
		t.Errorf("append to another game in the same commit: %+v %v", res[1], errs[1])
	}
}

// A damaged head record fails the appends to its game with an error, and
// leaves the other games of the same DoAll alone: the intake commits a
// batch of several games' mails in one, and one game's damage must not
// keep every game's mail out.
func TestADamagedHeadFailsOnlyItsGameInADoAll(t *testing.T) {
	s := open(t)
	for _, g := range []string{"g1", "g2"} {
		if _, err := s.Append(g, 0, order(g, "", "created")); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put([]byte("g1"), []byte{1, 2, 3}) }); err != nil {
		t.Fatal(err)
	}
	res, errs := s.DoAll([]Request{
		{Game: "g1", AtHead: true, Events: []events.Envelope{order("g1", "<a>", "PASS")}},
		{Game: "g2", AtHead: true, Events: []events.Envelope{order("g2", "<b>", "PASS")}},
	})
	if !errors.Is(errs[0], events.ErrCorrupt) {
		t.Errorf("append to the game with the damaged head: %+v %v, want it to say the log is damaged", res[0], errs[0])
	}
	if errs[1] != nil || res[1].First != 2 {
		t.Errorf("append to the other game in the same DoAll: %+v %v, want it written at seq 2", res[1], errs[1])
	}
	if h, _ := s.Head("g2"); h.Seq != 2 {
		t.Errorf("g2's head after the DoAll: %d, want 2", h.Seq)
	}
}
