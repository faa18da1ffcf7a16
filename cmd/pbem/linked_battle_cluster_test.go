//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/cluster"
	"pbem/internal/natscluster"
	"pbem/internal/waitfor"
	"pbem/server"
)

// linkedCluster is a campaign held by one node of a three-node cluster
// and the battle its assault is fought out in held by another; the third
// node holds neither.
type linkedCluster struct {
	t                           *testing.T
	r                           *clusterRig
	nc                          *nats.Conn
	campNode, battleNode, third string
	battle, defender            string
	// beforeAssault is the campaign's last seq before its assault.
	beforeAssault uint64
}

// newLinkedCluster starts the cluster, creates the campaign, plays it to
// its assault and moves the battle to a node that does not hold the
// campaign.
func newLinkedCluster(t *testing.T) *linkedCluster {
	t.Helper()
	r := newClusterRig(t)
	if err := r.players.AddUser("carol", "pw"); err != nil {
		t.Fatal(err)
	}
	lc := &linkedCluster{t: t, r: r}
	scen := filepath.Join(t.TempDir(), "served-fields.txt")
	if err := os.WriteFile(scen, []byte(servedCampaign), 0o600); err != nil {
		t.Fatal(err)
	}
	lc.run("n1", "new", "--game", "camp", "--ruleset", "gcacw", "--scenario-file", scen,
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro", "--referee", "carol:carol@players.test:Carol")
	waitfor.Until(t, 60*time.Second, "the campaign's owner", func() bool {
		lc.campNode = r.owners("n1")["camp"]
		return lc.campNode != ""
	})
	nc, err := nats.Connect(strings.Join(natscluster.URLs(r.nats), ","))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	lc.nc = nc
	lc.run(lc.campNode, "order", "camp", "--player", "anna", "PASS")
	lc.run(lc.campNode, "order", "camp", "--player", "taro", "PASS")
	lc.beforeAssault = lc.head("camp")
	// The initiative dice say who acts first: a refused order exits 1,
	// so the other side is tried without failing.
	lc.defender = "taro"
	if out := lc.try(lc.campNode, "order", "camp", "--player", "anna", "ASSAULT Able ON 0504"); !strings.Contains(out, "accepted:") {
		lc.defender = "anna"
		if out2 := lc.try(lc.campNode, "order", "camp", "--player", "taro", "ASSAULT Yoke ON 0505"); !strings.Contains(out2, "accepted:") {
			t.Fatalf("neither side could assault:\n%s\n%s", out, out2)
		}
	}
	waitfor.Until(t, 60*time.Second, "the campaign's node to open the battle", func() bool {
		m := regexp.MustCompile(`waits on battle (\S+):`).FindStringSubmatch(lc.try(lc.campNode, "games"))
		if m == nil {
			return false
		}
		lc.battle = m[1]
		return r.owners(lc.campNode)[lc.battle] != ""
	})
	// The battle goes to another node; the third holds nothing, so it is
	// the least loaded, and takes over a game whose node dies.
	var others []string
	for _, n := range []string{"n1", "n2", "n3"} {
		if n != lc.campNode {
			others = append(others, n)
		}
	}
	lc.battleNode, lc.third = others[0], others[1]
	if o := r.owners(lc.campNode)[lc.battle]; o != lc.battleNode {
		lc.run(o, "move", lc.battle, "--to", lc.battleNode)
	}
	waitfor.Until(t, 60*time.Second, "the battle to be held by "+lc.battleNode, func() bool {
		return r.owners(lc.third)[lc.battle] == lc.battleNode && r.owners(lc.third)["camp"] == lc.campNode
	})
	return lc
}

// run runs a pbem command on node and fails the test unless it succeeds.
func (lc *linkedCluster) run(node string, args ...string) string {
	lc.t.Helper()
	out, errOut, code := lc.r.pbem(node, args...)
	if code != 0 {
		lc.t.Fatalf("pbem %v on %s: exit %d\n%s\n%s\n%s", args, node, code, out, errOut, lc.r.logs())
	}
	return out
}

// try runs a pbem command on node and returns what it printed.
func (lc *linkedCluster) try(node string, args ...string) string {
	out, errOut, _ := lc.r.pbem(node, args...)
	return out + errOut
}

// stream is game's log as the cluster holds it, whichever node holds
// the game, each append with its writer.
func (lc *linkedCluster) stream(game string) []cluster.Written {
	lc.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, err := cluster.Audit(ctx, lc.nc, game)
	if err != nil {
		lc.t.Fatalf("%s's stream: %v\n%s", game, err, describeWritten(ws))
	}
	return ws
}

// head is the last seq of game's stream.
func (lc *linkedCluster) head(game string) uint64 {
	var seq uint64
	for _, w := range lc.stream(game) {
		for _, e := range w.Events {
			seq = max(seq, e.Seq)
		}
	}
	return seq
}

// keyed counts the events of game's stream whose idempotency key starts
// with prefix.
func (lc *linkedCluster) keyed(game, prefix string) int {
	n := 0
	for _, w := range lc.stream(game) {
		for _, e := range w.Events {
			if strings.HasPrefix(e.Key, prefix) {
				n++
			}
		}
	}
	return n
}

// kill freezes node (SIGSTOP), runs what hands something to it, waits a
// second so the hand-off is on its way to a node that does not answer,
// and kills it (SIGKILL); it returns the time of the kill.
func (lc *linkedCluster) kill(node string, meanwhile func()) time.Time {
	lc.t.Helper()
	lc.r.procs[node].Process.Signal(syscall.SIGSTOP)
	meanwhile()
	// Not a wait: the frozen node is left a second, in real time, for
	// the hand-off to reach it unanswered.
	time.Sleep(time.Second)
	lc.r.procs[node].Process.Signal(syscall.SIGKILL)
	lc.r.procs[node].Wait()
	return time.Now()
}

// checkBoth verifies and audits the campaign and its battle on node, and
// checks that each stream had one writer at a time.
func (lc *linkedCluster) checkBoth(node string) {
	lc.t.Helper()
	for _, g := range []string{"camp", lc.battle} {
		lc.run(node, "audit", "--quiet", g)
		lc.stream(g)
	}
}

// A campaign held by one node of a cluster, its battle by another: the
// battle ends while the campaign's node is frozen (SIGSTOP), so the
// battle's node hands the result to a node that does not answer, and the
// campaign's node is killed (SIGKILL) with the result on its way. Another
// node takes the campaign over, the battle's node hands the result again,
// to it, and the campaign takes it exactly once: the stream holds the
// result once, the campaign goes on, pbem verify checks the link both
// ways on the nodes holding the games now, pbem audit re-decides both
// games the same, and the stream shows one writer at a time for each.
func TestLinkedBattleResultSurvivesKillingTheCampaignsNode(t *testing.T) {
	t.Parallel()
	lc := newLinkedCluster(t)
	campNode, battleNode, third, battle := lc.campNode, lc.battleNode, lc.third, lc.battle
	results := func() int { return lc.keyed("camp", "battle:"+battle+":") }
	// A result is an operator's command in the campaign: one sent on the
	// bus by anyone but a node of the cluster (unsealed) is refused.
	forged, _ := json.Marshal(server.ControlForward{ControlRequest: server.ControlRequest{Cmd: "battle-result",
		Files: map[string][]byte{"result": []byte(`{"campaign":"camp","key":"x","end":{"Game":"` + battle + `","Winner":"USA"},"at":1}`)}},
		Forwarded: true, From: battleNode, To: campNode})
	if m, err := lc.nc.Request(cluster.NodeSubject(campNode, "link"), forged, 30*time.Second); err != nil {
		t.Fatalf("a forged battle result: %v", err)
	} else if !strings.Contains(string(m.Data), "refused") {
		t.Fatalf("a forged battle result answered %s", m.Data)
	}
	if n := results(); n != 0 {
		t.Fatalf("the campaign took %d results before the battle's end", n)
	}

	// The campaign's node freezes; the battle ends; the result is handed
	// to the frozen node, which takes the request and never answers: it
	// is killed with the result on its way.
	killed := lc.kill(campNode, func() {
		if out := lc.run(battleNode, "order", battle, "--player", lc.defender, "CONCEDE"); !strings.Contains(out, "accepted:") {
			t.Fatalf("the defender's CONCEDE:\n%s", out)
		}
	})
	if !waitfor.True(90*time.Second, func() bool { return results() > 0 }) {
		t.Fatalf("the campaign did not take the battle's result within 90s of its node's death\n%s", lc.r.logs())
	}
	took := time.Since(killed)
	var campNow string
	waitfor.Until(t, 60*time.Second, "the campaign to decide the result on its new node", func() bool {
		campNow = lc.r.owners(battleNode)["camp"]
		return campNow != "" && campNow != campNode && strings.Contains(lc.try(campNow, "games"), "camp ") &&
			!strings.Contains(lc.try(campNow, "games"), "waits on battle")
	})
	// Handed again and again meanwhile: still once. The battle's node
	// applies its clock (pbem tick), and with it hands the result once
	// more if it still owes one, before it answers.
	lc.run(battleNode, "tick")
	if n := results(); n != 1 {
		t.Errorf("the campaign's log holds the battle's result %d times, want once", n)
	}
	if out := lc.run(third, "verify", "camp"); strings.Count(out, "link: battle "+battle+": its final hash") != 1 {
		t.Errorf("verify the campaign on %s:\n%s", third, out)
	}
	if out := lc.run(third, "verify", battle); !strings.Contains(out, "link: campaign camp (battle ") || !strings.Contains(out, "took this battle's result") {
		t.Errorf("verify the battle on %s:\n%s", third, out)
	}
	lc.checkBoth(third)
	t.Logf("campaign on %s (killed), battle on %s; the campaign taken over by %s, and the result taken %v after the kill (lease %v)",
		campNode, battleNode, campNow, took.Round(100*time.Millisecond), testLease)
}

// The two rollbacks of a linked battle, across nodes, each with the node
// it is handed to killed on its way. (1) The referee rolls the battle back
// past its end after the campaign took its result: the battle's node
// hands the withdrawal to the campaign's node, which is frozen and
// killed; another node takes the campaign over, takes the withdrawal once,
// and the campaign waits on the battle again. (2) The referee then rolls
// the campaign back past the assault: the campaign's node hands the
// battle's abandon to the battle's node, which is frozen and killed;
// another node takes the battle over and takes the abandon once, and the
// battle is over. Both games verify and audit, one writer at a time.
func TestLinkedBattleRollbacksSurviveKillingTheNodeTheyAreHandedTo(t *testing.T) {
	t.Parallel()
	lc := newLinkedCluster(t)
	campNode, battleNode, third, battle := lc.campNode, lc.battleNode, lc.third, lc.battle
	beforeEnd := lc.head(battle)
	if out := lc.run(battleNode, "order", battle, "--player", lc.defender, "CONCEDE"); !strings.Contains(out, "accepted:") {
		t.Fatalf("the defender's CONCEDE:\n%s", out)
	}
	waitfor.Until(t, 90*time.Second, "the campaign to take the battle's result", func() bool {
		return lc.keyed("camp", "battle:"+battle+":") == 1 && !strings.Contains(lc.try(campNode, "games"), "waits on battle")
	})

	// (1) The battle rolled back past its end: its withdrawal is handed
	// to the campaign's node, frozen, then killed.
	lc.kill(campNode, func() {
		if out := lc.run(battleNode, "referee", battle, "--as", "carol", fmt.Sprintf("ROLLBACK TO %d", beforeEnd)); !strings.Contains(out, "accepted") {
			t.Fatalf("the battle's rollback:\n%s", out)
		}
	})
	if !waitfor.True(90*time.Second, func() bool { return lc.keyed("camp", "withdraw:"+battle+":") > 0 }) {
		t.Fatalf("the campaign did not take the battle's withdrawal within 90s of its node's death\n%s", lc.r.logs())
	}
	var campNow string
	waitfor.Until(t, 60*time.Second, "the campaign to wait on its battle again, on its new node", func() bool {
		campNow = lc.r.owners(battleNode)["camp"]
		return campNow != "" && campNow != campNode && strings.Contains(lc.try(campNow, "games"), "waits on battle "+battle)
	})
	lc.run(battleNode, "tick") // handed again meanwhile, and once more if still owed: still once
	if n := lc.keyed("camp", "withdraw:"+battle+":"); n != 1 {
		t.Errorf("the campaign's log holds the battle's withdrawal %d times, want once", n)
	}
	if out := lc.run(campNow, "verify", "camp"); !strings.Contains(out, "the result was withdrawn") {
		t.Errorf("verify the campaign on %s after the withdrawal:\n%s", campNow, out)
	}

	// (2) The campaign rolled back past the assault: the battle's abandon
	// is handed to the battle's node, frozen, then killed. The campaign's
	// first node comes back first, so that two nodes are left.
	lc.r.start(campNode)
	if campNow == battleNode {
		// The battle's node took the campaign over: the campaign goes
		// back to its first node, so that killing the battle's node
		// leaves the campaign's holder alive to hand the abandon.
		lc.run(battleNode, "move", "camp", "--to", campNode)
		waitfor.Until(t, 60*time.Second, "the campaign to be held by "+campNode, func() bool { return lc.r.owners(third)["camp"] == campNode })
		campNow = campNode
	}
	lc.kill(battleNode, func() {
		if out := lc.run(campNow, "referee", "camp", "--as", "carol", fmt.Sprintf("ROLLBACK TO %d", lc.beforeAssault)); !strings.Contains(out, "accepted") {
			t.Fatalf("the campaign's rollback:\n%s", out)
		}
	})
	if !waitfor.True(90*time.Second, func() bool { return lc.keyed(battle, "abandon:camp:") > 0 }) {
		t.Fatalf("the battle did not take its abandon within 90s of its node's death\n%s", lc.r.logs())
	}
	var battleNow string
	waitfor.Until(t, 60*time.Second, "the battle to be over on its new node", func() bool {
		battleNow = lc.r.owners(campNow)[battle]
		over := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(battle) + `\s.*\n\s+over: `)
		return battleNow != "" && battleNow != battleNode && over.MatchString(lc.try(battleNow, "games"))
	})
	lc.run(campNow, "tick") // the campaign's node hands the abandon once more if still owed
	if n := lc.keyed(battle, "abandon:camp:"); n != 1 {
		t.Errorf("the battle's log holds its abandon %d times, want once", n)
	}
	if strings.Contains(lc.try(campNow, "games"), "waits on battle") {
		t.Errorf("the campaign still waits on a battle after its rollback past the assault:\n%s", lc.try(campNow, "games"))
	}
	lc.checkBoth(third)
	t.Logf("campaign on %s, battle on %s; the withdrawal taken by %s, the abandon by %s (lease %v)", campNode, battleNode, campNow, battleNow, testLease)
}
