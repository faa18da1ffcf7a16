package cluster

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

// jetStream starts a real nats-server with JetStream in the process (one
// server: the stream and buckets get one replica here; the three-server
// cluster is exercised by cmd/pbem's Cluster tests).
func jetStream(t *testing.T) *server.Server {
	t.Helper()
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv
}

type testNode struct {
	*Node
	st *store.Store
	nc *nats.Conn

	mu           sync.Mutex
	gained, lost []string
}

func startNode(t *testing.T, srv *server.Server, name string, lease time.Duration) *testNode {
	t.Helper()
	return startNodeLogging(t, srv, name, lease, nil)
}

// startNodeLogging is startNode with the node's log going to lg (nil: slog's default).
func startNodeLogging(t *testing.T, srv *server.Server, name string, lease time.Duration, lg *slog.Logger) *testNode {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	tn := &testNode{st: st, nc: nc}
	n, err := Open(t.Context(), nc, st, Config{Node: name, Lease: lease, Replicas: 1, Logger: lg, Hooks: Hooks{
		Gained: func(g string) { tn.mu.Lock(); tn.gained = append(tn.gained, g); tn.mu.Unlock() },
		Lost:   func(g string) { tn.mu.Lock(); tn.lost = append(tn.lost, g); tn.mu.Unlock() },
	}})
	if err != nil {
		t.Fatal(err)
	}
	tn.Node = n
	t.Cleanup(func() { n.Close(); nc.Close(); st.Close() })
	return tn
}

func (tn *testNode) has(list *[]string, game string) bool {
	tn.mu.Lock()
	defer tn.mu.Unlock()
	for _, g := range *list {
		if g == game {
			return true
		}
	}
	return false
}

func ev(game, key, text string) events.Envelope {
	return events.New(game, time.Unix(1700000000, 0), key, &events.OrderReceived{Player: "usa", Text: text, MessageID: key})
}

// A node that stops renewing (here: closed, as a paused process stops)
// loses its game to another node, which rebuilds the log from the stream
// with its side-writes; the old owner's append is then refused by the
// JetStream server (the new owner's fence), and nothing of it reaches
// either store.
func TestNodeFailoverRebuildsFromTheStreamAndFencesTheOldOwner(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	const lease = 600 * time.Millisecond
	a := startNode(t, srv, "a", lease)
	b := startNode(t, srv, "b", lease)

	res, err := a.Do(store.Request{Game: "g1", Expected: 0, Events: []events.Envelope{ev("g1", "m1", "one")}, Secret: []byte("seed"), Raw: []byte("raw mail")})
	if err != nil || res.Last != 1 {
		t.Fatalf("first append: %+v %v", res, err)
	}
	if _, err := a.Do(store.Request{Game: "g1", Expected: 1, Events: []events.Envelope{ev("g1", "m2", "two"), ev("g1", "", "three")}}); err != nil {
		t.Fatal(err)
	}
	// b owns nothing: its append is refused, naming the owner.
	var notOwner *NotOwnerError
	if _, err := b.Do(store.Request{Game: "g1", Expected: 3, Events: []events.Envelope{ev("g1", "x", "b's")}}); !errors.As(err, &notOwner) || notOwner.Owner != "a" {
		t.Fatalf("b's append to a's game: %v", err)
	}
	// A duplicate key is answered from the store and replicates nothing.
	if r, err := a.Do(store.Request{Game: "g1", Expected: 3, Events: []events.Envelope{ev("g1", "m1", "one")}}); err != nil || !r.Duplicate || r.First != 1 {
		t.Fatalf("duplicate: %+v %v", r, err)
	}

	// a stops renewing; keep what it knows so as to append as it would after a pause.
	a.mu.Lock()
	stale := *a.owned["g1"]
	a.mu.Unlock()
	a.Node.Close()
	start := time.Now()
	waitfor.Until(t, 5*lease, "b takes g1 over", func() bool { return b.Owns("g1") })
	took := time.Since(start)
	// take marks the game owned, then calls Gained: wait for the hook too.
	waitfor.Until(t, 5*lease, "b's Gained hook is called", func() bool { return b.has(&b.gained, "g1") })
	bh, _ := b.st.Head("g1")
	ah, _ := a.st.Head("g1")
	if bh != ah || bh.Seq != 3 {
		t.Fatalf("b rebuilt %+v, a had %+v", bh, ah)
	}
	if n, err := b.st.Verify("g1"); err != nil || n != 3 {
		t.Fatalf("b's copy verifies %d: %v", n, err)
	}
	if s, err := b.st.Secret("g1"); err != nil || string(s) != "seed" {
		t.Fatalf("b's copy of the seed: %q %v", s, err)
	}
	if raw, ok, err := b.st.Raw("g1", 1); err != nil || !ok || string(raw) != "raw mail" {
		t.Fatalf("b's copy of the raw mail: %q %v %v", raw, ok, err)
	}
	if seq, ok, _ := b.st.Lookup("g1", "m2"); !ok || seq != 2 {
		t.Fatalf("b's idempotency keys: m2 at %d %v", seq, ok)
	}

	// The old owner comes back with a lease it believes in: the stream refuses it.
	a.mu.Lock()
	a.liveUntil = time.Now().Add(time.Hour)
	a.owned["g1"] = &stale
	a.mu.Unlock()
	_, err = a.Do(store.Request{Game: "g1", Expected: 3, Events: []events.Envelope{ev("g1", "late", "stale write")}})
	if !errors.Is(err, ErrFenced) {
		t.Fatalf("the stale owner's append: %v", err)
	}
	if ah, _ := a.st.Head("g1"); ah.Seq != 3 {
		t.Fatalf("the stale owner's store moved to %d", ah.Seq)
	}
	if a.Owns("g1") || !a.has(&a.lost, "g1") {
		t.Fatal("the fenced node still owns g1")
	}
	// The new owner carries on from the same head.
	if r, err := b.Do(store.Request{Game: "g1", Expected: 3, Events: []events.Envelope{ev("g1", "m4", "four")}}); err != nil || r.Last != 4 {
		t.Fatalf("b's append: %+v %v", r, err)
	}
	t.Logf("takeover %v after the owner stopped (lease %v)", took.Round(time.Millisecond), lease)
}

