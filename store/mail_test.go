package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

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

// A batch of mails committed with DoAll carries the mailbox's checkpoint
// on its last request, CheckpointAfterAll: it is written in the batch's
// transaction when every request appended, and not at all when one did
// not (a copy, a conflict, a request that fails), since then a mail
// before the checkpoint still waits for its answer.
func TestACheckpointAfterAllIsWrittenOnlyWhenTheWholeBatchAppends(t *testing.T) {
	batch := func(s *Store, rs ...Request) ([]Result, []error) {
		last := &rs[len(rs)-1]
		last.Checkpoint = &MailboxCheckpoint{"INBOX", Checkpoint{UIDValidity: 7, UID: 20}}
		last.CheckpointAfterAll = true
		return s.DoAll(rs)
	}
	mail := func(game, id string) Request {
		return Request{Game: game, AtHead: true, Events: []events.Envelope{order(game, id, "MARCH")}}
	}
	for _, c := range []struct {
		name  string
		reqs  []Request
		moved bool
	}{
		{"every mail new", []Request{mail("g1", "<n1>"), mail("g2", "<n2>"), mail("g1", "<n3>")}, true},
		{"a copy first", []Request{mail("g1", "<old>"), mail("g2", "<n2>")}, false},
		{"a copy last", []Request{mail("g1", "<n1>"), mail("g2", "<old2>")}, false},
		{"a conflict", []Request{{Game: "g2", Expected: 9, Events: []events.Envelope{order("g2", "<n4>", "MARCH")}}, mail("g1", "<n5>")}, false},
		{"a game that is not there", []Request{mail("nowhere", "<n6>"), mail("g1", "<n7>")}, false},
		{"one mail alone", []Request{mail("g1", "<n8>")}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			s.Append("g1", 0, order("g1", "", "created"), order("g1", "<old>", "HOLD"))
			s.Append("g2", 0, order("g2", "", "created"), order("g2", "<old2>", "HOLD"))
			s.PutCheckpoint("INBOX", Checkpoint{UIDValidity: 7, UID: 10})
			before := s.Stats().Commits
			res, _ := batch(s, c.reqs...)
			if n := s.Stats().Commits - before; n != 1 {
				t.Errorf("%d transactions; want 1", n)
			}
			want := Checkpoint{UIDValidity: 7, UID: 10}
			if c.moved {
				want.UID = 20
			}
			if cp, _ := s.Checkpoint("INBOX"); cp != want {
				t.Errorf("checkpoint %+v; want %+v", cp, want)
			}
			if got := res[len(res)-1].Checkpointed; got != c.moved {
				t.Errorf("Checkpointed %v; want %v", got, c.moved)
			}
		})
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

// A mail sent again under a new Message-ID is a duplicate by
// its content fingerprint, which stays recorded whatever follows.
func TestRequestKeysMakeACopyUnderAnotherKeyADuplicate(t *testing.T) {
	s := open(t)
	r1, err := s.Do(Request{Game: "g1", Events: []events.Envelope{order("g1", "<m1>", "PASS")}, Keys: []string{"mail:abc", "dkim:xyz"}})
	if err != nil || r1.Duplicate {
		t.Fatal(r1, err)
	}
	r2, _ := s.Do(Request{Game: "g1", Expected: 1, Events: []events.Envelope{order("g1", "<m2>", "MARCH")}})
	tests := []struct {
		name    string
		key     string
		keys    []string
		wantSeq uint64
		wantKey string
	}{
		{"same Message-ID", "<m1>", nil, 1, "<m1>"},
		{"new Message-ID, same content", "<m3>", []string{"mail:abc"}, 1, "mail:abc"},
		{"new Message-ID, same DKIM signature", "<m4>", []string{"mail:other", "dkim:xyz"}, 1, "dkim:xyz"},
		{"the second mail's id", "<m2>", []string{"mail:new"}, r2.First, "<m2>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := s.Do(Request{Game: "g1", Expected: 2, Events: []events.Envelope{order("g1", tt.key, "PASS")}, Keys: tt.keys})
			if err != nil || !r.Duplicate || r.First != tt.wantSeq || r.DuplicateKey != tt.wantKey {
				t.Fatalf("got %+v %v, want a duplicate of seq %d by %q", r, err, tt.wantSeq, tt.wantKey)
			}
		})
	}
	if h, _ := s.Head("g1"); h.Seq != 2 {
		t.Fatalf("a duplicate was written: head %d", h.Seq)
	}
	if seq, ok, _ := s.Lookup("g1", "dkim:xyz"); !ok || seq != 1 {
		t.Fatalf("the fingerprint points at %d %v", seq, ok)
	}
}

