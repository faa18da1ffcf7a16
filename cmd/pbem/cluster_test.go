//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/nats-io/nats.go"

	"pbem/cluster"
	"pbem/internal/natscluster"
	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
)

// testLease is the cluster lease in these tests: short, so that a
// takeover happens within the test, and long enough for a loaded
// two-core machine running everything with -race.
const testLease = 3 * time.Second

// startNATSCluster runs three nats-server processes clustered with
// JetStream on loopback, each fsyncing every write (sync_interval:
// always), and waits until JetStream answers (see startNATSServers).
func startNATSCluster(t testing.TB) []*natscluster.Proc {
	t.Helper()
	// PBEM_BENCH_NATS_SYNC=default leaves JetStream's own sync interval,
	// for the bench to measure what "always" costs.
	procs, err := natscluster.Start(natsServer(t), t.TempDir(), os.Getenv("PBEM_BENCH_NATS_SYNC") == "default")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { natscluster.Stop(procs) })
	return procs
}

// clusterRig is three pbem nodes on the NATS cluster, reading one game
// mailbox and sending to the players' mail host.
type clusterRig struct {
	t       *testing.T
	nats    []*natscluster.Proc
	game    *mailhost.Host // the game mailbox pbem reads (pbem@game.test)
	players *mailhost.Host // the players' own mail provider
	env     []string
	dirs    map[string]string
	procs   map[string]*exec.Cmd
}

func newClusterRig(t *testing.T) *clusterRig {
	t.Helper()
	return newClusterRigLease(t, testLease)
}