// Moving a game hands it over at once; the node it came from is fenced
// and the one it went to appends after the same head.
func TestNodeMoveAndDrainHandGamesOver(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	const lease = 2 * time.Second
	a := startNode(t, srv, "a", lease)
	b := startNode(t, srv, "b", lease)
	for _, g := range []string{"g1", "g2"} {
		if _, err := a.Do(store.Request{Game: g, Expected: 0, Events: []events.Envelope{ev(g, "", "created")}}); err != nil {
			t.Fatal(err)
		}
	}
	waitfor.Until(t, 2*time.Second, "b sees both leases", func() bool { return len(b.Leases()) == 2 })
	if to, _ := b.LeastLoaded(""); to != "b" {
		t.Fatalf("least loaded: %s", to)
	}
	if err := a.Move("g1", "b"); err != nil {
		t.Fatal(err)
	}
	if !b.Owns("g1") || a.Owns("g1") {
		t.Fatal("g1 not moved")
	}
	if _, err := a.Do(store.Request{Game: "g1", Expected: 1, Events: []events.Envelope{ev("g1", "", "a's")}}); err == nil {
		t.Fatal("a appended to a moved game")
	}
	if r, err := b.Do(store.Request{Game: "g1", Expected: 1, Events: []events.Envelope{ev("g1", "", "b's")}}); err != nil || r.Last != 2 {
		t.Fatalf("b after the move: %+v %v", r, err)
	}
	moved, err := a.Drain()
	if err != nil || len(moved) != 1 || moved[0] != "g2 -> b" {
		t.Fatalf("drain: %v %v", moved, err)
	}
	if _, err := a.Do(store.Request{Game: "g3", Expected: 0, Events: []events.Envelope{ev("g3", "", "created")}}); err != nil {
		t.Fatal(err) // a draining node may still be asked to create; routing sends new games elsewhere
	}
	if to, _ := b.LeastLoaded(""); to != "b" {
		t.Fatalf("a draining node was chosen for new games: %s", to)
	}
}

