package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"pbem/events"
)

func open(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "pbem.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func order(game, key, text string) events.Envelope {
	return events.New(game, time.Unix(1700000000, 0), key, &events.OrderReceived{Player: "usa", Text: text, MessageID: key})
}

func TestAppendReadAndHead(t *testing.T) {
	s := open(t)
	r, err := s.Append("g1", 0, order("g1", "", "a"), order("g1", "", "b"))
	if err != nil || r.First != 1 || r.Last != 2 || r.Duplicate {
		t.Fatalf("first append: %+v %v", r, err)
	}
	if _, err := s.Append("g1", 2, order("g1", "", "c")); err != nil {
		t.Fatal(err)
	}
	es, err := s.Events("g1", 2)
	if err != nil || len(es) != 2 || es[0].Seq != 2 || es[1].Seq != 3 {
		t.Fatalf("read from 2: %v %+v", err, es)
	}
	p, _ := events.Decode(&es[1])
	if p.(*events.OrderReceived).Text != "c" {
		t.Fatalf("payload: %+v", p)
	}
	h, _ := s.Head("g1")
	if h.Seq != 3 || h.Hash != es[1].Hash {
		t.Fatalf("head %+v", h)
	}
	if err := s.Read("nope", 1, func(*events.Envelope) error { return nil }); !errors.Is(err, ErrNoGame) {
		t.Fatalf("unknown game: %v", err)
	}
}

func TestAppendStaleExpectedSeqIsTypedConflict(t *testing.T) {
	s := open(t)
	s.Append("g1", 0, order("g1", "", "a"))
	_, err := s.Append("g1", 0, order("g1", "", "b"))
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Expected != 0 || ce.Actual != 1 {
		t.Fatalf("want conflict 0 vs 1, got %v", err)
	}
	if h, _ := s.Head("g1"); h.Seq != 1 {
		t.Fatalf("conflict wrote something: head %d", h.Seq)
	}
}

// An append at head follows whatever the log holds, whatever seq its
// writer last saw, chained like any other; it keeps the idempotency keys,
// and it never creates a game.
func TestAppendAtHeadFollowsTheLogWithoutConflict(t *testing.T) {
	s := open(t)
	if _, err := s.Do(Request{Game: "g1", AtHead: true, Events: []events.Envelope{order("g1", "", "a")}}); !errors.Is(err, ErrNoGame) {
		t.Fatalf("at head of no game: %v, want ErrNoGame", err)
	}
	if h, _ := s.Head("g1"); h.Seq != 0 {
		t.Fatalf("an append at head created the game: head %d", h.Seq)
	}
	s.Append("g1", 0, order("g1", "", "created"))
	s.Append("g1", 1, order("g1", "", "decision"))
	r, err := s.Do(Request{Game: "g1", Expected: 1, AtHead: true, Events: []events.Envelope{order("g1", "<m1@x>", "sent")}})
	if err != nil || r.Duplicate || r.First != 3 {
		t.Fatalf("at head with a stale expected seq: %+v %v, want seq 3", r, err)
	}
	r, err = s.Do(Request{Game: "g1", AtHead: true, Events: []events.Envelope{order("g1", "<m1@x>", "sent")}})
	if err != nil || !r.Duplicate || r.First != 3 {
		t.Fatalf("the same key at head: %+v %v, want a duplicate of seq 3", r, err)
	}
	if n, err := s.Verify("g1"); err != nil || n != 3 {
		t.Fatalf("verify: %d events, %v", n, err)
	}
}

// An append with Past lands after events written since its Expected
// when Past accepts every one of their types (they change nothing it was
// computed from), chained after them; one event of another type is a
// conflict, as without Past.
func TestAppendPastLandsAfterAcceptedTypesOnlyElseConflict(t *testing.T) {
	s := open(t)
	s.Append("g1", 0, order("g1", "", "created"))
	sent := events.New("g1", time.Unix(1700000000, 0), "", &events.MailSent{MailID: "<m1@x>", Attempt: 1})
	s.Do(Request{Game: "g1", AtHead: true, Events: []events.Envelope{sent}})
	s.Do(Request{Game: "g1", AtHead: true, Events: []events.Envelope{order("g1", "", "next")}})
	onlySent := func(typ string) bool { return typ == events.TypeMailSent }
	sentOrInput := func(typ string) bool { return typ == events.TypeMailSent || events.IsInput(typ) }
	for _, tc := range []struct {
		name string
		past func(string) bool
		want uint64 // seq it lands at, 0: a conflict
	}{
		{"without Past", nil, 0},
		{"a type Past refuses after Expected", onlySent, 0},
		{"every type after Expected accepted", sentOrInput, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := s.Do(Request{Game: "g1", Expected: 1, Past: tc.past, Events: []events.Envelope{order("g1", "", "decision")}})
			var ce *ConflictError
			switch {
			case tc.want == 0 && (!errors.As(err, &ce) || ce.Expected != 1 || ce.Actual != 3):
				t.Fatalf("got %+v %v, want a conflict 1 vs 3", r, err)
			case tc.want != 0 && (err != nil || r.First != tc.want || r.Last != tc.want):
				t.Fatalf("got %+v %v, want it at seq %d", r, err, tc.want)
			}
		})
	}
	if n, err := s.Verify("g1"); err != nil || n != 4 {
		t.Fatalf("verify: %d events, %v", n, err)
	}
}