// A stranger's 10 MB mail keeps its header, the first 64 KiB
// and a hash of the rest; the quarantine prunes its oldest records past
// its cap and counts them.
func TestQuarantineKeepsBoundedEvidenceAndPrunesTheOldest(t *testing.T) {
	s, err := Open(t.TempDir()+"/q.db", Options{QuarantineBytes: 400 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	header := "From: stranger@example.net\r\nSubject: big\r\n\r\n"
	big := []byte(header + strings.Repeat("x", 10<<20))
	id, err := s.Quarantine(Quarantined{At: time.Unix(100, 0), From: "stranger@example.net", Reason: "no reply token", Raw: big}, Checkpoint{})
	if err != nil {
		t.Fatal(err)
	}
	list, _ := s.QuarantineList()
	sum := sha256.Sum256(big[len(header)+EvidenceBodyBytes:])
	q := list[0]
	if len(list) != 1 || q.ID != id || len(q.Raw) != len(header)+EvidenceBodyBytes || q.Size != int64(len(big)) || q.RestSHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("kept %d bytes of %d (size %d), rest %s", len(q.Raw), len(big), q.Size, q.RestSHA256)
	}
	small := []byte(header + "PASS\r\n")
	s.Quarantine(Quarantined{At: time.Unix(50, 0), Raw: small}, Checkpoint{})
	for i := range 8 {
		raw := []byte(header + strings.Repeat(string(rune('a'+i)), 100<<10))
		if _, err := s.Quarantine(Quarantined{At: time.Unix(int64(200+i), 0), Reason: "flood", Raw: raw}, Checkpoint{}); err != nil {
			t.Fatal(err)
		}
	}
	list, _ = s.QuarantineList()
	st, _ := s.QuarantineStats()
	var total int64
	for _, q := range list {
		total += int64(len(q.encode()))
	}
	if st.Bytes != total || st.Bytes > 400<<10 || st.Pruned == 0 || int(st.Pruned)+len(list) != 10 {
		t.Fatalf("%d records of %d bytes (counted %d), %d pruned", len(list), total, st.Bytes, st.Pruned)
	}
	if list[0].At.Unix() < 200 || list[len(list)-1].At.Unix() != 207 {
		t.Fatalf("pruned the wrong ones: oldest kept %v, newest %v", list[0].At, list[len(list)-1].At)
	}
}

// A store whose quarantine was written before the cap existed (without
// its index buckets) opens read-only as it is, and gets its index and
// byte count when opened for writing.
func TestQuarantineWrittenBeforeTheCapIsIndexedOnOpen(t *testing.T) {
	path := t.TempDir() + "/old.db"
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Quarantine(Quarantined{At: time.Unix(1, 0), Raw: []byte("From: a\r\n\r\nx")}, Checkpoint{})
	s.db.Update(func(tx *bolt.Tx) error {
		for _, b := range laterBuckets {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		return nil
	})
	s.Close()
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("a store of before the index, read-only: %v", err)
	}
	list, err := ro.QuarantineList()
	if _, serr := ro.QuarantineStats(); err != nil || serr != nil || len(list) != 1 {
		t.Fatalf("read-only: %d records, %v %v", len(list), err, serr)
	}
	ro.Close()
	s, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, _ := s.QuarantineStats()
	n := 0
	s.db.View(func(tx *bolt.Tx) error { n = tx.Bucket(bQuarT).Stats().KeyN; return nil })
	if st.Bytes == 0 || n != 1 {
		t.Fatalf("after reopening: %d bytes counted, %d indexed", st.Bytes, n)
	}
}

// A mail its sender delivered twice (the answer to the first delivery cut
// by a kill, so the sender tried again) carries new trace headers the
// second time: it is still one quarantine record. Another mail under the
// same Message-ID, or a mail without one, is a record of its own.
func TestQuarantineKeepsOneRecordPerMailDeliveredTwice(t *testing.T) {
	s := open(t)
	const mailText = "From: x@evil.test\r\nTo: pbem@game.test\r\nSubject: hi\r\nMessage-ID: <m1@evil.test>\r\n\r\nMARCH 1 TO 2\r\n"
	deliveries := []string{
		"Return-Path: <x@evil.test>\r\nDelivered-To: pbem@game.test\r\nReceived: from mx (mx [10.0.0.1]) by host with ESMTP id A1; Tue, 1 Dec 2026 10:00:00 +0000\r\n" + mailText,
		"Return-Path: <x@evil.test>\r\nDelivered-To: pbem@game.test\r\nReceived: from mx (mx [10.0.0.1]) by host with ESMTP id B7; Tue, 1 Dec 2026 10:05:13 +0000\r\n" + mailText,
	}
	var ids []string
	for i, raw := range deliveries {
		id, err := s.Quarantine(Quarantined{At: time.Unix(int64(100+i), 0), Mailbox: "INBOX", UID: uint32(i + 1), From: "x@evil.test", Reason: "unknown sender", Raw: []byte(raw)}, Checkpoint{1, uint32(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	list, _ := s.QuarantineList()
	if len(list) != 1 || ids[0] != ids[1] {
		t.Fatalf("a mail delivered twice made %d records (ids %v)", len(list), ids)
	}
	if list[0].UID != 1 || !strings.Contains(string(list[0].Raw), "id A1") {
		t.Fatalf("the record kept is not the first delivery's: uid %d", list[0].UID)
	}
	if cp, _ := s.Checkpoint("INBOX"); cp.UID != 2 {
		t.Fatalf("the second delivery did not advance the checkpoint: %d", cp.UID)
	}
	others := []string{
		strings.Replace(mailText, "MARCH 1 TO 2", "MARCH 3 TO 4", 1),                                                                        // same Message-ID, other content
		"From: x@evil.test\r\nSubject: hi\r\n\r\nno id\r\n", "Received: by host id C3\r\nFrom: x@evil.test\r\nSubject: hi\r\n\r\nno id\r\n", // no Message-ID: the whole mail
	}
	for i, raw := range others {
		if _, err := s.Quarantine(Quarantined{At: time.Unix(int64(200+i), 0), Mailbox: "INBOX", UID: uint32(10 + i), Raw: []byte(raw)}, Checkpoint{1, uint32(10 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	if list, _ := s.QuarantineList(); len(list) != 1+len(others) {
		t.Fatalf("%d records; want %d: different mails are records of their own", len(list), 1+len(others))
	}
}
