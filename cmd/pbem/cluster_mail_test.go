//go:build linux

package main

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
)

// repliedAll returns the ids among ids that user has a reply to (one
// read of the inbox).
func (r *clusterRig) repliedAll(user string, ids []string) map[string]bool {
	got := map[string]bool{}
	for _, m := range readInbox(nil, r.players.IMAPAddr(), user, "pw") {
		for _, id := range ids {
			if strings.Contains(string(m), "<"+id+"@players.test>") {
				got[id] = true
			}
		}
	}
	return got
}

// quarantined returns the mails every node (live or not) logged as
// quarantined.
func (r *clusterRig) quarantined() []string {
	var out []string
	for n, c := range r.procs {
		buf, ok := c.Stderr.(*syncbuf.Buffer)
		if !ok {
			continue
		}
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.Contains(l, "mail quarantined") {
				out = append(out, n+": "+l)
			}
		}
	}
	return out
}

// waitReplies waits until user has a reply to every id, for up to
// within, and fails the test naming those left unanswered.
func (r *clusterRig) waitReplies(user string, ids []string, within time.Duration) {
	r.t.Helper()
	var got map[string]bool
	if waitfor.True(within, func() bool {
		got = r.repliedAll(user, ids)
		return len(got) == len(ids)
	}) {
		return
	}
	var left []string
	for _, id := range ids {
		if !got[id] {
			left = append(left, id)
		}
	}
	r.t.Fatalf("%d of %d orders unanswered after %v: %v\nquarantined: %v\n%s", len(left), len(ids), within, left, r.quarantined(), r.logs())
}

// A node owning eight games is killed (SIGKILL) while their players mail
// orders: right after the kill, and on through the takeovers, in which
// the survivors win each game's owner record first and rebuild the game
// from the stream after. Every order is answered and none is
// quarantined: a mail for a game being rebuilt waits until it is loaded,
// it is never judged as one for an unknown game.
func TestClusterMailDuringTakeoverIsAnsweredNotQuarantined(t *testing.T) {
	t.Parallel()
	r := newClusterRig(t)
	games := r.gamesOnN1(8)
	replyTo := map[string]string{}
	for _, g := range games {
		replyTo[g] = r.replyTo(g, "anna")
	}
	var sent []string
	send := func(round int) {
		for _, g := range games {
			id := fmt.Sprintf("%s-takeover-%d", g, round)
			r.send("anna", replyTo[g], id, "STATUS")
			sent = append(sent, id)
		}
	}
	r.procs["n1"].Process.Signal(syscall.SIGKILL)
	r.procs["n1"].Wait()
	killed := time.Now()
	// Orders through the whole takeover: from the kill until well after
	// the lease has run out and the games were taken one after another.
	for round := 0; time.Since(killed) < 3*testLease; round++ {
		send(round)
		time.Sleep(time.Second) // not a wait: it paces the orders through the takeover
	}
	r.waitReplies("anna", sent, 3*time.Minute)
	if q := r.quarantined(); len(q) > 0 {
		t.Fatalf("%d mails quarantined in the takeover:\n%s", len(q), strings.Join(q, "\n"))
	}
	t.Logf("%d orders to %d games mailed through their takeover, every one answered, none quarantined", len(sent), len(games))
}

// gamesOnN1 makes k games, all on n1, alone when they are made (n2 and
// n3 are stopped meanwhile): the others have no copy of them, so they
// rebuild each from the stream when they take it over.
func (r *clusterRig) gamesOnN1(k int) []string {
	r.t.Helper()
	for _, n := range []string{"n2", "n3"} {
		stopServe(r.t, r.procs[n])
	}
	var games []string
	for i := range k {
		g := fmt.Sprintf("t%d", i+1)
		games = append(games, g)
		if out, errOut, code := r.pbem("n1", "new", "--game", g, "--ruleset", "gcacw", "--scenario", "harrow-creek",
			"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro"); code != 0 {
			r.t.Fatalf("new %s: %s %s", g, out, errOut)
		}
	}
	for _, n := range []string{"n2", "n3"} {
		r.start(n)
	}
	return games
}