// DoAll commits its requests in order in one transaction, each with its
// own outcome: a conflict or a duplicate (of a request before it among
// them too) fails that request alone.
func TestDoAllCommitsInOrderInOneTransactionEachWithItsOutcome(t *testing.T) {
	s := open(t)
	s.Append("g1", 0, order("g1", "", "created"))
	s.Append("g2", 0, order("g2", "", "created"))
	before := s.Stats().Commits
	res, errs := s.DoAll([]Request{
		{Game: "g1", AtHead: true, Events: []events.Envelope{order("g1", "<a@x>", "first")}},
		{Game: "g2", Expected: 7, Events: []events.Envelope{order("g2", "<b@x>", "stale")}},
		{Game: "g1", AtHead: true, Events: []events.Envelope{order("g1", "<a@x>", "first again")}},
		{Game: "g1", Expected: 2, Events: []events.Envelope{order("g1", "<c@x>", "second")}},
		{Game: "", Events: []events.Envelope{order("g1", "", "no game")}},
	})
	if n := s.Stats().Commits - before; n != 1 {
		t.Errorf("%d transactions; want 1", n)
	}
	var ce *ConflictError
	switch {
	case errs[0] != nil || res[0].First != 2:
		t.Errorf("first: %+v %v; want seq 2", res[0], errs[0])
	case !errors.As(errs[1], &ce):
		t.Errorf("stale: %v; want a conflict", errs[1])
	case errs[2] != nil || !res[2].Duplicate || res[2].First != 2:
		t.Errorf("the same key again: %+v %v; want a duplicate of seq 2", res[2], errs[2])
	case errs[3] != nil || res[3].First != 3:
		t.Errorf("second: %+v %v; want seq 3", res[3], errs[3])
	case errs[4] == nil:
		t.Errorf("a request with no game was taken")
	}
	if h, _ := s.Head("g2"); h.Seq != 1 {
		t.Errorf("the conflicting request wrote: g2 at %d", h.Seq)
	}
	if n, err := s.Verify("g1"); err != nil || n != 3 {
		t.Fatalf("verify g1: %d events, %v", n, err)
	}
}

func TestDuplicateKeyReturnsOriginalSeqAndWritesNothing(t *testing.T) {
	s := open(t)
	s.Append("g1", 0, order("g1", "", "created"))
	r1, err := s.Append("g1", 1, order("g1", "<m1@x>", "MARCH"))
	if err != nil {
		t.Fatal(err)
	}
	s.Append("g1", 2, order("g1", "", "decision"))
	// The same mail again, even with a stale expected seq: a duplicate, not a conflict.
	r2, err := s.Append("g1", 1, order("g1", "<m1@x>", "MARCH"))
	if err != nil || !r2.Duplicate || r2.First != r1.First {
		t.Fatalf("duplicate: %+v %v (original %d)", r2, err, r1.First)
	}
	if h, _ := s.Head("g1"); h.Seq != 3 {
		t.Fatalf("duplicate wrote: head %d", h.Seq)
	}
	if seq, ok, _ := s.Lookup("g1", "<m1@x>"); !ok || seq != 2 {
		t.Fatalf("lookup: %d %v", seq, ok)
	}
}

func TestConcurrentAppendsToManyGamesAllLandAndVerify(t *testing.T) {
	s := open(t)
	const games, per = 32, 40
	var wg sync.WaitGroup
	for g := 0; g < games; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			id := fmt.Sprintf("g%02d", g)
			for i := 0; i < per; i++ {
				if _, err := s.Append(id, uint64(i), order(id, fmt.Sprintf("k%d", i), "x")); err != nil {
					t.Error(err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	gs, err := s.Games()
	if err != nil || len(gs) != games {
		t.Fatalf("games: %d %v", len(gs), err)
	}
	for _, gi := range gs {
		if n, err := s.Verify(gi.Game); err != nil || n != per {
			t.Fatalf("%s: verified %d: %v", gi.Game, n, err)
		}
	}
}

func TestVerifyLocatesAFlippedByteInTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		s.Append("g1", uint64(i), order("g1", "", fmt.Sprintf("order %d", i)))
	}
	s.Close()
	// Tamper with event 3 behind the store's back, as an attacker with the file could.
	db, _ := bolt.Open(path, 0o600, nil)
	db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bLog).Bucket([]byte("g1"))
		v := append([]byte(nil), b.Get(seqKey(3))...)
		v[len(v)-70] ^= 0x01 // inside the payload text
		return b.Put(seqKey(3), v)
	})
	db.Close()
	s, _ = Open(path, Options{})
	defer s.Close()
	n, err := s.Verify("g1")
	var ce *events.ChainError
	if !errors.As(err, &ce) || ce.Seq != 3 || n != 2 {
		t.Fatalf("want break at 3 after 2 good, got n=%d %v", n, err)
	}
}

