//go:build linux

package main

import (
	"context"
	"encoding/json"
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
	r := newClusterRig(t)
	if err := r.players.AddUser("carol", "pw"); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(t.TempDir(), "served-fields.txt")
	if err := os.WriteFile(scen, []byte(servedCampaign), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(node string, args ...string) string {
		t.Helper()
		out, errOut, code := r.pbem(node, args...)
		if code != 0 {
			t.Fatalf("pbem %v on %s: exit %d\n%s\n%s\n%s", args, node, code, out, errOut, r.logs())
		}
		return out
	}
	try := func(node string, args ...string) string {
		out, errOut, _ := r.pbem(node, args...)
		return out + errOut
	}
	run("n1", "new", "--game", "camp", "--ruleset", "gcacw", "--scenario-file", scen,
		"--player", "anna:USA:anna@players.test:Anna", "--player", "taro:CSA:taro@players.test:Taro", "--referee", "carol:carol@players.test:Carol")
	var campNode string
	waitfor.Until(t, 60*time.Second, "the campaign's owner", func() bool {
		campNode = r.owners("n1")["camp"]
		return campNode != ""
	})
	run(campNode, "order", "camp", "--player", "anna", "PASS")
	run(campNode, "order", "camp", "--player", "taro", "PASS")
	// The initiative dice say who acts first: a refused order exits 1,
	// so the other side is tried without failing.
	defender := "taro"
	if out := try(campNode, "order", "camp", "--player", "anna", "ASSAULT Able ON 0504"); !strings.Contains(out, "accepted:") {
		defender = "anna"
		if out2 := try(campNode, "order", "camp", "--player", "taro", "ASSAULT Yoke ON 0505"); !strings.Contains(out2, "accepted:") {
			t.Fatalf("neither side could assault:\n%s\n%s", out, out2)
		}
	}
	var battle string
	waitfor.Until(t, 60*time.Second, "the campaign's node to open the battle", func() bool {
		m := regexp.MustCompile(`waits on battle (\S+):`).FindStringSubmatch(try(campNode, "games"))
		if m == nil {
			return false
		}
		battle = m[1]
		return r.owners(campNode)[battle] != ""
	})

	// The battle goes to another node; the third holds nothing, so it is
	// the least loaded, and takes the campaign when its node dies.
	others := []string{}
	for _, n := range []string{"n1", "n2", "n3"} {
		if n != campNode {
			others = append(others, n)
		}
	}
	battleNode, third := others[0], others[1]
	if o := r.owners(campNode)[battle]; o != battleNode {
		run(o, "move", battle, "--to", battleNode)
	}
	waitfor.Until(t, 60*time.Second, "the battle to be held by "+battleNode, func() bool {
		return r.owners(third)[battle] == battleNode && r.owners(third)["camp"] == campNode
	})

	nc, err := nats.Connect(strings.Join(natscluster.URLs(r.nats), ","))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// results counts the battle's results in the campaign's stream: the
	// log as the cluster holds it, whichever node holds the campaign.
	results := func() int {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		ws, err := cluster.Audit(ctx, nc, "camp")
		if err != nil {
			t.Fatalf("the campaign's stream: %v\n%s", err, describeWritten(ws))
		}
		n := 0
		for _, w := range ws {
			for _, e := range w.Events {
				if strings.HasPrefix(e.Key, "battle:"+battle+":") {
					n++
				}
			}
		}
		return n
	}
	// A result is an operator's command in the campaign: one sent on the
	// bus by anyone but a node of the cluster (unsealed) is refused.
	forged, _ := json.Marshal(server.ControlForward{ControlRequest: server.ControlRequest{Cmd: "battle-result",
		Files: map[string][]byte{"result": []byte(`{"campaign":"camp","key":"x","end":{"Game":"` + battle + `","Winner":"USA"},"at":1}`)}},
		Forwarded: true, From: battleNode, To: campNode})
	if m, err := nc.Request(cluster.NodeSubject(campNode, "link"), forged, 30*time.Second); err != nil {
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
	r.procs[campNode].Process.Signal(syscall.SIGSTOP)
	if out := run(battleNode, "order", battle, "--player", defender, "CONCEDE"); !strings.Contains(out, "accepted:") {
		t.Fatalf("the defender's CONCEDE:\n%s", out)
	}
	time.Sleep(time.Second)
	r.procs[campNode].Process.Signal(syscall.SIGKILL)
	r.procs[campNode].Wait()
	killed := time.Now()

	if !waitfor.True(90*time.Second, func() bool { return results() > 0 }) {
		t.Fatalf("the campaign did not take the battle's result within 90s of its node's death\n%s", r.logs())
	}
	took := time.Since(killed)
	var campNow string
	waitfor.Until(t, 60*time.Second, "the campaign to decide the result on its new node", func() bool {
		campNow = r.owners(battleNode)["camp"]
		return campNow != "" && campNow != campNode && strings.Contains(try(campNow, "games"), "camp ") &&
			!strings.Contains(try(campNow, "games"), "waits on battle")
	})
	// Handed again and again meanwhile: still once.
	time.Sleep(3 * time.Second)
	if n := results(); n != 1 {
		t.Errorf("the campaign's log holds the battle's result %d times, want once", n)
	}
	if out := run(third, "verify", "camp"); strings.Count(out, "link: battle "+battle+": its final hash") != 1 {
		t.Errorf("verify the campaign on %s:\n%s", third, out)
	}
	if out := run(third, "verify", battle); !strings.Contains(out, "link: campaign camp (battle ") || !strings.Contains(out, "took this battle's result") {
		t.Errorf("verify the battle on %s:\n%s", third, out)
	}
	for _, g := range []string{"camp", battle} {
		run(third, "audit", "--quiet", g)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		ws, err := cluster.Audit(ctx, nc, g)
		cancel()
		if err != nil {
			t.Errorf("%s: the stream has two writers or a broken chain: %v\n%s", g, err, describeWritten(ws))
		}
	}
	t.Logf("campaign on %s (killed), battle on %s; the campaign taken over by %s, and the result taken %v after the kill (lease %v)",
		campNode, battleNode, campNow, took.Round(100*time.Millisecond), testLease)
}