// A request is a duplicate if any of its idempotency keys is recorded,
// not only its first event's (the intake keys a mail by its Message-ID
// and by fingerprints of its content). Such a request is answered from
// the store and nothing of it reaches the stream: were it published, the
// stream would hold events the store refused, and the next append would
// put the same seq in the stream twice. The keys travel with the stream's
// record, so the node that takes the game over refuses the same copy.
func TestNodeRequestKeysMakeADuplicateBeforeTheStreamAndSurviveATakeover(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	const lease = 600 * time.Millisecond
	a := startNode(t, srv, "a", lease)
	b := startNode(t, srv, "b", lease)
	if _, err := a.Do(store.Request{Game: "g1", Expected: 0, Events: []events.Envelope{ev("g1", "m1", "one")}, Keys: []string{"mail:fp1"}}); err != nil {
		t.Fatal(err)
	}
	// The same mail again under another Message-ID: its fingerprint is recorded.
	r, err := a.Do(store.Request{Game: "g1", Expected: 1, Events: []events.Envelope{ev("g1", "m1-again", "one")}, Keys: []string{"mail:fp1"}})
	if err != nil || !r.Duplicate || r.DuplicateKey != "mail:fp1" || r.First != 1 {
		t.Fatalf("a copy under a new Message-ID: %+v %v", r, err)
	}
	if r, err := a.Do(store.Request{Game: "g1", Expected: 1, Events: []events.Envelope{ev("g1", "m2", "two")}, Keys: []string{"mail:fp2"}}); err != nil || r.Last != 2 {
		t.Fatalf("the next order: %+v %v", r, err)
	}
	if keys := streamKeys(t, a.nc, "g1"); keys != "m1 m2" {
		t.Fatalf("the stream holds %s, want m1 m2", keys)
	}

	a.Node.Close()
	waitfor.Until(t, 10*lease, "b takes g1 over", func() bool { return b.Owns("g1") })
	for key, want := range map[string]uint64{"mail:fp1": 1, "mail:fp2": 2, "m2": 2} {
		if seq, ok, err := b.st.Lookup("g1", key); err != nil || !ok || seq != want {
			t.Errorf("b's key %s: at %d %v %v, want %d", key, seq, ok, err, want)
		}
	}
	r, err = b.Do(store.Request{Game: "g1", Expected: 2, Events: []events.Envelope{ev("g1", "m1-third", "one")}, Keys: []string{"mail:fp1"}})
	if err != nil || !r.Duplicate {
		t.Fatalf("the copy again, on the new owner: %+v %v", r, err)
	}
}

// An append whose answer this node never heard (the stream took it, and
// the acknowledgement was lost with a NATS server, or came after the
// timeout) is not a reason to drop the game, nor to write the same seq
// again: the next append is refused by the stream (its expected last
// sequence is stale), the node sees the subject's last message is its own,
// under its own lease, and catches its store up with the stream before it
// appends again. The stream holds each seq once.
func TestNodeAppendWhoseAnswerWasLostIsCaughtUpNotDroppedOrWrittenTwice(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	a := startNode(t, srv, "a", 2*time.Second)
	if _, err := a.Do(store.Request{Game: "g1", Expected: 0, Events: []events.Envelope{ev("g1", "m1", "one")}}); err != nil {
		t.Fatal(err)
	}
	// What a's earlier publish of m2 would have put in the stream, as a
	// publish does it (same headers, expected last, de-duplication id),
	// without a hearing the answer.
	h, _ := a.st.Head("g1")
	lost := ev("g1", "m2", "two")
	lost.Chain(h.Seq+1, h.Hash)
	a.mu.Lock()
	o := *a.owned["g1"]
	a.mu.Unlock()
	rec := record{Events: []events.Envelope{lost}}
	m := nats.NewMsg(Subject("g1"))
	m.Data = rec.marshal()
	m.Header.Set(hdrNode, "a")
	m.Header.Set(hdrLease, strconv.FormatUint(o.fenceRev, 10))
	if _, err := a.js.PublishMsg(t.Context(), m, jetstream.WithExpectLastSequencePerSubject(o.last), jetstream.WithMsgID(appendID("g1", &o, rec.Events))); err != nil {
		t.Fatal(err)
	}

	// The next append, chained on the store's head (seq 1), is refused by
	// the stream and leaves the game to catch up; a keeps the game.
	_, err := a.Do(store.Request{Game: "g1", Expected: 1, Events: []events.Envelope{ev("g1", "m3", "three")}})
	if err == nil || errors.Is(err, ErrFenced) {
		t.Fatalf("an append after a lost answer: %v, want a refusal that is not a fence", err)
	}
	if !a.Owns("g1") || a.has(&a.lost, "g1") {
		t.Fatal("a dropped its game over its own append")
	}
	// Asked again, a catches up first: the store now has m2 at seq 2, so
	// the request made on seq 1 conflicts, and one made on seq 2 lands.
	var conflict *store.ConflictError
	if _, err := a.Do(store.Request{Game: "g1", Expected: 1, Events: []events.Envelope{ev("g1", "m3", "three")}}); !errors.As(err, &conflict) || conflict.Actual != 2 {
		t.Fatalf("the append again, after catching up: %v, want a conflict at seq 2", err)
	}
	if r, err := a.Do(store.Request{Game: "g1", Expected: 2, Events: []events.Envelope{ev("g1", "m3", "three")}}); err != nil || r.Last != 3 {
		t.Fatalf("the append on the caught-up head: %+v %v", r, err)
	}
	if keys := streamKeys(t, a.nc, "g1"); keys != "m1 m2 m3" {
		t.Fatalf("the stream holds %s, want m1 m2 m3 once each", keys)
	}
	if n, err := a.st.Verify("g1"); err != nil || n != 3 {
		t.Fatalf("a's store: %d events, %v", n, err)
	}
}

