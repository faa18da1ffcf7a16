package store

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pbem/events"
)

func TestCheckpointCommitsWithTheEventsAndNeverMovesBack(t *testing.T) {
	s := open(t)
	raw := []byte("From: a@x\r\n\r\nMARCH")
	_, err := s.Do(Request{Game: "g1", Expected: 0, Events: []events.Envelope{order("g1", "<m1>", "MARCH")},
		Raw: raw, Checkpoint: &MailboxCheckpoint{"INBOX", Checkpoint{UIDValidity: 7, UID: 12}}})
	if err != nil {
		t.Fatal(err)
	}
	cp, _ := s.Checkpoint("INBOX")
	if cp != (Checkpoint{7, 12}) {
		t.Fatalf("checkpoint %+v", cp)
	}
	s.PutCheckpoint("INBOX", Checkpoint{7, 5})
	if cp, _ := s.Checkpoint("INBOX"); cp.UID != 12 {
		t.Fatalf("moved back to %d", cp.UID)
	}
	s.PutCheckpoint("INBOX", Checkpoint{8, 1}) // a new UIDVALIDITY starts over
	if cp, _ := s.Checkpoint("INBOX"); cp != (Checkpoint{8, 1}) {
		t.Fatalf("after UIDVALIDITY change %+v", cp)
	}
	if got, ok, _ := s.Raw("g1", 1); !ok || !bytes.Equal(got, raw) {
		t.Fatalf("evidence %q %v", got, ok)
	}
}

// A mail read again (a crash between commit and \Seen, a rescan) is a
// duplicate: no event is written, but its checkpoint still advances.
func TestDuplicateStillAdvancesTheCheckpoint(t *testing.T) {
	s := open(t)
	req := Request{Game: "g1", Expected: 0, Events: []events.Envelope{order("g1", "<m1>", "MARCH")},
		Checkpoint: &MailboxCheckpoint{"INBOX", Checkpoint{UIDValidity: 7, UID: 3}}}
	if _, err := s.Do(req); err != nil {
		t.Fatal(err)
	}
	req.Checkpoint = &MailboxCheckpoint{"INBOX", Checkpoint{UIDValidity: 9, UID: 1}}
	res, err := s.Do(req)
	if err != nil || !res.Duplicate {
		t.Fatalf("%+v %v", res, err)
	}
	if cp, _ := s.Checkpoint("INBOX"); cp != (Checkpoint{9, 1}) {
		t.Fatalf("checkpoint %+v", cp)
	}
	if h, _ := s.Head("g1"); h.Seq != 1 {
		t.Fatalf("head %d", h.Seq)
	}
}

// The dice seed is written with the game's first events or not at all.
func TestSecretIsWrittenWithTheEventsOrNotAtAll(t *testing.T) {
	s := open(t)
	if _, err := s.Do(Request{Game: "g1", Expected: 0, Events: []events.Envelope{order("g1", "", "created")}, Secret: []byte("seed")}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Secret("g1"); err != nil || string(got) != "seed" {
		t.Fatalf("%q %v", got, err)
	}
	// A conflict writes neither the events nor the secret.
	_, err := s.Do(Request{Game: "g2", Expected: 5, Events: []events.Envelope{order("g2", "", "created")}, Secret: []byte("other")})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("want a conflict, got %v", err)
	}
	if _, err := s.Secret("g2"); err == nil {
		t.Fatal("a secret was stored for an append that failed")
	}
}

func TestQuarantineIsIdempotentAndListed(t *testing.T) {
	s := open(t)
	q := Quarantined{At: time.Unix(100, 0), Mailbox: "INBOX", UID: 3, From: "x@evil", Subject: "hi", Reason: "unknown sender", Raw: []byte("raw")}
	id1, err := s.Quarantine(q, Checkpoint{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	id2, _ := s.Quarantine(q, Checkpoint{1, 3})
	list, _ := s.QuarantineList()
	if id1 != id2 || len(list) != 1 || list[0].Reason != "unknown sender" || string(list[0].Raw) != "raw" || !list[0].At.Equal(q.At) {
		t.Fatalf("%s %s %+v", id1, id2, list)
	}
	if cp, _ := s.Checkpoint("INBOX"); cp.UID != 3 {
		t.Fatal("quarantine did not advance the checkpoint")
	}
}

func TestServerSecretIsMadeOnceAndKept(t *testing.T) {
	s := open(t)
	n := 0
	gen := func() ([]byte, error) { n++; return []byte{byte(n)}, nil }
	a, _ := s.ServerSecret("reply", gen)
	b, _ := s.ServerSecret("reply", gen)
	if !bytes.Equal(a, b) || n != 1 {
		t.Fatalf("%v %v %d", a, b, n)
	}
}

// A secret made for an owner says so to every caller, racing or asking
// again later; one that existed before says who it was made for (no one,
// for a plain ServerSecret), so that owner alone may hand it out.
func TestOwnedServerSecretKeepsOneOwner(t *testing.T) {
	s := open(t)
	var made atomic.Int32
	gen := func() ([]byte, error) { return []byte(fmt.Sprint("pw", made.Add(1))), nil }
	type got struct{ secret, owner string }
	res := make([]got, 8)
	var wg sync.WaitGroup
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sec, owner, err := s.OwnedServerSecret("mailbox:kim", fmt.Sprint("g1/", i), gen)
			if err != nil {
				t.Error(err)
			}
			res[i] = got{string(sec), owner}
		}()
	}
	wg.Wait()
	if made.Load() != 1 {
		t.Fatalf("the secret was made %d times", made.Load())
	}
	for _, r := range res[1:] {
		if r != res[0] || r.secret != "pw1" || !strings.HasPrefix(r.owner, "g1/") {
			t.Fatalf("callers saw different secrets or owners: %+v", res)
		}
	}
	// Asked again, by its owner or another, it is the same, with the same owner.
	if sec, owner, _ := s.OwnedServerSecret("mailbox:kim", "g2/9", gen); string(sec) != "pw1" || owner != res[0].owner {
		t.Fatalf("again: %s %s", sec, owner)
	}
	// Looking makes nothing.
	if sec, owner, err := s.OwnedServerSecret("mailbox:lee", "g1/3", nil); sec != nil || owner != "" || err != nil {
		t.Fatalf("looking for lee's: %q %q %v", sec, owner, err)
	}
	// A secret made without an owner has none.
	s.ServerSecret("mailbox:anna", gen)
	if _, owner, _ := s.OwnedServerSecret("mailbox:anna", "g1/3", gen); owner != "" {
		t.Fatalf("anna's mailbox was made for %q", owner)
	}
	if _, _, err := s.OwnedServerSecret("empty", "x", func() ([]byte, error) { return nil, nil }); err == nil {
		t.Fatal("an empty secret was kept")
	}
	names, err := s.ServerSecretNames("mailbox:")
	if err != nil || strings.Join(names, " ") != "mailbox:anna mailbox:kim" {
		t.Fatalf("names %q %v", names, err)
	}
}