// A node killed (SIGKILL) comes back within its lease with a new, empty
// data directory (its disk replaced): its owner records still name it,
// so it takes its games back, rebuilding each from the stream, and it
// does so only at its first scan, a third of a lease after it starts.
// Meanwhile every node's intake reads the orders mailed to those games
// while it was down: this node's own, and the others', which hand them
// to it. None is judged on the node before it has the game (it would be
// quarantined as for an unknown game); every one is answered.
func TestClusterNodeBackWithAnEmptyDataDirectoryAnswersItsGamesMailNotQuarantined(t *testing.T) {
	t.Parallel()
	r := newClusterRigLease(t, faultLease)
	games := r.gamesOnN1(4)
	replyTo := map[string]string{}
	for _, g := range games {
		replyTo[g] = r.replyTo(g, "anna")
	}
	r.procs["n1"].Process.Signal(syscall.SIGKILL)
	r.procs["n1"].Wait()
	killed := time.Now()
	var sent []string
	for _, g := range games {
		id := g + "-while-down"
		r.send("anna", replyTo[g], id, "STATUS")
		sent = append(sent, id)
	}
	r.dirs["n1"] = t.TempDir()
	r.start("n1")
	if back := time.Since(killed); back > faultLease/2 {
		t.Logf("n1 took %v to come back: its games may have been taken over by the others instead", back)
	}
	for _, g := range games {
		id := g + "-back"
		r.send("anna", replyTo[g], id, "STATUS")
		sent = append(sent, id)
	}
	r.waitReplies("anna", sent, 4*faultLease+time.Minute)
	if q := r.quarantined(); len(q) > 0 {
		t.Fatalf("%d mails quarantined while n1 took its games back:\n%s", len(q), strings.Join(q, "\n"))
	}
	t.Logf("%d orders to %d games mailed while their node was down and as it came back empty, every one answered, none quarantined", len(sent), len(games))
}

// faultLease is the lease of the test below: long, so that a healthy
// game's mail is answered well within the time a dead node's lease takes
// to lapse even on a loaded machine.
const faultLease = 24 * time.Second

// One node is killed (SIGKILL) and another stopped (SIGSTOP), each
// owning a game; an order is mailed to each of their games, then one to
// a game of the third, healthy node. The healthy game's order is
// answered before the dead node's lease could even have lapsed (2/3 of a
// lease after the kill, by any node's clock): it did not wait behind the
// mails for the dead and the stopped node's games, which wait in their
// own games' queues. Once the stopped node resumes and the dead one's
// game is taken over, those are answered too; none is quarantined.
func TestClusterDeadAndPausedNodesHoldUpOnlyTheirOwnGamesMail(t *testing.T) {
	t.Parallel()
	r := newClusterRigLease(t, faultLease)
	games := []string{"d1", "p1", "h1"}
	for _, g := range games {
		if out, errOut, code := r.pbem("n1", "new", "--game", g, "--ruleset", "gcacw", "--scenario", "harrow-creek",
			"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro"); code != 0 {
			t.Fatalf("new %s: %s %s", g, out, errOut)
		}
	}
	owners := r.owners("n1")
	if len(owners) != 3 || owners["d1"] == owners["p1"] || owners["p1"] == owners["h1"] || owners["d1"] == owners["h1"] {
		t.Fatalf("new games not spread over the nodes: %v", owners)
	}
	replyTo := map[string]string{}
	for _, g := range games {
		replyTo[g] = r.replyTo(g, "anna")
	}
	// The healthy game's latency with every node up, for the log.
	start := time.Now()
	r.send("anna", replyTo["h1"], "h1-all-up", "STATUS")
	r.waitReplies("anna", []string{"h1-all-up"}, 2*time.Minute)
	normal := time.Since(start)

	dead, paused := r.procs[owners["d1"]], r.procs[owners["p1"]]
	dead.Process.Signal(syscall.SIGKILL)
	dead.Wait()
	paused.Process.Signal(syscall.SIGSTOP)
	faulted := time.Now()
	// The dead and the paused node's games' mails first in the mailbox.
	r.send("anna", replyTo["d1"], "d1-dead", "STATUS")
	r.send("anna", replyTo["p1"], "p1-paused", "STATUS")
	r.send("anna", replyTo["h1"], "h1-beside", "STATUS")
	r.waitReplies("anna", []string{"h1-beside"}, 2*time.Minute)
	beside := time.Since(faulted)
	paused.Process.Signal(syscall.SIGCONT)
	// A node's lease lapses, by another's clock, a whole lease after it
	// last saw the node's heartbeat change, and heartbeats come every
	// third of a lease: never sooner than 2/3 of a lease after the kill.
	if lapse := 2 * faultLease / 3; beside >= lapse {
		t.Fatalf("the healthy game's order was answered %v after the other nodes died or stopped, no sooner than the dead node's lease could lapse (%v): it waited behind their games' mails (all nodes up it took %v)\n%s",
			beside.Round(time.Millisecond), lapse, normal.Round(time.Millisecond), r.logs())
	}
	r.waitReplies("anna", []string{"d1-dead", "p1-paused"}, 4*faultLease+time.Minute)
	if q := r.quarantined(); len(q) > 0 {
		t.Fatalf("%d mails quarantined:\n%s", len(q), strings.Join(q, "\n"))
	}
	t.Logf("healthy game answered in %v with a node dead and one stopped (lease %v; all nodes up: %v); the dead and stopped nodes' games answered after, in %v",
		beside.Round(time.Millisecond), faultLease, normal.Round(time.Millisecond), time.Since(faulted).Round(time.Millisecond))
}
