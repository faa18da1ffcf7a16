package main

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
)

// A cluster node started where no NATS listens says so at once, naming
// NATS and the URL, instead of waiting silently to time out.
func TestNodeWithoutNATSSaysSoNamingTheURL(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "nats://" + l.Addr().String()
	l.Close()
	cmd := exec.Command(pbemBin, "--data-dir", t.TempDir(), "serve")
	cmd.Env = append(os.Environ(), "PBEM_NATS_URLS="+url, "PBEM_CLUSTER_NODE=n1",
		"PBEM_MAIL_IMAP_ADDR="+freeAddr(t), "PBEM_MAIL_SMTP_ADDR="+freeAddr(t))
	var errOut syncbuf.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// The node gives NATS 30s to appear; what is asserted is that it
	// names the problem meanwhile.
	if !waitfor.True(20*time.Second, func() bool { return strings.Contains(errOut.String(), "cannot reach NATS") }) {
		t.Fatalf("no word of the unreachable NATS:\n%s", errOut.String())
	}
	if got := errOut.String(); !strings.Contains(got, url) || !strings.Contains(got, "connection refused") {
		t.Fatalf("the message does not name %s and why:\n%s", url, got)
	}
}
