package cluster

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

// lastSeqOf is the last sequence of a bucket's stream: it moves with every
// write to the bucket.
func lastSeqOf(t *testing.T, nc *nats.Conn, bucket string) uint64 {
	t.Helper()
	js, _ := jetstream.New(nc)
	s, err := js.Stream(t.Context(), "KV_"+bucket)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.LastSeq
}

// Keeping games costs one heartbeat per node, not one write per
// game: while their node lives, the owner records of its 40 games are not
// written at all, and another node takes none of them.
func TestNodeRenewalWritesOneKeyPerNodeNotPerGame(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	const lease = 300 * time.Millisecond
	a := startNode(t, srv, "a", lease)
	b := startNode(t, srv, "b", lease)
	const games = 40
	for i := range games {
		g := fmt.Sprintf("g%d", i)
		if _, err := a.Do(store.Request{Game: g, Expected: 0, Events: []events.Envelope{ev(g, "", "created")}}); err != nil {
			t.Fatal(err)
		}
	}
	owners, nodes := lastSeqOf(t, a.nc, OwnersBucket), lastSeqOf(t, a.nc, NodesBucket)
	// Not a wait: the heartbeats are counted over six leases of real
	// time, and the owner records must stay unwritten through them.
	time.Sleep(6 * lease)
	if got := lastSeqOf(t, a.nc, OwnersBucket); got != owners {
		t.Errorf("the owner records were written %d times in 6 leases while their node lived", got-owners)
	}
	// Two nodes, a heartbeat each per third of a lease: about 36.
	if got := lastSeqOf(t, a.nc, NodesBucket) - nodes; got < 12 || got > 60 {
		t.Errorf("%d heartbeats in 6 leases of two nodes", got)
	}
	for i := range games {
		if g := fmt.Sprintf("g%d", i); !a.Owns(g) || b.has(&b.gained, g) {
			t.Fatalf("%s changed hands while its node lived", g)
		}
	}
}

// childNodeEnv makes the test binary run helperNode instead of the tests.
const childNodeEnv = "PBEM_CLUSTER_TEST_CHILD"

// TestMain runs the helper node in a child process when asked.
func TestMain(m *testing.M) {
	if url := os.Getenv(childNodeEnv); url != "" {
		helperNode(url)
		return
	}
	os.Exit(m.Run())
}

// helperNode is a pbem node in its own process: it creates g1 and appends
// to it every 20ms, printing each outcome on a line ("ok SEQ", "refused
// ERR", "lost g1"), until its stdin closes.
func helperNode(url string) {
	nc, err := nats.Connect(url)
	if err != nil {
		fmt.Println("fatal", err)
		os.Exit(1)
	}
	dir, _ := os.MkdirTemp("", "pbem-child")
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "pbem.db"), store.Options{})
	if err != nil {
		fmt.Println("fatal", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	say := func(f string, args ...any) { mu.Lock(); fmt.Printf(f+"\n", args...); mu.Unlock() }
	n, err := Open(context.Background(), nc, st, Config{Node: "child", Lease: childLease, Replicas: 1,
		Hooks: Hooks{Lost: func(g string) { say("lost %s", g) }}})
	if err != nil {
		fmt.Println("fatal", err)
		os.Exit(1)
	}
	go func() { bufio.NewReader(os.Stdin).ReadString('\n'); n.Close(); nc.Close(); st.Close(); os.Exit(0) }()
	for i := 0; ; i++ {
		h, _ := st.Head("g1")
		r, err := n.Do(store.Request{Game: "g1", Expected: h.Seq, Events: []events.Envelope{ev("g1", fmt.Sprintf("c%d", i), "child")}})
		if err != nil {
			say("refused %v", err)
		} else {
			say("ok %d", r.Last)
		}
		time.Sleep(20 * time.Millisecond) // not a wait: it paces the appends
	}
}

const childLease = time.Second

// A node stopped (SIGSTOP) for longer than its lease loses its
// game to another node; when it resumes (SIGCONT), its own clock tells it
// its lease lapsed, its appends are refused, and it drops the game. The
// stream shows its last message before the taker's fence and nothing of
// it after.
func TestNodeStoppedPastItsLeaseIsRefusedAndDropsTheGame(t *testing.T) {
	t.Parallel()
	srv := jetStream(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childNodeEnv+"="+srv.ClientURL())
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGCONT); stdin.Close(); cmd.Wait() })
	lines := make(chan string, 10000)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(within time.Duration) string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the child node ended")
			}
			return l
		case <-time.After(within):
			t.Fatalf("the child node said nothing for %v", within)
		}
		return ""
	}
	for oks := 0; oks < 5; {
		l := next(30 * time.Second)
		if strings.HasPrefix(l, "fatal") {
			t.Fatal(l)
		}
		if strings.HasPrefix(l, "ok ") {
			oks++
		}
	}
	b := startNode(t, srv, "b", childLease)

	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	waitfor.Until(t, 10*childLease, "b takes g1 over from the stopped node", func() bool { return b.Owns("g1") })
	took := time.Since(stopped)
	taken, _ := b.st.Head("g1") // what b rebuilt: everything before its fence
	// took may be under a lease: b counts from the stopped node's last
	// heartbeat, sent up to a third of a lease before the stop. That the
	// stopped node wrote nothing after b's fence is what is checked below.
	// Not a wait: the stopped node stays stopped well past its lease, in
	// real time, as a paused process would.
	time.Sleep(childLease)
	for len(lines) > 0 {
		<-lines // what it said before the stop
	}
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	var refused, lost bool
	for deadline := time.Now().Add(10 * childLease); !lost || !refused; {
		l := next(time.Until(deadline))
		switch {
		case strings.HasPrefix(l, "ok "):
			// An append sent before the stop may finish now; it must be
			// one that reached the stream before b's fence.
			var seq uint64
			fmt.Sscanf(l, "ok %d", &seq)
			if seq > taken.Seq {
				t.Errorf("the resumed node appended seq %d past the %d b took over", seq, taken.Seq)
			}
		case strings.HasPrefix(l, "refused "):
			refused = true
		case l == "lost g1":
			lost = true
		}
	}
	// b carries on from its own head; the stream has one writer at a time.
	h, _ := b.st.Head("g1")
	if _, err := b.Do(store.Request{Game: "g1", Expected: h.Seq, Events: []events.Envelope{ev("g1", "b1", "b's")}}); err != nil {
		t.Fatalf("the new owner's append: %v", err)
	}
	ws, err := Audit(t.Context(), b.nc, "g1")
	if err != nil {
		t.Fatal(err)
	}
	fenced := false
	for _, w := range ws {
		if w.Fence && w.Node == "b" {
			fenced = true
		}
		if fenced && w.Node == "child" {
			t.Errorf("stream message %d by the stopped node after b's fence", w.StreamSeq)
		}
	}
	if !fenced {
		t.Error("no fence by b in the stream")
	}
	t.Logf("g1 taken over %v after its owner was stopped (lease %v)", took.Round(time.Millisecond), childLease)
}