// streamKeys audits game's stream (one writer at a time, one chain) and
// returns its events' keys in order, space-separated.
func streamKeys(t *testing.T, nc *nats.Conn, game string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, err := Audit(ctx, nc, game)
	if err != nil {
		t.Fatalf("the stream of %s: %v", game, err)
	}
	var keys []string
	for _, w := range ws {
		for _, e := range w.Events {
			keys = append(keys, e.Key)
		}
	}
	return strings.Join(keys, " ")
}

// The same append stored twice in the stream (the same de-duplication id
// and bytes, e.g. sent again once the server's de-duplication window had
// passed) adds nothing: readers pass the repeat over, Audit marks it, and
// a node taking the game over rebuilds it and carries on rather than
// refusing it.
func TestNodeTakeoverPassesOverAnAppendStoredTwice(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	const lease = 600 * time.Millisecond
	a := startNode(t, srv, "a", lease)
	b := startNode(t, srv, "b", lease)
	for i, key := range []string{"m1", "m2"} {
		if _, err := a.Do(store.Request{Game: "g1", Expected: uint64(i), Events: []events.Envelope{ev("g1", key, key)}}); err != nil {
			t.Fatal(err)
		}
	}
	// Store m2's message again, as it is, past a short de-duplication window.
	s, err := a.js.Stream(t.Context(), StreamName)
	if err != nil {
		t.Fatal(err)
	}
	// Twice: an update sets the server's purge timer to fire at once, and
	// only then the window its purge reads; a purge that runs between
	// (the server loaded) reads the old minute and sleeps on it. The
	// second update's purge reads the first's window either way.
	cfg := s.CachedInfo().Config
	for _, window := range []time.Duration{100 * time.Millisecond, 110 * time.Millisecond} {
		cfg.Duplicates = window
		if _, err := a.js.UpdateStream(t.Context(), cfg); err != nil {
			t.Fatal(err)
		}
	}
	m2, err := s.GetLastMsgForSubject(t.Context(), Subject("g1"))
	if err != nil {
		t.Fatal(err)
	}
	again := nats.NewMsg(Subject("g1"))
	again.Data = m2.Data
	for _, k := range []string{hdrNode, hdrLease, jetstream.MsgIDHeader} { // as the node sent it
		again.Header.Set(k, m2.Header.Get(k))
	}
	// The server forgets de-duplication ids on its own timer, some time
	// after the window: a publish it still takes for a duplicate stores
	// nothing, so send it again until it is stored.
	var ack *jetstream.PubAck
	waitfor.Until(t, 10*time.Second, "m2 stored again past the de-duplication window", func() bool {
		var err error
		ack, err = a.js.PublishMsg(t.Context(), again)
		if err != nil {
			t.Fatalf("storing m2 again: %v", err)
		}
		return !ack.Duplicate
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, err := Audit(ctx, a.nc, "g1")
	if err != nil {
		t.Fatalf("audit of a stream with a repeat: %v", err)
	}
	var marks []string
	for _, w := range ws {
		switch {
		case w.Repeat:
			marks = append(marks, "repeat")
		case w.Fence:
			marks = append(marks, "fence")
		default:
			marks = append(marks, w.Events[0].Key)
		}
	}
	if got := strings.Join(marks, " "); got != "fence m1 m2 repeat" {
		t.Fatalf("the stream as audited: %s", got)
	}

	a.Node.Close()
	waitfor.Until(t, 10*lease, "b takes g1 over", func() bool { return b.Owns("g1") })
	if n, err := b.st.Verify("g1"); err != nil || n != 2 {
		t.Fatalf("b's copy: %d events, %v", n, err)
	}
	if r, err := b.Do(store.Request{Game: "g1", Expected: 2, Events: []events.Envelope{ev("g1", "m3", "m3")}}); err != nil || r.Last != 3 {
		t.Fatalf("b's append after the repeat: %+v %v", r, err)
	}
	if keys := streamKeys(t, b.nc, "g1"); keys != "m1 m2 m3" {
		t.Fatalf("the stream's events: %s", keys)
	}
}
