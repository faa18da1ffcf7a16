package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pbem/internal/waitfor"
)

// natsServer returns a nats-server binary: $NATS_SERVER_BIN (scripts/test
// builds it), or one built from the version pinned in go.mod.
func natsServer(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("NATS_SERVER_BIN"); p != "" {
		return p
	}
	out := filepath.Join(t.TempDir(), "nats-server")
	if b, err := exec.Command("go", "build", "-o", out, "github.com/nats-io/nats-server/v2").CombinedOutput(); err != nil {
		t.Fatalf("building nats-server: %v\n%s", err, b)
	}
	return out
}

func startNATSProcess(t *testing.T, bin string, port int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitfor.Until(t, 10*time.Second, "nats-server to listen", func() bool { return dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)) == nil })
	return cmd
}

// The engine follows an external NATS server; the server is killed and
// restarted while orders keep arriving, and every order is still decided
// exactly once.
func TestEngineOnExternalNATSMissesNothingAcrossAServerRestart(t *testing.T) {
	t.Parallel()
	bin := natsServer(t)
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	nats := startNATSProcess(t, bin, port)
	defer func() { nats.Process.Kill(); nats.Wait() }()

	dir := t.TempDir()
	if out, errOut, code := pbem(t, nil, "--data-dir", dir, "new", "--game", "g1", "--ruleset", "gcacw", "--scenario", "harrow-creek",
		"--player", "anna:USA:anna@pbem.localhost", "--player", "taro:CSA:taro@pbem.localhost"); code != 0 {
		t.Fatalf("new: %s %s", out, errOut)
	}
	srv := startServe(t, dir, fmt.Sprintf("PBEM_NATS_URLS=nats://127.0.0.1:%d", port))
	const orders = 12
	for i := 0; i < orders; i++ {
		switch i {
		case 4:
			nats.Process.Signal(syscall.SIGKILL)
			nats.Wait()
		case 8:
			nats = startNATSProcess(t, bin, port)
		}
		player := []string{"anna", "taro"}[i%2]
		if out, errOut, code := pbem(t, nil, "--data-dir", dir, "order", "g1", "--player", player, "--wait", "0s", "STATUS"); code != 0 {
			t.Fatalf("order %d: %s %s", i, out, errOut)
		}
	}
	var decided int
	waitfor.True(30*time.Second, func() bool { // if not, the count below says how many were
		out, _, _ := pbem(t, nil, "--data-dir", dir, "log", "g1")
		decided = strings.Count(out, "order.accepted/v2") + strings.Count(out, "order.rejected/v1")
		return decided >= orders
	})
	stopServe(t, srv)
	out, _, _ := pbem(t, nil, "--data-dir", dir, "log", "g1")
	if got := strings.Count(out, "order.received/v"); got != orders {
		t.Fatalf("%d orders in the log, want %d", got, orders)
	}
	if decided != orders || strings.Count(out, "order.accepted/v2") != orders {
		t.Fatalf("%d of %d orders decided (each STATUS is accepted)", decided, orders)
	}
	if vout, _, code := pbem(t, nil, "--data-dir", dir, "verify", "g1"); code != 0 || !strings.Contains(vout, "intact") {
		t.Fatalf("verify: %s", vout)
	}
}
