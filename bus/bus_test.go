package bus

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "pbem.db")
	}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func ev(game string, i int) events.Envelope {
	return events.New(game, time.Unix(int64(i), 0), "", &events.OrderReceived{Player: "p", Text: strconv.Itoa(i)})
}

// recorder is a subscription handler that checks exactly-once, in-order delivery.
type recorder struct {
	mu   sync.Mutex
	last map[string]uint64
	n    int
	errs []string
}

func newRecorder() *recorder { return &recorder{last: map[string]uint64{}} }

func (r *recorder) handle(e *events.Envelope) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Seq != r.last[e.Game]+1 {
		r.errs = append(r.errs, fmt.Sprintf("%s: got seq %d after %d", e.Game, e.Seq, r.last[e.Game]))
	}
	r.last[e.Game] = e.Seq
	r.n++
}

// waitCaughtUp waits until the recorder has every stored event of every game.
func (r *recorder) waitCaughtUp(t *testing.T, st *store.Store, within time.Duration) {
	t.Helper()
	behind := ""
	if waitfor.True(within, func() bool {
		gs, _ := st.Games()
		behind = ""
		r.mu.Lock()
		for _, g := range gs {
			if r.last[g.Game] != g.Head.Seq {
				behind = fmt.Sprintf("%s at %d of %d", g.Game, r.last[g.Game], g.Head.Seq)
				break
			}
		}
		errs := r.errs
		r.mu.Unlock()
		if len(errs) > 0 {
			t.Fatalf("delivery not exactly-once in order: %v", errs[:min(5, len(errs))])
		}
		return behind == ""
	}) {
		return
	}
	t.Fatalf("subscriber still behind after %v: %s", within, behind)
}

