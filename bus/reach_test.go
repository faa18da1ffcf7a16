package bus

import (
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"pbem/internal/syncbuf"
	"pbem/internal/waitfor"
)

// deadAddr returns a loopback address where nothing listens.
func deadAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// A NATS that cannot be reached is logged at once, naming NATS, its URL
// (with no password) and why, while pbem goes on retrying in the
// background; the bus opens anyway (bbolt is the record, NATS a doorbell).
func TestUnreachableNATSIsNamedWithItsURLAtOnce(t *testing.T) {
	addr := deadAddr(t)
	var logs syncbuf.Buffer
	lg := slog.New(slog.NewTextHandler(&logs, nil))
	b, err := Open(Config{URLs: []string{"nats://pbem:s3cret-pw@" + addr}}, openStore(t, ""), lg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// Well within the time a cluster node waits for NATS at start (30s):
	// what is asserted is the message.
	if !waitfor.True(15*time.Second, func() bool { return strings.Contains(logs.String(), "cannot reach NATS") }) {
		t.Fatalf("no word of the unreachable NATS in the log:\n%s", logs.String())
	}
	got := logs.String()
	for _, want := range []string{"nats://pbem:xxxxx@" + addr, "connection refused"} {
		if !strings.Contains(got, want) {
			t.Errorf("the log does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "s3cret-pw") {
		t.Errorf("the log shows the password:\n%s", got)
	}
}