// With owner records written only when a game changes hands,
// the owner still records its game's head once a lease while the game
// moves (in pbem_heads, under its epoch), and a takeover checks the stream
// against it: a stream whose chain does not hold that head is refused,
// and the game is not rebuilt from it; the head as recorded is taken over.
func TestNodeTakeoverChecksTheHeadTheOwnerRecordedLast(t *testing.T) {
	t.Parallel()
	for _, tamper := range []bool{false, true} {
		t.Run(fmt.Sprintf("tampered=%v", tamper), func(t *testing.T) {
			srv := jetStream(t)
			const lease = 600 * time.Millisecond
			a := startNode(t, srv, "a", lease)
			for i := range 3 {
				if _, err := a.Do(store.Request{Game: "g1", Expected: uint64(i), Events: []events.Envelope{ev("g1", fmt.Sprintf("m%d", i), "x")}}); err != nil {
					t.Fatal(err)
				}
			}
			head, _ := a.st.Head("g1")
			js, _ := jetstream.New(a.nc)
			heads, err := js.KeyValue(t.Context(), HeadsBucket)
			if err != nil {
				t.Fatal(err)
			}
			waitfor.Until(t, 5*lease, "a records g1's head", func() bool {
				e, err := heads.Get(t.Context(), "g1")
				return err == nil && strings.Contains(string(e.Value()), head.Hash.Hex())
			})
			if e, _ := a.owners.Get(t.Context(), "g1"); strings.Contains(string(e.Value()), head.Hash.Hex()) {
				t.Fatal("the owner record was written with the head: it should change only with the owner")
			}
			a.Node.Close()
			if tamper { // a head the stream's chain does not hold: a stream that lost acknowledged appends
				heads.Put(t.Context(), "g1", fmt.Appendf(nil, `{"epoch":1,"seq":4,"hash":%q}`, head.Hash.Hex()))
			}
			b := startNode(t, srv, "b", lease)
			if !tamper {
				waitfor.Until(t, 10*lease, "b takes g1 over", func() bool { return b.Owns("g1") })
				if h, _ := b.st.Head("g1"); h != head {
					t.Fatalf("b rebuilt %+v, a had %+v", h, head)
				}
				return
			}
			// Not a wait for an event: b's takeover, refused, logs only
			// after its 20 tries (some 4s, more than these six leases),
			// and a lasting refusal is what is checked, so b is given
			// six leases of real time to take g1 wrongly.
			time.Sleep(6 * lease)
			if b.Owns("g1") {
				t.Fatal("b took g1 over from a stream without the head its owner recorded")
			}
			if h, _ := b.st.Head("g1"); h.Seq != 0 {
				t.Fatalf("b's store took %d events of a stream it refused", h.Seq)
			}
		})
	}
}
