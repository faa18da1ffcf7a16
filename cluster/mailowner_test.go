package cluster

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"pbem/events"
	"pbem/internal/waitfor"
	"pbem/store"
)

// While a node takes a game over it holds the game's owner record
// before it has the game: the rebuild from the stream comes after (and
// the server's rebuild waits for its subscription). All that time the
// node says the game is not ready for mail, never that it is its own
// (where it would be judged as a game the store does not have) nor that
// it is unknown; once rebuilt and fenced, the game's mail is the node's.
// A game whose owner is live is another node's; a game no record names
// is nobody's.
func TestNodeSaysAGameBeingRebuiltIsNotReadyForMail(t *testing.T) {
	srv := jetStream(t)
	const lease = 600 * time.Millisecond
	a := startNode(t, srv, "a", lease)
	if _, err := a.Do(store.Request{Game: "g1", Expected: 0, Events: []events.Envelope{ev("g1", "m1", "one"), ev("g1", "m2", "two")}}); err != nil {
		t.Fatal(err)
	}

	st, err := store.Open(filepath.Join(t.TempDir(), "pbem.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}, 1), make(chan struct{})
	b, err := Open(t.Context(), nc, st, Config{Node: "b", Lease: lease, Replicas: 1, Hooks: Hooks{
		Rebuild: func(game string, write func() (uint64, error)) error {
			entered <- struct{}{}
			<-release
			_, err := write()
			return err
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(); nc.Close(); st.Close() })

	waitfor.Until(t, 10*lease, "b sees a's game", func() bool { return b.Known("g1") })
	if o, err := b.MailOwner("g1"); o != "a" || err != nil {
		t.Fatalf("g1 with its owner a live: MailOwner %q, %v; want a", o, err)
	}
	if o, err := b.MailOwner("nothing"); o != "" || err != nil || b.Known("nothing") {
		t.Fatalf("a game no record names: MailOwner %q, %v, known %v", o, err, b.Known("nothing"))
	}

	a.Node.Close() // stops renewing: its lease runs out and b takes g1
	select {
	case <-entered:
	case <-time.After(20 * lease):
		t.Fatal("b did not begin taking g1 over")
	}
	// b holds g1's owner record, and is rebuilding it.
	_, err = b.MailOwner("g1")
	var nr *NotReadyError
	if !errors.As(err, &nr) || nr.Game != "g1" || b.Owns("g1") {
		t.Fatalf("g1 being rebuilt on b: MailOwner says %v (owns %v), want not ready", err, b.Owns("g1"))
	}
	if handed, err := b.HandMail("g1", []byte("a mail"), time.Second); handed || !errors.As(err, &nr) {
		t.Fatalf("HandMail during the rebuild: %v, %v; want not ready", handed, err)
	}
	if !b.Known("g1") {
		t.Fatal("g1 unknown to b while b takes it over")
	}
	close(release)
	waitfor.Until(t, 10*lease, "b owns g1", func() bool { return b.Owns("g1") })
	if o, err := b.MailOwner("g1"); o != "b" || err != nil {
		t.Fatalf("g1 rebuilt on b: MailOwner %q, %v; want b", o, err)
	}
	if handed, err := b.HandMail("g1", []byte("a mail"), time.Second); handed || err != nil {
		t.Fatalf("HandMail for b's own game: %v, %v; want judged here", handed, err)
	}
}