// appendBurst appends n events to each game from one goroutine per game.
func appendBurst(t *testing.T, b *Bus, games []string, n int, pause time.Duration) {
	var wg sync.WaitGroup
	for _, g := range games {
		wg.Add(1)
		go func(g string) {
			defer wg.Done()
			for i := 0; i < n; i++ {
				h, _ := b.st.Head(g)
				if _, err := b.Append(g, h.Seq, ev(g, i)); err != nil {
					t.Error(err)
					return
				}
				if pause > 0 {
					time.Sleep(pause) // not a wait: it paces the burst
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestSubscriberStartedMidBurstSeesEveryEventOnceInOrder(t *testing.T) {
	st := openStore(t, "")
	b, err := Open(Config{}, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	games := []string{"g1", "g2", "g3", "g4"}
	done := make(chan struct{})
	go func() { appendBurst(t, b, games, 400, 0); close(done) }()
	waitfor.Until(t, 10*time.Second, "the burst to be under way", func() bool {
		h, _ := st.Head("g1")
		return h.Seq > 0
	})
	r := newRecorder()
	if _, err := b.Subscribe(nil, r.handle); err != nil {
		t.Fatal(err)
	}
	<-done
	r.waitCaughtUp(t, st, 10*time.Second)
	if r.n != 4*400 {
		t.Fatalf("delivered %d events, want %d", r.n, 1600)
	}
}

func TestRepublishSendsWhatWasCommittedButNotPublished(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	st := openStore(t, path)
	b, err := Open(Config{MarkEvery: 10 * time.Millisecond}, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	raw := make(chan *nats.Msg, 100)
	if _, err := b.Conn().ChanSubscribe(allSubjects, raw); err != nil {
		t.Fatal(err)
	}
	b.Conn().Flush()
	// Two events published normally, then three committed behind the bus's
	// back, as if pbem died between commit and publish.
	b.Append("g1", 0, ev("g1", 1), ev("g1", 2))
	st.Append("g1", 2, ev("g1", 3), ev("g1", 4), ev("g1", 5))
	// The marker stands at the two published events, as it would when
	// pbem died.
	waitfor.Until(t, 5*time.Second, "the marker to confirm the two published events", func() bool {
		gs, _ := st.Games()
		return gs[0].Published == 2
	})
	if err := b.Republish(); err != nil {
		t.Fatal(err)
	}
	// One doorbell an append, for its last event (g1/2 for the two), and
	// one for the head stands for the three: a subscriber reads them from
	// the store.
	var ids []string
	for len(ids) < 2 {
		select {
		case m := <-raw:
			ids = append(ids, m.Header.Get(nats.MsgIdHdr))
		case <-time.After(5 * time.Second):
			t.Fatalf("got only %v", ids)
		}
	}
	want := []string{"g1/2", "g1/5"}
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Fatalf("message ids %v, want %v", ids, want)
	}
	// The marker reaches the head once the server confirms.
	var published uint64
	if !waitfor.True(5*time.Second, func() bool {
		gs, _ := st.Games()
		published = gs[0].Published
		return published == 5
	}) {
		t.Fatalf("published marker stuck at %d", published)
	}
}

// natsServerBin returns a nats-server binary: $NATS_SERVER_BIN, one on
// PATH, or one built from the module version pinned in go.mod.
func natsServerBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("NATS_SERVER_BIN"); p != "" {
		return p
	}
	if p, err := exec.LookPath("nats-server"); err == nil {
		return p
	}
	out := filepath.Join(t.TempDir(), "nats-server")
	cmd := exec.Command("go", "build", "-o", out, "github.com/nats-io/nats-server/v2")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building nats-server from the pinned module: %v\n%s", err, b)
	}
	return out
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startNATS(t *testing.T, bin string, port int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var err error
	if !waitfor.True(10*time.Second, func() bool {
		var c net.Conn
		if c, err = net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err != nil {
			return false
		}
		c.Close()
		return true
	}) {
		t.Fatalf("nats-server did not listen: %v", err)
	}
	return cmd
}

func TestExternalServerKilledAndRestartedMidRunMissesNothing(t *testing.T) {
	bin := natsServerBin(t)
	port := freePort(t)
	srv := startNATS(t, bin, port)
	defer func() { srv.Process.Kill(); srv.Wait() }()
	st := openStore(t, "")
	b, err := Open(Config{URLs: []string{fmt.Sprintf("nats://127.0.0.1:%d", port)}, ResyncEvery: time.Hour}, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := newRecorder()
	if _, err := b.Subscribe(nil, r.handle); err != nil {
		t.Fatal(err)
	}
	games := []string{"a", "b", "c"}
	done := make(chan struct{})
	go func() { appendBurst(t, b, games, 300, 3*time.Millisecond); close(done) }()
	// Killed mid-run: once about a third of the burst has come through.
	waitfor.Until(t, 20*time.Second, "a third of the burst to be delivered", func() bool { return r.count() >= 3*100 })
	srv.Process.Signal(syscall.SIGKILL)
	srv.Wait()
	t.Logf("nats-server killed after %d events delivered", r.count())
	// Not a wait: the server stays down for a while, as in an outage,
	// while the burst goes on appending.
	time.Sleep(400 * time.Millisecond)
	srv = startNATS(t, bin, port)
	<-done
	// The periodic resync is off (an hour), so catching up relies on the
	// reconnect: republish plus the subscriber's resync.
	r.waitCaughtUp(t, st, 20*time.Second)
	if r.n != 3*300 {
		t.Fatalf("delivered %d, want %d", r.n, 900)
	}
	if !b.Conn().IsConnected() {
		t.Fatal("not reconnected")
	}
}

func (r *recorder) count() int { r.mu.Lock(); defer r.mu.Unlock(); return r.n }

// Messages forged on pbem's subjects change nothing: an event's bytes for
// the next seq, a doorbell for an event that does not exist, one for a
// game that does not exist, garbage. The subscriber delivers only what
// the store holds, and the next real event arrives as it should.
func TestForgedMessagesDeliverNothing(t *testing.T) {
	st := openStore(t, "")
	b, err := Open(Config{ResyncEvery: time.Hour}, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Append("g1", 0, ev("g1", 1), ev("g1", 2))
	rec := newRecorder()
	var mu sync.Mutex
	var got []string
	sub, err := b.Subscribe(nil, func(e *events.Envelope) {
		rec.handle(e)
		mu.Lock()
		got = append(got, fmt.Sprintf("%s/%d %s", e.Game, e.Seq, e.Hash.Hex()[:8]))
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	rec.waitCaughtUp(t, st, 5*time.Second)

	forged := ev("g1", 99)
	h, _ := st.Head("g1")
	forged.Chain(h.Seq+1, h.Hash)
	attacker := b.Conn() // a client on the same server
	for _, m := range []*nats.Msg{
		{Subject: Subject("g1"), Data: forged.Marshal(), Header: nats.Header{nats.MsgIdHdr: {"g1/3"}}},
		{Subject: Subject("g1"), Header: nats.Header{SeqHeader: {"3"}}},
		{Subject: Subject("g1"), Header: nats.Header{SeqHeader: {"1000000"}}},
		{Subject: Subject("nope"), Header: nats.Header{SeqHeader: {"1"}}},
		{Subject: Subject("g1"), Data: []byte("garbage"), Header: nats.Header{SeqHeader: {"x"}}},
	} {
		if err := attacker.PublishMsg(m); err != nil {
			t.Fatal(err)
		}
	}
	attacker.Flush()
	// The real event at seq 3 is not shadowed by the forged one. Its
	// doorbell goes out on the same connection after the forgeries, so
	// once it is delivered the subscriber has gone past them: whatever
	// they made it deliver is in got by then.
	real := ev("g1", 3)
	res, err := b.Append("g1", 2, real)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitCaughtUp(t, st, 5*time.Second)
	mu.Lock()
	defer mu.Unlock()
	if want := fmt.Sprintf("g1/3 %s", res.Events[0].Hash.Hex()[:8]); len(got) != 3 || got[2] != want {
		t.Fatalf("after the forgeries the subscriber delivered %q; want only the 2 stored events, then the stored event %s third", got, want)
	}
}

// The embedded server's listener requires a login, and what it carries is
// a doorbell: an eavesdropper with the login learns game and seq, never an
// event's content.
func TestEmbeddedListenerRequiresALoginAndCarriesNoContent(t *testing.T) {
	st := openStore(t, "")
	if _, err := Open(Config{Listen: "127.0.0.1:0"}, st, nil); err == nil {
		t.Fatal("a listener without a login was opened")
	}
	b, err := Open(Config{Listen: "127.0.0.1:0", User: "watcher", Password: "s3cret-pw"}, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	url := b.Embedded()
	if _, err := nats.Connect(url, nats.MaxReconnects(0)); err == nil {
		t.Fatal("connected without a login")
	}
	if _, err := nats.Connect(url, nats.UserInfo("watcher", "wrong"), nats.MaxReconnects(0)); err == nil {
		t.Fatal("connected with a wrong password")
	}
	nc, err := nats.Connect(url, nats.UserInfo("watcher", "s3cret-pw"), nats.Timeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	msgs := make(chan *nats.Msg, 10)
	nc.ChanSubscribe("pbem.>", msgs)
	nc.Flush()
	secret := events.New("g1", time.Unix(1, 0), "", &events.OrderReceived{Player: "p", Text: "Secret: do-not-leak"})
	if _, err := b.Append("g1", 0, secret); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-msgs:
		if len(m.Data) != 0 || m.Header.Get(SeqHeader) != "1" || m.Subject != Subject("g1") {
			t.Fatalf("the bus carried %q %v on %s; want an empty doorbell for seq 1", m.Data, m.Header, m.Subject)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no doorbell")
	}
}

// An external server that requires a login is reached with the configured
// user and password, and the doorbells flow.
func TestExternalServerWithALogin(t *testing.T) {
	bin := natsServerBin(t)
	port := freePort(t)
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", strconv.Itoa(port), "--user", "pbem", "--pass", "n4ts-secret")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	waitfor.Until(t, 10*time.Second, "nats-server to listen", func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	if _, err := nats.Connect(url, nats.MaxReconnects(0)); err == nil {
		t.Fatal("the server let a client in without a login")
	}
	st := openStore(t, "")
	b, err := Open(Config{URLs: []string{url}, User: "pbem", Password: "n4ts-secret"}, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rec := newRecorder()
	sub, err := b.Subscribe(nil, rec.handle)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	appendBurst(t, b, []string{"g1", "g2"}, 20, 0)
	rec.waitCaughtUp(t, st, 10*time.Second)
	if !b.Conn().IsConnected() {
		t.Fatal("not connected with the login")
	}
}
