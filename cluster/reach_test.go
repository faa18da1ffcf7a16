package cluster

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/store"
)

// A node that cannot reach NATS fails to join naming NATS and its URL,
// not only with a timed-out stream request.
func TestJoiningWithoutNATSNamesNATSAndItsURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "nats://" + l.Addr().String()
	l.Close()
	nc, err := nats.Connect(url, nats.RetryOnFailedConnect(true), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	_, err = Open(ctx, nc, st, Config{Node: "n1", Lease: time.Second, Replicas: 1})
	if err == nil || !strings.Contains(err.Error(), "no connection to NATS at "+url) {
		t.Fatalf("joining without NATS: %v; want it to name NATS and %s", err, url)
	}
}