// newClusterRigLease is newClusterRig with the nodes' lease.
func newClusterRigLease(t *testing.T, lease time.Duration) *clusterRig {
	t.Helper()
	r := &clusterRig{t: t, nats: startNATSCluster(t), dirs: map[string]string{}, procs: map[string]*exec.Cmd{}}
	var err error
	if r.game, err = mailhost.Start(mailhost.Config{Domain: "game.test", OpenDelivery: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.game.Close() })
	if err := r.game.AddUser("pbem", "pw"); err != nil {
		t.Fatal(err)
	}
	if r.players, err = mailhost.Start(mailhost.Config{Domain: "players.test", OpenDelivery: true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.players.Close() })
	for _, u := range []string{"anna", "taro"} {
		if err := r.players.AddUser(u, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	r.env = []string{"PBEM_NATS_URLS=" + strings.Join(natscluster.URLs(r.nats), ","), "PBEM_CLUSTER_LEASE=" + lease.String(),
		"PBEM_MAIL_DOMAIN=game.test", "PBEM_MAIL_RATE_PER_HOUR=100000", "PBEM_MAIL_IMAP_POLL=1s",
		"PBEM_MAIL_IMAP_ADDR=" + r.game.IMAPAddr(), "PBEM_MAIL_IMAP_USERNAME=pbem", "PBEM_MAIL_IMAP_PASSWORD=pw",
		"PBEM_MAIL_SMTP_ADDR=" + r.players.SMTPAddr(), "PBEM_ENGINE_CLOCK=1s",
		// Orders come through an open host that writes no login: the
		// cluster tests take them as they are.
		"PBEM_MAIL_SENDER_AUTH=lenient"}
	for _, n := range []string{"n1", "n2", "n3"} {
		r.dirs[n] = t.TempDir()
		r.start(n)
	}
	return r
}

func (r *clusterRig) start(node string) {
	r.procs[node] = startServe(r.t, r.dirs[node], append(append([]string{}, r.env...), "PBEM_CLUSTER_NODE="+node)...)
}

// pbem runs a command on node (through its server).
func (r *clusterRig) pbem(node string, args ...string) (string, string, int) {
	return pbem(r.t, r.env, append([]string{"--data-dir", r.dirs[node]}, args...)...)
}

var ownerRE = regexp.MustCompile(`(?m)^\s+(\S+)\s+owner (\S+)\s+epoch (\d+)\s+lease (\S+)`)

// owners returns every game's owner with a running lease, as node sees them.
func (r *clusterRig) owners(node string) map[string]string {
	out, _, _ := r.pbem(node, "games")
	m := map[string]string{}
	for _, f := range ownerRE.FindAllStringSubmatch(out, -1) {
		m[f[1]] = f[2]
	}
	return m
}

// send delivers a player's order mail to the game mailbox over SMTP, and
// fails the test unless the host answers 250 (the mail is on its disk).
func (r *clusterRig) send(from, to, id, text string) {
	r.t.Helper()
	msg := fmt.Sprintf("From: %s@players.test\r\nTo: %s\r\nSubject: Re: your move\r\nMessage-ID: <%s@players.test>\r\nContent-Type: text/plain\r\n\r\n%s\r\n", from, to, id, text)
	c, err := smtp.Dial(r.game.SMTPAddr())
	if err != nil {
		r.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("players.test"); err != nil {
		r.t.Fatal(err)
	}
	if err := c.SendMail(from+"@players.test", []string{to}, strings.NewReader(msg)); err != nil {
		r.t.Fatalf("sending %s: %v", id, err)
	}
	c.Quit()
}

// replyTo waits for user's welcome mail of game and returns its reply address.
func (r *clusterRig) replyTo(game, user string) string {
	r.t.Helper()
	re := regexp.MustCompile(`pbem\+` + game + `\.` + user + `\.[a-z2-7]{16}@game\.test`)
	var addr string
	waitfor.Until(r.t, 60*time.Second, "a welcome mail of "+game+" for "+user, func() bool {
		for _, m := range readInbox(nil, r.players.IMAPAddr(), user, "pw") {
			if a := re.Find(m); a != nil {
				addr = string(a)
			}
		}
		return addr != ""
	})
	return addr
}

// replied reports whether user has a reply to the order mail id.
func (r *clusterRig) replied(user, id string) bool {
	for _, m := range readInbox(nil, r.players.IMAPAddr(), user, "pw") {
		if strings.Contains(string(m), "<"+id+"@players.test>") {
			return true
		}
	}
	return false
}

// logs returns the nodes' warnings and errors, for a failure's message.
func (r *clusterRig) logs() string {
	var b strings.Builder
	for _, n := range []string{"n1", "n2", "n3"} {
		c := r.procs[n]
		if c == nil {
			continue
		}
		buf, ok := c.Stderr.(*syncbuf.Buffer)
		if !ok {
			continue
		}
		var lines []string
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "WARN") || strings.Contains(l, "ERROR") || strings.Contains(l, "component=cluster") ||
				strings.Contains(l, `msg="control command"`) {
				lines = append(lines, l)
			}
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", n, tail(strings.Join(lines, "\n"), 25))
	}
	return b.String()
}

func (r *clusterRig) live() []string {
	var out []string
	for _, n := range []string{"n1", "n2", "n3"} {
		if c := r.procs[n]; c != nil && c.ProcessState == nil {
			out = append(out, n)
		}
	}
	return out
}

// Three pbem nodes on a three-server NATS cluster with JetStream take a
// flood of order mails for three games while one node is killed with
// SIGKILL, another is stopped (SIGSTOP) for longer than its lease and
// then resumed, and one NATS server is killed. In the end every order
// the mail host accepted is in its game's log exactly once and decided,
// every game verifies on its owner, the stream shows one writer at a
// time (every append after a takeover carries the new lease, and the
// resumed node's appends were refused), every node's copy of a game is a
// prefix of the stream's, and a killed node's games answered mail again
// within the bound stated below.
func TestClusterFailoverLosesNoOrderAndNeverHasTwoWriters(t *testing.T) {
	t.Parallel()
	r := newClusterRig(t)
	games := []string{"g1", "g2", "g3"}
	for _, g := range games {
		if out, errOut, code := r.pbem("n1", "new", "--game", g, "--ruleset", "gcacw", "--scenario", "harrow-creek",
			"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro"); code != 0 {
			t.Fatalf("new %s: %s %s", g, out, errOut)
		}
	}
	// New games went to the least-loaded node: one each.
	owners := r.owners("n2")
	if len(owners) != 3 || owners["g1"] == owners["g2"] || owners["g2"] == owners["g3"] || owners["g1"] == owners["g3"] {
		t.Fatalf("new games not spread over the nodes: %v", owners)
	}
	replyTo := map[string]string{}
	for _, g := range games {
		for _, u := range []string{"anna", "taro"} {
			replyTo[g+"/"+u] = r.replyTo(g, u)
		}
	}
	sent := map[string][]string{}
	n := 0
	flood := func(k int) {
		for range k {
			for _, g := range games {
				u := []string{"anna", "taro"}[n%2]
				id := fmt.Sprintf("%s-order-%d", g, n)
				r.send(u, replyTo[g+"/"+u], id, "STATUS")
				sent[g] = append(sent[g], id)
			}
			n++
		}
	}
	flood(4)

	// kill -9 the owner of g1; g1 must answer mail again within the bound.
	victim := owners["g1"]
	r.procs[victim].Process.Signal(syscall.SIGKILL)
	r.procs[victim].Wait()
	killed := time.Now()
	probe := "g1-after-kill"
	r.send("anna", replyTo["g1/anna"], probe, "STATUS")
	sent["g1"] = append(sent["g1"], probe)
	flood(3)
	if !waitfor.True(8*testLease-time.Since(killed), func() bool { return r.replied("anna", probe) }) {
		t.Fatalf("g1 did not answer mail within %v of its owner's death\n%s", 8*testLease, r.logs())
	}
	answered := time.Since(killed)

	// SIGSTOP the owner of g2 (a live node) for twice the lease, then SIGCONT.
	owners = r.owners(r.live()[0])
	stopped := owners["g2"]
	if stopped == victim || stopped == "" {
		t.Fatalf("g2's owner: %v (killed: %s)", owners, victim)
	}
	r.procs[stopped].Process.Signal(syscall.SIGSTOP)
	flood(2)
	// Not a wait: the node stays stopped for twice its lease, in real
	// time, as a paused process would.
	time.Sleep(2 * testLease)
	r.procs[stopped].Process.Signal(syscall.SIGCONT)
	flood(2)

	// Kill one NATS server; the other two keep the quorum.
	r.nats[2].Kill()
	flood(3)

	// The killed node comes back with its data directory.
	r.start(victim)
	flood(2)

	// Every order is decided once, on whichever node owns its game now.
	for _, g := range games {
		var out string
		var decided int
		if !waitfor.True(120*time.Second, func() bool {
			out, _, _ = r.pbem(r.live()[0], "log", g)
			decided = strings.Count(out, "order.accepted/v2") + strings.Count(out, "order.rejected/v1")
			return decided >= len(sent[g])
		}) {
			t.Fatalf("%s: %d of %d orders decided within 120s:\n%s\n%s", g, decided, len(sent[g]), tail(out, 20), r.logs())
		}
		if decided != len(sent[g]) {
			t.Errorf("%s: %d decisions for %d orders", g, decided, len(sent[g]))
		}
		for _, id := range sent[g] {
			if c := strings.Count(out, "<"+id+"@players.test>"); c != 1 {
				t.Errorf("%s: order %s is in the log %d times", g, id, c)
			}
		}
		if out, errOut, code := r.pbem(r.live()[1], "verify", g); code != 0 {
			t.Errorf("verify %s: %s %s", g, out, errOut)
		}
	}

	// One writer at a time, in the stream itself.
	nc, err := nats.Connect(strings.Join(natscluster.URLs(r.nats[:2]), ","))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// streamHeads reads every game's stream, and the hash of each of its
	// events by seq.
	streamHeads := func() map[string]map[uint64]string {
		heads := map[string]map[uint64]string{}
		for _, g := range games {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			ws, err := cluster.Audit(ctx, nc, g)
			cancel()
			if err != nil {
				t.Fatalf("%s: %v\nthe stream as read:\n%s\n%s", g, err, describeWritten(ws), r.logs())
			}
			heads[g] = map[uint64]string{}
			for _, w := range ws {
				for _, e := range w.Events {
					heads[g][e.Seq] = e.Hash.Hex()
				}
			}
		}
		return heads
	}
	takeovers, repeats := 0, 0
	var g2Fences []string // who fenced g2, in stream order
	for _, g := range games {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		ws, err := cluster.Audit(ctx, nc, g)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v\nthe stream as read:\n%s\n%s", g, err, describeWritten(ws), r.logs())
		}
		for _, w := range ws {
			if w.Repeat {
				repeats++
			}
			if w.Fence {
				takeovers++
				if g == "g2" {
					g2Fences = append(g2Fences, w.Node)
				}
			}
		}
	}
	if takeovers < 3+2 {
		t.Errorf("%d fences in the stream: want the 3 new games' and at least the killed and the stopped node's games' takeovers", takeovers)
	}
	// The stopped node was fenced: another node took g2 by a fence of its
	// own. The stopped node may own g2 again at the end only by a later
	// fence of its own (a new lease, taken back legitimately, e.g. as the
	// least-loaded node), never by its old one.
	fencedByOther := false
	for _, n := range g2Fences {
		fencedByOther = fencedByOther || n != stopped
	}
	if !fencedByOther {
		t.Errorf("no other node fenced g2 while %s was stopped past its lease (fences by %v)", stopped, g2Fences)
	}
	if o := r.owners(stopped)["g2"]; o == stopped && (len(g2Fences) == 0 || g2Fences[len(g2Fences)-1] != stopped) {
		t.Errorf("the node stopped past its lease still owns g2 under its old lease (fences by %v)", g2Fences)
	}

	// Every node's own copy of every game is a prefix of the stream's.
	// (The stream as it is once they stopped: until then their outboxes
	// record the mails they sent, after the orders were decided.)
	for _, node := range r.live() {
		stopServe(t, r.procs[node])
	}
	heads := streamHeads()
	for node, dir := range r.dirs {
		for _, g := range games {
			out, _, code := pbem(t, r.env, "--data-dir", dir, "verify", g)
			if code != 0 {
				continue // this node never held g
			}
			m := regexp.MustCompile(`(\d+) events, intact; head ([0-9a-f]+)`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("%s verify %s: %s", node, g, out)
			}
			seq, _ := strconv.ParseUint(m[1], 10, 64)
			if heads[g][seq] != m[2] {
				t.Errorf("%s's copy of %s ends at %d with %s, the stream has %s there: two writers", node, g, seq, m[2], heads[g][seq])
			}
		}
	}
	t.Logf("cluster: %d orders over 3 games; a killed node's game answered mail again %v after the kill (lease %v; bound 8 x lease); %d appends stored twice by the stream (passed over by every reader)",
		n*3+1, answered.Round(100*time.Millisecond), testLease, repeats)
}

// describeWritten lists a game's stream messages as Audit read them, a
// line each, for a failure's message.
func describeWritten(ws []cluster.Written) string {
	var b strings.Builder
	for _, w := range ws {
		if w.Repeat {
			fmt.Fprintf(&b, "  stream %d: a repeat of the message before it\n", w.StreamSeq)
			continue
		}
		fmt.Fprintf(&b, "  stream %d node %s lease %d fence %t events", w.StreamSeq, w.Node, w.Lease, w.Fence)
		if len(w.Events) > 0 {
			fmt.Fprintf(&b, " (key %q)", w.Events[0].Key)
		}
		for _, e := range w.Events {
			fmt.Fprintf(&b, " %d:%s:%.8s", e.Seq, e.Type, e.Hash.Hex())
		}
		b.WriteString("\n")
	}
	return b.String()
}
