//go:build linux

package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/cluster"
	"pbem/internal/waitfor"
	"pbem/mail/mailhost"
	"pbem/server"
)

// A client with NATS credentials (a player's, say) cannot have a
// node run an operator command by sending it to the node's control
// subject: unsealed, forged with another key, replayed, or sent to another
// node than it was sealed for, it is refused and nothing happens; the
// nodes' own forwarding works.
func TestClusterNodeRefusesForgedControlCommands(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	nsrv := exec.Command(natsServer(t), "-js", "-sd", t.TempDir(), "-a", "127.0.0.1", "-p", addr[strings.LastIndex(addr, ":")+1:])
	if err := nsrv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nsrv.Process.Kill(); nsrv.Wait() })
	waitfor.Until(t, 10*time.Second, "nats-server to listen", func() bool { return dial("tcp", addr) == nil })
	mh, err := mailhost.Start(mailhost.Config{Domain: "game.test", OpenDelivery: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mh.Close() })
	if err := mh.AddUser("pbem", "pw"); err != nil {
		t.Fatal(err)
	}
	env := []string{"PBEM_NATS_URLS=nats://" + addr, "PBEM_CLUSTER_REPLICAS=1", "PBEM_CLUSTER_LEASE=3s",
		"PBEM_MAIL_DOMAIN=game.test", "PBEM_MAIL_IMAP_ADDR=" + mh.IMAPAddr(), "PBEM_MAIL_IMAP_USERNAME=pbem",
		"PBEM_MAIL_IMAP_PASSWORD=pw", "PBEM_MAIL_SMTP_ADDR=" + mh.SMTPAddr(),
		"PBEM_MAIL_SENDER_AUTH=lenient"} // orders through an open host that writes no login
	dirs := map[string]string{}
	for _, n := range []string{"n1", "n2"} {
		dirs[n] = t.TempDir()
		startServe(t, dirs[n], append(append([]string{}, env...), "PBEM_CLUSTER_NODE="+n)...)
	}
	draining := func() bool {
		out, _, _ := pbem(t, env, "--data-dir", dirs["n2"], "games")
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "node n2 ") {
				return strings.Contains(l, "draining")
			}
		}
		t.Fatalf("n2 is not in its own list:\n%s", out)
		return false
	}

	// The player's client, which also listens on n2's control subject.
	nc, err := nats.Connect("nats://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	captured, err := nc.SubscribeSync(cluster.NodeSubject("n2", "ctl"))
	if err != nil {
		t.Fatal(err)
	}
	nc.Flush()

	// The nodes' own forwarding: run on n1, it drains n2 (and undoes it).
	if out, errOut, code := pbem(t, env, "--data-dir", dirs["n1"], "drain", "n2"); code != 0 || !strings.Contains(out, "n2 drained") {
		t.Fatalf("drain n2 through n1: %d %s %s", code, out, errOut)
	}
	if !draining() {
		t.Fatal("n2 does not drain")
	}
	sealed, err := captured.NextMsg(5 * time.Second)
	if err != nil {
		t.Fatal("the forwarded command was not seen on the wire:", err)
	}
	if out, errOut, code := pbem(t, env, "--data-dir", dirs["n1"], "drain", "n2", "--undo"); code != 0 {
		t.Fatalf("undrain n2 through n1: %d %s %s", code, out, errOut)
	}
	if draining() {
		t.Fatal("n2 still drains")
	}

	send := func(node string, body []byte) ctlResponse {
		t.Helper()
		m, err := nc.Request(cluster.NodeSubject(node, "ctl"), body, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var resp ctlResponse
		if err := json.Unmarshal(m.Data, &resp); err != nil {
			t.Fatalf("%q: %v", m.Data, err)
		}
		return resp
	}
	unsealed, _ := json.Marshal(server.ControlForward{ControlRequest: server.ControlRequest{Cmd: "drain", Args: []string{"n2"}}, Forwarded: true, From: "n1", To: "n2", Issued: time.Now().UnixMilli()})
	forged, _ := json.Marshal(server.SealControl([]byte("a key the player made up......."), ctlRequest{Cmd: "drain", Args: []string{"n2"}}, "n1", "n2", time.Now()))
	for _, c := range []struct {
		name, node string
		body       []byte
	}{
		{"unsealed", "n2", unsealed},
		{"sealed with another key", "n2", forged},
		{"a node's sealed command replayed", "n2", sealed.Data},
		{"a node's sealed command sent to another node", "n1", sealed.Data},
	} {
		resp := send(c.node, c.body)
		if !strings.Contains(resp.Err, "refused") || resp.Out != "" {
			t.Errorf("%s: answered %+v, want a refusal", c.name, resp)
		}
		if draining() {
			t.Fatalf("%s: n2 drains", c.name)
		}
	}
	out, _, _ := pbem(t, env, "--data-dir", dirs["n1"], "games")
	if strings.Contains(out, "draining") {
		t.Errorf("a forged command drained a node:\n%s", out)
	}
}