func TestSnapshotsKeepNewestAndFindAtOrBefore(t *testing.T) {
	s := open(t)
	for _, seq := range []uint64{10, 20, 30} {
		if err := s.PutSnapshot("g1", seq, []byte(fmt.Sprint(seq))); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		at      uint64
		want    uint64
		wantOK  bool
		comment string
	}{
		{0, 30, true, "newest"},
		{25, 20, true, "before"},
		{20, 20, true, "exact"},
		{15, 0, false, "10 was pruned (2 kept)"},
	}
	for _, tc := range tests {
		seq, data, ok, err := s.Snapshot("g1", tc.at)
		if err != nil || ok != tc.wantOK || seq != tc.want || (ok && string(data) != fmt.Sprint(tc.want)) {
			t.Errorf("%s: at %d got %d %q %v %v", tc.comment, tc.at, seq, data, ok, err)
		}
	}
}

func TestCloseFinishesQueuedAppends(t *testing.T) {
	s := open(t)
	var wg sync.WaitGroup
	var acked sync.Map
	for g := 0; g < 50; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			id := fmt.Sprintf("g%d", g)
			if _, err := s.Append(id, 0, order(id, "", "x")); err == nil {
				acked.Store(id, true)
			} else if !errors.Is(err, ErrClosed) {
				t.Error(err)
			}
		}(g)
	}
	// Not a wait: the close comes a moment into the appends, some
	// queued, some not yet asked; each must be either durable or refused.
	time.Sleep(time.Millisecond)
	path := s.Path()
	s.Close()
	wg.Wait()
	s2, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	acked.Range(func(k, _ any) bool {
		if h, _ := s2.Head(k.(string)); h.Seq != 1 {
			t.Errorf("acknowledged append to %s lost", k)
		}
		return true
	})
}

// Verify on a game a server is appending to (pbem verify on a live data
// directory) sees a consistent log: a whole chain as of one moment, never
// a broken link made up of a head read before an append and a log after.
func TestVerifyDuringAppendsNeverReportsABrokenChain(t *testing.T) {
	s := open(t)
	if _, err := s.Append("g1", 0, order("g1", "", "first")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for i := 1; i <= 300; i++ {
			if _, err := s.Append("g1", uint64(i), order("g1", "", fmt.Sprint("order ", i))); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	verified := 0
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if n, err := s.Verify("g1"); err != nil || n != 301 {
				t.Fatalf("after the appends: %d events, %v", n, err)
			}
			t.Logf("%d verifications during 300 appends", verified)
			return
		default:
		}
		if _, err := s.Verify("g1"); err != nil {
			t.Fatalf("verify during appends: %v", err)
		}
		verified++
	}
}

// A panic in a reader's callback is the reader's own: it reaches the
// caller as it was raised, not as a damaged file, and the store reads on.
func TestAPanicInAReadCallbackIsTheCallers(t *testing.T) {
	s := open(t)
	if _, err := s.Append("g1", 0, order("g1", "", "a"), order("g1", "", "b"), order("g1", "", "c")); err != nil {
		t.Fatal(err)
	}
	reads := []struct {
		name string
		read func(at uint64) error
	}{
		{"Read", func(at uint64) error {
			return s.Read("g1", 1, func(e *events.Envelope) error {
				if e.Seq == at {
					panic(fmt.Sprintf("callback at %d", at))
				}
				return nil
			})
		}},
		{"ReadRaw", func(at uint64) error {
			return s.ReadRaw("g1", 1, func(seq uint64, _ []byte) error {
				if seq == at {
					panic(fmt.Sprintf("callback at %d", at))
				}
				return nil
			})
		}},
	}
	for _, r := range reads {
		for at := uint64(1); at <= 3; at++ {
			var got any
			func() {
				defer func() { got = recover() }()
				err := r.read(at)
				t.Errorf("%s: the callback's panic at %d returned %v", r.name, at, err)
			}()
			if want := fmt.Sprintf("callback at %d", at); got != want {
				t.Errorf("%s: panic %#v reached the caller, want %q", r.name, got, want)
			}
		}
		if err := r.read(0); err != nil {
			t.Errorf("%s after the panics: %v", r.name, err)
		}
	}
}
